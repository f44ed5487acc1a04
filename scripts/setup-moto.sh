#!/usr/bin/env bash
# Installs the S3 test server, moto[server] 5.2.5 from PyPI (Apache-2.0), into a private venv:
# ${REEL_MOTO_VENV:-${XDG_CACHE_HOME:-~/.cache}/reel/moto-venv}. The tests of the S3 target
# (Tests/ReelLiveTests/S3) start it through scripts/moto-s3.py; nothing is installed into the
# system or the user's site-packages.
#
# moto is pinned; pip resolves its dependencies (their versions are recorded in the venv as
# `pip freeze` output, moto-freeze.txt, for a reader comparing machines). Idempotent: when the
# venv already has this moto, it prints nothing.
#
# Needs Debian's python3 with venv (python3-venv, in scripts/packages.txt) and network access
# to PyPI the first time.
set -euo pipefail

readonly moto_spec="moto[server]==5.2.5"
readonly moto_version="5.2.5"

say() { printf 'setup-moto: %s\n' "$*"; }
fail() { printf 'setup-moto: error: %s\n' "$*" >&2; exit 1; }

cache_home="${XDG_CACHE_HOME:-}"
case "$cache_home" in /*) ;; *) cache_home="$HOME/.cache" ;; esac
venv="${REEL_MOTO_VENV:-$cache_home/reel/moto-venv}"

# Debian's python3 (the one with python3-venv); another python3 on PATH is the fallback.
python=/usr/bin/python3
[ -x "$python" ] || python=$(command -v python3) || fail "python3 not found (Debian: apt-get install python3 python3-venv)"

installed_version() {
    [ -x "$venv/bin/python" ] || return 1
    "$venv/bin/python" -c 'import importlib.metadata as m, flask, werkzeug; print(m.version("moto"))' 2>/dev/null
}

if [ "$(installed_version || true)" = "$moto_version" ]; then
    exit 0
fi

say "installing $moto_spec into $venv"
rm -rf "$venv"
mkdir -p "$(dirname "$venv")"
"$python" -m venv "$venv" || fail "python3 -m venv failed (Debian: apt-get install python3-venv)"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input "$moto_spec" \
    || { rm -rf "$venv"; fail "pip could not install $moto_spec (is PyPI reachable?)"; }
[ "$(installed_version || true)" = "$moto_version" ] || { rm -rf "$venv"; fail "moto $moto_version is not importable after the install"; }
"$venv/bin/python" -m pip freeze --disable-pip-version-check > "$venv/moto-freeze.txt"
say "moto $moto_version ready ($(wc -l < "$venv/moto-freeze.txt") packages)"
