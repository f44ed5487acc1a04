#!/usr/bin/env bash
# 2,000 simulated LL-HLS viewers with blocking reload: does reel serve
# keep publishing parts fast, and how much memory and CPU does it take, while 2,000 players
# hold blocking playlist requests? reel live --low-latency publishes a test stream (2 s
# segments, parts of 1/3 s) to reel serve on loopback for SECONDS_TO_RUN seconds twice, one
# after the other with the same settings: once with nobody watching ("idle"), once while
# VIEWERS simulated players (bench/ll_viewers.py, one Python process, asyncio) watch it as
# hls.js in lowLatencyMode does: a blocking reload `?_HLS_msn=N&_HLS_part=M` for the hinted
# part, held by reel serve until that part is listed, then a GET of each new part.
#
#   bash bench/ll-viewers.sh
#   SECONDS_TO_RUN=20 VIEWERS=200 bash bench/ll-viewers.sh    # a quick trial
#
# Measured (bench/ll_latency.py, from reel serve's access log and the final playlists):
# - publish latency per part: listed (the end of the first playlist PUT begun after the part
#   was stored) minus the capture time of the part's last frame (PROGRAM-DATE-TIME of its
#   segment plus the durations of its parts so far), p50/p95 idle vs viewers and the ratio;
# - the viewers' view: when each viewer's blocking reload returned the playlist listing a
#   part, minus the time the part was stored (and listed); when it had read the part, minus
#   its capture; blocking reloads answered, 503s, errors;
# - reel serve's resident memory (VmRSS every 0.5 s, its peak per run, VmHWM) and CPU
#   seconds; reel live's and the viewers' CPU seconds (all share this machine's cores).
#
# The viewers connect from loopback addresses 127.1.X.Y, PER_ADDRESS (16) each, so reel
# serve's per-address cap (32) applies unchanged; its --max-connections (default 512) is
# raised to MAX_CONNECTIONS (default 2 x VIEWERS + 64), since every viewer holds a connection:
# at three quarters of --max-connections open, reel serve counts itself "under pressure" and
# drops keep-alive connections idle for over 1 s (at VIEWERS + 64 the 2,000 viewers would be
# past that line and lose their connections while waiting for the stream). `ulimit -n` is
# raised for both processes (a viewer costs one descriptor on each side).
#
# Environment: SECONDS_TO_RUN (60), VIEWERS (2000), MODE (parts: GET parts once listed, as
# hls.js; hint: GET the hinted part, held until stored; playlist: blocking reloads only, no
# media), MAX_CONNECTIONS, SOURCE (test:640x360@30), QUALITY
# (medium), PER_ADDRESS (16), PORT (a free one), REEL_BIN, KEEP_WORK=1 keeps the data folder,
# the access log, the memory samples, a per-part CSV and the viewers' JSON.
BENCH_NAME=ll-viewers
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

seconds=${SECONDS_TO_RUN:-60}
viewers=${VIEWERS:-2000}
mode=${MODE:-parts}
source_spec=${SOURCE:-test:640x360@30}
quality=${QUALITY:-medium}
per_address=${PER_ADDRESS:-16}
max_connections=${MAX_CONNECTIONS:-$((2 * viewers + 64))}
machine=$(machine_line)
[[ "$viewers" =~ ^[0-9]+$ ]] || fail "VIEWERS must be a whole number, not '$viewers'"
[[ "$seconds" =~ ^[0-9]+$ ]] && [ "$seconds" -ge 10 ] || fail "SECONDS_TO_RUN must be a whole number of at least 10, not '$seconds'"
[[ "$mode" =~ ^(parts|hint|playlist)$ ]] || fail "MODE must be parts, hint or playlist, not '$mode'"

# Descriptors: each viewer holds one socket here and one in reel serve (plus files, the log).
need_fds=$((max_connections + 1024))
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt "$need_fds" ]; then
    hard=$(ulimit -Hn)
    if [ "$hard" != unlimited ] && [ "$hard" -lt "$need_fds" ]; then
        fail "$viewers viewers need $need_fds file descriptors per process, but the hard limit (ulimit -Hn) is $hard: raise it (limits.conf, or run as root) or lower VIEWERS"
    fi
    ulimit -n "$need_fds"
