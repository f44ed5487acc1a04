#!/usr/bin/env bash
# `reel overlay snap` at 1080x1920 portrait against the reference tools doing the same work
# on the same pictures, for each output format (HEIC, JPEG, TIFF), in one run.
#
#   bash bench/overlay-stills.sh                 # release build, 10 runs of everything (~2 min, 2 cores)
#   RUNS=5 REEL_BIN=/path/to/reel bash bench/overlay-stills.sh
#
# Inputs (made in a temporary folder, not cached): one 1920x1080 testsrc2 frame as y4m (yuv420p,
# untagged: Reel and swscale both read it as BT.601 video range), which the snap turns to
# 1080x1920; the same frame as an 8-bit sRGB PNG (ffmpeg, Reel's swscale flags) for
# ImageMagick; and a 1080x1920 RGBA artwork PNG (ImageMagick: a gradient, transparent except a
# soft-edged disc, a soft-edged rounded box and a 50 % band at the top). Both PNGs carry Reel's
# own sRGB profile, and ImageMagick converts to Reel's own Display P3 profile: both profiles are
# taken from Reel's files with `exiftool -icc_profile -b` (a JPEG and a TIFF of the frame).
#
# 1. Composite in linear Display P3. Reel: the `composite` figure of the line `reel overlay
#    snap` prints (`capture … ms, composite … ms, encode … ms, write … ms`), median over the
#    RUNS timed runs of each format in 2. It covers the frame's YUV → 16-bit RGB (swscale,
#    bicubic, full chroma), the turn to portrait, the crop (the whole picture here), sRGB →
#    linear Display P3 (lcms2, on both cores) and the blend of the artwork, as wall time inside
#    the process; not process start-up, not decoding the source, not reading the artwork (PNG
#    decode, its profile → premultiplied linear P3: done before the shutter), not encoding.
#    ImageMagick: the whole command, timed by hyperfine, nothing subtracted (process start-up,
#    decoding both PNGs, everything after; Q16, so 16-bit samples as Reel):
#
#      convert ( cam.png -rotate 90 -intent relative -profile P3.icc -set colorspace sRGB -colorspace RGB )
#              ( art.png -intent relative -profile P3.icc -set colorspace sRGB -colorspace RGB )
#              -compose over -composite null:
#
#    How ImageMagick is made to composite in linear light: `-profile P3.icc` converts each
#    picture from its embedded sRGB profile to Display P3 with lcms2 (relative colorimetric, as
#    Reel), which leaves P3 values with the sRGB transfer curve (Display P3 uses sRGB's curve).
#    `-colorspace RGB` from sRGB is ImageMagick's sRGB → linear conversion: per channel, the
#    sRGB curve undone, primaries untouched. So the two steps give exactly linear Display P3
#    (Reel's CLI has no linear-P3 ICC to hand to `-profile`, and none is needed); `-set
#    colorspace sRGB` only makes sure ImageMagick takes the values as curve-encoded. Alpha goes
#    through untouched, `-compose over` (straight alpha, Q16) blends in that linear space, and
#    the result is thrown away (`null:`), as Reel's composite is held in memory. A run of the
#    same command writing the result back as P3 is compared with Reel's TIFF (PSNR) to show that
#    it is the same picture. Two more ImageMagick commands are timed for context, not
#    subtracted: the same maths without ICC profiles (`-colorspace RGB` then `-color-matrix`
#    with the linear sRGB → P3 matrix), and start-up plus reading the two PNGs (`null:`).
#    Since ImageMagick's figure includes reading the artwork and Reel's does not, the script
#    also estimates Reel's artwork reading: a TIFF snap without `--art` is timed with the TIFF
#    runs, and (whole − stages with the artwork) − (whole − stages without) is printed, with
#    Reel's composite + that against ImageMagick.
#    Goal: Reel >= 3x faster than ImageMagick with the profiles.
#
# 2. Shutter → file. Reel: the whole `reel overlay snap --source file:SRC --art ART -o OUT
#    --force` timed by hyperfine (process start-up, reading the artwork, capture, composite,
#    encode, writing durably with fsync, exit), and its printed `encode` stage alone (the
#    linear P3 picture converted to the format's space by lcms2, to 8 bits for HEIC/JPEG, the
#    encoder, ICC and EXIF; in memory). Peers, whole commands timed by hyperfine, on the same
#    picture made from Reel's TIFF by ImageMagick:
#      HEIC: heif-enc -q 90 of an 8-bit Display P3 PNG (ICC embedded, nclx P3 / sRGB curve /
#            BT.601 full range as Reel writes it, both colr boxes), twice: with x265's medium
#            preset, as Reel encodes (-p preset=medium: the same settings, the goal's peer), and
#            with heif-enc's default (libheif asks x265 for preset slow), for context. Tune ssim,
#            4:2:0 on both sides; quality 90.
#      JPEG: cjpeg -quality 90 -sample 1x1 (4:4:4, as Reel from quality 90) of an 8-bit sRGB
#            PPM, with the sRGB ICC (-icc). No EXIF, no fsync.
#      TIFF: no peer; absolute figures.
#    A peer's whole command is its start-up, decoding the PNG/PPM, the encode and writing the
#    file (no fsync). The two encoders' files are compared with Reel's (PSNR, size). The block
#    also lists Reel's four stages per format and the rest of its command (whole − stages:
#    start-up, reading the artwork, exit). Goal: Reel's shutter → file <= 1.0x the
#    reference encoder's time.
#
# Each comparison alternates Reel and the peer: RUNS rounds, each one hyperfine call running
# every command of the comparison once, the order turned every round (a b, b a, …), one warm-up
# each in the first round; hyperfine subtracts its shell's start-up. Times are wall-clock
# medians over the RUNS runs, in ms; "CPU" is hyperfine's mean user + system time per run (x265,
# Reel's colour conversions and ImageMagick's OpenMP use both cores). "other load" is the CPU
# time the rest of the machine used while hyperfine ran (from /proc/stat, minus the measured
# commands): more than a few CPU-s means the run was disturbed and should be repeated.
#
# Needs: hyperfine, ffmpeg, ImageMagick (convert, compare), heif-enc (libheif-examples), cjpeg
# (libjpeg-turbo-progs), exiftool, python3; the release build (or REEL_BIN). Variables: RUNS
# (10), REEL_BIN, KEEP_WORK=1 keeps the temporary folder. Result block on stdout, progress on
# stderr.
set -euo pipefail
export LC_ALL=C

