#include "CFFmpeg.h"
#include <dlfcn.h>
#include <libavdevice/version.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

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

#define REEL_STRINGIFY_(x) #x
#define REEL_STRINGIFY(x) REEL_STRINGIFY_(x)

static pthread_once_t reel_avdevice_once = PTHREAD_ONCE_INIT;
static char reel_avdevice_error[512];

static void reel_avdevice_load(void) {
    // The soname of the libavdevice these headers belong to (Debian 12: libavdevice.so.59).
    const char *name = "libavdevice.so." REEL_STRINGIFY(LIBAVDEVICE_VERSION_MAJOR);
    void *library = dlopen(name, RTLD_NOW | RTLD_GLOBAL);
    if (library == NULL) {
        const char *why = dlerror();
        snprintf(reel_avdevice_error, sizeof reel_avdevice_error, "%s", why ? why : name);
        return;
    }
    void (*register_all)(void) = (void (*)(void))dlsym(library, "avdevice_register_all");
    if (register_all == NULL) {
        snprintf(reel_avdevice_error, sizeof reel_avdevice_error, "%s has no avdevice_register_all", name);
        return;
    }
    register_all();
}

int reel_avdevice_register_all(char *error, size_t length) {
    pthread_once(&reel_avdevice_once, reel_avdevice_load);
    if (reel_avdevice_error[0] == '\0') return 0;
    if (error != NULL && length > 0) snprintf(error, length, "%s", reel_avdevice_error);
    return -1;
}