fi
say "file descriptors per process: $(ulimit -n)"

# Loopback source addresses for the viewers (all of 127.0.0.0/8 is this machine on Linux).
source_net=127.1
if ! "$py" -c 'import socket; s = socket.socket(); s.bind(("127.1.0.1", 0)); s.close()' 2>/dev/null; then
    fail "cannot bind a socket to 127.1.0.1: the viewers need loopback source addresses beyond 127.0.0.1"
fi

serve_pid=""
monitor_pid=""
wrapped=()   # /usr/bin/time wrappers running in the background (reel live, the viewers)
stop_wrapped() {  # stop_wrapped PID: the command under /usr/bin/time PID, then the wrapper
    # SIGTERM, not SIGINT: commands started with & by a script ignore SIGINT (reel live stops
    # cleanly on either; the viewers just end).
    local child
    for child in $(pgrep -P "$1" 2>/dev/null); do kill -TERM "$child" 2>/dev/null || true; done
    wait "$1" 2>/dev/null || true
}
stop_children() {
    local pid
    for pid in "${wrapped[@]}"; do stop_wrapped "$pid"; done
    [ -n "$monitor_pid" ] && { kill "$monitor_pid" 2>/dev/null || true; wait "$monitor_pid" 2>/dev/null || true; }
    if [ -n "$serve_pid" ] && kill -0 "$serve_pid" 2>/dev/null; then
        kill -TERM "$serve_pid" 2>/dev/null || true
        for _ in $(seq 1 150); do kill -0 "$serve_pid" 2>/dev/null || break; sleep 0.1; done
        kill -0 "$serve_pid" 2>/dev/null && { say "reel serve did not stop in 15 s after SIGTERM: killing it"; kill -KILL "$serve_pid" 2>/dev/null || true; }
        wait "$serve_pid" 2>/dev/null || true
    fi
    serve_pid=""
}
# set +e: under errexit, the (exit $st) that hands the status on would end the trap before
# bench_cleanup removes the work folder.
trap 'st=$?; stop_children; set +e; (exit $st); bench_cleanup' EXIT

# reel serve on loopback: its own data folder and token, the access log in a file.
data="$work/data"
log="$work/access.log"
token_file="$work/token"
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$token_file"
chmod 600 "$token_file"
if [ -n "${PORT:-}" ]; then
    port=$PORT
    if "$py" -c 'import socket, sys; s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1", int(sys.argv[1])))' "$port" 2>/dev/null; then :; else
        fail "port $port on 127.0.0.1 is taken (another program listens there): stop it, pick another PORT, or leave PORT unset for a free one"
    fi
else
    port=$(free_port)
fi
"$reel" serve --host 127.0.0.1 --port "$port" --data "$data" --token-file "$token_file" --access-log "$log" \
    --max-connections "$max_connections" > "$work/serve.log" 2>&1 &
serve_pid=$!
for _ in $(seq 1 100); do
    curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
    kill -0 "$serve_pid" 2>/dev/null || break
    sleep 0.1
done
if ! curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1; then
    wait "$serve_pid" 2>/dev/null || true
    serve_pid=""
    fail "reel serve did not start on 127.0.0.1:$port: $(tail -n 3 "$work/serve.log")"
fi
origin="http://127.0.0.1:$port/"
say "reel serve on $origin (--max-connections $max_connections, per-address cap left at its default; data $data)"

# reel serve's resident memory every 0.5 s: "unix_time rss_kb".
(
    while [ -r "/proc/$serve_pid/status" ]; do
        rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$serve_pid/status" 2>/dev/null) || break
        printf '%s %s\n' "$(date +%s.%N)" "$rss"
        sleep 0.5
    done
) > "$work/rss.txt" 2>/dev/null &
monitor_pid=$!

