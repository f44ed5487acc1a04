#!/usr/bin/env bash
# `reel backup`: (a) a full backup of 2 GB of media against `cp -r` of the same
# files in the same run; (b) an incremental backup of 1000 sessions with nothing changed.
#
#   bash bench/backup.sh                     # 2 GiB in 64 files, 1000 sessions, 5 runs each
#   MEDIA_MB=512 FILES=16 SESSIONS=1000 RUNS=3 bash bench/backup.sh
#   REEL_BIN=.build/debug/reel bash bench/backup.sh   # the debug build (the hot loop is libcrypto and read/write)
#
# (a) MEDIA_MB of random bytes in FILES videos (one session each) are generated in the work
#     folder and read once so both sides start from the page cache. Each run: `cp -r` of the
#     media folder, `cp -r` followed by `sync` (reel backup syncs its copies before writing
#     backup.json, cp does not), and `reel backup --to` a new folder (XXH3-128 of every byte,
#     temporary names, rename, one syncfs, backup.json last), in turned order, each after an
#     untimed warm-up copy and `sync` (see timed() below). Throughput = bytes / wall seconds; the ratio reel / cp is taken run by
#     run and its median over RUNS runs is the goal (≥ 0.8×).
# (b) SESSIONS sessions with a 64 KiB video and a 4 KiB thumbnail each, backed up once; then
#     `reel backup` again with nothing changed (every file stat'ed, none read: size and mtime
#     match the manifest), wall time median of RUNS runs (goal < 1 s).
# The result block goes to stdout; progress to stderr.
BENCH_NAME=backup
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

media_mb=${MEDIA_MB:-2048}
files=${FILES:-64}
sessions=${SESSIONS:-1000}
runs=${RUNS:-5}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }

say "reel: $reel"
say "(a) generating $media_mb MiB in $files files"
study_library "$work/big.sqlite" "$work/media" "$files" $(( media_mb * 1048576 / files ))
bytes=$(du -sb "$work/media" | cut -f1)
cat "$work/media"/* >/dev/null

# One timed command, after two untimed steps:
# - a warm-up copy of the media, removed at once: on this kind of VM the guest reports freed
#   memory to the host (virtio-balloon free page reporting), and the first touch of such a page
#   costs up to 10x a warm one — `cp -r` alone took 0.5 s or 2.4-4.8 s (every third run, perf:
#   87 % in the kernel's memcpy); with the warm-up 0.60-0.76 s in 8 runs out of 8;
# - `sync`, so that no command pays for another's writeback (reel's syncfs would otherwise
#   wait for the 2 GiB an earlier `cp -r` left dirty).
timed() {
    rm -rf "$work/cp" "$work/cps" "$work/reel-backup"
    cp -r "$work/media" "$work/warm"
    rm -rf "$work/warm"
    sync
    local t0 t1
    t0=$(now); "$@"; t1=$(now)
    elapsed "$t0" "$t1"
}
cp_plain() { cp -r "$work/media" "$work/cp"; }
cp_synced() { cp -r "$work/media" "$work/cps"; sync; }
reel_backup() { "$reel" backup --to "$work/reel-backup" --library "$work/big.sqlite" >/dev/null; }

cp_times=(); cps_times=(); reel_times=(); ratios=(); synced_ratios=()
for run in $(seq "$runs"); do
    # The order turns every run (reel first in even runs), so a drift of the machine's speed
    # does not favour one side.
    if (( run % 2 )); then
        c=$(timed cp_plain); cs=$(timed cp_synced); r=$(timed reel_backup)
    else
        r=$(timed reel_backup); cs=$(timed cp_synced); c=$(timed cp_plain)
    fi
    cp_times+=("$c"); cps_times+=("$cs"); reel_times+=("$r")
    ratios+=("$(awk -v a="$c" -v b="$r" 'BEGIN { printf "%.3f", a / b }')")
    synced_ratios+=("$(awk -v a="$cs" -v b="$r" 'BEGIN { printf "%.3f", a / b }')")
    say "run $run: cp -r $c s, cp -r + sync $cs s, reel backup $r s (throughput reel / cp -r ${ratios[-1]}x, / cp -r + sync ${synced_ratios[-1]}x)"
done
cp_s=$(printf '%s\n' "${cp_times[@]}" | median)
cps_s=$(printf '%s\n' "${cps_times[@]}" | median)
reel_s=$(printf '%s\n' "${reel_times[@]}" | median)
ratio=$(printf '%s\n' "${ratios[@]}" | median)
synced_ratio=$(printf '%s\n' "${synced_ratios[@]}" | median)
ratio_range="$(printf '%s\n' "${ratios[@]}" | sort -n | head -1)-$(printf '%s\n' "${ratios[@]}" | sort -n | tail -1)"
rm -rf "$work/media" "$work/reel-backup"

say "(b) $sessions sessions, backed up once"
study_library "$work/many.sqlite" "$work/many" "$sessions" 65536
"$reel" backup --to "$work/many-backup" --library "$work/many.sqlite" >/dev/null
inc_times=()
for run in $(seq "$runs"); do
    t0=$(now); out=$("$reel" backup --to "$work/many-backup" --library "$work/many.sqlite"); t1=$(now)
    inc_times+=("$(elapsed "$t0" "$t1")")
    case $out in *"media: 0 copied"*) ;; *) fail "the incremental run copied something: $out" ;; esac
done
inc_s=$(printf '%s\n' "${inc_times[@]}" | median)

awk -v b="$bytes" -v cp="$cp_s" -v cps="$cps_s" -v r="$reel_s" -v inc="$inc_s" -v n="$sessions" -v runs="$runs" \
    -v ratio="$ratio" -v sratio="$synced_ratio" -v range="$ratio_range" 'BEGIN {
    mb = b / 1048576
    printf "backup benchmark (medians of %d runs)\n", runs
    printf "  full, %.0f MiB:  cp -r %.2f s (%.0f MiB/s)  cp -r + sync %.2f s (%.0f MiB/s)  reel backup %.2f s (%.0f MiB/s)\n", mb, cp, mb / cp, cps, mb / cps, r, mb / r
    printf "  throughput reel / cp -r, run by run: median %.2fx (runs %s)   reel / (cp -r + sync): median %.2fx   (goal >= 0.8x)\n", ratio, range, sratio
    printf "  incremental, %d sessions, nothing changed: %.3f s   (goal < 1 s)\n", n, inc
}'
