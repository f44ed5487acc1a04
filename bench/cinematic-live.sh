#!/usr/bin/env bash
# The cinematic camera live: a 720p30 source with a face, rendered at f/2 and
# encoded to H.264 in real time for 5 minutes on this machine. Goal: 0 pictures dropped, or,
# if the machine cannot keep up, the deliberate degradation Reel reports: a file source is
# played in real time; when the camera's work falls behind, the oldest waiting picture is
# dropped and counted, and the vision (detectors, matte) is slowed a step (15 → 5 looks a
# second, ReelCore's VisionRate) so that fewer are; both are in the summary.
#
#   bash bench/cinematic-live.sh                    # 5 minutes (~7 minutes the first time: the clip)
#   SECONDS_TO_RUN=20 bash bench/cinematic-live.sh  # a short trial
#   HEIGHT=1080 bash bench/cinematic-live.sh        # the 1080p30 goal
#
# The source is the clip of bench/cinematic-vs-python.sh (the astronaut swaying over a still
# noise texture, a little sensor noise on every picture), SECONDS_TO_RUN long, made once and
# cached. It runs `reel cinematic --source file:CLIP --output OUT.mp4 --aperture 2 --quiet`
# WITHOUT --fast (pictures paced at 30/s, as a camera delivers them) under /usr/bin/time and
# reports: pictures in the clip, written and dropped (Reel's summary), the frames in the output
# (ffprobe), wall and CPU seconds, CPU per picture, cores used, max RSS, and per interval of
# media time the pictures dropped (gaps in the output's timestamps) beside the CPU the rest of
# the machine used meanwhile. The cost of each stage per picture (matte, layer map, renderer)
# is bench/cinematic.sh's. Needs the models (scripts/fetch-model.sh,
# scripts/fetch-segmentation-model.sh).
#
# Environment: SECONDS_TO_RUN (300), HEIGHT (720; 1080 for 1920x1080), INTERVAL (seconds per row of the drop table; 30),
# REEL_BIN (default: the release build), KEEP_WORK=1 keeps the temporary folder.
BENCH_NAME=cinematic-live
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

length=${SECONDS_TO_RUN:-300}
interval=${INTERVAL:-30}
models=${REEL_MODELS_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/reel/models}
for model in centerface.onnx selfie_segmentation.onnx; do
    [ -r "$models/$model" ] || fail "model $models/$model missing: run scripts/fetch-model.sh and scripts/fetch-segmentation-model.sh"
done

height=${HEIGHT:-720}
clip=$(cinematic_clip "$height" "$length")
pictures_in=$(ffprobe -v error -select_streams v:0 -count_packets -show_entries stream=nb_read_packets -of csv=p=0 "$clip")
machine=$(machine_line)
out=$work/live.mp4

# Every 5 s from reel's start: seconds since the start, the machine's busy CPU-s and reel's own CPU-s (from
# /proc), to tell per interval how much of the machine something else took. It ends with reel
# (or this script).
sampler() {
    local start="" reel_pid="" ticks
    ticks=$(getconf CLK_TCK)
    while kill -0 "$$" 2>/dev/null; do
        if [ -z "$reel_pid" ]; then
            local time_pid
            time_pid=$(pgrep -P "$$" -x time | head -n 1 || true)
            [ -n "$time_pid" ] && reel_pid=$(pgrep -P "$time_pid" | head -n 1 || true)
            # Until reel has started, look again soon: the first sample is its start.
            [ -z "$reel_pid" ] && { sleep 0.1; continue; }
            start=$(date +%s.%N)
        fi
        if [ -n "$reel_pid" ]; then
            [ -r "/proc/$reel_pid/stat" ] || break
            # utime and stime are fields 14 and 15; the name in brackets has no spaces here.
            printf '%s %s %s\n' "$(awk -v s="$start" -v n="$(date +%s.%N)" 'BEGIN { printf "%.2f", n - s }')" \
                "$(machine_busy)" "$(awk -v hz="$ticks" '{ printf "%.2f", ($14 + $15) / hz }' "/proc/$reel_pid/stat" 2>/dev/null || echo -)"
        fi
        sleep 5
    done
}
sampler > "$work/samples.txt" &
sampler_pid=$!

say "playing the ${length} s clip in real time ($pictures_in pictures): reel cinematic --source file:$clip --output $out --aperture 2 --quiet"
status=0
timed "$work/time.txt" "$reel" cinematic --source "file:$clip" --output "$out" --aperture 2 --quiet \
    < /dev/null > "$work/reel.out" 2> "$work/reel.err" || status=$?
kill "$sampler_pid" 2>/dev/null || true
wait "$sampler_pid" 2>/dev/null || true
cat "$work/reel.err" "$work/reel.out" >&2
say "reel exited with status $status"

# Reel's summary: "wrote OUT: N pictures, S s (REASON); none dropped" or "…; D of M dropped:
# the camera's work was behind real time[; the vision was slowed to R looks a second to keep up]".
summary=$(grep -m 1 '^wrote ' "$work/reel.out" || true)
written=$(printf '%s' "$summary" | sed -n 's/^wrote .*: \([0-9][0-9]*\) pictures, .*/\1/p')
reel_seconds=$(printf '%s' "$summary" | sed -n 's/^wrote .*: [0-9][0-9]* pictures, \([0-9.]*\) s.*/\1/p')
dropped=$(printf '%s' "$summary" | sed -n 's/.*; \([0-9][0-9]*\) of [0-9][0-9]* dropped.*/\1/p')
reason=$(printf '%s' "$summary" | sed -n 's/^wrote .*: [0-9][0-9]* pictures, [0-9.]* s (\([^()]*\)).*/\1/p')
vision=$(printf '%s' "$summary" | sed -n 's/.*slowed to \([0-9.]*\) looks.*/\1/p')
case "$summary" in *"none dropped"*) dropped=0 ;; esac
vision=${vision:-15}
written=${written:-?} dropped=${dropped:-?} reel_seconds=${reel_seconds:-?} reason=${reason:-no summary}

