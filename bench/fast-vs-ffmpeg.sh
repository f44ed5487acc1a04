#!/usr/bin/env bash
# Throughput: Reel against one ffmpeg command doing the same work, as fast as each can.
#
#   bash bench/fast-vs-ffmpeg.sh                         # 3 runs each, 60 s input
#   RUNS=1 INPUT_SECONDS=20 bash bench/fast-vs-ffmpeg.sh # a short trial
#
# Input: a cached 1920x1080 30 fps H.264 (CRF 18) + AAC stereo file of INPUT_SECONDS
# (bench/.cache/). Both sides decode it once and produce the same two outputs:
#   live     720x1280 (scale to fill, centre crop, bilinear) H.264 veryfast zerolatency High,
#            1.5 Mbps (max 2.25, buffer 3 Mbit), no B-frames, IDR every 2 s + AAC 64k, as
#            fMP4 HLS with 2 s segments in a folder;
#   archive  1080x1920 (same fill) HEVC ultrafast 5 Mbps (max 7.5, buffer 10 Mbit, as Reel
#            sets it), key frame every 2 s, no B-frames + AAC 128k, in a fragmented MP4.
# (a) reel live --source file:INPUT --fast --quality medium --output DIR --archive A.mp4
# (b) ffmpeg -i INPUT -filter_complex split/scale/crop ... -f hls ... -f mp4 ...
# Runs alternate (a b, b a, a b, ...) so drift on the machine hits both alike. Each run is
# timed with /usr/bin/time (CPU = user+sys seconds; wall seconds) and its outputs are checked
# with ffprobe (codecs, sizes, duration within 0.5 s, video frame count). The result block
# gives the medians and the ratios Reel/ffmpeg (goals: CPU ratio <= 1.0, and a peak RSS no
# larger than ffmpeg's).
#
# Environment: RUNS (3), INPUT_SECONDS (60), REEL_BIN, KEEP_WORK=1 keeps the outputs.
BENCH_NAME=fast-vs-ffmpeg
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

runs=${RUNS:-3}
seconds=${INPUT_SECONDS:-60}
fps=30
frames=$((fps * seconds))
machine=$(machine_line)
input=$(make_input 1920x1080 "$fps" "$seconds" 18)

run_reel() {  # run_reel N
    local dir="$work/reel-$1"
    mkdir -p "$dir"
    timed "$dir/time.txt" "$reel" live --source "file:$input" --fast --quality medium \
        --output "$dir/hls" --archive "$dir/archive.mp4" --quiet --stream-id b \
        >"$dir/log.txt" 2>&1 || { cat "$dir/log.txt" >&2; say "reel run $1 FAILED"; }
    live_of[reel-$1]="$dir/hls/streams/b/playlist.m3u8"
    archive_of[reel-$1]="$dir/archive.mp4"
}

run_ffmpeg() {  # run_ffmpeg N
    local dir="$work/ffmpeg-$1"
    mkdir -p "$dir/hls/seg"
    timed "$dir/time.txt" ffmpeg -nostdin -hide_banner -loglevel warning -y -i "$input" \
        -filter_complex "[0:v]split=2[l][a];[l]scale=720:1280:force_original_aspect_ratio=increase:flags=bilinear,crop=720:1280[live];[a]scale=1080:1920:force_original_aspect_ratio=increase:flags=bilinear,crop=1080:1920[arch]" \
        -map '[live]' -map 0:a \
        -c:v libx264 -preset veryfast -tune zerolatency -profile:v high \
        -b:v 1500k -maxrate 2250k -bufsize 3000k -bf 0 -g 60 -keyint_min 60 -sc_threshold 0 -pix_fmt yuv420p \
        -c:a aac -b:a 64k -ar 48000 \
        -f hls -hls_time 2 -hls_segment_type fmp4 -hls_playlist_type event \
        -hls_fmp4_init_filename init.mp4 -hls_base_url seg/ -hls_segment_filename "$dir/hls/seg/%06d.m4s" \
        "$dir/hls/playlist.m3u8" \
        -map '[arch]' -map 0:a \
        -c:v libx265 -preset ultrafast -b:v 5M -maxrate 7500k -bufsize 10M \
        -x265-params keyint=60:min-keyint=60:bframes=0:scenecut=0:log-level=error -pix_fmt yuv420p \
        -c:a aac -b:a 128k -ar 48000 -movflags frag_keyframe+empty_moov+default_base_moof \
        "$dir/archive.mp4" \
        >"$dir/log.txt" 2>&1 || { cat "$dir/log.txt" >&2; say "ffmpeg run $1 FAILED"; }
    live_of[ffmpeg-$1]="$dir/hls/playlist.m3u8"
    archive_of[ffmpeg-$1]="$dir/archive.mp4"
}

declare -A live_of archive_of check_of
problems=0
check_run() {  # check_run NAME: probe both outputs, one line each
    local name=$1 live archive
    live=$("$py" "$bench_dir/probe.py" "${live_of[$name]}" --video h264 --size 720x1280 \
        --duration "$seconds" --frames "$frames") || problems=$((problems + 1))
    archive=$("$py" "$bench_dir/probe.py" "${archive_of[$name]}" --video hevc --size 1080x1920 \
        --duration "$seconds" --frames "$frames") || problems=$((problems + 1))
    check_of[$name]="live $live; archive $archive"
    say "$name: $(read_time "$work/$name/time.txt" cpu) CPU-s, $(read_time "$work/$name/time.txt" wall) s wall, $(read_time "$work/$name/time.txt" rss_mb) MB max RSS"
    say "  live:    $live"
    say "  archive: $archive"
}