BENCH_NAME=overlay-stills
runs=${RUNS:-10}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
say() { printf '%s: %s\n' "$BENCH_NAME" "$*" >&2; }
fail() { printf '%s: error: %s\n' "$BENCH_NAME" "$*" >&2; exit 1; }

[[ $runs =~ ^[1-9][0-9]*$ ]] || fail "RUNS must be a whole number >= 1 (got '$runs')"
for tool in hyperfine ffmpeg convert compare heif-enc cjpeg exiftool python3; do
    command -v "$tool" >/dev/null 2>&1 || fail "$tool is not installed (hyperfine, ffmpeg, imagemagick, libheif-examples, libjpeg-turbo-progs, libimage-exiftool-perl, python3)"
done
if [ -n "${REEL_BIN:-}" ]; then
    reel=$REEL_BIN
else
    reel="$(cd "$root" && swift build -c release --show-bin-path 2>/dev/null)/reel" || reel=""
fi
[ -n "$reel" ] && [ -x "$reel" ] || fail "no reel binary (${reel:-none}): run 'make build' or set REEL_BIN"

work=$(mktemp -d "${TMPDIR:-/tmp}/reel-bench-$BENCH_NAME.XXXXXX")
cleanup() {
    local status=$?
    trap - EXIT ERR INT TERM
    if [ "${KEEP_WORK:-0}" = 1 ]; then say "kept the work folder: $work"; else rm -rf "$work"; fi
    exit "$status"
}
trap cleanup EXIT
trap 'say "failed (status $?) at line $LINENO: $BASH_COMMAND"' ERR
trap 'say "interrupted"; exit 130' INT
trap 'say "terminated"; exit 143' TERM

