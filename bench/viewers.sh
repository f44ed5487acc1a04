#!/usr/bin/env bash
# 500 simulated viewers (the origin's second benchmark, after bench/origin-vs-nginx.sh): does
# reel serve keep publishing fast while viewers poll it? reel live publishes a test stream to
# reel serve on loopback for SECONDS_TO_RUN seconds twice, one after the other: once with nobody
# watching ("idle"), once while VIEWERS simulated viewers (bench/viewers.py, one Python process)
# poll the playlist every second and fetch every new segment, as players do ("viewers"). The
# publish latency of each run is measured as bench/latency.sh measures it (bench/latency.py,
# from reel serve's access log: the time a segment is stored and listed in a stored playlist,
# minus the capture time of its last frame by PROGRAM-DATE-TIME). Goal: p95 with viewers within
# 10 % of idle.
#
#   bash bench/viewers.sh
#   SECONDS_TO_RUN=20 VIEWERS=100 bash bench/viewers.sh    # a quick trial
#
# Environment: SECONDS_TO_RUN (60), VIEWERS (500), ORDER ("idle viewers"), SEGMENTS (1: the
# viewers fetch each new segment; 0: playlist polls only), REEL_BIN, KEEP_WORK=1 keeps the
# data folder, the access log, a per-segment CSV and the viewers' JSON.
BENCH_NAME=viewers
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

seconds=${SECONDS_TO_RUN:-60}
viewers=${VIEWERS:-500}
order=${ORDER:-idle viewers}
segments=${SEGMENTS:-1}
machine=$(machine_line)

serve_pid=""
viewers_pid=""
stop_children() { stop_pids "$viewers_pid" "$serve_pid"; }
trap 'st=$?; stop_children; set +e; (exit $st); bench_cleanup' EXIT

# reel serve on a free loopback port, its own data folder and token, the access log in a file.
data="$work/data"
log="$work/access.log"
token_file="$work/token"
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$token_file"
chmod 600 "$token_file"
port=$(free_port)
"$reel" serve --host 127.0.0.1 --port "$port" --data "$data" --token-file "$token_file" --access-log "$log" \
    --max-connections-per-address 0 \
    > "$work/serve.log" 2>&1 &
serve_pid=$!
for _ in $(seq 1 100); do
    curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
    sleep 0.1
done
curl -fsS "http://127.0.0.1:$port/health" >/dev/null || fail "reel serve did not start: $(cat "$work/serve.log")"
origin="http://127.0.0.1:$port/"
say "reel serve on $origin (data $data)"

# CPU seconds (user + system) reel serve has used so far.
serve_cpu() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f\n", ($14 + $15) / hz }' "/proc/$serve_pid/stat"; }

declare -A started serve_used
viewer_args=()
[ "$segments" = 1 ] || viewer_args+=(--no-segments)

publish() {  # publish ID: reel live for SECONDS_TO_RUN, timed into $work/ID.time
    started[$1]=$(date +%s.%N)
    timed "$work/$1.time" "$reel" live --source test --origin "$origin" --token "$(cat "$token_file")" --no-archive \
        --stream-id "$1" --duration "$seconds" --quiet > "$work/$1.log" 2>&1 || true
    [ "$(read_time "$work/$1.time" exit)" = 0 ] || say "reel live ($1) exited with status $(read_time "$work/$1.time" exit): $(tail -n 3 "$work/$1.log")"
}

run_idle() {
    say "idle: reel live publishes for $seconds s, nobody watching"
    local before
    before=$(serve_cpu)
    publish idle
    serve_used[idle]=$(awk -v a="$before" -v b="$(serve_cpu)" 'BEGIN { printf "%.2f", b - a }')
}

run_viewers() {
    say "viewers: $viewers simulated viewers poll the playlist every second$([ "$segments" = 1 ] && echo " and fetch every new segment"); reel live publishes for $seconds s"
    local before
    before=$(serve_cpu)
    # The viewers start polling a second before the stream exists (404s until its first playlist)
    # and stop a few seconds after it ended.
    timed "$work/viewers-python.time" "$py" "$bench_dir/viewers.py" --url "${origin}streams/viewers/playlist.m3u8" \
        --viewers "$viewers" --duration $((seconds + 5)) --json "$work/viewers.json" "${viewer_args[@]}" \
        > "$work/viewers.out" 2>&1 &
    viewers_pid=$!
    sleep 1
    publish viewers
    wait "$viewers_pid" || say "the viewers reported errors: $(cat "$work/viewers.out")"
    viewers_pid=""
    serve_used[viewers]=$(awk -v a="$before" -v b="$(serve_cpu)" 'BEGIN { printf "%.2f", b - a }')
}

for run in $order; do
    "run_$run"
done
peak=$(awk '/VmHWM/ {printf "%.0f MB", $2 / 1024}' "/proc/$serve_pid/status")

say "computing the latencies from reel serve's access log"
status=0
table=$("$py" "$bench_dir/latency.py" --log-format reel --log "$log" --www "$data" --fps 30 \
    --started "idle=${started[idle]}" --started "viewers=${started[viewers]}" --goal-ratio 1.10 \
    --csv "$work/latency.csv" viewers idle) || status=$?

cpu_line() {  # cpu_line RUN: the CPU of the run's processes
    local live other
    live=$(read_time "$work/$1.time" cpu)
    other=$(read_time "$work/$1.time" other)
    if [ "$1" = viewers ]; then
        local python
        python=$(read_time "$work/viewers-python.time" cpu)
        other=$(awk -v o="$other" -v s="${serve_used[$1]}" -v p="$python" 'BEGIN { v = o - s - p; printf "%.1f", (v > 0 ? v : 0) }')
        printf 'reel live %s, reel serve %s, viewers (Python) %s CPU-s in %s s; rest of the machine %s CPU-s' \
            "$live" "${serve_used[$1]}" "$python" "$(read_time "$work/$1.time" wall)" "$other"
    else
        other=$(awk -v o="$other" -v s="${serve_used[$1]}" 'BEGIN { v = o - s; printf "%.1f", (v > 0 ? v : 0) }')
        printf 'reel live %s, reel serve %s CPU-s in %s s; rest of the machine %s CPU-s' \
            "$live" "${serve_used[$1]}" "$(read_time "$work/$1.time" wall)" "$other"
    fi
}

cat <<RESULT

==== viewers: reel live -> reel serve on 127.0.0.1, $seconds s each, idle and with $viewers simulated viewers ====
reel:     $(reel_version)
machine:  $machine
order:    $order (one after the other, the same reel serve)
viewers:  $viewers in one Python process, each on one keep-alive connection: the playlist every 1 s (gzip accepted)$([ "$segments" = 1 ] && echo ", then every new segment (from the live edge)")
          $(tail -n 1 "$work/viewers.out")
goal:     publish latency p95 with viewers at most 1.10x idle
$table
cpu idle:    $(cpu_line idle)
cpu viewers: $(cpu_line viewers)
reel serve peak memory (VmHWM): $peak
RESULT
exit "$status"
