#!/usr/bin/env bash
# The origin against nginx (the first of its two benchmarks, with bench/viewers.sh): wrk on
# loopback, GET of a 1 MB segment and of a playlist, 64 connections, DURATION seconds each,
# `reel serve` and nginx serving the same files from the same folder, in the same run,
# alternating. Reports requests/s and p99 latency for both, the ratio (goal: Reel >= 0.8x
# nginx's requests/s), and reel serve's peak memory (VmHWM).
#
#   bash bench/origin-vs-nginx.sh
#   DURATION=5 bash bench/origin-vs-nginx.sh      # a quick trial
#
# Environment: DURATION (20), CONNECTIONS (64), THREADS (2), REEL_BIN, KEEP_WORK=1.
# wrk runs on the same 2 cores as the servers: both servers are measured under the same load.
BENCH_NAME=origin-vs-nginx
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

command -v wrk >/dev/null 2>&1 || fail "wrk is not installed (Debian package 'wrk'): run 'make setup'"
duration=${DURATION:-20}
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
connections=${CONNECTIONS:-64}
threads=${THREADS:-2}

serve_pid=""
trap 'st=$?; if [ -n "$serve_pid" ]; then kill "$serve_pid" 2>/dev/null || true; wait "$serve_pid" 2>/dev/null || true; fi; (exit $st); bench_cleanup' EXIT

# nginx serves DIR/www; reel serve gets the same folder as its data folder.
start_origin "$work/nginx"
data="$origin_prefix/www"
token_file="$work/token"
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$token_file"
chmod 600 "$token_file"
serve_port=$(free_port)
"$reel" serve --host 127.0.0.1 --port "$serve_port" --data "$data" --token-file "$token_file" --access-log /dev/null \
    --max-connections-per-address 0 \
    > "$work/serve.log" 2>&1 &
serve_pid=$!
for _ in $(seq 1 100); do
    curl -fsS "http://127.0.0.1:$serve_port/health" >/dev/null 2>&1 && break
    sleep 0.1
done
curl -fsS "http://127.0.0.1:$serve_port/health" >/dev/null || fail "reel serve did not start: $(cat "$work/serve.log")"
say "reel serve on $serve_port, nginx on $origin_port, both serving $data"

# The files, PUT through reel serve (so both servers read what Reel stored).
head -c 1048576 /dev/urandom > "$work/segment.m4s"
"$py" - "$work/playlist.m3u8" <<'PY'
import sys
lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:2", "#EXT-X-PLAYLIST-TYPE:EVENT",
         "#EXT-X-INDEPENDENT-SEGMENTS", "#EXT-X-MEDIA-SEQUENCE:1", '#EXT-X-MAP:URI="init.mp4"']
for i in range(1, 31):
    lines += [f"#EXT-X-PROGRAM-DATE-TIME:2026-11-30T04:00:{(i - 1) * 2:02d}.000Z", "#EXTINF:2.000,", f"seg/{i:06d}.m4s"]
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
auth="Authorization: Bearer $(cat "$token_file")"
curl -fsS -X PUT -H "$auth" --data-binary @"$work/segment.m4s" "http://127.0.0.1:$serve_port/streams/bench/seg/000001.m4s" >/dev/null
curl -fsS -X PUT -H "$auth" --data-binary @"$work/playlist.m3u8" "http://127.0.0.1:$serve_port/streams/bench/playlist.m3u8" >/dev/null
chmod -R a+rX "$data/streams"
for url in "http://127.0.0.1:$origin_port" "http://127.0.0.1:$serve_port"; do
    cmp -s <(curl -fsS "$url/streams/bench/seg/000001.m4s") "$work/segment.m4s" || fail "$url does not serve the segment"
done

# One wrk run: prints "requests_per_second p99_ms".
measure() {
    wrk -t"$threads" -c"$connections" -d"${duration}s" --latency "$1" > "$work/wrk.txt" 2>&1 || fail "wrk failed: $(cat "$work/wrk.txt")"
    "$py" - "$work/wrk.txt" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
m = re.search(r"^\s*99%\s+([\d.]+)(us|ms|s)\s*$", text, re.M)
value, unit = float(m.group(1)), m.group(2)
p99 = value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
if errors: sys.exit("non-2xx answers: " + errors.group(1))
print(f"{rps:.0f} {p99:.2f}")
PY
}

declare -A result
for kind in segment playlist; do
    path=streams/bench/seg/000001.m4s
    [ "$kind" = playlist ] && path=streams/bench/playlist.m3u8
    for server in nginx reel; do
        port=$origin_port
        [ "$server" = reel ] && port=$serve_port
        say "wrk $kind from $server: $connections connections, $duration s"
        result[$kind-$server]=$(measure "http://127.0.0.1:$port/$path")
    done
done
peak=$(awk '/VmHWM/ {print $2 / 1024 " MB"}' "/proc/$serve_pid/status")

echo
echo "==== origin-vs-nginx: wrk -t$threads -c$connections -d${duration}s on loopback, same files, same folder ===="
echo "reel:     $("$reel" --version 2>/dev/null || echo "$reel")"
echo "nginx:    $(nginx -v 2>&1 | sed 's/.*: //')"
echo "machine:  $(nproc) cores, load before: $load_before"
printf '                      %12s %12s %12s %12s %10s\n' "nginx req/s" "reel req/s" "nginx p99 ms" "reel p99 ms" "reel/nginx"
for kind in segment playlist; do
    read -r n_rps n_p99 <<<"${result[$kind-nginx]}"
    read -r r_rps r_p99 <<<"${result[$kind-reel]}"
    ratio=$("$py" -c "print(f'{$r_rps / $n_rps:.2f}x')")
    label="GET 1 MB segment"
    [ "$kind" = playlist ] && label="GET playlist"
    printf '  %-20s %12s %12s %12s %12s %10s\n' "$label" "$n_rps" "$r_rps" "$n_p99" "$r_p99" "$ratio"
done
echo "reel serve peak memory (VmHWM): $peak"
echo "goal:     reel >= 0.8x nginx's requests/s"
