#!/usr/bin/env bash
# `reel backup --to s3://…` against `rclone sync` (Debian's rclone, its S3 backend) to the same
# S3 server on loopback (moto through scripts/moto-s3.py: the tests' server, signature and
# body checks on), in one run, alternating:
#
#   bash bench/backup-s3.sh                          # 2 GiB in 64 files, 1000 sessions, 3 runs
#   MEDIA_MB=512 FILES=16 RUNS=1 bash bench/backup-s3.sh
#
# (a) MEDIA_MB of random bytes in FILES videos (one session each), read once so both start from
#     the page cache. Each run: `reel backup --to s3://bench/reel-N` and `rclone sync MEDIA
#     moto:bench/rclone-N` (a fresh prefix each, in turned order), each under /usr/bin/time
#     (wall seconds and max RSS); both prefixes are deleted after the run (moto keeps objects in
#     memory). Goal: reel's time <= 1.0x rclone's; memory bounded by the part size, not the file.
# (b) SESSIONS sessions (64 KiB video and 4 KiB thumbnail each) backed up once; then `reel
#     backup` again with nothing changed, the median of RUNS runs (goal <= 1 s), beside `rclone
#     sync` of the same folder with nothing changed.
# rclone gets its remote from the environment only (RCLONE_CONFIG_MOTO_*: provider Other, the
# endpoint, the key moto issued) and its defaults (4 transfers; files under 200 MiB in one PUT).
# moto is a Python mock, not AWS: this compares the two clients against one server, not S3's
# speed. Needs Debian's rclone and the moto venv (make setup).
BENCH_NAME=backup-s3
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

media_mb=${MEDIA_MB:-2048}
files=${FILES:-64}
sessions=${SESSIONS:-1000}
runs=${RUNS:-3}
command -v rclone >/dev/null || fail "rclone is missing: sudo apt-get install rclone"

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
moto_pid=""
trap 'st=$?; stop_pids "$moto_pid"; set +e; (exit $st); bench_cleanup' EXIT
start_moto bench
endpoint="http://127.0.0.1:$moto_port"
export AWS_ACCESS_KEY_ID=$(moto_key accessKeyId) AWS_SECRET_ACCESS_KEY=$(moto_key secretAccessKey) AWS_REGION=us-east-1
export AWS_SHARED_CREDENTIALS_FILE=/nonexistent AWS_PROFILE=""
# The endpoint is plain HTTP on loopback: a CA bundle from the environment (AWS_CA_BUNDLE) only
# makes rclone's S3 SDK fail to build its client.
unset AWS_CA_BUNDLE
: > "$work/rclone.conf"
export RCLONE_CONFIG_MOTO_TYPE=s3 RCLONE_CONFIG_MOTO_PROVIDER=Other RCLONE_CONFIG_MOTO_ENDPOINT="$endpoint" \
    RCLONE_CONFIG_MOTO_ACCESS_KEY_ID="$AWS_ACCESS_KEY_ID" RCLONE_CONFIG_MOTO_SECRET_ACCESS_KEY="$AWS_SECRET_ACCESS_KEY" \
    RCLONE_CONFIG_MOTO_REGION=us-east-1 RCLONE_CONFIG="$work/rclone.conf"
say "moto: $endpoint (bucket bench); reel: $reel; $(rclone version | head -1)"

# timed_run NAME COMMAND...: runs it under /usr/bin/time; prints "WALL RSS_KIB", and says the
# CPU seconds it and the server (moto) used.
timed_run() {
    local name=$1; shift
    local server_before server_after
    server_before=$(moto_cpu)
    /usr/bin/time -f '%e %M %U %S' -o "$work/$name.time" "$@" > "$work/$name.out" 2> "$work/$name.err" \
        || fail "$name failed: $(tail -n 3 "$work/$name.err")"
    server_after=$(moto_cpu)
    read -r wall rss user system < "$work/$name.time"
    say "  $name: $wall s, $(awk -v u="$user" -v s="$system" 'BEGIN { print u + s }') CPU-s, the server $(awk -v a="$server_before" -v b="$server_after" 'BEGIN { printf "%.2f", b - a }') CPU-s"
    echo "$wall $rss"
}
# moto_cpu: the CPU seconds moto's process has used so far (utime + stime from /proc).
moto_cpu() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / hz }' "/proc/$moto_pid/stat"; }
reel_full() { timed_run "reel-$1" "$reel" backup --to "s3://bench/reel-$1" --s3-endpoint "$endpoint" --library "$work/big.sqlite" --json; }
rclone_full() { timed_run "rclone-$1" rclone sync "$work/media" "moto:bench/rclone-$1"; }