serve_cpu() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f\n", ($14 + $15) / hz }' "/proc/$serve_pid/stat"; }
# Seconds reel serve's threads were runnable but waited for a CPU (schedstat, all threads).
serve_waited() { cat /proc/"$serve_pid"/task/*/schedstat 2>/dev/null | awk '{ w += $2 } END { printf "%.2f\n", w / 1e9 }'; }
serve_threads() { awk '/^Threads/ { print $2 }' "/proc/$serve_pid/status"; }
rss_mb() { awk -v f="$1" '$0 ~ "^" f { printf "%.0f", $2 / 1024 }' "/proc/$serve_pid/status"; }
peak_between() {  # peak_between FROM TO: the highest VmRSS sample (MB) in that window
    awk -v a="$1" -v b="$2" '$1 >= a && $1 <= b && $2 > m { m = $2 } END { printf "%.0f", m / 1024 }' "$work/rss.txt"
}

declare -A serve_used serve_wait window_from window_to rss_before rss_after
publish() {  # publish ID: reel live --low-latency for SECONDS_TO_RUN under /usr/bin/time
    local before after status=0
    before=$(machine_busy)
    /usr/bin/time -o "$work/$1.time.raw" -f '%e %U %S %M %x' "$reel" live --source "$source_spec" --quality "$quality" \
        --low-latency --no-archive --origin "$origin" --token "$(cat "$token_file")" --stream-id "$1" \
        --duration "$seconds" --quiet > "$work/$1.log" 2>&1 &
    wrapped+=($!)
    wait "${wrapped[-1]}" || status=$?
    unset 'wrapped[-1]'
    after=$(machine_busy)
    printf '%s %s\n' "$(grep -v '^Command' "$work/$1.time.raw" | tail -n 1)" \
        "$(awk -v a="$before" -v b="$after" 'BEGIN { printf "%.2f", b - a }')" > "$work/$1.time"
    [ "$status" = 0 ] || say "reel live ($1) exited with status $status: $(tail -n 3 "$work/$1.log")"
}

run_idle() {
    say "idle: reel live --low-latency publishes $source_spec for $seconds s, nobody watching"
    local before
    before=$(serve_cpu)
    local waited_before
    waited_before=$(serve_waited)
    rss_before[idle]=$(rss_mb VmRSS)
    window_from[idle]=$(date +%s.%N)
    publish idle
    window_to[idle]=$(date +%s.%N)
    rss_after[idle]=$(rss_mb VmRSS)
    serve_used[idle]=$(awk -v a="$before" -v b="$(serve_cpu)" 'BEGIN { printf "%.2f", b - a }')
    serve_wait[idle]=$(awk -v a="$waited_before" -v b="$(serve_waited)" 'BEGIN { printf "%.1f", b - a }')
}

run_viewers() {
    say "viewers: $viewers simulated LL-HLS players (blocking reload, mode $mode) from $source_net.x.y; reel live publishes for $seconds s"
    local before
    before=$(serve_cpu)
    local waited_before
    waited_before=$(serve_waited)
    rss_before[viewers]=$(rss_mb VmRSS)
    window_from[viewers]=$(date +%s.%N)
    # The viewers connect over RAMP (2 s), a few seconds before the stream exists (404s,
    # retried every second), and stop at its ENDLIST (or 20 s after it should have ended).
    /usr/bin/time -o "$work/viewers-python.time.raw" -f '%e %U %S %M %x' "$py" "$bench_dir/ll_viewers.py" \
        --url "${origin}streams/viewers/playlist.m3u8" --viewers "$viewers" --duration $((seconds + 25)) \
        --mode "$mode" --source-net "$source_net" --per-address "$per_address" --ramp 2 \
        --json "$work/viewers.json" > "$work/viewers.out" 2>&1 &
    local viewers_wrapper=$!
    wrapped+=("$viewers_wrapper")
    sleep 3
    say "viewers: reel serve holds $(ls "/proc/$serve_pid/fd" | wc -l) descriptors, $(serve_threads) threads before the stream starts"
    publish viewers
    local status=0
    wait "$viewers_wrapper" || status=$?
    wrapped=()
    [ "$status" = 0 ] || say "the viewers reported errors (exit $status): $(tail -n 2 "$work/viewers.out")"
    window_to[viewers]=$(date +%s.%N)
    rss_after[viewers]=$(rss_mb VmRSS)
    serve_used[viewers]=$(awk -v a="$before" -v b="$(serve_cpu)" 'BEGIN { printf "%.2f", b - a }')
    serve_wait[viewers]=$(awk -v a="$waited_before" -v b="$(serve_waited)" 'BEGIN { printf "%.1f", b - a }')
    grep -v '^Command' "$work/viewers-python.time.raw" | tail -n 1 > "$work/viewers-python.time"
}

run_idle
run_viewers
sleep 5
rss_settled=$(rss_mb VmRSS)
hwm=$(rss_mb VmHWM)
threads=$(serve_threads)

say "computing the latencies from reel serve's access log ($(wc -l < "$log") lines)"
status=0
table=$("$py" "$bench_dir/ll_latency.py" --log "$log" --www "$data" --fps "$(sed -n 's/.*@\([0-9]*\).*/\1/p' <<<"$source_spec" | grep . || echo 30)" \
    --viewers-json "viewers=$work/viewers.json" --csv "$work/parts.csv" viewers idle) || status=$?

cpu_line() {  # cpu_line RUN
    local live other wall
    live=$(read_time "$work/$1.time" cpu)
    wall=$(read_time "$work/$1.time" wall)
    other=$(read_time "$work/$1.time" other)
    if [ "$1" = viewers ]; then
        local python
        python=$(awk '{ printf "%.2f", $2 + $3 }' "$work/viewers-python.time")
        other=$(awk -v o="$other" -v s="${serve_used[$1]}" -v p="$python" 'BEGIN { v = o - s - p; printf "%.1f", (v > 0 ? v : 0) }')
        printf 'reel live %s, reel serve %s, viewers (Python) %s CPU-s (the whole viewers process, %s s); rest of the machine %s CPU-s while reel live ran %s s; reel serve threads waited %s s for a CPU' \
            "$live" "${serve_used[$1]}" "$python" "$(awk '{ print $1 }' "$work/viewers-python.time")" "$other" "$wall" "${serve_wait[$1]}"
    else
        other=$(awk -v o="$other" -v s="${serve_used[$1]}" 'BEGIN { v = o - s; printf "%.1f", (v > 0 ? v : 0) }')
        printf 'reel live %s, reel serve %s CPU-s in %s s; rest of the machine %s CPU-s; reel serve threads waited %s s for a CPU' "$live" "${serve_used[$1]}" "$wall" "$other" "${serve_wait[$1]}"
    fi
}

cat <<RESULT

==== ll-viewers: reel live --low-latency -> reel serve on 127.0.0.1, $seconds s each, idle and with $viewers LL-HLS viewers ====
reel:     $(reel_version)
machine:  $machine
stream:   --source $source_spec --quality $quality --low-latency --no-archive (2 s segments, parts of 1/3 s)
origin:   reel serve --max-connections $max_connections (default 512; "under pressure" from $((max_connections * 3 / 4)) open), per-address cap 32 (default); ulimit -n $(ulimit -n)
viewers:  $viewers in one Python process (asyncio), one keep-alive connection each from $source_net.x.y ($per_address per address), mode $mode:
          blocking reload for the hinted part$(case $mode in parts) echo ", then a GET of each new part";; hint) echo ", after the hinted part's GET (held until stored)";; *) echo " only, no media";; esac)
          $(tail -n 1 "$work/viewers.out")
order:    idle, then viewers (one after the other, the same reel serve)
$table
reel live idle:    $(grep '^live:' "$work/idle.log" || tail -n 1 "$work/idle.log")
reel live viewers: $(grep '^live:' "$work/viewers.log" || tail -n 1 "$work/viewers.log")
cpu idle:    $(cpu_line idle)
cpu viewers: $(cpu_line viewers)
reel serve memory (VmRSS, MB): idle run ${rss_before[idle]} -> peak $(peak_between "${window_from[idle]}" "${window_to[idle]}") -> ${rss_after[idle]}; viewers run ${rss_before[viewers]} -> peak $(peak_between "${window_from[viewers]}" "${window_to[viewers]}") -> ${rss_after[viewers]}; 5 s after: $rss_settled; VmHWM $hwm; $threads threads
RESULT
exit "$status"
