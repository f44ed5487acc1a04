// Reel's bridge to Debian's libmicrohttpd (0.9.7x).
// Swift cannot call C variadic functions, so the daemon start and the info queries are
// wrapped here as static inline functions with a `reel_mhd_` prefix.
#ifndef REEL_CMICROHTTPD_H
#define REEL_CMICROHTTPD_H

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <microhttpd.h>

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

#endif
