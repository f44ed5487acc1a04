#!/usr/bin/env bash
# `reel refocus` of a 1080p30 recording: its time against the recording's own
# duration (1.0x = as long as the video lasts).
#
#   bash bench/refocus.sh                       # a 60 s clip (~6 minutes; ~8 the first time: the clip)
#   SECONDS_OF_CLIP=20 bash bench/refocus.sh    # a short trial
#
# The clip is bench/cinematic-vs-python.sh's recipe at 1920x1080 (the astronaut, 900 px high,
# swaying over a still noise texture, a little sensor noise on every picture), made once and
# cached. Then, each under /usr/bin/time:
#   record:   reel cinematic --source file:CLIP --output REC.mp4 --editable --fast --quiet
#             (the pictures unblurred, the layers and focus decisions in REC.mp4.cinematic)
#   refocus:  reel refocus REC.mp4 --at 10 --point 0.9,0.2 -o A.mp4
#             (from 10 s on, the focus racks to the background at the top right: the person
#             goes out of focus, the renderer's per-pixel path)
#   aperture: reel refocus REC.mp4 --aperture 4 -o B.mp4 (the recorded focus, f/4)
# and reports for each: wall, CPU-s, cores used, max RSS, pictures per second, wall / the clip's
# duration; every output's frames and duration (ffprobe). A focus check: the PSNR of the
# region around the point (a fifth of the picture each way) against the unblurred recording,
# before --at and from --at + 2 s: it should rise (the background there comes into focus).
#
# Environment: SECONDS_OF_CLIP (60), AT (10), POINT (0.9,0.2), APERTURE (4),
# REEL_BIN (default: the release build), KEEP_WORK=1 keeps the temporary folder.
BENCH_NAME=refocus
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

length=${SECONDS_OF_CLIP:-60}
at=${AT:-10}
point=${POINT:-0.9,0.2}
aperture=${APERTURE:-4}
models=${REEL_MODELS_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/reel/models}
for model in centerface.onnx selfie_segmentation.onnx; do
    [ -r "$models/$model" ] || fail "model $models/$model missing: run scripts/fetch-model.sh and scripts/fetch-segmentation-model.sh"
done
awk -v a="$at" -v l="$length" 'BEGIN { exit !(a + 4 < l) }' || fail "AT ($at) must be at least 4 s before the clip's end ($length s)"

clip=$(cinematic_clip 1080 "$length")
pictures=$(ffprobe -v error -select_streams v:0 -count_packets -show_entries stream=nb_read_packets -of csv=p=0 "$clip")
machine=$(machine_line)

rec=$work/rec.mp4
say "recording it editable, as fast as it goes: reel cinematic --source file:$clip --output $rec --editable --fast --quiet"
timed "$work/t-record" "$reel" cinematic --source "file:$clip" --output "$rec" --editable --fast --quiet \
    < /dev/null > "$work/record.out" 2>&1 || true
sed 's/^/    /' "$work/record.out" >&2
[ "$(read_time "$work/t-record" exit)" = 0 ] || fail "reel cinematic --editable failed (exit $(read_time "$work/t-record" exit)): see above"
[ -s "$rec.cinematic" ] || fail "no sidecar $rec.cinematic beside the recording"

runs=(refocus aperture)
declare -A args=(
    [refocus]="--at $at --point $point"
    [aperture]="--aperture $aperture"
)
for run in "${runs[@]}"; do
    say "$run: reel refocus $rec ${args[$run]} -o $work/$run.mp4"
    # shellcheck disable=SC2086 # the arguments are words
    timed "$work/t-$run" "$reel" refocus "$rec" ${args[$run]} -o "$work/$run.mp4" < /dev/null > "$work/$run.out" 2>&1 || true
    sed 's/^/    /' "$work/$run.out" >&2
    say "  $run: $(read_time "$work/t-$run" wall) s wall, $(read_time "$work/t-$run" cpu) CPU-s, exit $(read_time "$work/t-$run" exit)"
done

# output FILE: "N frames, D s, CODEC WxH" (or "missing").
output() {
    [ -s "$1" ] || { echo missing; return; }
    local frames duration codec
    frames=$(ffprobe -v error -select_streams v:0 -count_packets -show_entries stream=nb_read_packets -of csv=p=0 "$1")
    duration=$(ffprobe_value "$1" format=duration)
    codec=$(ffprobe -v error -select_streams v:0 -show_entries stream=codec_name,width,height -of csv=p=0 "$1" | head -n 1 |
        awk -F, '{ print $1 " " $2 "x" $3 }')
    printf '%s frames, %s s, %s\n' "$frames" "$duration" "$codec"
}

