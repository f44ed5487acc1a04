#!/usr/bin/env bash
# Live HLS demo: starts a local nginx WebDAV origin on 127.0.0.1 (scripts/nginx-origin.sh, in
# a temporary prefix, on a free port), publishes 30 s of the synthetic test source to it with
# `reel live`, lists what was published, and stops nginx.
#
#   make demo                 # builds the release binary and runs this
#   REEL_BIN=path PORT=18080 DURATION=10 bash scripts/demo.sh
#
# The archive goes to $XDG_VIDEOS_DIR/reel/ (or ~/Videos/reel/) as reel-demo-DATE-TIME.mp4;
# ARCHIVE=FILE puts it elsewhere.
#
# Set KEEP=1 to leave the origin running (Ctrl-C to stop) so the stream can be replayed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
reel=${REEL_BIN:-"$(cd "$root" && swift build -c release --show-bin-path)/reel"}
duration=${DURATION:-30}
stream_id=demo
# The stream id is fixed (so the playlist URL is known before the run) and Reel will not
# overwrite an archive: each run gets its own archive file in Reel's default folder.
archive=${ARCHIVE:-"${XDG_VIDEOS_DIR:-$HOME/Videos}/reel/reel-demo-$(date +%Y%m%d-%H%M%S).mp4"}

say() { printf 'demo: %s\n' "$*"; }
fail() { printf 'demo: error: %s\n' "$*" >&2; exit 1; }

[ -x "$reel" ] || fail "no reel binary at $reel: run 'make build' (or set REEL_BIN)"

prefix=$(mktemp -d "${TMPDIR:-/tmp}/reel-demo.XXXXXX")
stop() {
    bash "$here/nginx-origin.sh" stop "$prefix" || true
    rm -rf "$prefix"
}
trap stop EXIT
trap 'exit 130' INT TERM

port=$(bash "$here/nginx-origin.sh" start "$prefix" ${PORT:+"$PORT"}) || fail "the origin did not start (see above)"
origin="http://127.0.0.1:$port/"

say "origin: $origin (nginx WebDAV, files in $prefix/www)"
say "playlist: ${origin}streams/$stream_id/playlist.m3u8"
say "running: reel live --source test --origin $origin --stream-id $stream_id --archive $archive --duration $duration"
status=0
"$reel" live --source test --origin "$origin" --stream-id "$stream_id" --archive "$archive" --duration "$duration" || status=$?

say "published:"
(cd "$prefix/www" && find . -type f | sort | sed 's|^\./|  |')
if [ "$status" -ne 0 ]; then
    fail "reel live exited with status $status"
fi
if [ "${KEEP:-0}" = 1 ]; then
    say "origin still serving ${origin}streams/$stream_id/playlist.m3u8; Ctrl-C to stop"
    while sleep 3600; do :; done
fi
