#!/usr/bin/env bash
# A CDN edge for live HLS: nginx as a caching reverse proxy in front of `reel serve` or an S3
# bucket, its cache driven by the upstream's Cache-Control (docs/cdn.md explains each rule).
# Everything (config, cache, logs, pid) lives inside one prefix folder.
#
#   bash scripts/nginx-cdn.sh start PREFIX UPSTREAM [PORT]   # prints the port; PORT: use that one
#   bash scripts/nginx-cdn.sh config PREFIX UPSTREAM PORT    # only writes PREFIX/nginx.conf
#   bash scripts/nginx-cdn.sh stop PREFIX                    # stops it (waits until it has exited)
#   bash scripts/nginx-cdn.sh port PREFIX                    # prints the port of a running edge
#
# UPSTREAM: http(s)://HOST:PORT for `reel serve` (run it with --trusted-proxy ADDR-OF-THIS-EDGE),
#           http(s)://HOST:PORT/BUCKET[/KEY-PREFIX] for an S3 bucket in path style.
#           The edge serves /streams/{id}/… from UPSTREAM/streams/{id}/….
# Environment: REEL_CDN_LISTEN (address, default 127.0.0.1), REEL_CDN_MAX_SIZE (cache on disk,
#           default 1g), REEL_CDN_INACTIVE (a file unused this long leaves the cache, default 10m).
# Access log: PREFIX/logs/access.log, one tab-separated line per request, when it ends:
#             msec  method  request_uri  status  cache_status  body_bytes_sent  request_time
#             cache_status is nginx's $upstream_cache_status (MISS, HIT, EXPIRED, REVALIDATED,
#             UPDATING, STALE, BYPASS, or "-" when the cache was not asked). Every answer carries
#             it as the X-Cache-Status header too.
# The edge is read-only: GET and HEAD are cached, OPTIONS (CORS preflight) passes through
# uncached, anything else (PUT, DELETE) is answered 405 here; publishers PUT to the origin.
set -euo pipefail

prog=nginx-cdn
usage_lines=6,9
# fail, usage, hand_to_nobody, free_port, launch_and_wait, stop and port (shared with nginx-origin.sh).
. "$(dirname "${BASH_SOURCE[0]}")/nginx-daemon.sh"

