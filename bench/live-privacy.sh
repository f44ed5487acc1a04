#!/usr/bin/env bash
# What `reel live --privacy mosaic` costs on these cores: the same real-time 720p30 run with
# and without it, taking turns at going first, then glass-to-glass latency with and without it.
#
#   bash bench/live-privacy.sh                          # 2 pairs of 5 minutes, then 8 x 60 s in chromium
#   PARTS=latency G2G_MODES=low-latency bash bench/live-privacy.sh
#   SECONDS_TO_RUN=60 PAIRS=1 bash bench/live-privacy.sh
#
# (1) CPU and drops. Input: FFmpeg's testsrc2 at 1280x720, 30 fps, with the astronaut photo over
#     it twice (one large and moving, one small and still), SECONDS_TO_RUN (300) seconds long,
#     made once in bench/.cache. (The privacy bench's clips have a background no camera sees, a
#     dense pattern of tiny cells that makes x264 and x265 several times costlier: there both runs
#     hit the cores' limit and the archive thins itself, so CPU could not tell them apart.)
#     Each run: reel live --source file:CLIP (paced in real time) --landscape --quality medium
#     (x264, 1280x720) --archive FILE (HEVC 1920x1080) --origin (local nginx) for
#     SECONDS_TO_RUN seconds under /usr/bin/time; with --privacy mosaic or without. PAIRS (2)
#     pairs, the plain run first in odd pairs, the covered run first in even ones.
#     Reported per run: frames dropped by the stream (goal 0), archive frames left out on
#     purpose, reel's CPU seconds; the ratio covered/plain of the summed CPU (goal <= 1.15;
#     a covered run whose archive left out more frames than the plain one fails it, since it
#     did less work because the cores were full).
# (2) Latency: bench/glass-to-glass.sh (hls.js in chromium) on --source test:1280x720@30
#     --quality medium, with and without --privacy mosaic, G2G_ROUNDS (2) rounds per mode
#     (G2G_MODES: low-latency, regular), taking turns at going first, G2G_SECONDS (60) measured
#     each. The test picture has no face: the detector still runs on every fifth picture and
#     each picture is held for the detections after it, which is what costs latency. Goal: the
#     median p50 with --privacy at most 1.1 s above the median p50 without. Regular HLS is
#     noisy by up to a segment per run: hls.js reloads the playlist once a target duration, at
#     a phase that stays put for the run; LL-HLS's blocking reloads have no such phase.
#
# Environment: SECONDS_TO_RUN, PAIRS, G2G_SECONDS, G2G_MODES, G2G_ROUNDS, PARTS ("cpu latency":
# either or both), REEL_BIN, KEEP_WORK=1. Needs the CenterFace
# model (make setup) and, for (2), chromium, chromium-driver and hls.js.
BENCH_NAME=live-privacy
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

seconds=${SECONDS_TO_RUN:-300}
pairs=${PAIRS:-2}
g2g_seconds=${G2G_SECONDS:-60}
g2g_modes=${G2G_MODES:-low-latency regular}
g2g_rounds=${G2G_ROUNDS:-2}
parts=${PARTS:-cpu latency}
machine=$(machine_line)
export XDG_DATA_HOME="${XDG_DATA_HOME:-$HOME/.local/share}" XDG_STATE_HOME="$work/xdg-state"

