#!/usr/bin/env bash
# The ABR ladder's CPU cost: `reel live --ladder low,medium,high` against one ffmpeg command
# producing the same ladder (-var_stream_map) from the same input in one run (goal: CPU ratio
# Reel/ffmpeg <= 1.0).
#
#   bash bench/ladder-cost.sh                          # 3 runs each, 60 s input
#   RUNS=1 INPUT_SECONDS=10 bash bench/ladder-cost.sh  # a short trial
#
# Input: the cached 1920x1080 30 fps H.264 (CRF 18) + AAC stereo file of INPUT_SECONDS that
# bench/fast-vs-ffmpeg.sh uses (bench/.cache/). Both sides decode it once and encode three
# rungs (Sources/ReelCore/Live/QualityPreset.swift, portrait):
#   high    720x1280  H.264 2.5 Mbps (max 3.75, buffer 5 Mbit)    + AAC 96k
#   medium  720x1280  H.264 1.5 Mbps (max 2.25, buffer 3 Mbit)    + AAC 64k
#   low     480x854   H.264 0.9 Mbps (max 1.35, buffer 1.8 Mbit)  + AAC 48k
# every rung scaled from the decoded picture (fill, centre crop, bilinear), libx264 veryfast
# zerolatency High, no B-frames, IDR exactly every 2 s (60 frames, no scene cuts), fMP4 HLS
# with 2 s segments, a media playlist per rung and a multivariant playlist naming them.
# (a) reel live --ladder low,medium,high --source file:INPUT --fast --output DIR --no-archive
# (b) ffmpeg -i INPUT -filter_complex split=3,scale/crop x3 -map ... x3 libx264 + 3 AAC
#     -f hls -hls_segment_type fmp4 -var_stream_map "v:0,a:0 v:1,a:1 v:2,a:2"
#     -master_pl_name master.m3u8
#     AAC is encoded once per rung (the input's audio mapped three times, 96/64/48k), as Reel
#     does: -var_stream_map needs an audio stream per variant to mux one into each rung's
#     segments (sharing one a:0 between variants is only possible as a separate audio
#     group, agroup:, which is not the layout Reel writes).
# Runs alternate (a b, b a, a b, ...) so drift on the machine hits both alike. Each run is
# timed with /usr/bin/time (CPU = user+sys seconds, wall, max RSS) and its ladder checked with
# ffprobe (bench/ladder_probe.py): three variants listed, h264 at each rung's size + aac, the
# video frame count within 2 of fps x seconds, key frames exactly every 60 frames in every
# rung, and for Reel every rung's key frames at the same presentation times. The result block
# gives the medians, the CPU ratio per alternating pair and of the medians, and whether
# Reel's ladder fits in real time (CPU-s per media second against 0.8 x nproc).
#
# Environment: RUNS (3), INPUT_SECONDS (60), REEL_BIN, KEEP_WORK=1 keeps the outputs.
BENCH_NAME=ladder-cost
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

runs=${RUNS:-3}
seconds=${INPUT_SECONDS:-60}
fps=30
gop=$((2 * fps))
frames=$((fps * seconds))
input=$(make_input 1920x1080 "$fps" "$seconds" 18)
machine=$(machine_line)  # after making the input: its load is not the benchmark's

# name size video-kbps audio-kbps, highest first (the order of ffmpeg's v:0 v:1 v:2)
rungs=("high 720x1280 2500 96" "medium 720x1280 1500 64" "low 480x854 900 48")

run_reel() {  # run_reel N
    local dir="$work/reel-$1"
    mkdir -p "$dir"
    timed "$dir/time.txt" "$reel" live --ladder low,medium,high --source "file:$input" --fast \
        --output "$dir/hls" --no-archive --quiet --stream-id b \
        >"$dir/log.txt" 2>&1 || { cat "$dir/log.txt" >&2; say "reel run $1 FAILED"; }
    master_of[reel-$1]="$dir/hls/streams/b/playlist.m3u8"
}

