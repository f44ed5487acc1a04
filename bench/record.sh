#!/usr/bin/env bash
# The study recorder's CPU: `reel record` from a 1920x1080@30 real-time source, as a
# timelapse (every 5 s) against the ffmpeg CLI making the same timelapse, and in full mode.
#
#   bash bench/record.sh                       # 300 s per run (about 20 minutes in all)
#   SECONDS_TO_RUN=20 bash bench/record.sh     # a short trial
#
# Runs, one after the other (never two at once), each for SECONDS_TO_RUN seconds under
# /usr/bin/time:
#   (a) reel record --source test:1920x1080@30 --mode timelapse --interval 5 --no-faces (the
#       goal is for the recorder without the face tracker)
#   (b) ffmpeg -re, testsrc2 1920x1080 at 30 fps, every 150th frame (every 5 s) kept with
#       select + setpts, 10 fps, libx264 with Reel's timelapse settings, moov first
#   (c) ffmpeg -re, the same testsrc2 source into -f null: what ffmpeg's paced 1080p test
#       pattern alone costs (BASELINE=0 leaves it out)
#   (d) reel record --source test:1920x1080@30 --mode full (face tracking on, as by default)
#   (e) reel record --source test:1920x1080@30 --mode timelapse --interval 5 (face tracking on)
# and reports each one's CPU as % of one core (user+sys CPU seconds / wall seconds), the
# ratio Reel/ffmpeg for the timelapse (goal: Reel under 10 %), frames against the expected
# counts (timelapse: one every 5 s; full: 30 x seconds, i.e. 0 dropped), and full mode's
# average bitrate. Every output is checked with ffprobe (h264, 1920x1080, frame rate).
#
# Environment: SECONDS_TO_RUN (300), INTERVAL (5), BASELINE (1), REEL_BIN (default: the
# release build), KEEP_WORK=1 keeps the temporary folder (the outputs, logs, times).
BENCH_NAME=record
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

seconds=${SECONDS_TO_RUN:-300}
interval=${INTERVAL:-5}
baseline=${BASELINE:-1}
size=1920x1080
fps=30
every=$((interval * fps))      # source frames between two timelapse frames
machine=$(machine_line)

# Reel keeps its library, checkpoints and default outputs in the XDG folders: all in $work.
export XDG_DATA_HOME="$work/xdg-data" XDG_STATE_HOME="$work/xdg-state"
library="$work/library.sqlite"

# Reel's timelapse encoder (Sources/ReelRecord/RecordSettings.swift, ReelMedia's
# VideoEncoder): x264 veryfast, tune zerolatency, profile high, CRF 23 with peaks capped at
# 8 Mbps (VBV buffer 16 Mbit), no B-frames, a key frame every 100 frames (10 s of video),
# no scene cut, 10 fps, yuv420p; the finished file has its moov first (faststart).
ffmpeg_timelapse_args=(
    -nostdin -hide_banner -loglevel error -y
    -re -t "$seconds" -f lavfi -i "testsrc2=size=$size:rate=$fps"
    -vf "select='not(mod(n\\,$every))',setpts=N/(10*TB)" -r 10
    -c:v libx264 -preset veryfast -tune zerolatency -profile:v high -crf 23
    -maxrate 8M -bufsize 16M -bf 0 -g 100 -keyint_min 100 -sc_threshold 0 -forced-idr 1
    -pix_fmt yuv420p -movflags +faststart
)

# cpu_pct FILE: CPU % of one core of a timed run.
cpu_pct() {
    awk -v c="$(read_time "$1" cpu)" -v w="$(read_time "$1" wall)" 'BEGIN { printf "%.1f", (w > 0 ? 100 * c / w : 0) }'
}
# describe FILE: "h264 1920x1080 10/1 fps, 24 frames, 2.400 s, N bytes" (video packets counted).
describe() {
    [ -s "$1" ] || { echo "missing"; return; }
    local stream frames duration
    stream=$(ffprobe -v error -select_streams v:0 -show_entries stream=codec_name,width,height,avg_frame_rate \
        -of csv=p=0 "$1" | head -n 1 | awk -F, '{ print $1 " " $2 "x" $3 " " $4 " fps" }')
    frames=$(packets "$1")
    duration=$(ffprobe_value "$1" format=duration)
    echo "$stream, $frames frames, $duration s, $(stat -c %s "$1") bytes"
}
packets() {
    ffprobe -v error -select_streams v:0 -count_packets -show_entries stream=nb_read_packets \
        -of default=noprint_wrappers=1:nokey=1 "$1" | head -n 1
}
moov_first() {
    # The first top-level boxes: ftyp then moov when the file is "faststart".
    "$py" - "$1" <<'PY'
import struct, sys
with open(sys.argv[1], "rb") as f:
    names = []
    while len(names) < 3:
        head = f.read(8)
        if len(head) < 8:
            break
        size, name = struct.unpack(">I4s", head)
        names.append(name.decode("latin-1"))
        if size == 1:
            size = struct.unpack(">Q", f.read(8))[0]
            f.seek(size - 16, 1)
        elif size == 0:
            break
        else:
            f.seek(size - 8, 1)
moov = names.index("moov") if "moov" in names else 99
mdat = names.index("mdat") if "mdat" in names else 99
print("yes" if moov < mdat else "no (" + " ".join(names) + ")")
PY
}

