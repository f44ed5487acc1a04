#!/usr/bin/env bash
# Publish latency on loopback: how long after a segment's last frame is captured can a player
# fetch it from the origin? Reel against the ffmpeg command line, on the same input.
#
#   bash bench/latency.sh                       # 5 minutes each (10+ minutes in all)
#   SECONDS_TO_RUN=30 bash bench/latency.sh     # a short trial
#
# Input: a cached 1280x720 30 fps H.264 + AAC file of SECONDS_TO_RUN (bench/.cache/). One
# local nginx origin (scripts/nginx-origin.sh) receives, one after the other (never at once):
# (a) reel live --source file:INPUT --quality medium --no-archive --origin URL --stream-id reel
#     (Reel paces a file like a camera: one frame every 1/30 s)
# (b) ffmpeg -re -i INPUT, the same live encode (720x1280 fill + centre crop, x264 veryfast
#     zerolatency High 1.5 Mbps, no B-frames, IDR every 2 s, AAC 64k), HLS fMP4 2 s segments
#     with PROGRAM-DATE-TIME, PUT to URL/streams/ffmpeg/ (init.mp4, playlist.m3u8, seg/NNNNNN.m4s)
# bench/latency.py then reads the origin's access log (the time nginx stored each PUT, in ms)
# and the final playlists: latency of segment k = the time it was both stored and listed in
# a stored playlist - the capture time of its last frame (PROGRAM-DATE-TIME + EXTINF - one
# frame). See bench/latency.py for the details and the checks it prints.
# Goal: Reel's p95 < 0.3 s and below ffmpeg's.
#
# Environment: SECONDS_TO_RUN (300), ORDER ("reel ffmpeg"), REEL_BIN, KEEP_WORK=1 keeps the
# origin's files, logs and a per-segment CSV.
BENCH_NAME=latency
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

seconds=${SECONDS_TO_RUN:-300}
order=${ORDER:-reel ffmpeg}
fps=30
machine=$(machine_line)
input=$(make_input 1280x720 "$fps" "$seconds" 18)
start_origin "$work/origin"
declare -A started

run_reel() {
    say "reel: publishing $seconds s of $input in real time (status every 10 s)"
    started[reel]=$(date +%s.%N)
    timed "$work/reel.time" "$reel" live --source "file:$input" --quality medium --no-archive \
        --origin "$origin_url" --stream-id reel 2>&1 | tee -i "$work/reel.log" >&2 || true
    [ "$(read_time "$work/reel.time" exit)" = 0 ] || say "reel exited with status $(read_time "$work/reel.time" exit)"
}

run_ffmpeg() {
    local base="${origin_url}streams/ffmpeg"
    say "ffmpeg: publishing $seconds s of $input in real time (-re)"
    started[ffmpeg]=$(date +%s.%N)
    timed "$work/ffmpeg.time" ffmpeg -nostdin -hide_banner -loglevel warning -stats -re -i "$input" \
        -map 0:v -map 0:a \
        -vf "scale=720:1280:force_original_aspect_ratio=increase:flags=bilinear,crop=720:1280" \
        -c:v libx264 -preset veryfast -tune zerolatency -profile:v high \
        -b:v 1500k -maxrate 2250k -bufsize 3000k -bf 0 -g 60 -keyint_min 60 -sc_threshold 0 -pix_fmt yuv420p \
        -c:a aac -b:a 64k -ar 48000 \
        -f hls -hls_segment_type fmp4 -hls_time 2 -hls_playlist_type event -hls_flags program_date_time \
        -method PUT -hls_fmp4_init_filename init.mp4 -hls_base_url seg/ \
        -hls_segment_filename "$base/seg/%06d.m4s" "$base/playlist.m3u8" \
        2> >(tee -i "$work/ffmpeg.log" >&2) || say "ffmpeg exited with status $?"
}

for who in $order; do
    "run_$who"
done

say "computing the latencies from the access log"
started_args=()
for who in $order; do started_args+=(--started "$who=${started[$who]}"); done
status=0
table=$("$py" "$bench_dir/latency.py" --log "$origin_prefix/logs/access.log" --www "$origin_prefix/www" \
    --fps "$fps" "${started_args[@]}" --csv "$work/latency.csv" reel ffmpeg) || status=$?

cpu_line() {
    printf '%s CPU-s / %s s wall (rest of the machine meanwhile: %s CPU-s)' "$(read_time "$work/$1.time" cpu)" \
        "$(read_time "$work/$1.time" wall)" "$(read_time "$work/$1.time" other)"
}

cat <<RESULT

==== latency: $seconds s of 720p30 paced in real time -> 720x1280 H.264 HLS, PUT to nginx on 127.0.0.1 ====
reel:     $(reel_version)
ffmpeg:   $(ffmpeg -version | head -n 1 | cut -d' ' -f1-3) (-re, -f hls -method PUT)
machine:  $machine
order:    $order (one after the other, same origin)
goal:     reel p95 < 0.3 s and below ffmpeg's (judged by PROGRAM-DATE-TIME, as the issue defines it)
$table
cpu:      reel $(cpu_line reel); ffmpeg $(cpu_line ffmpeg)
RESULT
