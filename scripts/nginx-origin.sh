#!/usr/bin/env bash
# A local HLS origin for the demo and the benchmarks: nginx with WebDAV PUT on 127.0.0.1, on a
# free port, everything (config, served files, logs, pid) inside one prefix folder.
#
#   bash scripts/nginx-origin.sh start PREFIX [PORT]   # prints the port; PORT: use that one
#   bash scripts/nginx-origin.sh stop PREFIX           # stops it (waits until it has exited)
#   bash scripts/nginx-origin.sh port PREFIX           # prints the port of a running origin
#
# Served tree: PREFIX/www (PUT stores it, creating folders; GET serves it, with an index).
# Access log:  PREFIX/logs/access.log, one tab-separated line per request, written when the
#              request ends:
#                msec  method  uri  status  body_bytes_sent  request_length  content_length  request_time
#              msec is the Unix time in seconds with milliseconds at the end of the request
#              (for a PUT: after the file was stored); request_length counts the request line,
#              headers and body; content_length is "-" for a chunked upload (as ffmpeg sends).
#
# The caller stops it: `trap 'bash scripts/nginx-origin.sh stop "$prefix"' EXIT`. nginx runs
# as a daemon (its master's pid in PREFIX/nginx.pid), so it outlives a `start` that returned.
# As root, nginx's workers run as nobody:nogroup: `start` makes PREFIX traversable and hands
# www/ and tmp/ to nobody; PREFIX's parent folders must be traversable by others too (mktemp -d
# folders are 0700: give `start` a folder of its own, e.g. made by `mktemp -d`, not one inside).
set -euo pipefail

prog=nginx-origin
usage_lines=2,9
# fail, usage, hand_to_nobody, free_port, launch_and_wait, stop and port (shared with nginx-cdn.sh).
. "$(dirname "${BASH_SOURCE[0]}")/nginx-daemon.sh"

[ $# -ge 2 ] || usage
command=$1
prefix=$2
wanted_port=${3:-}

write_config() {
    local port=$1 user_line=$2
    cat > "$prefix/nginx.conf" <<CONF
$user_line
worker_processes 1;
daemon on;
pid $prefix/nginx.pid;
error_log $prefix/logs/error.log warn;
events { worker_connections 256; }
http {
    log_format reel_tsv '\$msec\t\$request_method\t\$uri\t\$status\t\$body_bytes_sent\t\$request_length\t\$content_length\t\$request_time';
    access_log $prefix/logs/access.log reel_tsv;
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
    # An origin as docs/behaviour.md §2 (Origin) describes it: PUT stores (WebDAV, full paths
    # created), GET serves; playlists may be shared for 1 s (OriginFile.playlistMaxAge),
    # segments are immutable.
    map \$uri \$reel_cache_control {
        ~\\.m3u8\$ "public, max-age=1";
        default "public, max-age=31536000, immutable";
    }
    server {
        listen 127.0.0.1:$port;
        root $prefix/www;
        client_max_body_size 64m;
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
    printf '%s\n' "$port" > "$prefix/port"
}

start() {
    command -v nginx >/dev/null 2>&1 || fail "nginx is not installed: run 'make setup'"
    command -v curl >/dev/null 2>&1 || fail "curl is not installed: run 'make setup'"
    mkdir -p "$prefix"
    prefix=$(cd "$prefix" && pwd)
    if running_pid >/dev/null; then
        fail "an origin already runs in $prefix (port $(cat "$prefix/port")); stop it first"
    fi
    mkdir -p "$prefix/www" "$prefix/tmp" "$prefix/logs"
    : > "$prefix/logs/access.log"
    local user_line
    # The served tree and the upload temp folder.
    hand_to_nobody "$prefix/www" "$prefix/tmp"
    local port attempt
    for attempt in 1 2 3 4 5; do
        port=${wanted_port:-$(free_port)}
        write_config "$port" "$user_line"
        if launch_and_wait "$port"; then
            # A PUT and a DELETE prove the workers can write the tree.
            local url="http://127.0.0.1:$port/.origin-probe/probe.txt"
            if curl -fsS -o /dev/null -T - "$url" <<<"probe" 2>"$prefix/logs/probe.err" &&
                curl -fsS -o /dev/null -X DELETE "$url" 2>>"$prefix/logs/probe.err"; then
                curl -fsS -o /dev/null -X DELETE "http://127.0.0.1:$port/.origin-probe/" 2>/dev/null || true
                printf '%s\n' "$port"
                return 0
            fi
            stop_quietly
            cat "$prefix/logs/probe.err" >&2 || true
            tail -n 5 "$prefix/logs/error.log" >&2 || true
            fail "nginx on port $port does not accept PUT into $prefix/www (is $prefix reachable by user nobody?)"
        fi
        [ -n "$wanted_port" ] && break
    done
    tail -n 5 "$prefix/logs/error.log" "$prefix/logs/nginx.out" >&2 || true
    fail "nginx did not start (log above)"
}

case "$command" in
start) start ;;
*) common_command "$command" || usage ;;
esac