# (a) Reel, timelapse.
tl_reel="$work/reel-timelapse.mp4"
say "(a) $seconds s: reel record --source test:$size@$fps --mode timelapse --interval $interval --no-faces --duration $seconds"
timed "$work/a.time" "$reel" record --source "test:$size@$fps" --mode timelapse --interval "$interval" --no-faces --no-keep-awake \
    --canvas "$size" --duration "$seconds" --output "$tl_reel" --library "$library" </dev/null \
    >"$work/a.log" 2>&1 || true
say "reel exited with status $(read_time "$work/a.time" exit)"

# (b) ffmpeg, the same timelapse.
tl_ffmpeg="$work/ffmpeg-timelapse.mp4"
say "(b) $seconds s: ffmpeg ${ffmpeg_timelapse_args[*]} $tl_ffmpeg"
timed "$work/b.time" ffmpeg "${ffmpeg_timelapse_args[@]}" "$tl_ffmpeg" >"$work/b.log" 2>&1 || true
say "ffmpeg exited with status $(read_time "$work/b.time" exit)"

# (c) ffmpeg's paced source alone.
if [ "$baseline" = 1 ]; then
    say "(c) $seconds s: ffmpeg -re -t $seconds -f lavfi -i testsrc2=size=$size:rate=$fps -f null -"
    timed "$work/c.time" ffmpeg -nostdin -hide_banner -loglevel error -re -t "$seconds" \
        -f lavfi -i "testsrc2=size=$size:rate=$fps" -f null - >"$work/c.log" 2>&1 || true
fi

# (d) Reel, full mode.
full_reel="$work/reel-full.mp4"
say "(d) $seconds s: reel record --source test:$size@$fps --mode full --duration $seconds"
timed "$work/d.time" "$reel" record --source "test:$size@$fps" --mode full --no-keep-awake \
    --canvas "$size" --duration "$seconds" --output "$full_reel" --library "$library" </dev/null \
    >"$work/d.log" 2>&1 || true
say "reel exited with status $(read_time "$work/d.time" exit)"

# (e) Reel, timelapse with the face tracker (CenterFace on every written frame).
tl_faces="$work/reel-timelapse-faces.mp4"
say "(e) $seconds s: reel record --source test:$size@$fps --mode timelapse --interval $interval --duration $seconds (face tracking)"
timed "$work/e.time" "$reel" record --source "test:$size@$fps" --mode timelapse --interval "$interval" --no-keep-awake \
    --canvas "$size" --duration "$seconds" --output "$tl_faces" --library "$library" </dev/null \
    >"$work/e.log" 2>&1 || true
say "reel exited with status $(read_time "$work/e.time" exit)"

say "checking the outputs with ffprobe"
# Reel's summary: "  timelapse 1920x1080: 60 frames, video 6.000 s, active 299.9 s (…), wall 300.2 s, 1.2 MB"
summary() {
    sed -n 's/^  [a-z]* [0-9]*x[0-9]*: \([0-9]*\) frames, video \([0-9.]*\) s, active \([0-9.]*\) s.*, wall \([0-9.]*\) s, \(.*\)$/\1 frames, video \2 s, active \3 s, wall \4 s, \5/p' "$1" | head -n 1
}
reel_problems() {
    grep -E 'FAILED|warning:|error|gaps between frames|stopped delivering|queued' "$1" | sed 's/^ *//' | sort | uniq -c |
        awk '{ $1 = $1 "x"; print }' | paste -sd ';' - || true
}
notes() { local n; n=$(reel_problems "$1"); echo "${n:-none}"; }

expected_tl=$(( (seconds + interval - 1) / interval ))
expected_full=$((seconds * fps))
tl_reel_frames=$( [ -s "$tl_reel" ] && packets "$tl_reel" || echo 0)
tl_ffmpeg_frames=$( [ -s "$tl_ffmpeg" ] && packets "$tl_ffmpeg" || echo 0)
full_frames=$( [ -s "$full_reel" ] && packets "$full_reel" || echo 0)
full_reel_said=$(summary "$work/d.log" | awk '{ print $1 }')
# Frames the recorder left out on purpose under heat or load (its summary says how many).
full_shed=$(sed -n 's/.*; \([0-9]*\) frames left out on purpose.*/\1/p' "$work/d.log" | head -n 1)
full_shed=${full_shed:-0}
full_bitrate="-"
if [ -s "$full_reel" ]; then
    full_bitrate=$(awk -v b="$(stat -c %s "$full_reel")" -v d="$(ffprobe_value "$full_reel" format=duration)" \
        'BEGIN { printf "%.2f Mbit/s (%d bytes / %.3f s)", (d > 0 ? 8 * b / d / 1e6 : 0), b, d }')
