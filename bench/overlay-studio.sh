#!/usr/bin/env bash
# The overlay camera in Reel Studio: its two previews of one 720p30 capture with the
# artwork chosen and a filter preset, and the shutter → file on disk from the running capture.
#
#   bash bench/overlay-studio.sh                       # about 2 minutes
#   SECONDS_TO_RUN=10 SHOTS=3 bash bench/overlay-studio.sh   # a short trial
#
# 1. Previews. reel studio --source test:1280x720@30 (the synthetic source, 30 pictures a
#    second, turned portrait to 720x1280 by PortraitSource), an artwork imported and chosen
#    (a 1080x1440 RGBA PNG), the circle filter preset. Two curl clients read the previews for
#    SECONDS_TO_RUN: /api/overlay/preview (unfiltered, 3:4, 480x640 JPEGs) and
#    /api/overlay/preview?view=circle (square, 640x640), both branches of the one capture
#    (each at most 15 JPEGs a second). Reported: the pictures the capture gave over the window
#    (GET /api/overlay's `frames`, read before and after) against 30 a second — the difference
#    is what the capture dropped or was late with; the JPEGs each stream received; the studio's
#    CPU (utime + stime of /proc/PID/stat) over the window, per captured picture and as a share
#    of one core. The artwork over the previews is drawn by the browser (CSS matrix()), so it
#    costs the studio nothing here; the filter's crop is the branch's own scaling.
# 2. Shutter → file. With both previews still running, SHOTS photos in each format (HEIC,
#    JPEG, TIFF): POST /api/overlay/shoot timed by curl (time_total: the press to the answer,
#    which is sent once the file is placed durably, fsync and all) and the answer's own
#    figures: shutter lag (the press to holding the capture's next picture), composite (YUV →
#    16-bit RGB, crop to 3:4 = 720x960, artwork in linear Display P3) and encode. Medians.
#
# Environment: SECONDS_TO_RUN (30), SHOTS (10), REEL_BIN (default: the release build),
# KEEP_WORK=1 keeps the temporary folder.
BENCH_NAME=overlay-studio
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

seconds=${SECONDS_TO_RUN:-30}
shots=${SHOTS:-10}
hz=$(getconf CLK_TCK)
machine=$(machine_line)
"$reel" studio --help >/dev/null 2>&1 || fail "$reel has no 'studio' command: run 'make build' (or set REEL_BIN)"
command -v convert >/dev/null 2>&1 || fail "ImageMagick's convert is missing: run 'make setup'"

export XDG_DATA_HOME="$work/xdg-data" XDG_STATE_HOME="$work/xdg-state" XDG_CACHE_HOME="$work/xdg-cache"
export XDG_PICTURES_DIR="$work/pictures"
mkdir -p "$work/home" "$XDG_DATA_HOME/reel"

studio_pid=""
stop_studio() {
    [ -n "$studio_pid" ] || return 0
    kill -TERM "$studio_pid" 2>/dev/null || true
    wait "$studio_pid" 2>/dev/null || true
    studio_pid=""
}
clients=()
stop_clients() { local pid; for pid in "${clients[@]}"; do kill "$pid" 2>/dev/null || true; done; clients=(); }
trap 'st=$?; set +e; stop_clients; stop_studio; (exit $st); bench_cleanup' EXIT

HOME="$work/home" "$reel" studio --port 0 --access-log none --source test:1280x720@30 --library "$work/library.sqlite" \
    </dev/null >"$work/studio.out" 2>"$work/studio.err" &
studio_pid=$!
for _ in $(seq 1 200); do
    grep -q 'api:' "$work/studio.out" && break
    kill -0 "$studio_pid" 2>/dev/null || fail "reel studio exited at start: $(cat "$work/studio.err")"
    sleep 0.05
done
line=$(grep -m 1 'api:' "$work/studio.out") || fail "reel studio printed no api line: $(cat "$work/studio.err")"
base=$(sed -n 's|.*api: *\(http://[^ ]*/\)api/status.*|\1|p' <<<"$line")
token=$(sed -n 's|.*Bearer \([^) ]*\)).*|\1|p' <<<"$line")
[ -n "$base" ] && [ -n "$token" ] || fail "could not read the address and token from: $line"
post() {   # post PATH [curl args…]: the answer's body; fails on an HTTP error
    local path=$1; shift
    curl -sS --fail-with-body --max-time 60 -H "Authorization: Bearer $token" -H "Origin: ${base%/}" -X POST "$@" "$base${path#/}"
}
field() { "$py" -c 'import json, sys; v = json.load(sys.stdin); [v := v[k] for k in sys.argv[1:]]; print(v)' "$@"; }
studio_cpu() { awk -v hz="$hz" '{ printf "%.2f\n", ($14 + $15) / hz }' "/proc/$studio_pid/stat"; }
frames() { curl -sS --max-time 10 -H "Authorization: Bearer $token" "${base}api/overlay" | field frames; }

