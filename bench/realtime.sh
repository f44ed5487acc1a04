#!/usr/bin/env bash
# Real-time run: does `reel live` keep up with a 30 fps camera on this machine, with the
# 1080x1920 HEVC archive written at the same time?
#
#   bash bench/realtime.sh                      # 5 minutes
#   SECONDS_TO_RUN=30 bash bench/realtime.sh    # a short trial
#
# Runs `reel live --source test:1280x720@30 --quality medium --archive FILE` against a local
# nginx origin (scripts/nginx-origin.sh) for SECONDS_TO_RUN seconds under /usr/bin/time, and
# reports: frames dropped by the live branch (goal 0, from Reel's summary), segments published
# vs produced (and what the origin really holds), archive frames vs 30 x seconds, the reel
# process's CPU (user+sys CPU seconds / wall seconds; 100 % = one core, 200 % = both) and
# its maximum resident memory.
#
# Environment: SECONDS_TO_RUN (300), SOURCE (test:1280x720@30), QUALITY (medium),
# REEL_BIN (default: the release build), KEEP_WORK=1 keeps the temporary folder.
BENCH_NAME=realtime
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

seconds=${SECONDS_TO_RUN:-300}
source_spec=${SOURCE:-test:1280x720@30}
quality=${QUALITY:-medium}
stream_id=realtime
fps=$(printf '%s' "$source_spec" | sed -n 's/.*@\([0-9][0-9]*\)$/\1/p')
fps=${fps:-30}
machine=$(machine_line)

start_origin "$work/origin"
archive="$work/archive.mp4"
log="$work/reel.log"

say "running for $seconds s: reel live --source $source_spec --quality $quality --origin $origin_url --stream-id $stream_id --archive $archive --duration $seconds"
say "(Reel prints a status line every 10 s)"
status=0
# tee -i: Ctrl-C must not kill the pipe reel writes its summary to.
timed "$work/time.txt" "$reel" live --source "$source_spec" --quality "$quality" \
    --origin "$origin_url" --stream-id "$stream_id" --archive "$archive" --duration "$seconds" \
    2>&1 | tee -i "$log" >&2 || true
status=$(read_time "$work/time.txt" exit)
say "reel exited with status $status"

say "checking the origin and the archive"
www="$origin_prefix/www/streams/$stream_id"
on_origin=$(find "$www/seg" -name '*.m4s' 2>/dev/null | wc -l)
listed=$(grep -c '^#EXTINF' "$www/playlist.m3u8" 2>/dev/null || true)
endlist=no
grep -q '^#EXT-X-ENDLIST' "$www/playlist.m3u8" 2>/dev/null && endlist=yes
bad_responses=$(awk -F'\t' '$3 ~ /^\/streams\// && $4 !~ /^2/' "$origin_prefix/logs/access.log" | wc -l)
archive_frames="missing"
archive_duration="-"
archive_codec="-"
if [ -s "$archive" ]; then
    # Packets, not decoded frames: counting them needs no decoding of 1080x1920 HEVC.
    archive_frames=$(ffprobe -v error -select_streams v:0 -count_packets -show_entries stream=nb_read_packets \
        -of default=noprint_wrappers=1:nokey=1 "$archive" | head -n 1)
    archive_duration=$(ffprobe_value "$archive" format=duration)
    archive_codec=$(ffprobe -v error -select_streams v:0 -show_entries stream=codec_name,width,height \
        -of csv=p=0 "$archive" | head -n 1 | awk -F, '{ print $1 " " $2 "x" $3 }')
    # Decoding the whole archive shows damage that probing does not.
    say "decoding the archive once to check it (ffmpeg -f null)"
    ffmpeg -nostdin -v warning -i "$archive" -f null - >/dev/null 2>"$work/ffprobe.txt" || true
fi

# Reel's summary lines, into shell variables.
eval "$(live_summary "$log")"

wall=$(read_time "$work/time.txt" wall)
cpu=$(read_time "$work/time.txt" cpu)
rss=$(read_time "$work/time.txt" rss_mb)
cpu_pct=$(awk -v c="$cpu" -v w="$wall" 'BEGIN { printf "%.0f", (w > 0 ? 100 * c / w : 0) }')
expected=$((fps * seconds))
ffprobe_warnings=$( [ -s "$work/ffprobe.txt" ] && wc -l < "$work/ffprobe.txt" || echo 0)

verdict=PASS
[ "$dropped" = 0 ] || verdict=FAIL
[ "$published" = "$produced" ] && [ "$on_origin" = "$produced" ] || verdict=FAIL
[ "$archive_frames" = "$expected" ] || verdict=FAIL
[ "$status" = 0 ] || verdict=FAIL

cat <<RESULT

==== realtime: reel live, $source_spec, $quality + HEVC archive, $seconds s, local nginx origin ====
reel:                 $(reel_version)
machine:              $machine
result:               $verdict (exit status $status; live: $live_state; archive: $archive_state)
dropped frames:       $dropped (goal 0)
segments:             $published published of $produced produced; origin holds $on_origin, playlist lists $listed, ENDLIST $endlist; $bad_responses non-2xx origin responses
archive frames:       $archive_frames of $expected expected ($fps x $seconds s); file ${archive_duration} s, $archive_codec; Reel counted $reel_archive_frames, left out $archive_skipped on purpose, capture waited ${backpressure} s on it
reel CPU:             ${cpu_pct} % of one core ($cpu CPU-s user+sys / $wall s wall; this machine has $(nproc) cores = $(( $(nproc) * 100 )) %)
max RSS:              $rss MB
other load:           $(read_time "$work/time.txt" other) CPU-s used by the rest of the machine (nginx included) during the run
reel problems:        $problems
archive decode:       $ffprobe_warnings ffmpeg warning lines decoding the archive
RESULT
if [ "$ffprobe_warnings" != 0 ]; then
    say "first decode warnings:"
    head -n 5 "$work/ffprobe.txt" >&2
fi
