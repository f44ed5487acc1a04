#!/usr/bin/env bash
# Export speed at 1080p: `reel export` with mosaic + caption + watermark against the
# ffmpeg CLI doing a comparable job in one filter graph on the same clip, and what each one
# leaves of the face (the leak meter of Tests/ReelPrivacyBench).
#
#   bash bench/export.sh              # 3 runs each, alternating; the median wall time counts
#   RUNS=1 bash bench/export.sh       # a quick trial
#
# The clip: reel-privacy-bench's single-1920x1080 (14 s, 420 frames, the astronaut moving,
# tilted, dimmed, 40 % out of the frame, absent, back; H.264 CRF 16 + AAC), made once into
# bench/.cache/privacy-clips/.
#   (a) reel export CLIP -o OUT --privacy mosaic --caption --watermark PNG --size source
#       (faces found every 0.2 s with CenterFace, boxes interpolated, mosaic, caption, watermark,
#       x264, audio copied, moov first)
#   (b) ffmpeg, one filter graph: crop a static box → scale down to 58 px blocks → scale up
#       nearest → overlay; drawtext (Noto Sans CJK, a per-second clock, 55 % black box) and the
#       same watermark overlaid; no detection at all, so it is a floor for the pixel work.
# Both encode with Reel's export settings (Sources/ReelExport/ExportSettings.swift, ReelMedia's
# VideoEncoder): libx264 veryfast, CRF 20, profile high, no B-frames, key frame every 60
# frames, no scene cut; audio copied; moov first. fps = 420 frames / median wall time.
#
# Environment: RUNS (3), REEL_BIN (default: the release build), KEEP_WORK=1 keeps the outputs.
BENCH_NAME=export
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

runs=${RUNS:-3}
machine=$(machine_line)
clip=$(privacy_clip single-1920x1080)
frames=$(frames_of "$clip")
font=/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
[ -r "$font" ] || fail "$font is missing (Debian package fonts-noto-cjk): run 'make setup'"
export XDG_DATA_HOME="${XDG_DATA_HOME:-$HOME/.local/share}" XDG_STATE_HOME="$work/xdg-state" XDG_CACHE_HOME="$work/xdg-cache"

# The watermark: a 240x80 half-transparent PNG with a white frame.
watermark="$work/watermark.png"
ffmpeg -nostdin -v error -y -f lavfi -i "color=c=0x3060c0@0.7:s=240x80,format=rgba,drawbox=x=0:y=0:w=240:h=80:c=white@0.9:t=6" \
    -frames:v 1 "$watermark" || fail "could not make the watermark"

# The static box: where the face is on average in the clip, 2x the face (Reel's ellipse is
# about that), in 58 px blocks (3 % of 1920, as Reel's mosaic).
block=58
read -r bx by bw bh < <("$py" - "${clip%.mp4}.truth.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
faces = [f for fr in t["frames"] for f in fr["faces"]]
cx = sum(f["centerX"] for f in faces) / len(faces); cy = sum(f["centerY"] for f in faces) / len(faces)
w = 2 * faces[0]["width"]; h = 2 * faces[0]["height"]
even = lambda v: int(v) // 2 * 2
print(even(cx - w / 2), even(cy - h / 2), even(w), even(h))
PY
)
encoder=(-c:v libx264 -preset veryfast -crf 20 -profile:v high -bf 0 -g 60 -keyint_min 60 -sc_threshold 0 -forced-idr 1
         -pix_fmt yuv420p -c:a copy -movflags +faststart)
graph="[0:v]split[base][cut];[cut]crop=$bw:$bh:$bx:$by,scale=$((bw / block)):$((bh / block)):flags=area,scale=$bw:$bh:flags=neighbor[m];"
graph+="[base][m]overlay=$bx:$by,drawtext=fontfile=$font:text='Study time %{pts\\:hms}':fontsize=38:fontcolor=white:"
graph+="box=1:boxcolor=black@0.55:boxborderw=12:x=48:y=h-th-60[c];"
graph+="[1:v]format=rgba[w];[c][w]overlay=W-w-27:H-h-27:format=auto,format=yuv420p[v]"