say "an artwork (1080x1440 RGBA PNG), chosen; the circle filter"
convert -size 1080x1440 xc:none -fill '#ff2fa0' -draw 'roundrectangle 140,200 940,1240 80,80' \
    -fill '#ffe000c0' -draw 'rectangle 0,0 1080,180' "$work/art.png"
asset=$(post "/api/overlay/assets?name=frame.png" --data-binary "@$work/art.png" | field id)
post /api/overlay -H "Content-Type: application/json" \
    --data "{\"asset\":\"$asset\",\"filter\":\"circle\",\"placement\":{\"anchor\":\"center\",\"offsetX\":0,\"offsetY\":0,\"scale\":0.8,\"rotationDegrees\":-8}}" >/dev/null

say "1. two previews (unfiltered, circle) for $seconds s"
for view in unfiltered circle; do
    curl -sS -N --max-time $((seconds + 60)) -H "Authorization: Bearer $token" -o "$work/$view.mjpeg" \
        "${base}api/overlay/preview?view=$view" 2>/dev/null &
    clients+=($!)
done
# The capture starts with the first watcher; the window starts once it delivers.
for _ in $(seq 1 100); do [ "$(frames)" != None ] && [ "$(frames)" -gt 30 ] && break; sleep 0.1; done
f0=$(frames); c0=$(studio_cpu); t0=$(date +%s.%N); s0=$(for v in unfiltered circle; do grep -c -a -- '--reel-preview-frame' "$work/$v.mjpeg"; done)
sleep "$seconds"
f1=$(frames); c1=$(studio_cpu); t1=$(date +%s.%N); s1=$(for v in unfiltered circle; do grep -c -a -- '--reel-preview-frame' "$work/$v.mjpeg"; done)
read -r u0 r0 <<<"$(echo $s0)"; read -r u1 r1 <<<"$(echo $s1)"
preview_line=$(awk -v f0="$f0" -v f1="$f1" -v c0="$c0" -v c1="$c1" -v t0="$t0" -v t1="$t1" -v u=$((u1 - u0)) -v r=$((r1 - r0)) 'BEGIN {
    wall = t1 - t0; got = f1 - f0; want = 30 * wall; missing = want - got; if (missing < 0) missing = 0
    printf "%.1f s: %d pictures captured of %.0f (%.1f missing, %.2f%%); JPEGs: unfiltered %d (%.1f/s), circle %d (%.1f/s); studio CPU %.2f s = %.1f%% of a core, %.2f ms per captured picture",
        wall, got, want, missing, 100 * missing / want, u, u / wall, r, r / wall, c1 - c0, 100 * (c1 - c0) / wall, 1000 * (c1 - c0) / (got > 0 ? got : 1) }')
say "$preview_line"

say "2. shutter → file, $shots shots per format, previews still running"
results=()
for format in heic jpeg tiff; do
    post /api/overlay -H "Content-Type: application/json" --data "{\"format\":\"$format\",\"preview\":\"unfiltered\"}" >/dev/null
    : >"$work/$format.shots"
    for _ in $(seq 1 "$shots"); do
        post /api/overlay/shoot -o "$work/shot.json" -w '%{time_total}\n' | awk '{ print $1 * 1000 }' >>"$work/$format.total"
        "$py" -c 'import json, sys; a = json.load(open(sys.argv[1])); print(1000 * a["shutterLagSeconds"], 1000 * a["compositeSeconds"], 1000 * a["encodeSeconds"], a["photo"]["bytes"], a["width"], a["height"])' \
            "$work/shot.json" >>"$work/$format.shots"
    done
    total=$(median <"$work/$format.total")
    lag=$(awk '{ print $1 }' "$work/$format.shots" | median)
    composite=$(awk '{ print $2 }' "$work/$format.shots" | median)
    encode=$(awk '{ print $3 }' "$work/$format.shots" | median)
    size=$(awk '{ print $5 "x" $6 ", " $4 " bytes" }' "$work/$format.shots" | tail -n 1)
    results+=("$(printf '%-4s press → file %5.1f ms (shutter lag %4.1f ms, composite %5.1f ms, encode %5.1f ms); %s' "$format" \
        "$total" "$lag" "$composite" "$encode" "$size")")
done
stop_clients

cat <<EOF

reel overlay camera in the studio — $machine
previews of one capture (test:1280x720@30 → 720x1280 portrait, artwork chosen, circle filter):
  $preview_line
shutter → file on disk, medians of $shots (the two previews running):
$(printf '  %s\n' "${results[@]}")
EOF
