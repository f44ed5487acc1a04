// Reel's bridge to Linux system calls glibc has no wrapper for (Swift cannot call the
// variadic syscall()) and to the V4L2 ioctls (Swift cannot call the variadic ioctl() nor
// expand the VIDIOC_* macros). Header only: static inline functions with a `reel_` prefix.
#ifndef REEL_CLINUX_H
#define REEL_CLINUX_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/videodev2.h>

/// Sets the nice value of the calling thread alone (Linux keeps one per thread; threads it
/// starts afterwards inherit it). Returns 0, or -1 with errno set.
static inline int reel_set_thread_nice(int nice) {
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice);
}

#ifndef SYS_openat2
#define SYS_openat2 437  /* the same number on every architecture (Linux 5.6) */
#endif

/// struct open_how of <linux/openat2.h>, declared here so the bridge builds with old headers.
struct reel_open_how {
    uint64_t flags;
    uint64_t mode;
    uint64_t resolve;
};

#define REEL_RESOLVE_NO_XDEV 0x01
#define REEL_RESOLVE_NO_MAGICLINKS 0x02
#define REEL_RESOLVE_NO_SYMLINKS 0x04
#define REEL_RESOLVE_BENEATH 0x08

/// Opens `path` relative to `directory` in one system call without following any symlink on
/// the way (not in a folder component, not the file itself: ELOOP) and without ever leaving
/// `directory` (EXDEV): openat2(2) with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
/// RESOLVE_NO_MAGICLINKS. Returns the descriptor, or -1 with errno set; ENOSYS (a kernel
/// before 5.6) or EPERM (a seccomp filter that does not know the call) mean "not available".
static inline int reel_open_beneath(int directory, const char *path, int flags) {
    struct reel_open_how how = {
        .flags = (uint64_t)(unsigned int)flags,
        .mode = 0,
        .resolve = REEL_RESOLVE_BENEATH | REEL_RESOLVE_NO_SYMLINKS | REEL_RESOLVE_NO_MAGICLINKS,
    };
    return (int)syscall(SYS_openat2, directory, path, &how, sizeof how);
}

/// copy_file_range(2) (glibc declares it only with _GNU_SOURCE, which Swift's Glibc module
/// does not set): copies up to `length` bytes between the descriptors' current offsets inside
/// the kernel. Returns bytes copied, 0 at the end, -1 with errno (EXDEV, ENOSYS, EINVAL,
/// EOPNOTSUPP: fall back to read/write). Used by the backup (ReelStore).
static inline long reel_copy_file_range(int input, int output, size_t length) {
    return (long)syscall(SYS_copy_file_range, input, (void *)0, output, (void *)0, length, 0u);
}

/// syncfs(2) (glibc declares it only with _GNU_SOURCE): writes out everything of the file
/// system holding `fd`. Returns 0, or -1 with errno. Used by the backup (ReelStore).
static inline int reel_syncfs(int fd) {
    return (int)syscall(SYS_syncfs, fd);
}

/// sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE) (glibc declares it only with _GNU_SOURCE):
/// starts writing a whole file's dirty pages out without waiting, so a later syncfs/fsync has
/// less to wait for. Returns 0, or -1 with errno. Used by the backup (ReelStore).
static inline int reel_start_writeback(int fd) {
    return (int)syscall(SYS_sync_file_range, fd, (int64_t)0, (int64_t)0, 2u /* SYNC_FILE_RANGE_WRITE */);
}

/// The same for `length` bytes from `offset`: the backup starts each copied chunk's writeback
/// while it copies the next, so the disk is busy from the first chunk on.
static inline int reel_start_writeback_range(int fd, int64_t offset, int64_t length) {
    return (int)syscall(SYS_sync_file_range, fd, offset, length, 2u /* SYNC_FILE_RANGE_WRITE */);
}

/// renameat2(2) (glibc declares it only with _GNU_SOURCE): renames `from` in `fromDirectory` to
/// `to` in `toDirectory`; with `REEL_RENAME_NOREPLACE` it fails with EEXIST instead of replacing
/// anything at `to` (EINVAL where the file system does not support the flag). Returns 0, or -1
/// with errno. Used by ReelRuntime's DurableFile (a file placed without replacing another).
#ifndef SYS_renameat2
#define SYS_renameat2 316  /* x86_64; aarch64's headers always define it (276) */
#endif
#define REEL_RENAME_NOREPLACE 1u
static inline int reel_renameat2(int fromDirectory, const char *from, int toDirectory, const char *to, unsigned int flags) {
    return (int)syscall(SYS_renameat2, fromDirectory, from, toDirectory, to, flags);
}

// MARK: V4L2 (the camera list, ReelMedia's CameraList)

/// ioctl(2) repeated while a signal interrupts it (EINTR). Returns 0, or -1 with errno.
static inline int reel_v4l2_ioctl(int fd, unsigned long request, void *argument) {
    int result;
    do { result = ioctl(fd, request, argument); } while (result == -1 && errno == EINTR);
    return result;
}

