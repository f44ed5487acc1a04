#!/usr/bin/env bash
# Fetches hls.js 1.6.15 (Apache-2.0), the player the glass-to-glass test and bench play Reel's
# live HLS with in headless chromium, into ${XDG_CACHE_HOME:-~/.cache}/reel/hlsjs/hls-1.6.15.mjs.
#
# hls.js is not packaged in Debian. The PyPI wheel gradio==6.31.0 (Apache-2.0) carries it as a
# self-contained ES module, gradio/templates/frontend/assets/hls-DKvqWxTe.js: pip downloads the
# wheel (no dependencies, nothing installed), the file is taken out of it and checked against
# the size and SHA-256 recorded below, moved into place atomically, and the wheel deleted.
# Its exports have minified names; the page finds the one that creates an Hls and takes the
# class from it (Tests/Fixtures/hlsjs-g2g/g2g.js).
#
# Idempotent: when the file is there and matches, it prints nothing. REEL_HLSJS overrides the
# destination file (the tests and bench/glass-to-glass.sh read the same variable).
set -euo pipefail

readonly wheel_spec="gradio==6.31.0"
readonly member="gradio/templates/frontend/assets/hls-DKvqWxTe.js"
readonly expected_size=509139
readonly expected_sha256="6692562e22d2d7b7325223f3cdc306c7bdad4e18b215a738817f84aa8832d4f2"

say() { printf 'fetch-hlsjs: %s\n' "$*"; }
fail() { printf 'fetch-hlsjs: error: %s\n' "$*" >&2; exit 1; }

cache_home="${XDG_CACHE_HOME:-}"
case "$cache_home" in /*) ;; *) cache_home="$HOME/.cache" ;; esac
dest="${REEL_HLSJS:-$cache_home/reel/hlsjs/hls-1.6.15.mjs}"

source "$(dirname "${BASH_SOURCE[0]}")/wheel-member.sh"

if matches "$dest"; then
    exit 0
fi
if [ -e "$dest" ]; then
    say "$dest does not match hls.js 1.6.15 (size or SHA-256 differ); replacing it"
fi

# pip only downloads here: Debian's python3 with python3-pip, else the project's moto venv
# (scripts/setup-moto.sh), which always has pip.
pip=()
if python3 -m pip --version >/dev/null 2>&1; then
    pip=(python3 -m pip)
else
    cache_venv="${REEL_MOTO_VENV:-$cache_home/reel/moto-venv}"
    [ -x "$cache_venv/bin/pip" ] || fail "pip not found for python3 (Debian package python3-pip), nor $cache_venv/bin/pip (scripts/setup-moto.sh); one is needed to download $wheel_spec"
    pip=("$cache_venv/bin/pip")
fi

fetch_wheel_member "$wheel_spec" 'gradio-6.31.0-*.whl' "$member" "$dest" "for hls.js 1.6.15, Apache-2.0" \
    "Run 'make setup' again when online, or copy hls.js 1.6.15 as an ES module (SHA-256 $expected_sha256) to $dest"