# line NAME TIMEFILE: one row of the result table.
line() {
    local wall cpu
    wall=$(read_time "$2" wall)
    cpu=$(read_time "$2" cpu)
    awk -v name="$1" -v w="$wall" -v c="$cpu" -v r="$(read_time "$2" rss_mb)" -v n="$pictures" -v l="$length" -v x="$(read_time "$2" exit)" \
        -v o="$(read_time "$2" other)" \
        'BEGIN { printf "  %-10s %8.2f %8.2f %6.2f %8.0f MB %10.1f %8.2fx %5s %8.1f\n", name, w, c, (w > 0 ? c / w : 0), r, (w > 0 ? n / w : 0), w / l, x, o }'
}

# region_psnr A B FROM TO: PSNR (dB) of the region around the point, A against B, from FROM
# to TO seconds (pictures paired in order).
region_psnr() {
    local x y crop
    x=${point%,*} y=${point#*,}
    # A fifth of the picture each way, centred on the point, kept inside the picture.
    crop="crop=w=iw/5:h=ih/5:x='max(0,min(iw-iw/5,$x*iw-iw/10))':y='max(0,min(ih-ih/5,$y*ih-ih/10))'"
    ffmpeg -nostdin -hide_banner -v info -ss "$3" -to "$4" -i "$1" -ss "$3" -to "$4" -i "$2" \
        -lavfi "[0:v]$crop,setpts=N/(30*TB)[a];[1:v]$crop,setpts=N/(30*TB)[b];[a][b]psnr=shortest=1" -f null - 2>&1 |
        sed -n 's/.*PSNR .*average:\([0-9.inf]*\).*/\1/p' | tail -n 1 | awk '{ print ($1 == "inf" ? $1 : sprintf("%.1f", $1)) }'
}

say "checking the outputs (ffprobe) and the focus around the point (PSNR against the unblurred recording)"
focus_check="no output"
if [ -s "$work/refocus.mp4" ]; then
    before=$(region_psnr "$work/refocus.mp4" "$rec" 0 "$at")
    after=$(region_psnr "$work/refocus.mp4" "$rec" "$(awk -v a="$at" 'BEGIN { print a + 2 }')" "$length")
    before_b=$(region_psnr "$work/aperture.mp4" "$rec" 0 "$at" 2>/dev/null || true)
    after_b=$(region_psnr "$work/aperture.mp4" "$rec" "$(awk -v a="$at" 'BEGIN { print a + 2 }')" "$length" 2>/dev/null || true)
    verdict=$(awk -v b="$before" -v a="$after" 'BEGIN { print (a == "inf" || (b != "inf" && a + 0 > b + 3) ? "sharper after --at: ok" : "NOT sharper after --at") }')
    focus_check="refocus ${before:-?} dB before ${at} s, ${after:-?} dB from $((${at%.*} + 2)) s ($verdict); aperture run (recorded focus, f/$aperture) ${before_b:-?} / ${after_b:-?} dB"
fi

other_total=$(awk -v a="$(read_time "$work/t-record" other)" -v b="$(read_time "$work/t-refocus" other)" -v c="$(read_time "$work/t-aperture" other)" \
    'BEGIN { printf "%.1f", a + b + c }')
wall_total=$(awk -v a="$(read_time "$work/t-record" wall)" -v b="$(read_time "$work/t-refocus" wall)" -v c="$(read_time "$work/t-aperture" wall)" \
    'BEGIN { printf "%.0f", a + b + c }')

cat <<RESULT

==== refocus: reel refocus of a ${length} s 1080p30 editable recording, time against its duration ====
reel:      $(reel_version)
machine:   $machine
source:    $clip ($pictures pictures, the astronaut swaying over a still texture)
sidecar:   $(du -k "$rec.cinematic" | cut -f1) KB ($rec.cinematic); recording $(du -k "$rec" | cut -f1) KB
$(printf '  %-10s %8s %8s %6s %11s %10s %9s %5s %8s' step "wall s" CPU-s cores "max RSS" pictures/s "wall/${length}s" exit "other CPU-s")
$(line record "$work/t-record")
$(line refocus "$work/t-refocus")
$(line aperture "$work/t-aperture")
  record:   reel cinematic --source file:CLIP --output REC.mp4 --editable --fast
  refocus:  reel refocus REC.mp4 ${args[refocus]} -o A.mp4
  aperture: reel refocus REC.mp4 ${args[aperture]} -o B.mp4
outputs:   REC $(output "$rec"); A $(output "$work/refocus.mp4"); B $(output "$work/aperture.mp4")
focus:     region around $point, PSNR against the unblurred recording: $focus_check
reel said: $(tail -n 1 "$work/refocus.out")
other load: $other_total CPU-s used by the rest of the machine during ${wall_total} s of runs
RESULT
