#include "CFFmpeg.h"
#include <stdio.h>

static reel_log_callback reel_current_log = NULL;

static void reel_log_trampoline(void *avcl, int level, const char *fmt, va_list vl) {
    if (level > av_log_get_level() || reel_current_log == NULL) return;
    char line[1024];
    int print_prefix = 1;
    av_log_format_line2(avcl, level, fmt, vl, line, sizeof line, &print_prefix);
    reel_current_log(level, line);
}

void reel_set_log_callback(reel_log_callback callback, int max_level) {
    reel_current_log = callback;
    av_log_set_level(max_level);
    av_log_set_callback(callback ? reel_log_trampoline : av_log_default_callback);
}
