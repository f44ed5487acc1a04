#!/usr/bin/env bash
# Fetches MediaPipe's selfie segmentation model (person segmentation) as ONNX, into
# $XDG_DATA_HOME/reel/models/selfie_segmentation.onnx (default ~/.local/share/reel/models/).
#
# The model is MediaPipe selfie segmentation (Apache-2.0, Google). It comes from the PyPI wheel
# mediapipe==0.10.14 (cp311 manylinux2014 x86_64, ~36 MB; the file is the same whatever the
# machine, so that wheel is fetched wherever this runs): pip downloads the wheel (no
# dependencies, nothing installed), the file selfie_segmentation.tflite is taken out of it and
# checked against the size and SHA-256 recorded below. OpenCV 4.6 cannot read .tflite, so
# scripts/tflite_to_onnx.py converts it to ONNX (opset 11), using the PyPI packages listed in
# converter_packages at exact versions, installed into the temporary folder only (never into
# the system or the user's site-packages). With those versions the conversion is reproducible,
# so the ONNX file is checked against its own size and SHA-256 too, then moved into place
# atomically. Idempotent: when the installed model already matches, it prints nothing.
#
# The installed model (cv::dnn::readNetFromONNX):
#   input  "input": float32 NCHW 1x3x256x256, RGB, values in [0,1] (pixel / 255, no mean):
#                   cv::dnn::blobFromImage(bgr, 1.0 / 255, cv::Size(256, 256), cv::Scalar(),
#                                          /*swapRB=*/true, /*crop=*/false)
#   output "mask":  float32 NCHW 1x1x256x256, person probability in [0,1] (sigmoid applied).
#
# Needs python3 with pip (Debian packages python3 and python3-pip) and network access to PyPI.
# It uses the python3 found on PATH, or /usr/bin/python3 when that one has no pip.
# REEL_MODELS_DIR overrides the destination folder (as it does for reel itself).
set -euo pipefail

readonly wheel_spec="mediapipe==0.10.14"
readonly wheel_glob="mediapipe-0.10.14-*.whl"
readonly member="mediapipe/modules/selfie_segmentation/selfie_segmentation.tflite"
readonly tflite_size=249505
readonly tflite_sha256="9ee168ec7c8f2a16c56fe8e1cfbc514974cbbb7e434051b455635f1bd1462f5c"
readonly onnx_size=448568
readonly onnx_sha256="23be1990ee037a6f057cf87db8e88b46fc661f40712b5396dbfc184c693a22b7"
# The converter's packages, pinned with all their dependencies (installed with --no-deps).
readonly converter_packages=(tflite==2.18.0 flatbuffers==25.2.10 numpy==2.2.6 onnx==1.17.0 protobuf==5.29.5)