frames="missing" duration="-" codec="-" gaps_total="-"
: > "$work/pts.txt"
if [ -s "$out" ]; then
    frames=$(ffprobe -v error -select_streams v:0 -count_packets -show_entries stream=nb_read_packets -of csv=p=0 "$out")
    duration=$(ffprobe_value "$out" format=duration)
    codec=$(ffprobe -v error -select_streams v:0 -show_entries stream=codec_name,width,height -of csv=p=0 "$out" | head -n 1 |
        awk -F, '{ print $1 " " $2 "x" $3 }')
    # The output keeps the source's timestamps: a missing picture is a gap of more than 1/30 s.
    ffprobe -v error -select_streams v:0 -show_entries packet=pts_time -of csv=p=0 "$out" | sort -g > "$work/pts.txt"
    gaps_total=$(awk 'NR == 1 { g = int($1 * 30 + 0.5) } NR > 1 { n = int(($1 - p) * 30 + 0.5) - 1; if (n > 0) g += n } { p = $1 } END { print g + 0 }' "$work/pts.txt")
fi

# Per interval of media time: pictures missing from the output, and the CPU-s reel and the
# rest of the machine used in the matching interval of wall time (reel plays the clip in real
# time, so media time is wall time since playback began, give or take the start-up).
table="  (no output to read)"
[ -s "$work/pts.txt" ] && table=$(awk -v step="$interval" -v len="$length" '
    FNR == 1 { file++ }
    file == 1 { if (FNR == 1) gap[0] += int($1 * 30 + 0.5); if (FNR > 1) { n = int(($1 - p) * 30 + 0.5) - 1; if (n > 0) gap[int(p / step)] += n } p = $1; next }
    file == 2 && $3 != "-" { t[++k] = $1; m[k] = $2; r[k] = $3 }
    function at(arr, x,   i) { for (i = 1; i <= k; i++) if (t[i] >= x) return arr[i]; return arr[k] }
    END {
        for (b = 0; b * step < len; b++) {
            from = b * step; to = (b + 1) * step; if (to > len) to = len
            if (k > 1) {
                rc = at(r, to) - at(r, from); oc = (at(m, to) - at(m, from)) - rc; if (oc < 0) oc = 0
                printf "  %4d-%-4d s   %7d   %10.1f   %12.1f\n", from, to, gap[b] + 0, rc, oc
            } else printf "  %4d-%-4d s   %7d   %10s   %12s\n", from, to, gap[b] + 0, "-", "-"
        }
    }' "$work/pts.txt" "$work/samples.txt" 2>/dev/null || true)

wall=$(read_time "$work/time.txt" wall)
cpu=$(read_time "$work/time.txt" cpu)
rss=$(read_time "$work/time.txt" rss_mb)
other=$(read_time "$work/time.txt" other)
cores=$(awk -v c="$cpu" -v w="$wall" 'BEGIN { printf "%.2f", (w > 0 ? c / w : 0) }')
per_written=$(awk -v c="$cpu" -v n="$written" 'BEGIN { printf "%.1f", (n > 0 ? 1000 * c / n : 0) }')
per_in=$(awk -v c="$cpu" -v n="$pictures_in" 'BEGIN { printf "%.1f", (n > 0 ? 1000 * c / n : 0) }')
dropped_pct=$(awk -v d="$dropped" -v n="$pictures_in" 'BEGIN { printf "%.2f", (n > 0 ? 100 * d / n : 0) }')
other_pct=$(awk -v o="$other" -v w="$wall" -v c="$(nproc)" 'BEGIN { printf "%.0f", (w > 0 ? 100 * o / (w * c) : 0) }')

# PASS: nothing dropped, every picture in the file. DEGRADED: pictures dropped, but each one
# counted in Reel's summary (written + dropped = the clip's pictures) and the file holds what
# Reel says it wrote. FAIL: anything else (a crash, counts that do not add up).
verdict=FAIL
if [ "$status" = 0 ] && [ "$frames" = "$written" ]; then
    if [ "$dropped" = 0 ] && [ "$written" = "$pictures_in" ]; then
        verdict="PASS (0 dropped)"
    elif [ "$dropped" != "?" ] && [ $((written + dropped)) = "$pictures_in" ]; then
        verdict="DEGRADED ($dropped dropped, each reported by Reel: written + dropped = pictures in)"
    fi
fi

cat <<RESULT

==== cinematic-live: reel cinematic, ${length} s ${height}p30 file played in real time, f/2, H.264 ====
reel:            $(reel_version)
machine:         $machine
source:          $clip ($pictures_in pictures, 30 fps, the astronaut swaying over a still texture)
result:          $verdict; exit status $status
reel's summary:  ${summary:-none}
vision:          the fewest looks a second it was slowed to: $vision (15: never slowed)
pictures:        $pictures_in in, $written written, $dropped dropped (${dropped_pct} %); output holds $frames frames ($gaps_total missing by its timestamps), ${duration} s, $codec
wall:            $wall s (clip $length s; Reel counts ${reel_seconds} s of video)
CPU:             $cpu CPU-s user+sys = $per_written ms per picture written ($per_in ms per picture in), ${cores} cores of $(nproc)
max RSS:         $rss MB
other load:      $other CPU-s used by the rest of the machine during the run (${other_pct} % of its $(nproc) cores)
dropped by media time, with the CPU-s reel and the rest of the machine used meanwhile (5 s samples):
  interval       dropped   reel CPU-s   other CPU-s
$table
RESULT