say "(a) generating $media_mb MiB in $files files"
study_library "$work/big.sqlite" "$work/media" "$files" $(( media_mb * 1048576 / files ))
bytes=$(find "$work/media" -type f -printf '%s\n' | awk '{ s += $1 } END { printf "%.0f\n", s }')
cat "$work/media"/* >/dev/null
reel_times=(); rclone_times=(); ratios=(); reel_rss=(); rclone_rss=()
for run in $(seq "$runs"); do
    if (( run % 2 )); then r=$(reel_full "$run"); c=$(rclone_full "$run"); else c=$(rclone_full "$run"); r=$(reel_full "$run"); fi
    reel_times+=("${r% *}"); rclone_times+=("${c% *}"); reel_rss+=("${r#* }"); rclone_rss+=("${c#* }")
    ratios+=("$(awk -v a="${r% *}" -v b="${c% *}" 'BEGIN { printf "%.3f", a / b }')")
    say "run $run: reel ${r% *} s (${r#* } KiB), rclone ${c% *} s (${c#* } KiB): reel / rclone time ${ratios[-1]}x"
    rclone purge "moto:bench/reel-$run" >/dev/null 2>&1 || say "could not delete reel-$run"
    rclone purge "moto:bench/rclone-$run" >/dev/null 2>&1 || say "could not delete rclone-$run"
done
grep -q "\"bytesCopied\":$bytes," "$work/reel-1.out" || fail "reel's first run did not send all $bytes bytes: $(cat "$work/reel-1.out")"

say "(b) $sessions sessions, backed up once"
study_library "$work/many.sqlite" "$work/many" "$sessions" 65536
"$reel" backup --to s3://bench/many --s3-endpoint "$endpoint" --library "$work/many.sqlite" >/dev/null || fail "the first backup of $sessions sessions failed"
rclone sync "$work/many" moto:bench/many-rclone >/dev/null 2>&1 || fail "rclone's first sync of $sessions sessions failed"
inc_times=(); rinc_times=()
for run in $(seq "$runs"); do
    t=$(timed_run "inc-$run" "$reel" backup --to s3://bench/many --s3-endpoint "$endpoint" --library "$work/many.sqlite" --json)
    grep -q '"bytesCopied":0' "$work/inc-$run.out" || fail "the nothing-changed run sent something: $(cat "$work/inc-$run.out")"
    inc_times+=("${t% *}")
    t=$(timed_run "rinc-$run" rclone sync "$work/many" moto:bench/many-rclone)
    rinc_times+=("${t% *}")
done

echo "== reel backup to S3 against rclone sync, moto on loopback (medians of $runs runs) =="
echo "machine: $(machine_line)"
echo "reel:    $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown), $reel; $(rclone version | head -1)"
awk -v b="$bytes" -v files="$files" -v r="$(printf '%s\n' "${reel_times[@]}" | median)" -v c="$(printf '%s\n' "${rclone_times[@]}" | median)" \
    -v ratio="$(printf '%s\n' "${ratios[@]}" | median)" -v rr="$(printf '%s\n' "${reel_rss[@]}" | median)" \
    -v cr="$(printf '%s\n' "${rclone_rss[@]}" | median)" -v inc="$(printf '%s\n' "${inc_times[@]}" | median)" \
    -v rinc="$(printf '%s\n' "${rinc_times[@]}" | median)" -v n="$sessions" 'BEGIN {
    mb = b / 1048576
    printf "full, %.0f MiB in %d files: reel %.2f s (%.0f MiB/s, max RSS %.0f MiB), rclone %.2f s (%.0f MiB/s, max RSS %.0f MiB)\n", mb, files, r, mb / r, rr / 1024, c, mb / c, cr / 1024
    printf "  reel / rclone time, run by run: median %.2fx   (goal <= 1.0x)\n", ratio
    printf "nothing changed, %d sessions: reel %.3f s (goal <= 1 s), rclone sync %.3f s\n", n, inc, rinc
}'