q() { printf '%q' "$1"; }
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
machine_busy() {  # CPU seconds the whole machine has been busy since boot (all cores)
    awk -v hz="$(getconf CLK_TCK)" '/^cpu / { printf "%.2f\n", ($2 + $3 + $4 + $7 + $8 + $9) / hz }' /proc/stat
}
psnr() {  # psnr A B: ImageMagick's PSNR in dB ("inf" when identical)
    local value
    value=$(compare -metric PSNR "$1" "$2" null: 2>&1 >/dev/null || true)
    printf '%s' "${value%% *}"
}
kib() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.0f", b / 1024 }'; }

# bench NAME -n LABEL CMD [-n LABEL CMD]...: RUNS rounds of one hyperfine run of each command,
# the order turned by one every round (a b, b a, ...: a burst of other load does not land on one
# side only), one warm-up each in the first round. $work/NAME.json gets, per command in the
# order given, the median wall time and the mean user and system time; other_load gains the
# machine's CPU time outside the commands.
other_load=0 timed_seconds=0
bench() {
    local name=$1 before after start end round i k labels=() commands=() args
    shift
    while [ $# -gt 0 ]; do labels+=("$2") commands+=("$3"); shift 3; done
    before=$(machine_busy)
    start=$(date +%s.%N)
    for round in $(seq 1 "$runs"); do
        args=()
        for i in "${!labels[@]}"; do
            k=$(( (i + round - 1) % ${#labels[@]} ))
            args+=(-n "${labels[$k]}" "${commands[$k]}")
        done
        say "$name: round $round/$runs"
        hyperfine --style none --warmup $(( round == 1 ? 1 : 0 )) --runs 1 --export-json "$work/$name.$round.json" "${args[@]}" >&2
    done
    end=$(date +%s.%N)
    after=$(machine_busy)
    read -r other_load timed_seconds < <(python3 - "$work/$name" "$runs" "$before" "$after" "$other_load" "$timed_seconds" "$start" "$end" "${labels[@]}" <<'PY'
import json, statistics, sys
base, runs, before, after, other, timed, start, end, *labels = sys.argv[1:]
rounds = [json.load(open(f"{base}.{r}.json"))["results"] for r in range(1, int(runs) + 1)]
out, used = [], 0.0
for label in labels:
    runs_of = [next(x for x in results if x["command"] == label) for results in rounds]
    cpu = [x["user"] + x["system"] for x in runs_of]
    used += sum(cpu) + cpu[0]  # the warm-up: about as much as the first run
    times = [x["times"][0] for x in runs_of]
    out.append({"command": label, "median": statistics.median(times), "min": min(times), "max": max(times),
                "user": statistics.mean(x["user"] for x in runs_of), "system": statistics.mean(x["system"] for x in runs_of)})
    print(f"overlay-stills: {label}: median {1000 * out[-1]['median']:.1f} ms ({1000 * min(times):.1f} … {1000 * max(times):.1f})", file=sys.stderr)
json.dump({"results": out}, open(f"{base}.json", "w"), indent=1)
print(f"{float(other) + max(0.0, float(after) - float(before) - used):.1f} {float(timed) + float(end) - float(start):.0f}")
PY
)
}

# stat_ms NAME INDEX FIELD: median (wall) or cpu (mean user + system) of command INDEX, in ms.
stat_ms() {
    python3 - "$work/$1.json" "$2" "$3" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]
print(f"{1000 * (r['median'] if sys.argv[3] == 'median' else r['user'] + r['system']):.1f}")
PY
}

# stage_ms LOG STAGE: median of Reel's printed stage over the last RUNS runs (the warm-up first).
stage_ms() {
    grep -E '^  capture [0-9]+ ms' "$1" | tail -n "$runs" \
        | sed -E "s/.* $2 ([0-9]+) ms.*/\\1/" | median
}

say "reel: $reel; $runs runs per command"
say "making the inputs"
src=$work/source.y4m cam=$work/camera.png art=$work/art.png
ffmpeg -nostdin -v error -y -f lavfi -i "testsrc2=size=1920x1080:rate=30" -frames:v 1 -pix_fmt yuv420p "$src"
"$reel" overlay snap --source "file:$src" -o "$work/profile.tiff" >/dev/null
"$reel" overlay snap --source "file:$src" -o "$work/profile.jpg" >/dev/null
exiftool -q -icc_profile -b "$work/profile.tiff" >"$work/p3.icc"
exiftool -q -icc_profile -b "$work/profile.jpg" >"$work/srgb.icc"
[ -s "$work/p3.icc" ] && [ -s "$work/srgb.icc" ] || fail "could not extract Reel's ICC profiles with exiftool"
ffmpeg -nostdin -v error -y -i "$src" \
    -vf 'scale=flags=bicubic+full_chroma_int+full_chroma_inp+accurate_rnd,format=rgb24' -frames:v 1 "$work/camera-plain.png"
convert "$work/camera-plain.png" -profile "$work/srgb.icc" "$cam"
convert -size 1080x1920 'gradient:#ff2a6d-#05d9e8' \
    \( -size 1080x1920 xc:black -fill white -draw 'roundrectangle 90,1320 990,1800 70,70' -draw 'circle 540,520 540,820' \
       -fill gray50 -draw 'rectangle 0,0 1079,140' -blur 0x14 \) \
    -alpha off -compose copy_opacity -composite -profile "$work/srgb.icc" -depth 8 "$art"

# The composite as Reel makes it, for the peers' inputs and the PSNR checks.
"$reel" overlay snap --source "file:$src" --art "$art" -o "$work/reel-ref.tiff" >/dev/null
convert "$work/reel-ref.tiff" -depth 8 "$work/composite-p3.png"
convert "$work/reel-ref.tiff" -intent relative -profile "$work/srgb.icc" -depth 8 "$work/composite-srgb.ppm"

linear_p3="-intent relative -profile $(q "$work/p3.icc") -set colorspace sRGB -colorspace RGB"
im_profile="convert \\( $(q "$cam") -rotate 90 $linear_p3 \\) \\( $(q "$art") $linear_p3 \\) -compose over -composite"
matrix='0.822462 0.177538 0 0.033194 0.966806 0 0.017083 0.072397 0.910520'  # linear sRGB -> linear P3 (D65)
linear_p3_matrix="-set colorspace sRGB -colorspace RGB -color-matrix '$matrix'"
im_matrix="convert \\( $(q "$cam") -rotate 90 $linear_p3_matrix \\) \\( $(q "$art") $linear_p3_matrix \\) -compose over -composite"
im_read="convert $(q "$cam") $(q "$art") null:"

say "checking that ImageMagick makes the same picture"
eval "$im_profile -set colorspace RGB -colorspace sRGB -depth 16 $(q "$work/im-profile.tiff")"
eval "$im_matrix -set colorspace RGB -colorspace sRGB -depth 16 $(q "$work/im-matrix.tiff")"
psnr_im=$(psnr "$work/reel-ref.tiff" "$work/im-profile.tiff")
psnr_im_matrix=$(psnr "$work/reel-ref.tiff" "$work/im-matrix.tiff")

say "1. composite: ImageMagick (Reel's composite times come from the runs of 2.)"
bench composite -n "convert -profile" "$im_profile null:" -n "convert -color-matrix" "$im_matrix null:" -n "convert read only" "$im_read"

snap() {  # snap FORMAT EXT [LOG]: the whole reel command, its stage line appended to $work/LOG.log
    printf '%q overlay snap --source %q --art %q -o %q --force >>%q' "$reel" "file:$src" "$art" "$work/reel.$2" "$work/${3:-$1}.log"
}
say "2. shutter -> file: HEIC"
bench heic -n "reel heic" "$(snap heic heic)" \
    -n "heif-enc -q 90" "heif-enc -q 90 --enable-two-colr-boxes --colour_primaries 12 --transfer_characteristic 13 --matrix_coefficients 6 --full_range_flag 1 -o $(q "$work/peer-slow.heic") $(q "$work/composite-p3.png")" \
    -n "heif-enc -q 90 -p preset=medium" "heif-enc -q 90 -p preset=medium --enable-two-colr-boxes --colour_primaries 12 --transfer_characteristic 13 --matrix_coefficients 6 --full_range_flag 1 -o $(q "$work/peer.heic") $(q "$work/composite-p3.png")"
say "2. shutter -> file: JPEG"
bench jpeg -n "reel jpeg" "$(snap jpeg jpg)" \
    -n "cjpeg -quality 90" "cjpeg -quality 90 -sample 1x1 -icc $(q "$work/srgb.icc") -outfile $(q "$work/peer.jpg") $(q "$work/composite-srgb.ppm")"
say "2. shutter -> file: TIFF"
bench tiff -n "reel tiff" "$(snap tiff tiff)" \
    -n "reel tiff, no artwork" "$(printf '%q overlay snap --source %q -o %q --force >>%q' "$reel" "file:$src" "$work/reel-plain.tiff" "$work/plain.log")"

psnr_heic=$(psnr "$work/reel.heic" "$work/peer.heic")
psnr_jpeg=$(psnr "$work/reel.jpg" "$work/peer.jpg")

im_ms=$(stat_ms composite 0 median) im_cpu=$(stat_ms composite 0 cpu)
im_matrix_ms=$(stat_ms composite 1 median) im_read_ms=$(stat_ms composite 2 median)

echo "== overlay-stills: reel overlay snap, 1920x1080 frame -> 1080x1920 portrait + 1080x1920 RGBA artwork; medians of $runs runs ($(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ)) =="
printf '%-6s %-31s %9s %9s  %-22s %s\n' format measure "Reel ms" "peer ms" "Reel/peer" peer
rows=() verdict_composite="" verdict_file=""
for f in heic jpeg tiff; do
    F=${f^^}
    whole=$(stat_ms "$f" 0 median)
    cap=$(stage_ms "$work/$f.log" capture) comp=$(stage_ms "$work/$f.log" composite)
    enc=$(stage_ms "$work/$f.log" encode) wr=$(stage_ms "$work/$f.log" write)
    awk -v r="$comp" -v p="$im_ms" -v F="$F" 'BEGIN {
        printf "%-6s %-31s %9.1f %9.1f  %-22s %s\n", F, "composite, linear Display P3", r, p,
            sprintf("%.3f (%.1fx %s)", r / p, (r < p ? p / r : r / p), (r < p ? "faster" : "slower")), "ImageMagick convert -profile, whole command" }'
    verdict_composite+=$(awk -v r="$comp" -v p="$im_ms" -v F="$F" 'BEGIN { printf " %s %.1fx faster%s;", F, p / r, (p / r >= 3 ? "" : " (NOT met)") }')
    if [ "$f" = tiff ]; then
        printf '%-6s %-31s %9.1f %9s  %-22s %s\n' "$F" "shutter -> file, whole command" "$whole" - - "no peer"
        printf '%-6s %-31s %9.1f %9s  %-22s %s\n' "$F" "encode stage alone" "$enc" - - "no peer"
    else
        peer_ms=$(stat_ms "$f" "$([ "$f" = heic ] && echo 2 || echo 1)" median)
        peer_name=$([ "$f" = heic ] && echo "heif-enc -q 90 -p preset=medium, whole command" || echo "cjpeg -quality 90 -sample 1x1, whole command")
        awk -v w="$whole" -v e="$enc" -v p="$peer_ms" -v F="$F" -v n="$peer_name" 'BEGIN {
            printf "%-6s %-31s %9.1f %9.1f  %-22s %s\n", F, "shutter -> file, whole command", w, p, sprintf("%.2f", w / p), n
            printf "%-6s %-31s %9.1f %9.1f  %-22s %s\n", F, "encode stage alone", e, p, sprintf("%.2f", e / p), n }'
        verdict_file+=$(awk -v w="$whole" -v p="$peer_ms" -v F="$F" 'BEGIN { printf " %s %.2fx%s;", F, w / p, (w / p <= 1 ? "" : " (NOT met)") }')
        if [ "$f" = heic ]; then
            awk -v w="$whole" -v p="$(stat_ms heic 1 median)" 'BEGIN {
                printf "%-6s %-31s %9.1f %9.1f  %-22s %s\n", "HEIC", "shutter -> file, whole command", w, p, sprintf("%.2f", w / p), "heif-enc -q 90 (its default: preset slow), whole command" }'
        fi
    fi
    rows+=("$(awk -v F="$F" -v w="$whole" -v c="$cap" -v m="$comp" -v e="$enc" -v r="$wr" -v cpu="$(stat_ms "$f" 0 cpu)" 'BEGIN {
        printf "  %-4s capture %s, composite %s, encode %s, write %s; rest %.0f (start-up, reading the artwork, exit); whole %.0f ms, CPU %.0f ms",
            F, c, m, e, r, w - c - m - e - r, w, cpu }')")
