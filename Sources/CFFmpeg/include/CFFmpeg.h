// Reel's bridge to Debian's FFmpeg 5.1 libraries.
// Swift imports plain functions and structs; the macros and inline helpers it cannot import
// are wrapped here as static inline functions with a `reel_` prefix.
#ifndef REEL_CFFMPEG_H
#define REEL_CFFMPEG_H

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libavutil/mathematics.h>
#include <libavutil/opt.h>
#include <libavutil/samplefmt.h>
#include <libavutil/time.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>

static inline int64_t reel_av_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline int reel_averror_eof(void) { return AVERROR_EOF; }
static inline int reel_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int reel_averror(int posix) { return AVERROR(posix); }
static inline AVRational reel_av_time_base_q(void) { return AV_TIME_BASE_Q; }
static inline int reel_av_time_base(void) { return AV_TIME_BASE; }
static inline int reel_avio_flag_write(void) { return AVIO_FLAG_WRITE; }
static inline int reel_avfmt_globalheader(void) { return AVFMT_GLOBALHEADER; }
static inline int reel_avfmt_nofile(void) { return AVFMT_NOFILE; }
static inline int reel_codec_flag_global_header(void) { return AV_CODEC_FLAG_GLOBAL_HEADER; }
static inline int reel_pkt_flag_key(void) { return AV_PKT_FLAG_KEY; }
static inline int reel_codec_flag_qscale(void) { return AV_CODEC_FLAG_QSCALE; }
static inline int reel_qp2lambda(void) { return FF_QP2LAMBDA; }

/// Default channel layout for `channels` (mono, stereo, …).
static inline void reel_default_layout(AVChannelLayout *layout, int channels) {
    av_channel_layout_default(layout, channels);
}

/// Routes FFmpeg's log messages up to `max_level` to `callback`, formatted in C on FFmpeg's
/// thread: `component` is the name of what logged (`png`, `mp4`, `libx264`; NULL when none),
/// `message` the text without FFmpeg's `[name @ 0x…]` prefix. NULL shows none at all.
typedef void (*reel_log_callback)(int level, const char *component, const char *message);
void reel_set_log_callback(reel_log_callback callback, int max_level);

/// Shows none of FFmpeg's messages unless `reel_set_log_callback` was called before.
void reel_log_quiet_unless_set(void);

/// Loads libavdevice (V4L2, ALSA, PulseAudio, lavfi, … inputs) with dlopen and registers its
/// devices, once. Reel does not link it: it pulls in about 120 more shared libraries (SDL, X11,
/// JACK, …) that every command would load at start-up, also those that never open a device.
/// Returns 0, or -1 with the loader's reason in `error` (NUL-terminated, at most `length`).
int reel_avdevice_register_all(char *error, size_t length);

#endif
