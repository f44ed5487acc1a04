#include "CFFmpeg.h"
#include <dlfcn.h>
#include <libavdevice/version.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

static reel_log_callback _Atomic reel_current_log = NULL;
static atomic_int reel_log_set = 0;
static atomic_int reel_log_level = AV_LOG_QUIET;

static void reel_log_trampoline(void *avcl, int level, const char *fmt, va_list vl) {
    reel_log_callback callback = reel_current_log;
    if (level > reel_log_level || callback == NULL) return;
    char message[1024];
    vsnprintf(message, sizeof message, fmt, vl);
    const char *component = NULL;
    if (avcl != NULL) {
        const AVClass *class = *(const AVClass **)avcl;
        if (class != NULL && class->item_name != NULL) component = class->item_name(avcl);
    }
    callback(level, component, message);
}

void reel_set_log_callback(reel_log_callback callback, int max_level) {
    reel_current_log = callback;
    reel_log_level = callback ? max_level : AV_LOG_QUIET;
    reel_log_set = 1;
    av_log_set_level(callback ? max_level : AV_LOG_QUIET);
    av_log_set_callback(callback ? reel_log_trampoline : av_log_default_callback);
}

void reel_log_quiet_unless_set(void) {
    if (reel_log_set) return;
    av_log_set_level(AV_LOG_QUIET);
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