/// Copies a fixed-size, possibly unterminated kernel text field into `out` (always terminated).
static inline void reel_v4l2_copy_text(char *out, size_t outSize, const uint8_t *text, size_t textSize) {
    if (out == NULL || outSize == 0) return;
    size_t length = strnlen((const char *)text, textSize);
    if (length >= outSize) length = outSize - 1;
    memcpy(out, text, length);
    out[length] = '\0';
}

/// VIDIOC_QUERYCAP: the device's name (`card`), driver and bus, and the capabilities of this
/// node (`device_caps` when the driver reports them per node, V4L2_CAP_DEVICE_CAPS, else the
/// whole device's). Returns 0, or -1 with errno (ENOTTY: not a V4L2 device).
static inline int reel_v4l2_query(int fd, char *card, size_t cardSize, char *driver, size_t driverSize,
                                  char *bus, size_t busSize, uint32_t *deviceCaps) {
    struct v4l2_capability capability;
    memset(&capability, 0, sizeof capability);
    if (reel_v4l2_ioctl(fd, VIDIOC_QUERYCAP, &capability) == -1) return -1;
    reel_v4l2_copy_text(card, cardSize, capability.card, sizeof capability.card);
    reel_v4l2_copy_text(driver, driverSize, capability.driver, sizeof capability.driver);
    reel_v4l2_copy_text(bus, busSize, capability.bus_info, sizeof capability.bus_info);
    if (deviceCaps != NULL) {
        *deviceCaps = (capability.capabilities & V4L2_CAP_DEVICE_CAPS) ? capability.device_caps : capability.capabilities;
    }
    return 0;
}

/// VIDIOC_ENUM_FMT for `bufferType` (V4L2_BUF_TYPE_VIDEO_CAPTURE or _CAPTURE_MPLANE): the
/// `index`th pixel format's FourCC, description and flags (V4L2_FMT_FLAG_*). Returns 0, or -1
/// with errno (EINVAL past the last format).
static inline int reel_v4l2_enum_format(int fd, uint32_t bufferType, uint32_t index, uint32_t *fourcc,
                                        char *description, size_t size, uint32_t *flags) {
    struct v4l2_fmtdesc format;
    memset(&format, 0, sizeof format);
    format.index = index;
    format.type = bufferType;
    if (reel_v4l2_ioctl(fd, VIDIOC_ENUM_FMT, &format) == -1) return -1;
    if (fourcc != NULL) *fourcc = format.pixelformat;
    reel_v4l2_copy_text(description, size, format.description, sizeof format.description);
    if (flags != NULL) *flags = format.flags;
    return 0;
}

/// reel_v4l2_enum_format for single-planar capture (V4L2_BUF_TYPE_VIDEO_CAPTURE).
static inline int reel_v4l2_format(int fd, uint32_t index, uint32_t *fourcc, char *description, size_t size, uint32_t *flags) {
    return reel_v4l2_enum_format(fd, V4L2_BUF_TYPE_VIDEO_CAPTURE, index, fourcc, description, size, flags);
}

/// VIDIOC_ENUM_FRAMESIZES: the `index`th frame size of `fourcc`. `type` is
/// V4L2_FRMSIZE_TYPE_DISCRETE (`width` x `height`; max equal to them) or _STEPWISE/_CONTINUOUS
/// (only index 0: any size from `width` x `height` to `maxWidth` x `maxHeight`). Returns 0, or
/// -1 with errno (EINVAL past the last size).
static inline int reel_v4l2_frame_size(int fd, uint32_t fourcc, uint32_t index, uint32_t *type,
                                       uint32_t *width, uint32_t *height, uint32_t *maxWidth, uint32_t *maxHeight) {
    struct v4l2_frmsizeenum size;
    memset(&size, 0, sizeof size);
    size.index = index;
    size.pixel_format = fourcc;
    if (reel_v4l2_ioctl(fd, VIDIOC_ENUM_FRAMESIZES, &size) == -1) return -1;
    *type = size.type;
    if (size.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
        *width = *maxWidth = size.discrete.width;
        *height = *maxHeight = size.discrete.height;
    } else {
        *width = size.stepwise.min_width;
        *height = size.stepwise.min_height;
        *maxWidth = size.stepwise.max_width;
        *maxHeight = size.stepwise.max_height;
    }
    return 0;
}

/// VIDIOC_ENUM_FRAMEINTERVALS: the `index`th frame interval of `fourcc` at `width` x `height`,
/// as seconds `numerator` / `denominator`: the interval itself when discrete, the shortest
/// (fastest) one of a stepwise or continuous range (only index 0). Returns 0, or -1 with errno
/// (EINVAL past the last interval).
static inline int reel_v4l2_frame_interval(int fd, uint32_t fourcc, uint32_t width, uint32_t height, uint32_t index,
                                           uint32_t *numerator, uint32_t *denominator) {
    struct v4l2_frmivalenum interval;
    memset(&interval, 0, sizeof interval);
    interval.index = index;
    interval.pixel_format = fourcc;
    interval.width = width;
    interval.height = height;
    if (reel_v4l2_ioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &interval) == -1) return -1;
    struct v4l2_fract fraction = interval.type == V4L2_FRMIVAL_TYPE_DISCRETE ? interval.discrete : interval.stepwise.min;
    *numerator = fraction.numerator;
    *denominator = fraction.denominator;
    return 0;
}

#endif