reel_out="$work/reel.mp4"; ffmpeg_out="$work/ffmpeg.mp4"
for run in $(seq 1 "$runs"); do
    say "run $run/$runs (a): reel export --privacy mosaic --caption --watermark (1080p, $frames frames)"
    timed "$work/a$run.time" "$reel" export "$clip" -o "$reel_out" --privacy mosaic --caption --watermark "$watermark" \
        --size source --overwrite --json >"$work/a$run.log" 2>&1 || fail "reel export failed: $(tail -n 3 "$work/a$run.log")"
    say "run $run/$runs (b): ffmpeg crop/scale/overlay + drawtext + watermark"
    timed "$work/b$run.time" ffmpeg -nostdin -hide_banner -loglevel error -y -i "$clip" -loop 1 -i "$watermark" \
        -filter_complex "$graph" -map "[v]" -map 0:a -frames:v "$frames" "${encoder[@]}" "$ffmpeg_out" >"$work/b$run.log" 2>&1 ||
        fail "ffmpeg failed: $(tail -n 3 "$work/b$run.log")"
done
median_of() { for f in "$work"/$1*.time; do read_time "$f" wall; done | median; }
cpu_of() { for f in "$work"/$1*.time; do read_time "$f" cpu; done | median; }
reel_wall=$(median_of a); ffmpeg_wall=$(median_of b)
reel_fps=$(awk -v n="$frames" -v w="$reel_wall" 'BEGIN { printf "%.1f", n / w }')
ffmpeg_fps=$(awk -v n="$frames" -v w="$ffmpeg_wall" 'BEGIN { printf "%.1f", n / w }')
ratio=$(awk -v a="$reel_fps" -v b="$ffmpeg_fps" 'BEGIN { printf "%.2f", a / b }')
verdict=$(awk -v r="$ratio" 'BEGIN { print (r >= 1.0 ? "PASS" : "FAIL") }')
say "measuring leaks (reel-privacy-bench measure)"
reel_leaks=$(leak_figures "$clip" "$reel_out"); ffmpeg_leaks=$(leak_figures "$clip" "$ffmpeg_out")
reel_done=$(grep '"event":"done"' "$work/a$runs.log" | tail -n 1)

cat <<RESULT

==== export: 1080p mosaic + caption + watermark, reel export vs one ffmpeg filter graph, $runs runs each ====
reel:       $(reel_version)
ffmpeg:     $(ffmpeg -version | head -n 1 | cut -d' ' -f1-3)
machine:    $machine
clip:       $clip ($frames frames, 1920x1080, 30 fps)
encoder:    libx264 veryfast CRF 20, high, no B-frames, keyint 60, audio copied (both)
                          median wall   fps     CPU-s (median)   max RSS
  (a) reel export         $(printf '%8s s' "$reel_wall")  $(printf '%6s' "$reel_fps")   $(printf '%8s' "$(cpu_of a)")        $(read_time "$work/a$runs.time" rss_mb) MB
  (b) ffmpeg graph        $(printf '%8s s' "$ffmpeg_wall")  $(printf '%6s' "$ffmpeg_fps")   $(printf '%8s' "$(cpu_of b)")        $(read_time "$work/b$runs.time" rss_mb) MB
  wall per run: reel $(for f in "$work"/a*.time; do read_time "$f" wall; done | paste -sd ' ' -) s; ffmpeg $(for f in "$work"/b*.time; do read_time "$f" wall; done | paste -sd ' ' -) s
  other load during the runs (CPU-s, rest of the machine): reel $(for f in "$work"/a*.time; do read_time "$f" other; done | paste -sd ' ' -); ffmpeg $(for f in "$work"/b*.time; do read_time "$f" other; done | paste -sd ' ' -)
  reel/ffmpeg fps: ${ratio}x ; goal >= 1.0x -> $verdict
  ffmpeg's box is static ($bw x $bh at $bx,$by, the face's mean place x2): it does no detection and follows nothing.
leaks (threshold and method: Tests/ReelPrivacyBench/LeakMeter.swift):
  (a) reel
$reel_leaks
  (b) ffmpeg
$ffmpeg_leaks
reel's done line: $reel_done
RESULT
