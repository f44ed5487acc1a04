#!/usr/bin/env bash
# Live HLS demo: starts Reel's own origin (`reel serve`, data in a temporary folder, on a free
# port of 127.0.0.1), publishes 30 s of the synthetic test source to it with `reel live`,
# prints the viewer's URL (open it in Chromium or Safari while the stream runs), lists what was
# published, and stops the origin. ORIGIN=nginx uses a local nginx WebDAV origin instead
# (scripts/nginx-origin.sh).
#
#   make demo                 # builds the release binary and runs this
#   REEL_BIN=path PORT=18080 DURATION=10 bash scripts/demo.sh
#   KEEP=1 make demo          # leave the origin (and its viewer) running; Ctrl-C to stop
#
# The archive goes to $XDG_VIDEOS_DIR/reel/ (or ~/Videos/reel/) as reel-demo-DATE-TIME.mp4;
# ARCHIVE=FILE puts it elsewhere.
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
serve_pid=""
stop() {
    if [ -n "$serve_pid" ]; then kill -TERM "$serve_pid" 2>/dev/null || true; wait "$serve_pid" 2>/dev/null || true; fi
    [ "${ORIGIN:-reel}" = nginx ] && { bash "$here/nginx-origin.sh" stop "$prefix" || true; }
    rm -rf "$prefix"
}
trap stop EXIT
trap 'exit 130' INT TERM

token_args=()
if [ "${ORIGIN:-reel}" = nginx ]; then
    port=$(bash "$here/nginx-origin.sh" start "$prefix" ${PORT:+"$PORT"}) || fail "the origin did not start (see above)"
    origin="http://127.0.0.1:$port/"
    files="$prefix/www"
    say "origin: $origin (nginx WebDAV, files in $files)"
else
    files="$prefix/data"
    "$reel" serve --host 127.0.0.1 --port "${PORT:-0}" --data "$files" --access-log "$prefix/access.log" > "$prefix/serve.log" 2>&1 &
    serve_pid=$!
    origin=""
    for _ in $(seq 1 100); do
        origin=$(sed -n 's/^ *base URL: *\(http[^ ]*\).*/\1/p' "$prefix/serve.log" | head -n 1)
        [ -n "$origin" ] && break
        kill -0 "$serve_pid" 2>/dev/null || break
        sleep 0.1
    done
    [ -n "$origin" ] || fail "reel serve did not start: $(cat "$prefix/serve.log")"
    token_args=(--token "$(cat "$files/token")")
    say "origin: $origin (reel serve, files in $files, access log $prefix/access.log)"
    say "viewer: $origin  (open it now: it shows the stream LIVE, then ENDED)"
fi
say "playlist: ${origin}streams/$stream_id/playlist.m3u8"
say "running: reel live --source test --origin $origin --stream-id $stream_id --archive $archive --duration $duration"
status=0
"$reel" live --source test --origin "$origin" "${token_args[@]}" --stream-id "$stream_id" --archive "$archive" --duration "$duration" || status=$?

say "published:"
(cd "$files" && find streams -type f | sort | sed 's|^|  |')
if [ "$status" -ne 0 ]; then
    fail "reel live exited with status $status"
fi
if [ "${KEEP:-0}" = 1 ]; then
    say "origin still serving ${origin}streams/$stream_id/playlist.m3u8 (viewer: $origin); Ctrl-C to stop"
    while sleep 3600; do :; done
fi
