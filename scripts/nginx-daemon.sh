# Shared by scripts/nginx-origin.sh and scripts/nginx-cdn.sh (sourced, not run): the life of
# one nginx daemon whose files live in one prefix folder. The caller sets $prog (for messages),
# $usage_lines (the sed range of its own header that is its usage) and, before calling any
# function but usage, $prefix (the folder: PREFIX/nginx.pid, PREFIX/port, PREFIX/nginx.conf,
# PREFIX/logs/).

fail() { printf '%s: error: %s\n' "$prog" "$*" >&2; exit 1; }

usage() {
    sed -n "${usage_lines}p" "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

# As root: nginx refuses to run workers as root without a user line, so they run as nobody,
# which must reach PREFIX and write the given folders. Sets $user_line ("" otherwise).
hand_to_nobody() {
    user_line=""
    if [ "$(id -u)" -eq 0 ]; then
        user_line="user nobody nogroup;"
        chmod 755 "$prefix"
        chown -R nobody:nogroup "$@"
    fi
}

# The `stop` and `port` commands; returns 1 for any other command.
common_command() {
    case "$1" in
    stop)
        [ -d "$prefix" ] || exit 0
        stop_quietly
        ;;
    port)
        running_pid >/dev/null || fail "nothing runs in $prefix"
        cat "$prefix/port"
        ;;
    *) return 1 ;;
    esac
}

# A port nothing listens on now (the kernel's pick); nginx may still lose a race for it, so
# `start` tries a few.
free_port() {
    /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null ||
        echo $((20000 + RANDOM % 20000))
}

# Whether a process exists and is not a zombie (an exited daemon waits to be reaped by init).
alive() {
    local state
    kill -0 "$1" 2>/dev/null || return 1
    state=$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/$1/status" 2>/dev/null) || return 1
    [ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}

running_pid() {
    local pid
    [ -s "$prefix/nginx.pid" ] || return 1
    pid=$(cat "$prefix/nginx.pid")
    alive "$pid" || return 1
    printf '%s\n' "$pid"
}

# Child processes of a pid (nginx's workers), from /proc (no procps needed).
children() {
    local status
    for status in /proc/[0-9]*/status; do
        if grep -qx "PPid:[[:space:]]*$1" "$status" 2>/dev/null; then
            status=${status#/proc/}
            printf '%s\n' "${status%/status}"
        fi
    done
}

# Stops the origin of this prefix, if one runs: QUIT (graceful), then TERM, then KILL; then
# any worker of that master still alive (they hold the port).
stop_quietly() {
    local pid workers i
    pid=$(running_pid) || { rm -f "$prefix/nginx.pid"; return 0; }
    workers=$(children "$pid")
    kill -QUIT "$pid" 2>/dev/null || true
    for i in $(seq 50); do
        alive "$pid" || break
        [ "$i" = 20 ] && kill -TERM "$pid" 2>/dev/null
        sleep 0.1
    done
    if alive "$pid"; then kill -KILL "$pid" 2>/dev/null || true; fi
    for i in $workers; do
        if alive "$i"; then kill -KILL "$i" 2>/dev/null || true; fi
    done
    rm -f "$prefix/nginx.pid"
    return 0
}

# Starts nginx as a daemon with PREFIX/nginx.conf and waits up to 5 s until 127.0.0.1:PORT gives
# any HTTP answer; on failure nothing of it is left running.
launch_and_wait() {
    local port=$1
    rm -f "$prefix/nginx.pid"
    # -e: the error log before the config is read (the default path may not be writable).
    # With `daemon on`, nginx binds before it forks: a port in use fails here.
    nginx -p "$prefix" -c "$prefix/nginx.conf" -e "$prefix/logs/error.log" >"$prefix/logs/nginx.out" 2>&1 || return 1
    for _ in $(seq 50); do
        if curl -sS -o /dev/null "http://127.0.0.1:$port/" 2>/dev/null; then
            return 0
        fi
        sleep 0.1
    done
    stop_quietly
    return 1
}
