#!/usr/bin/env bash
# Live HLS demo: starts a local nginx WebDAV origin on 127.0.0.1 (in a temporary prefix, on
# a free port), publishes 30 s of the synthetic test source to it with `reel live`, lists
# what was published, and stops nginx.
#
#   make demo                 # builds the release binary and runs this
#   REEL_BIN=path PORT=18080 DURATION=10 bash scripts/demo.sh
#
# Set KEEP=1 to leave the origin running (Ctrl-C to stop) so the stream can be replayed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
reel=${REEL_BIN:-"$(cd "$root" && swift build -c release --show-bin-path)/reel"}
duration=${DURATION:-30}

say() { printf 'demo: %s\n' "$*"; }
fail() { printf 'demo: error: %s\n' "$*" >&2; exit 1; }

[ -x "$reel" ] || fail "no reel binary at $reel: run 'make build' (or set REEL_BIN)"
command -v nginx >/dev/null 2>&1 || fail "nginx is not installed: run 'make setup'"
command -v curl >/dev/null 2>&1 || fail "curl is not installed: run 'make setup'"

prefix=$(mktemp -d "${TMPDIR:-/tmp}/reel-demo.XXXXXX")
nginx_pid=""
stop() {
    if [ -n "$nginx_pid" ] && kill -0 "$nginx_pid" 2>/dev/null; then
        kill "$nginx_pid" 2>/dev/null || true
        wait "$nginx_pid" 2>/dev/null || true
    fi
    rm -rf "$prefix"
}
trap stop EXIT
trap 'exit 130' INT TERM

mkdir -p "$prefix/www" "$prefix/tmp" "$prefix/logs"
# As root, nginx's workers run as nobody: let them read and write the served tree.
user_line=""
if [ "$(id -u)" -eq 0 ]; then
    user_line="user nobody nogroup;"
    chmod 755 "$prefix"
    chown nobody:nogroup "$prefix/www" "$prefix/tmp"
fi

# An origin as the spec describes it: PUT stores (WebDAV, full paths created), GET serves;
# the playlist is never cached, segments are immutable.
write_config() {
    cat > "$prefix/nginx.conf" <<CONF
$user_line
worker_processes 1;
daemon off;
pid $prefix/nginx.pid;
error_log $prefix/logs/error.log warn;
events { worker_connections 256; }
http {
    access_log $prefix/logs/access.log;
    client_body_temp_path $prefix/tmp/body;
    proxy_temp_path $prefix/tmp/proxy;
    fastcgi_temp_path $prefix/tmp/fastcgi;
    uwsgi_temp_path $prefix/tmp/uwsgi;
    scgi_temp_path $prefix/tmp/scgi;
    types {
        application/vnd.apple.mpegurl m3u8;
        video/mp4 mp4 m4s;
        text/html html;
    }
    map \$uri \$reel_cache_control {
        ~\\.m3u8\$ "no-cache, no-store, must-revalidate";
        default "public, max-age=31536000, immutable";
    }
    server {
        listen 127.0.0.1:$1;
        root $prefix/www;
        client_max_body_size 32m;
        location / {
            dav_methods PUT DELETE MKCOL;
            create_full_put_path on;
            dav_access user:rw group:r all:r;
            autoindex on;
            add_header Cache-Control \$reel_cache_control always;
            add_header Access-Control-Allow-Origin * always;
        }
    }
}
CONF
}

# Start nginx on PORT, or on the first of a few random high ports that it can bind; sets
# port and nginx_pid.
start_nginx() {
    for _ in 1 2 3 4 5; do
        port=${PORT:-$((20000 + RANDOM % 20000))}
        write_config "$port"
        # -e: the error log before the config is read (the default path may not be writable).
        nginx -p "$prefix" -c "$prefix/nginx.conf" -e "$prefix/logs/error.log" \
            >"$prefix/logs/nginx.out" 2>&1 &
        nginx_pid=$!
        for _ in $(seq 50); do
            if curl -fsS -o /dev/null "http://127.0.0.1:$port/" 2>/dev/null; then
                return 0
            fi
            kill -0 "$nginx_pid" 2>/dev/null || break
            sleep 0.1
        done
        kill "$nginx_pid" 2>/dev/null || true
        wait "$nginx_pid" 2>/dev/null || true
        nginx_pid=""
        [ -n "${PORT:-}" ] && break
    done
    tail -n 5 "$prefix/logs/error.log" "$prefix/logs/nginx.out" >&2 || true
    return 1
}

start_nginx || fail "nginx did not start (log above)"
origin="http://127.0.0.1:$port/"

say "origin: $origin (nginx WebDAV, files in $prefix/www)"
say "playlist: ${origin}playlist.m3u8"
say "running: reel live --source test --origin $origin --duration $duration"
status=0
"$reel" live --source test --origin "$origin" --duration "$duration" || status=$?

say "published:"
(cd "$prefix/www" && find . -type f | sort | sed 's|^\./|  |')
if [ "$status" -ne 0 ]; then
    fail "reel live exited with status $status"
fi
if [ "${KEEP:-0}" = 1 ]; then
    say "origin still serving at $origin; Ctrl-C to stop"
    wait "$nginx_pid" || true
fi
