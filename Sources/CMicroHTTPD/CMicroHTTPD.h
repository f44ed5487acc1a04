// Reel's bridge to Debian's libmicrohttpd (0.9.7x).
// Swift cannot call C variadic functions, so the daemon start and the info queries are
// wrapped here as static inline functions with a `reel_mhd_` prefix.
#ifndef REEL_CMICROHTTPD_H
#define REEL_CMICROHTTPD_H

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/ioctl.h>
#include <linux/sockios.h>

/// Leaves the URL exactly as received: Reel decodes and validates each path component
/// itself, so an encoded '/' or NUL can never turn into a separator or a string end.
static inline size_t reel_mhd_keep_escaped(void *cls, struct MHD_Connection *connection, char *s) {
    (void)cls;
    (void)connection;
    return strlen(s);
}

/// Where libmicrohttpd's own messages go instead of standard error: `log` is called with
/// `context` and the formatted line (so Reel words a failed bind itself: MHD's own line names
/// port 0 when the address comes as a sockaddr).
struct reel_mhd_logger {
    void (*log)(void *context, const char *message);
    void *context;
};

/// libmicrohttpd's external logger: formats the message and hands it to `cls`'s function.
static inline void reel_mhd_log_trampoline(void *cls, const char *format, va_list arguments) {
    const struct reel_mhd_logger *logger = (const struct reel_mhd_logger *)cls;
    int saved = errno;  /* the caller of a failed start reads errno after this */
    char line[512];
    vsnprintf(line, sizeof line, format, arguments);
    if (logger != NULL && logger->log != NULL) logger->log(logger->context, line);
    errno = saved;
}

/// A header visit's callback and its context (see reel_mhd_visit_headers).
struct reel_mhd_header_visit {
    void *context;
    void (*visit)(void *context, const char *name, size_t name_length, const char *value, size_t value_length);
};

/// MHD_get_connection_values_n's iterator for reel_mhd_visit_headers.
static inline enum MHD_Result reel_mhd_header_trampoline(void *cls, enum MHD_ValueKind kind, const char *key, size_t key_size,
                                                         const char *value, size_t value_size) {
    (void)kind;
    const struct reel_mhd_header_visit *state = (const struct reel_mhd_header_visit *)cls;
    state->visit(state->context, key, key_size, value ? value : "", value ? value_size : 0);
    return MHD_YES;
}

/// Everything `reel_mhd_start` passes to MHD_start_daemon.
struct reel_mhd_settings {
    unsigned int flags;
    const struct sockaddr *address;
    unsigned int connection_limit;
    size_t memory_limit;
    unsigned int connection_timeout;
    unsigned int thread_pool_size;
    unsigned int listen_backlog;
    MHD_AccessHandlerCallback access_handler;
    void *access_context;
    MHD_RequestCompletedCallback completed;
    void *completed_context;
    MHD_NotifyConnectionCallback notify_connection;
    void *notify_context;
    struct reel_mhd_logger *logger;
    /// Called with each request line as soon as it is read, on the thread that reads it
    /// (MHD_OPTION_URI_LOG_CALLBACK; its return value becomes the request's first context, so
    /// it must return NULL).
    void *(*request_line)(void *context, const char *uri, struct MHD_Connection *connection);
    void *request_line_context;
};

/// Starts a daemon on `settings->address` (the port argument is then ignored by MHD).
static inline struct MHD_Daemon *reel_mhd_start(const struct reel_mhd_settings *s) {
    return MHD_start_daemon(
        s->flags, 0, NULL, NULL, s->access_handler, s->access_context,
        /* The logger first: a warning about a later option (a pool size of 0 for a
           thread-per-connection daemon) then reaches it instead of standard error. */
        MHD_OPTION_EXTERNAL_LOGGER, reel_mhd_log_trampoline, (void *)s->logger,
        MHD_OPTION_SOCK_ADDR, s->address,
        MHD_OPTION_CONNECTION_LIMIT, s->connection_limit,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, s->memory_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, s->connection_timeout,
        MHD_OPTION_THREAD_POOL_SIZE, s->thread_pool_size,
        MHD_OPTION_LISTEN_BACKLOG_SIZE, s->listen_backlog,
        MHD_OPTION_NOTIFY_COMPLETED, s->completed, s->completed_context,
        MHD_OPTION_NOTIFY_CONNECTION, s->notify_connection, s->notify_context,
        MHD_OPTION_UNESCAPE_CALLBACK, reel_mhd_keep_escaped, (void *)NULL,
        MHD_OPTION_URI_LOG_CALLBACK, s->request_line, s->request_line_context,
        MHD_OPTION_END);
}

/// The port the daemon listens on (useful after binding port 0), or 0.
static inline uint16_t reel_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/// The connection's socket, or -1.
static inline int reel_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

/// The client's address, or NULL.
static inline const struct sockaddr *reel_mhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info ? info->client_addr : NULL;
}

/// Bytes the peer of TCP socket `fd` has acknowledged since the connection opened (the
/// kernel's tcpi_bytes_acked, Linux 4.1 and later), or UINT64_MAX when it cannot be read.
/// glibc's struct tcp_info stops at tcpi_total_retrans (104 bytes); the kernel's goes on with
/// the fields below (linux/tcp.h, which cannot be included beside glibc's in Swift's modules).
struct reel_tcp_info {
    struct tcp_info head;
    uint64_t pacing_rate;
    uint64_t max_pacing_rate;
    uint64_t bytes_acked;
};