say() { printf 'fetch-segmentation-model: %s\n' "$*"; }
fail() { printf 'fetch-segmentation-model: error: %s\n' "$*" >&2; exit 1; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
converter="$here/tflite_to_onnx.py"

if [ -n "${REEL_MODELS_DIR:-}" ]; then
    dest_dir="$REEL_MODELS_DIR"
else
    data_home="${XDG_DATA_HOME:-}"
    case "$data_home" in /*) ;; *) data_home="$HOME/.local/share" ;; esac
    dest_dir="$data_home/reel/models"
fi
dest="$dest_dir/selfie_segmentation.onnx"

sha_of() { sha256sum "$1" | awk '{ print $1 }'; }
# matches FILE SIZE SHA256
matches() {
    [ -f "$1" ] && [ "$(stat -c %s "$1")" = "$2" ] && [ "$(sha_of "$1")" = "$3" ]
}

if matches "$dest" "$onnx_size" "$onnx_sha256"; then
    exit 0
fi
if [ -e "$dest" ]; then
    say "$dest does not match the expected model (size or SHA-256 differ); replacing it"
fi

[ -r "$converter" ] || fail "cannot read the converter $converter"

# The python3 on PATH (as scripts/fetch-model.sh uses), else Debian's when that one has no pip.
python=""
for candidate in "$(command -v python3 || true)" /usr/bin/python3; do
    if [ -n "$candidate" ] && [ -x "$candidate" ] && "$candidate" -m pip --version >/dev/null 2>&1; then
        python="$candidate"
        break
    fi
done
if [ -z "$python" ]; then
    command -v python3 >/dev/null 2>&1 || [ -x /usr/bin/python3 ] ||
        fail "python3 not found (Debian package python3); it is needed to download and convert the model"
    fail "pip not found for python3 (Debian package python3-pip)"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/reel-fetch-segmentation-model.XXXXXX")
tmp=""
cleanup() {
    rm -rf "$work"
    if [ -n "$tmp" ]; then rm -f "$tmp"; fi
}
trap cleanup EXIT

# pip's output goes to a log; on failure its last lines are shown.
pip_quietly() {
    if ! "$python" -m pip "$@" --quiet --disable-pip-version-check >"$work/pip.log" 2>&1; then
        sed 's/^/  pip: /' "$work/pip.log" | tail -n 5 >&2
        return 1
    fi
}

say "downloading $wheel_spec from PyPI (~36 MB; the selfie segmentation model, Apache-2.0)"
mkdir "$work/wheel"
pip_quietly download --no-deps --only-binary=:all: --python-version 3.11 \
        --platform manylinux2014_x86_64 --dest "$work/wheel" "$wheel_spec" ||
    fail "could not download $wheel_spec from PyPI (offline, or PyPI unreachable?); run this script again when online"

wheel=$(find "$work/wheel" -maxdepth 1 -name "$wheel_glob" | head -n 1)
[ -n "$wheel" ] || fail "pip reported success but left no mediapipe wheel in $work/wheel"

"$python" - "$wheel" "$member" "$work/selfie_segmentation.tflite" <<'PY' || fail "could not extract $member from $(basename "$wheel")"
import sys, zipfile
wheel, member, out = sys.argv[1:4]
with zipfile.ZipFile(wheel) as z, open(out, "wb") as f:
    f.write(z.read(member))
PY
rm -f "$wheel"

matches "$work/selfie_segmentation.tflite" "$tflite_size" "$tflite_sha256" ||
    fail "the extracted model does not match: size $(stat -c %s "$work/selfie_segmentation.tflite") (want $tflite_size), SHA-256 $(sha_of "$work/selfie_segmentation.tflite") (want $tflite_sha256)"

say "converting it to ONNX (installing ${converter_packages[*]} into a temporary folder)"
pip_quietly install --no-deps --only-binary=:all: --no-compile --no-warn-script-location \
        --target "$work/pylib" "${converter_packages[@]}" ||
    fail "could not install the converter's packages (${converter_packages[*]}) with $python ($("$python" --version 2>&1)); they need PyPI and a Python for which these versions have wheels (3.10 to 3.12)"

# PYTHONPATH puts the pinned packages first; -s keeps the user's site-packages out.
PYTHONPATH="$work/pylib" PYTHONDONTWRITEBYTECODE=1 "$python" -s "$converter" \
        "$work/selfie_segmentation.tflite" "$work/selfie_segmentation.onnx" ||
    fail "converting $member to ONNX failed (see the converter's message above)"

matches "$work/selfie_segmentation.onnx" "$onnx_size" "$onnx_sha256" ||
    fail "the converted model does not match: size $(stat -c %s "$work/selfie_segmentation.onnx") (want $onnx_size), SHA-256 $(sha_of "$work/selfie_segmentation.onnx") (want $onnx_sha256); scripts/tflite_to_onnx.py or the pinned package versions changed without updating the checksums here"

mkdir -p "$dest_dir"
tmp="$dest_dir/.selfie_segmentation.onnx.$$"
cp "$work/selfie_segmentation.onnx" "$tmp"
chmod 0644 "$tmp"
mv -f "$tmp" "$dest"
tmp=""
say "installed $dest"
