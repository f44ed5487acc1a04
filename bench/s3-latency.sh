#!/usr/bin/env bash
# S3 publish latency: how long after a segment's last frame is captured can a player
# fetch it, when reel live publishes to an S3 bucket, against the nginx origin, in one run.
#
#   bash bench/s3-latency.sh                      # 60 s each (2+ minutes in all)
#   SECONDS_TO_RUN=20 bash bench/s3-latency.sh    # a short trial
#
# Input: the cached 1280x720 30 fps H.264 + AAC file of bench/latency.sh. One after the other
# (never at once), reel live --source file:INPUT --quality medium --no-archive publishes
# (a) to the nginx WebDAV origin (scripts/nginx-origin.sh): PUT, as bench/latency.sh;
# (b) to a bucket on moto (scripts/moto-s3.py, the S3 server of the tests: signature checks on,
#     objects in memory), --origin s3://reel-bench/live --s3-endpoint: SigV4-signed PUTs.
# Latency of segment k = the time it was both stored and listed in a stored playlist - the
# capture time of its last frame (PROGRAM-DATE-TIME + EXTINF - one frame), from each server's
# access log (moto's is written by scripts/moto-s3.py when REEL_MOTO_ACCESS_LOG is set, in
# nginx's format): bench/latency.py, the same reading for both.
#
# What it says and does not: moto is a Python mock, not AWS; this measures Reel's S3 path
# (signing, the object PUTs, the same publisher) on loopback against nginx, not a network.
#
# Goal (set here): p95 to the bucket at most 1.5 × p95 to nginx.
#
# Environment: SECONDS_TO_RUN (60), ORDER ("nginx s3"), REEL_BIN, REEL_MOTO_VENV, KEEP_WORK=1.
BENCH_NAME=s3-latency
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

seconds=${SECONDS_TO_RUN:-60}
order=${ORDER:-nginx s3}
fps=30
machine=$(machine_line)
input=$(make_input 1280x720 "$fps" "$seconds" 18)
start_origin "$work/origin"

# moto on a free loopback port, logging what it stores; stopped with the bench.
moto_pid=""
trap 'st=$?; stop_pids "$moto_pid"; set +e; (exit $st); bench_cleanup' EXIT
moto_log="$work/moto-access.log"
REEL_MOTO_ACCESS_LOG="$moto_log" REEL_MOTO_LOG_STRIP=/reel-bench/live start_moto reel-bench
read_key() { moto_key "$1"; }
say "moto: http://127.0.0.1:$moto_port/ (bucket reel-bench)"

declare -A started
run_nginx() {
    say "nginx: publishing $seconds s of $input in real time"
    started[nginx]=$(date +%s.%N)
    timed "$work/nginx.time" "$reel" live --source "file:$input" --quality medium --no-archive \
        --origin "$origin_url" --stream-id nginx --quiet 2>&1 | tee -i "$work/nginx.log" >&2 || true
}
run_s3() {
    say "s3: publishing $seconds s of $input in real time"
    started[s3]=$(date +%s.%N)
    AWS_ACCESS_KEY_ID=$(read_key accessKeyId) AWS_SECRET_ACCESS_KEY=$(read_key secretAccessKey) \
        timed "$work/s3.time" "$reel" live --source "file:$input" --quality medium --no-archive \
        --origin s3://reel-bench/live --s3-endpoint "http://127.0.0.1:$moto_port" --s3-region us-east-1 \
        --stream-id s3 --quiet 2>&1 | tee -i "$work/s3.log" >&2 || true
    # latency.py reads the final playlist from a folder: fetch the bucket's.
    mkdir -p "$origin_prefix/www/streams/s3"
    curl -fsS -o "$origin_prefix/www/streams/s3/playlist.m3u8" \
        "http://127.0.0.1:$moto_port/reel-bench/live/streams/s3/playlist.m3u8" || fail "could not read the bucket's playlist"
}
for who in $order; do "run_$who"; done

say "computing the latencies from both access logs"
merged="$work/access.log"
cat "$origin_prefix/logs/access.log" "$moto_log" > "$merged"
started_args=()
for who in $order; do started_args+=(--started "$who=${started[$who]}"); done
table=$("$py" "$bench_dir/latency.py" --log "$merged" --www "$origin_prefix/www" --fps "$fps" "${started_args[@]}" \
    --csv "$work/latency.csv" --goal-ratio 1.5 s3 nginx) || true

cpu_line() {
    printf '%s CPU-s / %s s wall' "$(read_time "$work/$1.time" cpu)" "$(read_time "$work/$1.time" wall)"
}
cat <<RESULT

==== s3-latency: $seconds s of 720p30 paced in real time -> 720x1280 HLS, to a bucket (moto) and to nginx on 127.0.0.1 ====
reel:     $(reel_version)
moto:     $("$venv/bin/python" -c 'import moto; print(moto.__version__)') (scripts/moto-s3.py, signature checks on)
machine:  $machine
order:    $order (one after the other)
$table
cpu:      to nginx $(cpu_line nginx); to s3 $(cpu_line s3)
RESULT
