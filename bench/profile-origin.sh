#!/usr/bin/env bash
# Where reel serve's GET path spends its instructions: callgrind counts them, repeatably,
# while wrk sends a short load; prints instructions per request and the functions that cost
# the most (inclusive). valgrind 3.19 crashes on the `reel` binary itself (libdispatch's
# signal thread), so this runs ReelOrigin's OriginServer in a small harness
# (bench/profile, built here) with the same settings as `reel serve`.
#
#   bash bench/profile-origin.sh                  # the 30-entry playlist of origin-vs-nginx.sh
#   WHAT=segment bash bench/profile-origin.sh     # the 1 MB segment
#
# Environment: WHAT (playlist | segment), DURATION (5 s of wrk), CONNECTIONS (16), TOP (30
# functions), KEEP_WORK=1 keeps the callgrind file (open it with callgrind_annotate or
# kcachegrind). Notes: valgrind 3.19 does not know openat2, so under it reads take the
# per-folder openat walk (the fallback); callgrind counts a `rep stosb` memset one
# instruction per byte, which makes libmicrohttpd's 64 KiB pool memset per request look far
# costlier than it is: the per-request figure is also given without memset.
BENCH_NAME=profile-origin
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

for tool in valgrind callgrind_control callgrind_annotate wrk; do
    command -v "$tool" >/dev/null 2>&1 || fail "$tool is not installed (Debian packages valgrind, wrk)"
done
what=${WHAT:-playlist}
duration=${DURATION:-5}
connections=${CONNECTIONS:-16}
top=${TOP:-30}

say "building the harness (bench/profile)"
swift build -c release --package-path "$bench_dir/profile" > "$work/build.log" 2>&1 || fail "the harness did not build: $(tail -n 20 "$work/build.log")"
harness="$(swift build -c release --package-path "$bench_dir/profile" --show-bin-path)/origin-harness"

harness_pid=""
trap 'st=$?; if [ -n "$harness_pid" ]; then kill "$harness_pid" 2>/dev/null || true; wait "$harness_pid" 2>/dev/null || true; fi; (exit $st); bench_cleanup' EXIT

data="$work/data"
token_file="$work/token"
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$token_file"
chmod 600 "$token_file"
port=$(free_port)
valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" "$harness" "$port" "$data" "$token_file" /dev/null \
    > "$work/harness.log" 2>&1 &
harness_pid=$!
for _ in $(seq 1 300); do
    curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
    sleep 0.2
done
curl -fsS "http://127.0.0.1:$port/health" >/dev/null || fail "the harness did not start: $(tail -n 20 "$work/harness.log")"

# The files of bench/origin-vs-nginx.sh, PUT through the server.
auth="Authorization: Bearer $(cat "$token_file")"
if [ "$what" = segment ]; then
    path=streams/bench/seg/000001.m4s
    head -c 1048576 /dev/urandom > "$work/body"
else
    path=streams/bench/playlist.m3u8
    "$py" - "$work/body" <<'PY'
import sys
lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:2", "#EXT-X-PLAYLIST-TYPE:EVENT",
         "#EXT-X-INDEPENDENT-SEGMENTS", "#EXT-X-MEDIA-SEQUENCE:1", '#EXT-X-MAP:URI="init.mp4"']
for i in range(1, 31):
    lines += [f"#EXT-X-PROGRAM-DATE-TIME:2026-11-30T04:00:{(i - 1) * 2:02d}.000Z", "#EXTINF:2.000,", f"seg/{i:06d}.m4s"]
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
fi
curl -fsS -X PUT -H "$auth" --data-binary @"$work/body" "http://127.0.0.1:$port/$path" >/dev/null
curl -fsS -o /dev/null "http://127.0.0.1:$port/$path"   # the first GET (it prepares the response)

say "counting: wrk -t1 -c$connections -d${duration}s on /$path under callgrind"
callgrind_control -z "$harness_pid" >/dev/null
wrk -t1 -c"$connections" -d"${duration}s" "http://127.0.0.1:$port/$path" > "$work/wrk.txt" 2>&1 || fail "wrk failed: $(cat "$work/wrk.txt")"
callgrind_control -d "$harness_pid" >/dev/null
sleep 1
requests=$(awk '/requests in/ {print $1}' "$work/wrk.txt")
dump=$(ls "$work"/callgrind.out.* | sort | tail -n 1)
callgrind_annotate --inclusive=yes "$dump" > "$work/inclusive.txt" 2>/dev/null
total=$(awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1; exit}' "$work/inclusive.txt")
memset=$(awk '/memset/ {gsub(",", "", $1); print $1; exit}' "$work/inclusive.txt")

echo
echo "==== profile-origin: GET /$path, wrk -t1 -c$connections -d${duration}s under callgrind ===="
echo "reel:     $(reel_version | sed 's/, binary.*//') (ReelOrigin in bench/profile's harness)"
echo "requests: $requests"
"$py" - "$total" "${memset:-0}" "$requests" <<'PY'
import sys
total, memset, requests = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
print(f"instructions per request: {total / requests:,.0f}; without memset: {(total - memset) / requests:,.0f}")
PY
echo "most expensive functions (inclusive, whole process):"
awk -v top="$top" '/file:function/ {on = 1; getline; next} on && NF { print "  " substr($0, 1, 160); if (++n >= top) exit }' "$work/inclusive.txt"