fi
say "decoding the full-mode output once (ffmpeg -f null)"
full_decode=$( [ -s "$full_reel" ] && { ffmpeg -nostdin -v warning -i "$full_reel" -f null - 2>&1 >/dev/null | wc -l; } || echo "-")

a_pct=$(cpu_pct "$work/a.time"); b_pct=$(cpu_pct "$work/b.time"); d_pct=$(cpu_pct "$work/d.time")
ratio=$(awk -v a="$(read_time "$work/a.time" cpu)" -v b="$(read_time "$work/b.time" cpu)" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')

tl_verdict=PASS
awk -v p="$a_pct" 'BEGIN { exit !(p < 10) }' || tl_verdict="FAIL (not under 10 %)"
[ "$(read_time "$work/a.time" exit)" = 0 ] || tl_verdict="FAIL (exit status $(read_time "$work/a.time" exit))"
[ $((tl_reel_frames - expected_tl)) -le 1 ] && [ $((expected_tl - tl_reel_frames)) -le 1 ] || tl_verdict="FAIL (frames)"
full_verdict=PASS
dropped=$((expected_full - full_frames - full_shed))
# The source starts with frame 0 and --duration may end on either side of the last frame.
[ "$dropped" -le 1 ] && [ "$dropped" -ge -1 ] || full_verdict="FAIL ($dropped frames missing)"
[ "$full_shed" = 0 ] || full_verdict="$full_verdict, but $full_shed frames left out on purpose (the machine was too busy: see other load)"
[ "$(read_time "$work/d.time" exit)" = 0 ] || full_verdict="FAIL (exit status $(read_time "$work/d.time" exit))"

line() { # line LABEL TIMEFILE
    printf '  %-22s %6s %%   %8s CPU-s  %8s s wall  %5s MB   %s\n' "$1" "$(cpu_pct "$2")" "$(read_time "$2" cpu)" \
        "$(read_time "$2" wall)" "$(read_time "$2" rss_mb)" "$(read_time "$2" other)"
}

cat <<RESULT

==== record: reel record from test:$size@$fps in real time, $seconds s per run, one run at a time ====
reel:       $(reel_version)
ffmpeg:     $(ffmpeg -version | head -n 1 | cut -d' ' -f1-3)
machine:    $machine
                         CPU (% of one core = user+sys / wall)      max RSS   other load (CPU-s, rest of the machine)
$(line "(a) reel timelapse" "$work/a.time")
$(line "(b) ffmpeg timelapse" "$work/b.time")
$( [ "$baseline" = 1 ] && line "(c) ffmpeg source only" "$work/c.time")
$(line "(d) reel full 1080p30" "$work/d.time")
$(line "(e) reel timelapse+faces" "$work/e.time")
timelapse:  every $interval s ($every source frames), 10 fps, x264 veryfast zerolatency CRF 23 (max 8M / buf 16M)
  reel/ffmpeg CPU: ${ratio}x ; goal: reel under 10 % of one core -> $tl_verdict
  reel   $(describe "$tl_reel"), moov first: $( [ -s "$tl_reel" ] && moov_first "$tl_reel" || echo -), expected ~$expected_tl frames
         Reel's summary: $(summary "$work/a.log")
  ffmpeg $(describe "$tl_ffmpeg"), moov first: $( [ -s "$tl_ffmpeg" ] && moov_first "$tl_ffmpeg" || echo -)
  sources differ: Reel draws its own test pattern, ffmpeg renders testsrc2; both render 1080p30 all the time
full mode:  $full_verdict — $full_frames frames in the file, $expected_full expected ($fps x $seconds s): $dropped lost, $full_shed left out on purpose; Reel counted ${full_reel_said:-?}
  $(describe "$full_reel"), moov first: $( [ -s "$full_reel" ] && moov_first "$full_reel" || echo -), average $full_bitrate
  Reel's summary: $(summary "$work/d.log")
  decode check: $full_decode ffmpeg warning lines
timelapse with face tracking: $(summary "$work/e.log"); $(grep -o 'face track: .*' "$work/e.log" | head -n 1)
reel notes: timelapse: $(notes "$work/a.log"); full: $(notes "$work/d.log"); timelapse+faces: $(notes "$work/e.log")
RESULT
