// Reel's bridge to Linux system calls glibc has no wrapper for (Swift cannot call the
// variadic syscall()). Header only: static inline functions with a `reel_` prefix.
#ifndef REEL_CLINUX_H
#define REEL_CLINUX_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

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

#endif