[ $# -ge 2 ] || usage
command=$1
prefix=$2

# Splits UPSTREAM into scheme, host:port and path ("" or "/bucket/prefix", no trailing slash).
parse_upstream() {
    local url=$1 rest pattern='^(https?)://([A-Za-z0-9.:-]+|\[[0-9A-Fa-f:.]+\](:[0-9]+)?)(/[A-Za-z0-9._~/-]*)?$'
    [[ $url =~ $pattern ]] ||
        fail "UPSTREAM must be http(s)://HOST:PORT[/BUCKET[/PREFIX]] (got '$url')"
    upstream_scheme=${BASH_REMATCH[1]}
    upstream_host=${BASH_REMATCH[2]}
    rest=${BASH_REMATCH[4]:-}
    while [ "${rest%/}" != "$rest" ]; do rest=${rest%/}; done
    upstream_path=$rest
}

write_config() {
    local port=$1 user_line=$2 listen=${REEL_CDN_LISTEN:-127.0.0.1}
    local max_size=${REEL_CDN_MAX_SIZE:-1g} inactive=${REEL_CDN_INACTIVE:-10m}
    local ssl_line=""
    [ "$upstream_scheme" = https ] && ssl_line="proxy_ssl_server_name on;"
    cat > "$prefix/nginx.conf" <<CONF
$user_line
worker_processes 1;
pid $prefix/nginx.pid;
error_log $prefix/logs/error.log warn;
events { worker_connections 2048; }
http {
    log_format reel_cdn '\$msec\t\$request_method\t\$request_uri\t\$status\t\$upstream_cache_status\t\$body_bytes_sent\t\$request_time';
    access_log $prefix/logs/access.log reel_cdn;
    client_body_temp_path $prefix/tmp/body;
    proxy_temp_path $prefix/tmp/proxy;
    fastcgi_temp_path $prefix/tmp/fastcgi;
    uwsgi_temp_path $prefix/tmp/uwsgi;
    scgi_temp_path $prefix/tmp/scgi;
    keepalive_timeout 30s;
    client_header_timeout 10s;
    client_body_timeout 10s;
    send_timeout 10s;
    client_max_body_size 0;

    # The cache: its own folder, bounded on disk (max_size) and in memory (10 MB of keys, about
    # 80 000 files); a file nobody asked for within 'inactive' is dropped whatever its max-age.
    proxy_cache_path $prefix/cache levels=1:2 keys_zone=reel_cdn:10m max_size=$max_size inactive=$inactive use_temp_path=off;

    # Two representations only: gzip when the player accepts it, identity otherwise. The
    # upstream is asked with exactly that Accept-Encoding and the key names it, so encodings
    # never mix, even behind an upstream that forgot Vary (reel serve sends Vary: Accept-Encoding,
    # which nginx honours as well). "gzip;q=0" refuses gzip.
    map \$http_accept_encoding \$reel_gzip {
        default "";
        "~*(^|,)\s*gzip\s*;\s*q=0(\.0*)?\s*(,|\$)" "";
        "~*(^|,)\s*(gzip|\*)\s*(;|,|\$)" gzip;
    }

    upstream reel_upstream {
        server $upstream_host;
        keepalive 16;
        keepalive_timeout 30s;
    }

    server {
        listen $listen:$port;

        # Read-only edge: the publisher PUTs to the origin, never through the cache.
        if (\$request_method !~ ^(GET|HEAD|OPTIONS)\$) { return 405; }

        proxy_cache reel_cdn;
        proxy_cache_key "\$reel_gzip \$request_uri";
        # No proxy_cache_valid: only answers whose Cache-Control (or Expires) allows it are
        # stored, for exactly as long as it says (playlists 1 s, segments a year; 404s, the
        # viewer's API and errors not at all).
        proxy_cache_lock on;
        proxy_cache_lock_timeout 5s;
        proxy_cache_lock_age 5s;
        proxy_cache_revalidate on;
        add_header X-Cache-Status \$upstream_cache_status always;

        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_set_header Host "$upstream_host";
        proxy_set_header Accept-Encoding \$reel_gzip;
        proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
        $ssl_line
        proxy_connect_timeout 2s;
        proxy_send_timeout 5s;

        # Playlists change every segment: while one request refreshes an expired copy the others
        # get that copy (updating), which the short timeouts bound to about 4 s at worst; an
        # origin that fails is reported (502/504), never hidden behind an old playlist.
        location ~ \.m3u8\$ {
            error_page 418 = @blocking_reload;
            if (\$args ~ "_HLS_(msn|part)=") { return 418; }
            proxy_cache_use_stale updating;
            proxy_read_timeout 2s;
            proxy_pass $upstream_scheme://reel_upstream$upstream_path\$request_uri;
        }
        # LL-HLS blocking reload (?_HLS_msn=N[&_HLS_part=M]): the origin holds the request until
        # the part exists, up to three target durations (6 s with 2 s segments), so the edge
        # waits longer than that. The query is in the cache key: the players asking for the same
        # part share one origin request (the lock lasts as long as the hold), and the answer is
        # the playlist that has the part. Nothing stale: a held answer is new by definition.
        location @blocking_reload {
            proxy_read_timeout 10s;
            proxy_cache_lock_timeout 10s;
            proxy_cache_lock_age 10s;
            proxy_pass $upstream_scheme://reel_upstream$upstream_path\$request_uri;
        }
        # LL-HLS parts: the origin holds a GET of the hinted part until it is stored; players
        # asking for it together share that one request.
        location ~ /part/[0-9]+\.[0-9]+\.m4s\$ {
            proxy_cache_use_stale updating error timeout http_500 http_502 http_503 http_504;
            proxy_read_timeout 10s;
            proxy_cache_lock_timeout 10s;
            proxy_cache_lock_age 10s;
            proxy_pass $upstream_scheme://reel_upstream$upstream_path\$request_uri;
        }
        # Segments and init never change once written: any stored copy is the right one.
        location / {
            proxy_cache_use_stale updating error timeout http_500 http_502 http_503 http_504;
            proxy_read_timeout 10s;
            proxy_pass $upstream_scheme://reel_upstream$upstream_path\$request_uri;
        }
    }
}
CONF
    printf '%s\n' "$port" > "$prefix/port"
}

# Folders, and as root the user line: nginx's worker runs as nobody, which must write the cache.
prepare() {
    mkdir -p "$prefix"
    prefix=$(cd "$prefix" && pwd)
    mkdir -p "$prefix/cache" "$prefix/tmp" "$prefix/logs"
    hand_to_nobody "$prefix/cache" "$prefix/tmp"
}

start() {
    local wanted_port=$1 port attempt
    command -v nginx >/dev/null 2>&1 || fail "nginx is not installed: run 'make setup'"
    command -v curl >/dev/null 2>&1 || fail "curl is not installed: run 'make setup'"
    prepare
    running_pid >/dev/null && fail "an edge already runs in $prefix (port $(cat "$prefix/port")); stop it first"
    : > "$prefix/logs/access.log"
    for attempt in 1 2 3 4 5; do
        port=${wanted_port:-$(free_port)}
        write_config "$port" "$user_line"
        # Any HTTP answer will do (the upstream may not run yet: 502 is an answer).
        if launch_and_wait "$port"; then
            printf '%s\n' "$port"
            return 0
        fi
        [ -n "$wanted_port" ] && break
    done
    tail -n 5 "$prefix/logs/error.log" "$prefix/logs/nginx.out" >&2 || true
    fail "nginx did not start (log above)"
}

case "$command" in
start)
    [ $# -ge 3 ] || usage
    parse_upstream "$3"
    start "${4:-}"
    ;;
config)
    [ $# -eq 4 ] || usage
    parse_upstream "$3"
    [[ $4 =~ ^[0-9]+$ ]] || fail "PORT must be a number (got '$4')"
    prepare
    write_config "$4" "$user_line"
    ;;
*) common_command "$command" || usage ;;
esac