# The input: FFmpeg's testsrc2 (as bench/realtime.sh's test source: a picture a camera's
# encoder finds about as hard) with the astronaut photo over it twice, a large one gliding to and
# fro and a small one still, made once at x264 CRF 18.
face_clip() {
    local file="$cache/live-privacy-faces-1280x720-30fps-${seconds}s.mp4"
    local photo=${REEL_TEST_PHOTO:-$root/Tests/Fixtures/astronaut.png}
    if [ ! -s "$file" ]; then
        say "making the input once (cached): $file"
        ffmpeg -nostdin -hide_banner -loglevel error -y -f lavfi -i "testsrc2=size=1280x720:rate=30" -loop 1 -i "$photo" \
            -filter_complex "[1:v]split[a][b];[a]scale=240:-2[big];[b]scale=120:-2[small];[0:v][big]overlay=x='500+350*sin(t/3)':y=150[t];[t][small]overlay=x=1000:y=420,format=yuv420p" \
            -t "$seconds" -c:v libx264 -preset fast -crf 18 -g 60 -an -movflags +faststart "$file.part.mp4" ||
            { rm -f "$file.part.mp4"; fail "could not make $file"; }
        mv "$file.part.mp4" "$file"
    fi
    printf '%s\n' "$file"
}

# run_live NAME ARGS...: one real-time run into a fresh nginx origin; log, times and archive
# under $work/NAME.
run_live() {
    local name=$1
    shift
    local dir="$work/$name"
    mkdir -p "$dir"
    start_origin "$dir/origin"
    say "$name: reel live --source file:$(basename "$clip") --landscape --quality medium --archive … $* for $seconds s"
    timed "$dir/time.txt" "$reel" live --source "file:$clip" --landscape --quality medium --origin "$origin_url" \
        --stream-id "$name" --archive "$dir/archive.mp4" --duration "$seconds" "$@" >"$dir/reel.log" 2>&1 || true
    bash "$origin_script" stop "$origin_prefix" || true
    origin_prefix=""
}

# figures NAME: one result line for a run.
figures() {
    local dir="$work/$1" live_state published produced dropped archive_state reel_archive_frames archive_skipped backpressure problems
    eval "$(live_summary "$dir/reel.log")"
    local faces
    faces=$(sed -n 's/^faces: \(.*\)$/\1/p' "$dir/reel.log" | tail -n 1)
    printf '%-9s exit %s; stream: %s, %s frames dropped, %s of %s segments; archive: %s frames, %s left out on purpose; CPU %s s (%s s wall), max RSS %s MB, other load %s CPU-s%s\n' \
        "$1" "$(read_time "$dir/time.txt" exit)" "$live_state" "$dropped" "$published" "$produced" "$reel_archive_frames" \
        "$archive_skipped" "$(read_time "$dir/time.txt" cpu)" "$(read_time "$dir/time.txt" wall)" \
        "$(read_time "$dir/time.txt" rss_mb)" "$(read_time "$dir/time.txt" other)" "${faces:+; faces: $faces}"
}

[ -f "$XDG_DATA_HOME/reel/models/centerface.onnx" ] || [ -n "${REEL_MODELS_DIR:-}" ] ||
    fail "the CenterFace model is missing: run 'make setup'"
clip=$(face_clip)

runs=()
if [[ " $parts " == *" cpu "* ]]; then
    for i in $(seq "$pairs"); do
        if [ $((i % 2)) = 1 ]; then order="plain covered"; else order="covered plain"; fi
        for who in $order; do
            if [ "$who" = covered ]; then run_live "covered-$i" --privacy mosaic; else run_live "plain-$i"; fi
            runs+=("$who-$i")
        done
    done
fi

cpu_plain=0; cpu_covered=0; drops=0; thinned_plain=0; thinned_covered=0
for name in "${runs[@]}"; do
    cpu=$(read_time "$work/$name/time.txt" cpu)
    eval "$(live_summary "$work/$name/reel.log")"  # dropped, archive_skipped, ...
    case "$name" in
        covered-*) cpu_covered=$(awk -v a="$cpu_covered" -v b="$cpu" 'BEGIN { print a + b }'); thinned_covered=$((thinned_covered + archive_skipped)) ;;
        *) cpu_plain=$(awk -v a="$cpu_plain" -v b="$cpu" 'BEGIN { print a + b }'); thinned_plain=$((thinned_plain + archive_skipped)) ;;
    esac
    if [[ "$dropped" =~ ^[0-9]+$ ]] && [ "$drops" != "?" ]; then drops=$((drops + dropped)); else drops="?"; fi