ffmpeg_args() {  # ffmpeg_args DIR: the ffmpeg command's arguments after the input
    local dir=$1 graph="[0:v]split=3[s0][s1][s2]" maps=() codecs=() i=0 name size kv ka w h
    for rung in "${rungs[@]}"; do
        read -r name size kv ka <<<"$rung"
        w=${size%x*}; h=${size#*x}
        graph+=";[s$i]scale=$w:$h:force_original_aspect_ratio=increase:flags=bilinear,crop=$w:$h[v$i]"
        maps+=(-map "[v$i]")
        codecs+=(-b:v:$i "${kv}k" -maxrate:v:$i "$((kv * 3 / 2))k" -bufsize:v:$i "$((kv * 2))k" -b:a:$i "${ka}k")
        i=$((i + 1))
    done
    printf '%s\n' -filter_complex "$graph" "${maps[@]}" -map 0:a -map 0:a -map 0:a \
        -c:v libx264 -preset veryfast -tune zerolatency -profile:v high \
        -bf 0 -g "$gop" -keyint_min "$gop" -sc_threshold 0 -pix_fmt yuv420p \
        -c:a aac -ar 48000 "${codecs[@]}" \
        -f hls -hls_time 2 -hls_segment_type fmp4 -hls_playlist_type event \
        -hls_fmp4_init_filename init.mp4 -hls_segment_filename "$dir/hls/%v/seg/%06d.m4s" -hls_base_url seg/ \
        -master_pl_name master.m3u8 \
        -var_stream_map "v:0,a:0,name:high v:1,a:1,name:medium v:2,a:2,name:low" \
        "$dir/hls/%v/playlist.m3u8"
}

run_ffmpeg() {  # run_ffmpeg N
    local dir="$work/ffmpeg-$1" args
    mkdir -p "$dir/hls"
    mapfile -t args < <(ffmpeg_args "$dir")
    printf '%q ' ffmpeg -nostdin -hide_banner -loglevel warning -y -i "$input" "${args[@]}" >"$dir/command.txt"
    timed "$dir/time.txt" ffmpeg -nostdin -hide_banner -loglevel warning -y -i "$input" "${args[@]}" \
        >"$dir/log.txt" 2>&1 || { cat "$dir/log.txt" >&2; say "ffmpeg run $1 FAILED"; }
    master_of[ffmpeg-$1]="$dir/hls/master.m3u8"
}

declare -A master_of check_of
problems=0
check_run() {  # check_run NAME
    local name=$1 out same=() rung_args=()
    [ "${name%%-*}" = reel ] && same=(--same-keyframes)
    for rung in "${rungs[@]}"; do
        read -r r_name r_size _ <<<"$rung"
        rung_args+=(--rung "$r_name=$r_size")
    done
    out=$("$py" "$bench_dir/ladder_probe.py" "${master_of[$name]}" "${rung_args[@]}" \
        --frames "$frames" --gop "$gop" "${same[@]}") || problems=$((problems + 1))
    check_of[$name]=$(tail -n 1 <<<"$out")
    say "$name: $(read_time "$work/$name/time.txt" cpu) CPU-s, $(read_time "$work/$name/time.txt" wall) s wall, $(read_time "$work/$name/time.txt" rss_mb) MB max RSS, other load $(read_time "$work/$name/time.txt" other) CPU-s"
    sed 's/^/  /' <<<"$out" >&2
}

say "input: $input"
say "$runs runs each, alternating"
one_run() {  # one_run WHO I
    "run_$1" "$2"
    check_run "$1-$2"
    # Keep the outputs only with KEEP_WORK=1 (three rungs a run add up).
    [ "${KEEP_WORK:-0}" = 1 ] || rm -rf "$work/$1-$2/hls"
}
alternate_runs "$runs" one_run
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

stat() {  # stat WHO FIELD: median over the runs
    for i in $(seq "$runs"); do read_time "$work/$1-$i/time.txt" "$2"; done | median
}
list() {  # list WHO FIELD: the values, in run order
    for i in $(seq "$runs"); do read_time "$work/$1-$i/time.txt" "$2"; done | paste -sd' '
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "nan" }'; }
pairs=$(for i in $(seq "$runs"); do
    ratio "$(read_time "$work/reel-$i/time.txt" cpu)" "$(read_time "$work/ffmpeg-$i/time.txt" cpu)"; echo
done)
pair_list=$(paste -sd' ' <<<"$pairs" | sed 's/ /x, /g; s/$/x/')
pair_median=$(median <<<"$pairs")
reel_cpu=$(stat reel cpu); ffmpeg_cpu=$(stat ffmpeg cpu)
reel_wall=$(stat reel wall); ffmpeg_wall=$(stat ffmpeg wall)
reel_rss=$(stat reel rss_mb | xargs printf '%.0f'); ffmpeg_rss=$(stat ffmpeg rss_mb | xargs printf '%.0f')
cpu_ratio=$(ratio "$reel_cpu" "$ffmpeg_cpu")
wall_ratio=$(ratio "$reel_wall" "$ffmpeg_wall")
rss_ratio=$(ratio "$reel_rss" "$ffmpeg_rss")
verdict=$(awk -v r="$cpu_ratio" 'BEGIN { print (r <= 1.0 ? "PASS" : "FAIL") }')
[ "$problems" = 0 ] || verdict="$verdict, but $problems output checks failed"
cores=$(nproc)
per_second=$(awk -v c="$reel_cpu" -v s="$seconds" 'BEGIN { printf "%.2f", c / s }')
ffmpeg_per_second=$(awk -v c="$ffmpeg_cpu" -v s="$seconds" 'BEGIN { printf "%.2f", c / s }')
realtime=$(awk -v p="$per_second" -v n="$cores" 'BEGIN {
    b = 0.8 * n
    if (p < b) printf "yes: %.2f CPU-s per media second < %.1f (0.8 x %d cores), %.0f %% of the machine", p, b, n, 100 * p / n
    else printf "NO: %.2f CPU-s per media second >= %.1f (0.8 x %d cores)", p, b, n }')

cat <<RESULT

==== ladder-cost: ${seconds} s 1080p30 file -> 3-rung H.264 HLS ladder (high 720x1280 2.5M, medium 720x1280 1.5M, low 480x854 0.9M), no archive, as fast as possible, $runs runs each ====
reel:            $(reel_version)
ffmpeg:          $(ffmpeg -version | head -n 1 | cut -d' ' -f1-3)
machine:         $machine; load after: $load_after
                 median CPU-s (user+sys)   median wall s   median max RSS
  reel --ladder  $(printf '%-25s %-15s %s MB' "$reel_cpu" "$reel_wall" "$reel_rss")
  ffmpeg         $(printf '%-25s %-15s %s MB' "$ffmpeg_cpu" "$ffmpeg_wall" "$ffmpeg_rss")
  reel/ffmpeg    $(printf '%-25s %-15s %s' "${cpu_ratio}x" "${wall_ratio}x" "${rss_ratio}x")
result:          $verdict (goal: CPU ratio <= 1.0)
CPU ratio:       per alternating pair $pair_list; median of the pairs ${pair_median}x
per run CPU-s:   reel $(list reel cpu); ffmpeg $(list ffmpeg cpu)
per run wall s:  reel $(list reel wall); ffmpeg $(list ffmpeg wall)
per run max RSS: reel $(list reel rss_mb) MB; ffmpeg $(list ffmpeg rss_mb) MB
other load:      CPU-s used by the rest of the machine during each run: reel $(list reel other); ffmpeg $(list ffmpeg other)
real time:       reel's ladder $realtime (ffmpeg's: $ffmpeg_per_second)
outputs:         $( [ "$problems" = 0 ] && echo "all $((2 * runs)) runs valid: 3 variants, h264 at each rung's size + aac, $frames frames ± 2 and a key frame every $gop frames in each; reel's key frames at the same times in every rung" || echo "$problems PROBLEMS (see the lines above)")
RESULT