done
echo "Reel's stages, medians in ms (rest = whole command - the four stages):"
printf '%s\n' "${rows[@]}"
echo "CPU per run (user+sys, mean; above the wall time when both cores work): ImageMagick -profile $im_cpu ms; heif-enc $(stat_ms heic 2 cpu) ms (preset slow: $(stat_ms heic 1 cpu) ms); cjpeg $(stat_ms jpeg 1 cpu) ms"
# Reading the artwork happens before the shutter, outside Reel's stages: the TIFF command's rest
# (whole - stages) with the artwork minus the same without it.
rest_ms() {  # rest_ms LOG INDEX: whole (median) - median stages
    local s total=0
    for s in capture composite encode write; do total=$(awk -v t="$total" -v v="$(stage_ms "$work/$1.log" "$s")" 'BEGIN { print t + v }'); done
    awk -v w="$(stat_ms tiff "$2" median)" -v t="$total" 'BEGIN { printf "%.1f", w - t }'
}
art_ms=$(awk -v a="$(rest_ms tiff 0)" -v b="$(rest_ms plain 1)" 'BEGIN { printf "%.0f", a - b }')
tiff_comp=$(stage_ms "$work/tiff.log" composite)
echo "Reel reading the artwork (PNG decode, its profile -> premultiplied linear P3; before the shutter, in no stage): ~$art_ms ms (rest of the TIFF command with the artwork - without, $(stat_ms tiff 1 median) ms whole without)"
awk -v c="$tiff_comp" -v a="$art_ms" -v p="$im_ms" -v m="$im_matrix_ms" 'BEGIN {
    printf "Reel composite + reading the artwork (TIFF runs): ~%.0f ms; ImageMagick takes %.1fx as long with -profile, %.1fx with -color-matrix\n", c + a, p / (c + a), m / (c + a) }'
echo "ImageMagick for context (not subtracted): same maths without ICC (-colorspace RGB + -color-matrix sRGB->P3) $im_matrix_ms ms; start-up + reading the two PNGs only $im_read_ms ms"
echo "same picture (PSNR against Reel's): ImageMagick composite -profile $psnr_im dB, -color-matrix $psnr_im_matrix dB; heif-enc $psnr_heic dB ($(kib "$work/peer.heic") KiB vs Reel's $(kib "$work/reel.heic") KiB); cjpeg $psnr_jpeg dB ($(kib "$work/peer.jpg") KiB vs $(kib "$work/reel.jpg") KiB); Reel's TIFF $(kib "$work/reel.tiff") KiB"
echo "goal composite >= 3x faster than ImageMagick:${verdict_composite%;}"
echo "goal shutter -> file <= 1.0x the reference encoder:${verdict_file%;}"
echo "other load: $other_load CPU-s used by other processes during $timed_seconds s of timing"