done
ratio=$(awk -v c="$cpu_covered" -v p="$cpu_plain" 'BEGIN { printf "%.2f", (p > 0 ? c / p : 0) }')
# A covered run whose archive left out more frames did less work: its CPU flatters it.
cpu_verdict=$(awk -v r="$ratio" -v tc="$thinned_covered" -v tp="$thinned_plain" \
    'BEGIN { print (r <= 0 || r > 1.15 ? "FAIL" : tc > tp ? "FAIL (the covered runs left out " tc " archive frames, the plain " tp ": the cores were full)" : "PASS") }')
drop_verdict=$([ "$drops" = 0 ] && echo PASS || echo FAIL)

if [ ${#runs[@]} -gt 0 ]; then
    cpu_block="stream frames dropped, all runs: $drops (goal 0) -> $drop_verdict
archive frames left out on purpose: covered runs $thinned_covered, plain runs $thinned_plain
CPU covered / plain: $ratio ($cpu_covered s / $cpu_plain s; goal <= 1.15) -> $cpu_verdict"
else
    cpu_block="CPU and drops: not measured (PARTS=$parts)"
fi

# (2) glass-to-glass: per mode and round, one covered and one plain run, taking turns first.
g2g() {  # g2g MODE LIVE_ARGS: glass-to-glass.sh's result line for MODE
    SOURCE=1280x720@30 QUALITY=medium MODES="$1" SECONDS_TO_RUN="$g2g_seconds" LIVE_ARGS="$2" REEL_BIN="$reel" \
        bash "$bench_dir/glass-to-glass.sh" 2>>"$work/g2g.err" | grep "^$1 " ||
        echo "$1 not measured: $(tail -n 3 "$work/g2g.err" | tr '\n' ' ')"
}
p50() { printf '%s\n' "$1" | sed -n 's/.*glass-to-glass p50 \([0-9.]*\) s.*/\1/p'; }
latency_lines=""
latency_verdict=""
if [[ " $parts " == *" latency "* ]]; then
    for mode in $g2g_modes; do
        covered_p50s=""; plain_p50s=""
        for round in $(seq "$g2g_rounds"); do
            if [ $((round % 2)) = 1 ]; then order="covered plain"; else order="plain covered"; fi
            for who in $order; do
                say "glass-to-glass $mode, round $round: $who"
                if [ "$who" = covered ]; then line=$(g2g "$mode" "--privacy mosaic"); covered_p50s+=" $(p50 "$line")"
                else line=$(g2g "$mode" ""); plain_p50s+=" $(p50 "$line")"; fi
                latency_lines+="  $who, round $round: $line
"
            done
        done
        added=$(awk -v c="$(printf '%s\n' $covered_p50s | median)" -v p="$(printf '%s\n' $plain_p50s | median)" \
            'BEGIN { if (c == "nan" || p == "nan") print "?"; else printf "%.2f", c - p }')
        verdict=$(awk -v a="$added" 'BEGIN { print (a != "?" && a <= 1.1 ? "PASS" : "FAIL") }')
        latency_verdict+="  $mode: p50 with --privacy (median of$covered_p50s) minus without (median of$plain_p50s): $added s (goal <= 1.1 s) -> $verdict
"
    done
fi

cat <<RESULT

==== live-privacy: reel live --privacy mosaic vs without, 720p30 file in real time, medium HLS + HEVC archive, $pairs pair(s) of $seconds s ====
reel:       $(reel_version)
machine:    $machine
load after: $(cut -d' ' -f1-3 /proc/loadavg)
$(for name in "${runs[@]}"; do figures "$name"; done)

$cpu_block
glass-to-glass (test:1280x720@30, medium, hls.js in chromium, $g2g_seconds s each; modes: $g2g_modes):
$latency_lines$latency_verdict
RESULT