say "input: $input"
say "$runs runs each, alternating"
one_run() {  # one_run WHO I
    "run_$1" "$2"
    check_run "$1-$2"
    # Keep only the first run's outputs (for the picture comparison); the rest are large.
    if [ "$2" -gt 1 ] && [ "${KEEP_WORK:-0}" != 1 ]; then
        rm -rf "$work/$1-$2/hls" "$work/$1-$2/archive.mp4"
    fi
}
alternate_runs "$runs" one_run

# Same picture? Both live outputs, frame by frame: the same crop and scale give a high PSNR
# (the encoders are the same); a different crop or aspect gives a low one.
say "comparing the pictures of run 1 (PSNR, Reel vs ffmpeg)"
psnr_live=$(picture_psnr "${live_of[reel-1]}" "${live_of[ffmpeg-1]}")
psnr_archive=$(picture_psnr "${archive_of[reel-1]}" "${archive_of[ffmpeg-1]}")
same_picture() {  # same_picture "DB SHIFT": the number, rounded, what it means, the frame pairing
    awk -v p="${1% *}" -v s="${1#* }" -v a="Reel's" -v b="ffmpeg's" 'BEGIN { if (p == "") { print "?"; exit }
        if (p == "inf" || p >= 30) printf "%.1f dB (same)", p; else printf "%.1f dB (DIFFERENT: below 30 dB)", p
        if (s != 0) printf ", paired after %d extra leading frame(s) in %s", (s < 0 ? -s : s), (s < 0 ? a : b) }'
}

stat() {  # stat WHO FIELD: median over the runs
    for i in $(seq "$runs"); do read_time "$work/$1-$i/time.txt" "$2"; done | median
}
list() {  # list WHO FIELD: the values, in run order
    for i in $(seq "$runs"); do read_time "$work/$1-$i/time.txt" "$2"; done | paste -sd' '
}
reel_cpu=$(stat reel cpu); ffmpeg_cpu=$(stat ffmpeg cpu)
reel_wall=$(stat reel wall); ffmpeg_wall=$(stat ffmpeg wall)
reel_rss=$(stat reel rss_mb | xargs printf '%.0f'); ffmpeg_rss=$(stat ffmpeg rss_mb | xargs printf '%.0f')
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "nan" }'; }
cpu_ratio=$(ratio "$reel_cpu" "$ffmpeg_cpu")
wall_ratio=$(ratio "$reel_wall" "$ffmpeg_wall")
rss_ratio=$(ratio "$reel_rss" "$ffmpeg_rss")
verdict=$(awk -v r="$cpu_ratio" 'BEGIN { print (r <= 1.0 ? "PASS" : "FAIL") }')
memory_verdict=$(awk -v a="$reel_rss" -v b="$ffmpeg_rss" 'BEGIN { print (a <= b ? "PASS" : "FAIL") }')
[ "$problems" = 0 ] || verdict="$verdict, but $problems output checks failed"

cat <<RESULT

==== fast-vs-ffmpeg: ${seconds} s 1080p30 file -> 720x1280 H.264 HLS + 1080x1920 HEVC archive, as fast as possible, $runs runs each ====
reel:            $(reel_version)
ffmpeg:          $(ffmpeg -version | head -n 1 | cut -d' ' -f1-3)
machine:         $machine
                 median CPU-s (user+sys)   median wall s   median max RSS
  reel --fast    $(printf '%-25s %-15s %s MB' "$reel_cpu" "$reel_wall" "$reel_rss")
  ffmpeg         $(printf '%-25s %-15s %s MB' "$ffmpeg_cpu" "$ffmpeg_wall" "$ffmpeg_rss")
  reel/ffmpeg    $(printf '%-25s %-15s %s' "${cpu_ratio}x" "${wall_ratio}x" "${rss_ratio}x")
result:          $verdict (goal: CPU ratio <= 1.0); memory $memory_verdict (goal: median max RSS <= ffmpeg's)
per run CPU-s:   reel $(list reel cpu); ffmpeg $(list ffmpeg cpu)
per run wall s:  reel $(list reel wall); ffmpeg $(list ffmpeg wall)
per run max RSS: reel $(list reel rss_mb) MB; ffmpeg $(list ffmpeg rss_mb) MB
other load:      CPU-s used by the rest of the machine during each run: reel $(list reel other); ffmpeg $(list ffmpeg other)
outputs:         $( [ "$problems" = 0 ] && echo "all $((2 * runs)) runs valid: live h264 720x1280 + aac, archive hevc 1080x1920 + aac, ${seconds} s, $frames frames each" || echo "$problems PROBLEMS (see the lines above)")
same picture:    PSNR Reel vs ffmpeg, run 1: live $(same_picture "$psnr_live"), archive $(same_picture "$psnr_archive")
RESULT
