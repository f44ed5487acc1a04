#!/usr/bin/env bash
# `reel pomodoro status` for a status bar: one `--follow` process against a new `reel` per
# poll, over the same minute with a pomodoro running.
#
#   bash bench/pomodoro.sh                 # 60 s
#   SECONDS_TO_RUN=20 bash bench/pomodoro.sh
#
# (a) `reel pomodoro status --waybar --follow` runs for SECONDS_TO_RUN; its CPU time (user +
#     system, /proc/PID/stat) and the lines it printed are read before it is stopped.
# (b) `reel pomodoro status --waybar` started once every 5 s (Waybar's "interval": 5) and once
#     every second (a countdown that ticks like (a)) for the same time, CPU time by
#     /usr/bin/time.
# The result block goes to stdout; progress to stderr.
BENCH_NAME=pomodoro
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

seconds=${SECONDS_TO_RUN:-60}
export XDG_STATE_HOME="$work/state"
"$reel" pomodoro start --minutes 30 >/dev/null

say "(a) --follow for $seconds s"
"$reel" pomodoro status --waybar --follow > "$work/follow.txt" &
follower=$!
sleep "$seconds"
read -r -a fields <<< "$(cut -d')' -f2- "/proc/$follower/stat")"
follow_ticks=$(( fields[11] + fields[12] ))
kill "$follower"; wait "$follower" 2>/dev/null || true
follow_lines=$(wc -l < "$work/follow.txt")

polls() {   # CPU seconds of `seconds / $1` separate status calls
    local every=$1 calls=$(( seconds / $1 ))
    /usr/bin/time -f "%U %S" -o "$work/time.txt" bash -c "for i in \$(seq $calls); do '$reel' pomodoro status --waybar >/dev/null; done"
    awk '{ printf "%.2f", $1 + $2 }' "$work/time.txt"
}
say "(b) a call every 5 s, then every second (CPU only: the calls run back to back)"
poll5=$(polls 5)
poll1=$(polls 1)

awk -v t="$follow_ticks" -v hz="$(getconf CLK_TCK)" -v lines="$follow_lines" -v s="$seconds" -v p5="$poll5" -v p1="$poll1" 'BEGIN {
    f = t / hz
    printf "pomodoro status for a status bar, %d s with a pomodoro running\n", s
    printf "  --follow, one process: %.2f CPU-s, %d lines (one per second)\n", f, lines
    printf "  a new reel every 5 s: %.2f CPU-s (%d updates)   every second: %.2f CPU-s\n", p5, s / 5, p1
    printf "  --follow / every 5 s: %.2fx the CPU with 5x the updates; / every second: %.2fx\n", (p5 > 0 ? f / p5 : 0), (p1 > 0 ? f / p1 : 0)
}'