static inline uint64_t reel_tcp_bytes_acknowledged(int fd) {
    struct reel_tcp_info info;
    socklen_t size = sizeof info;
    memset(&info, 0, sizeof info);
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &size) != 0) return UINT64_MAX;
    if (size < offsetof(struct reel_tcp_info, bytes_acked) + sizeof info.bytes_acked) return UINT64_MAX;
    return info.bytes_acked;
}

/// Bytes sent on TCP socket `fd` that its peer has not acknowledged yet, unsent ones included
/// (SIOCOUTQ), or -1 when it cannot be read.
static inline int reel_socket_unacknowledged(int fd) {
    int count = 0;
    return ioctl(fd, SIOCOUTQ, &count) == 0 ? count : -1;
}

/// Calls `visit` with `context` for each request header in the order received (duplicates
/// included), with the lengths libmicrohttpd recorded.
static inline void reel_mhd_visit_headers(struct MHD_Connection *connection, void *context,
                                          void (*visit)(void *context, const char *name, size_t name_length,
                                                        const char *value, size_t value_length)) {
    struct reel_mhd_header_visit state = { context, visit };
    MHD_get_connection_values_n(connection, MHD_HEADER_KIND, reel_mhd_header_trampoline, &state);
}

// MARK: The request head as received

/// What reel_mhd_hidden_bytes walks: the request head's bytes [low, high) and how far the
/// walk has come.
struct reel_mhd_layout {
    const char *low;
    const char *high;
    const char *cursor;
    const char *problem;
    size_t argument_bytes;
};

/// Whether [from, to) holds only what parsing leaves between parts: spaces, tabs, the NULs
/// libmicrohttpd wrote over separators and, where lines end, CR and LF.
static inline int reel_mhd_gap_is_blank(const char *from, const char *to, int line_ends) {
    for (const char *p = from; p < to; p++) {
        char c = *p;
        if (c == ' ' || c == '\t' || c == 0) continue;
        if (line_ends && (c == '\r' || c == '\n')) continue;
        return 0;
    }
    return 1;
}

static inline enum MHD_Result reel_mhd_layout_header(void *cls, enum MHD_ValueKind kind, const char *key, size_t key_size,
                                                     const char *value, size_t value_size) {
    struct reel_mhd_layout *s = (struct reel_mhd_layout *)cls;
    (void)kind;
    if (s->problem != NULL) return MHD_NO;
    if (key < s->cursor || key + key_size >= s->high
        || (value != NULL && (value < key + key_size + 1 || value + value_size > s->high))) {
        s->problem = "a header line is folded onto the previous one (obs-fold is not accepted)";
        return MHD_NO;
    }
    if (!reel_mhd_gap_is_blank(s->cursor, key, 1)) {
        s->problem = "a header value holds a NUL byte";
        return MHD_NO;
    }
    if (key[key_size] != 0 || (value != NULL && !reel_mhd_gap_is_blank(key + key_size + 1, value, 0))) {
        s->problem = "a header name is followed by something other than a colon";
        return MHD_NO;
    }
    s->cursor = value != NULL ? value + value_size : key + key_size;
    return MHD_YES;
}

static inline enum MHD_Result reel_mhd_layout_argument(void *cls, enum MHD_ValueKind kind, const char *key, size_t key_size,
                                                       const char *value, size_t value_size) {
    struct reel_mhd_layout *s = (struct reel_mhd_layout *)cls;
    (void)kind;
    (void)key;
    s->argument_bytes += key_size + (value != NULL ? value_size : 0);
    return MHD_YES;
}

/// NULL when what libmicrohttpd parsed accounts for every byte of the request head, else
/// why not: a NUL cut the target or a header value short (what follows it would be ignored),
/// or a header line was folded. libmicrohttpd 0.9 parses the head in place in its read buffer,
/// writing NULs over separators, so the method, target, version, query arguments and header
/// names and values all point into [method, method + head size) in order, and only blanks may
/// lie between them. A head not laid out so is refused, never guessed at.
static inline const char *reel_mhd_hidden_bytes(struct MHD_Connection *connection, const char *method, const char *url,
                                                const char *version) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    if (info == NULL) return "the request head's size is unknown";
    struct reel_mhd_layout s = { method, method + info->header_size, NULL, NULL, 0 };
    const char *url_end = url + strlen(url);
    if (!(method <= url && url_end < version && version < s.high)) return "the request line was not parsed as expected";
    // The target: its end is the NUL written over ' ' or '?'; a query's first byte follows it.
    if (version - url_end > 1 && url_end[1] == 0) return "the request target holds a NUL byte";
    MHD_get_connection_values_n(connection, MHD_GET_ARGUMENT_KIND, reel_mhd_layout_argument, &s);
    size_t visible = 0;
    for (const char *p = url_end; p < version; p++) visible += *p != 0;
    if (visible != s.argument_bytes) return "the request target holds a NUL byte";
    s.cursor = version + strlen(version);
    MHD_get_connection_values_n(connection, MHD_HEADER_KIND, reel_mhd_layout_header, &s);
    if (s.problem != NULL) return s.problem;
    if (!reel_mhd_gap_is_blank(s.cursor, s.high, 1)) return "a header value holds a NUL byte";
    return NULL;
}

#endif
