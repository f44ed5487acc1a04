# Shared helpers for the benchmark scripts in bench/ (sourced, not run).
#
# A script sets BENCH_NAME, sources this file, and gets:
#   say/fail          progress lines on stderr ("NAME: ...") and a fatal error
#   reel              the reel binary (REEL_BIN, or the release build: `make build` first)
#   work              a private temporary folder, removed at exit (KEEP_WORK=1 keeps it)
#   cache             bench/.cache (generated inputs, kept between runs; gitignored)
#   start_origin DIR  starts scripts/nginx-origin.sh in DIR (sets origin_port, origin_url);
#                     it is stopped at exit, also on Ctrl-C
#   timed FILE CMD…   runs CMD under /usr/bin/time, CPU and memory into FILE (see read_time)
#   alternate_runs N FN  calls FN WHO I for N runs of reel and ffmpeg, taking turns first
#   live_summary LOG  reel live's summary figures (dropped frames, segments, archive) as shell
#                     assignments
#   py                /usr/bin/python3 (Debian's; the scripts use its standard library only)
#
# Every script cleans up what it started on exit, error or Ctrl-C (INT/TERM exit 130/143).

set -euo pipefail

bench_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$bench_dir/.." && pwd)
cache=${BENCH_CACHE:-"$bench_dir/.cache"}
py=/usr/bin/python3
origin_script="$root/scripts/nginx-origin.sh"

say() { printf '%s: %s\n' "$BENCH_NAME" "$*" >&2; }
fail() { printf '%s: error: %s\n' "$BENCH_NAME" "$*" >&2; exit 1; }

for tool in ffmpeg ffprobe nginx curl; do
    command -v "$tool" >/dev/null 2>&1 || fail "$tool is not installed: run 'make setup'"
done
[ -x /usr/bin/time ] || fail "/usr/bin/time is missing (Debian package 'time'): run 'make setup'"
[ -x "$py" ] || fail "$py is missing (Debian package 'python3')"

if [ -n "${REEL_BIN:-}" ]; then
    reel=$REEL_BIN
else
    reel="$(cd "$root" && swift build -c release --show-bin-path 2>/dev/null)/reel" || reel=""
fi
[ -n "$reel" ] && [ -x "$reel" ] || fail "no reel binary (${reel:-none}): run 'make build' or set REEL_BIN"

mkdir -p "$cache"
work=$(mktemp -d "${TMPDIR:-/tmp}/reel-bench-$BENCH_NAME.XXXXXX")
# nginx's workers run as nobody when we are root: they must be able to reach the origin's
# prefix inside this folder.
chmod 755 "$work"
origin_prefix=""

# free_port: a TCP port that is free on 127.0.0.1 now.
free_port() {
    "$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# stop_pids PID...: SIGTERM to each (commands a script starts with & ignore SIGINT), then waits
# for it; empty arguments are skipped.
stop_pids() {
    local pid
    for pid in "$@"; do
        [ -n "$pid" ] || continue
        kill -TERM "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
}

# start_moto BUCKET: the tests' S3 server (scripts/moto-s3.py: moto, signature checks on) on a
# free loopback port with BUCKET; sets moto_pid, moto_port and moto_json (its key: moto_key
# accessKeyId|secretAccessKey). The caller stops it (stop_pids "$moto_pid"). Needs the venv of
# scripts/setup-moto.sh.
start_moto() {
    local venv=${REEL_MOTO_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/reel/moto-venv}
    [ -x "$venv/bin/python" ] || fail "moto is not installed: run 'bash scripts/setup-moto.sh' (or make setup)"
    moto_port=$(free_port)
    moto_json="$work/moto.json"
    "$venv/bin/python" "$root/scripts/moto-s3.py" "$moto_port" "$1" > "$moto_json" 2> "$work/moto.err" &
    moto_pid=$!
    for _ in $(seq 1 200); do [ -s "$moto_json" ] && break; sleep 0.1; done
    [ -s "$moto_json" ] || fail "moto did not start: $(tail -n 5 "$work/moto.err")"
}
moto_key() { "$py" -c "import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$moto_json" "$1"; }

# study_library PATH MEDIA_DIR COUNT BYTES: a study library of COUNT sessions, each with a video
# of BYTES random bytes (and, when BYTES is at most 1 MiB, a 4 KiB thumbnail) in MEDIA_DIR.
study_library() {
    local path=$1 dir=$2 count=$3 bytes=$4
    mkdir -p "$dir"
    "$reel" goal set 60 --library "$path" >/dev/null   # makes the library (reads never create one)
    "$py" - "$path" "$dir" "$count" "$bytes" <<'PY'
import os, sqlite3, sys, uuid
path, folder, count, size = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
db = sqlite3.connect(path)
chunk = 1 << 20
for n in range(count):
    video = os.path.join(folder, f"{n:05d}.mp4")
    with open(video, "wb") as f:
        left = size
        while left > 0:
            f.write(os.urandom(min(chunk, left)))
            left -= chunk
    thumb = None
    if size <= 1 << 20:
        thumb = os.path.join(folder, f"{n:05d}.jpg")
        with open(thumb, "wb") as f:
            f.write(os.urandom(4096))
    day = 1 + n % 28
    db.execute("""INSERT INTO study_session (id, started_at, ended_at, active_seconds, video_seconds, mode, interval_seconds,
                  file_path, thumbnail_path, face_track_path, title, recovered) VALUES (?, ?, ?, 1700, 60, 'timelapse', 5, ?, ?, NULL, ?, 0)""",
               (str(uuid.UUID(int=n + 1)), f"2026-11-{day:02d}T{n % 24:02d}:00:00.000Z", f"2026-11-{day:02d}T{n % 24:02d}:30:00.000Z",
                video, thumb, f"Session {n}"))
db.commit()
PY
}

bench_cleanup() {
    local status=$?
    trap - EXIT INT TERM
    if [ -n "$origin_prefix" ]; then
        bash "$origin_script" stop "$origin_prefix" || true
    fi
    if [ "${KEEP_WORK:-0}" = 1 ]; then
        say "kept the work folder: $work"
    else
        rm -rf "$work"
    fi
    exit "$status"
}
trap bench_cleanup EXIT
# Ctrl-C reaches reel/ffmpeg too (same process group): they stop cleanly, then we exit.
trap 'say "interrupted"; exit 130' INT
trap 'say "terminated"; exit 143' TERM

# start_origin DIR: an nginx WebDAV origin with its files in DIR/www and its log in
# DIR/logs/access.log.
start_origin() {
    origin_prefix=$1
    origin_port=$(bash "$origin_script" start "$origin_prefix") || fail "the nginx origin did not start"
    origin_url="http://127.0.0.1:$origin_port/"
    say "origin: $origin_url (nginx WebDAV, files in $origin_prefix/www)"
}

# CPU seconds the whole machine has spent busy since boot (all cores; /proc/stat).
machine_busy() {
    awk -v hz="$(getconf CLK_TCK)" '/^cpu / { printf "%.2f\n", ($2 + $3 + $4 + $7 + $8 + $9) / hz }' /proc/stat
}

alternate_runs() {  # alternate_runs N FN: FN WHO I for runs 1..N, reel and ffmpeg taking turns first
    # (reel ffmpeg, ffmpeg reel, ...), so drift on the machine hits both alike.
    local i who order
    for i in $(seq "$1"); do
        if [ $((i % 2)) = 1 ]; then order="reel ffmpeg"; else order="ffmpeg reel"; fi
        for who in $order; do
            say "run $i/$1: $who"
            "$2" "$who" "$i"
        done
    done
}

# timed FILE CMD...: runs CMD, then writes "wall user sys maxrss_kb exit machine_busy" to
# FILE, machine_busy being the CPU seconds the whole machine spent meanwhile (to see other
# load: machine_busy - user - sys). Returns CMD's exit status. /usr/bin/time ignores Ctrl-C
# itself, so it still reports a CMD that stopped on it.
timed() {
    local out=$1
    shift
    local status=0 before after
    before=$(machine_busy)
    /usr/bin/time -o "$out.raw" -f '%e %U %S %M %x' "$@" || status=$?
    after=$(machine_busy)
    # A command killed by a signal makes time write "Command terminated by signal N" first.
    printf '%s %s\n' "$(grep -v '^Command' "$out.raw" | tail -n 1)" \
        "$(awk -v a="$before" -v b="$after" 'BEGIN { printf "%.2f", b - a }')" > "$out"
    return "$status"
}

# read_time FILE FIELD: wall | user | sys | cpu (user+sys) | rss_mb | exit | other (CPU-s
# that the rest of the machine used meanwhile: other processes, and nginx)
read_time() {
    awk -v f="$2" '{
        if (f == "wall") print $1; else if (f == "user") print $2; else if (f == "sys") print $3;
        else if (f == "cpu") printf "%.2f\n", $2 + $3; else if (f == "rss_mb") printf "%.0f\n", $4 / 1024;
        else if (f == "exit") print $5;
        else if (f == "other") { o = $6 - $2 - $3; printf "%.1f\n", (o > 0 ? o : 0) }
    }' "$1"
}

# The machine, for the result blocks.
machine_line() {
    local cpu
    cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
    printf '%s cores (%s), load before: %s' "$(nproc)" "${cpu:-unknown CPU}" "$(cut -d' ' -f1-3 /proc/loadavg)"
}

# The Reel build measured: the git commit of the source tree the binary was built in (with
# "+changes" when that tree differs from its commit; the binary may also be older than the
# tree: `make build` first).
reel_version() {
    local tree commit
    tree=$(git -C "$(dirname "$reel")" rev-parse --show-toplevel 2>/dev/null) || tree=$root
    commit=$(git -C "$tree" rev-parse --short HEAD 2>/dev/null) || commit="unknown commit"
    if [ -n "$(git -C "$tree" status --porcelain -- Sources Package.swift 2>/dev/null)" ]; then
        commit="$commit+changes"
    fi
    printf 'commit %s, binary %s' "$commit" "$reel"
}

# ffprobe_value FILE ENTRY [STREAM]: one value, e.g. ffprobe_value a.mp4 format=duration
ffprobe_value() {
    local select=()
    [ -n "${3:-}" ] && select=(-select_streams "$3")
    ffprobe -v error "${select[@]}" -show_entries "$2" -of default=noprint_wrappers=1:nokey=1 "$1" | head -n 1
}

# live_summary LOG: reel live's summary lines in LOG as shell assignments (eval them): live_state,
# published, produced, dropped, archive_state, reel_archive_frames, archive_skipped,
# backpressure, problems.
live_summary() {
    "$py" - "$1" <<'PY'
import re, shlex, sys
text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
def put(name, value):
    print(f"{name}={shlex.quote(str(value))}")
m = re.search(r"^live: (.*?) — (\d+) of (\d+) segments published, (\d+) frames dropped", text, re.M)
put("live_state", m.group(1) if m else "no summary")
put("published", m.group(2) if m else "?")
put("produced", m.group(3) if m else "?")
put("dropped", m.group(4) if m else "?")
m = re.search(r"^archive: (.*?) — .*?, ([\d.]+) s, (\d+) frames", text, re.M)
put("archive_state", m.group(1) if m else "no archive line")
put("reel_archive_frames", m.group(3) if m else "?")
m = re.search(r"(\d+) frames were left out of the archive on purpose", text)
put("archive_skipped", m.group(1) if m else "0")
m = re.search(r"capture waited ([\d.]+) s for it", text)
put("backpressure", m.group(1) if m else "0")
problems = [l.strip() for l in text.splitlines()
            if re.search(r"FAILED|warning:|error|NOT complete", l, re.I)]
put("problems", " | ".join(problems) if problems else "none")
PY
}

# Median of the numbers on stdin.
median() {
    "$py" -c 'import statistics, sys; v = [float(x) for x in sys.stdin.read().split()]; print(f"{statistics.median(v):.2f}" if v else "nan")'
}

# make_input WxH FPS SECONDS CRF: a cached H.264 + AAC test file (FFmpeg's testsrc2 picture,
# a 440 Hz stereo tone at 48 kHz), made once in bench/.cache/ and reused; prints its path.
# x264 at CRF 18 keeps it close to what a camera delivers, so decoding it costs what it would.
make_input() {
    local size=$1 fps=$2 seconds=$3 crf=$4
    local file="$cache/testsrc2-$size-${fps}fps-${seconds}s-crf$crf.mp4"
    if [ ! -s "$file" ]; then
        say "making the input once (cached): $file"
        ffmpeg -nostdin -hide_banner -loglevel error -y \
            -f lavfi -i "testsrc2=size=$size:rate=$fps" \
            -f lavfi -i "sine=frequency=440:sample_rate=48000" \
            -t "$seconds" -map 0:v -map 1:a \
            -c:v libx264 -preset fast -crf "$crf" -pix_fmt yuv420p -g $((2 * fps)) \
            -c:a aac -b:a 128k -ac 2 -movflags +faststart "$file.part.mp4" ||
            { rm -f "$file.part.mp4"; fail "could not make $file"; }
        mv "$file.part.mp4" "$file"
    fi
    printf '%s\n' "$file"
}

# picture_psnr A B: average PSNR (dB) of two videos' pictures over their first 10 s,
# paired by frame order (timestamps ignored: edit lists and start offsets differ between
# muxers). One may start a frame or two later than the other (an encoder's priming, a
# dropped first frame), so the frames are paired at shifts of -2..2 and the best is taken:
# prints "DB SHIFT" (SHIFT > 0: B has SHIFT extra frames at its start; SHIFT < 0: A has).
picture_psnr() {
    local best="" best_shift=0 shift db a b
    for shift in 0 1 -1 2 -2; do
        a="[0:v]setpts=N/(30*TB)[a]"; b="[1:v]setpts=N/(30*TB)[b]"
        [ "$shift" -gt 0 ] && b="[1:v]trim=start_frame=$shift,setpts=N/(30*TB)[b]"
        [ "$shift" -lt 0 ] && a="[0:v]trim=start_frame=$((-shift)),setpts=N/(30*TB)[a]"
        db=$(ffmpeg -nostdin -hide_banner -v info -t 10 -i "$1" -t 10 -i "$2" -lavfi "$a;$b;[a][b]psnr=shortest=1" -f null - 2>&1 |
            sed -n 's/.*PSNR .*average:\([0-9.inf]*\).*/\1/p' | tail -n 1)
        [ -z "$db" ] && continue
        if [ -z "$best" ] || [ "$db" = inf ] || { [ "$best" != inf ] && awk -v x="$db" -v y="$best" 'BEGIN { exit !(x > y) }'; }; then
            best=$db; best_shift=$shift
        fi
        [ "$best" = inf ] && break
    done
    [ -n "$best" ] && echo "$best $best_shift"
}

# privacy_tool: the release build of reel-privacy-bench (the privacy clips and leak meter;
# the benchmark package bench/swift), brought up to date once per run of a script (SwiftPM
# rebuilds only what changed, so a binary older than its sources is never used; the stamp is
# keyed by the script's process id, which its subshells share); prints its path.
privacy_tool() {
    local bin stamp="$cache/privacy-tool-built.$$"
    bin="$(swift build -c release --package-path "$root/bench/swift" --show-bin-path 2>/dev/null)/reel-privacy-bench"
    if [ ! -e "$stamp" ]; then
        say "building reel-privacy-bench (release, if anything changed)"
        swift build -c release --package-path "$root/bench/swift" --product reel-privacy-bench >&2 ||
            fail "could not build reel-privacy-bench"
        rm -f "$cache"/privacy-tool-built.* && touch "$stamp"
    fi
    printf '%s\n' "$bin"
}

# privacy_clip NAME: a privacy test clip, SCENARIO-WxH (single, twoFaces, edges, roll, profile,
# small, fast, dim, crossing at any even size, e.g. crossing-1920x1080: `reel-privacy-bench
# make-clips --only NAME`) made once into bench/.cache/privacy-clips/ with its truth; prints the clip's path (the truth
# is the same path with .truth.json instead of .mp4).
privacy_clip() {
    local dir="$cache/privacy-clips"
    if [ ! -s "$dir/$1.mp4" ] || [ ! -s "$dir/$1.truth.json" ]; then
        say "making the privacy clip $1 once (cached in $dir)"
        "$(privacy_tool)" make-clips "$dir" --only "$1" --photo "${REEL_TEST_PHOTO:-$root/Tests/Fixtures/astronaut.png}" >/dev/null ||
            fail "could not make the privacy clip $1"
    fi
    printf '%s\n' "$dir/$1.mp4"
}

# frames_of FILE: the number of video frames (decoded and counted).
frames_of() {
    ffprobe -v error -select_streams v:0 -count_frames -show_entries stream=nb_read_frames \
        -of default=noprint_wrappers=1:nokey=1 "$1" | head -n 1
}

# leak_figures CLIP EXPORT: the meter's one-line verdict plus its per-phase lines, indented.
leak_figures() {
    "$(privacy_tool)" measure --clip "$1" --truth "${1%.mp4}.truth.json" --export "$2" 2>&1 | sed 's/^/    /'
}

# cinematic_clip HEIGHT SECONDS: the cinematic benchmarks' clip, made once into $cache and its
# path printed: the astronaut swaying from side to side over a still, finely textured background
# (noise drawn once), a little sensor noise on every picture, 30 fps, H.264 CRF 18. 720 gives
# 1280x720 with the astronaut 600 px high; 1080 the same scene 1.5 times larger.
cinematic_clip() {
    local height=$1 length=$2 width photo=$root/Tests/Fixtures/astronaut.png name
    width=$((height * 16 / 9))
    name=$([ "$height" = 720 ] && echo "cinematic-v2-${length}s.mp4" || echo "cinematic-v2-${height}p-${length}s.mp4")
    local clip=$cache/$name
    if [ ! -f "$clip" ]; then
        say "making the ${length} s ${height}p30 clip once (the astronaut swaying over a still texture, sensor noise): $clip"
        local side=$((height * 600 / 720)) x=$((height * 340 / 720)) sway=$((height * 60 / 720)) y=$((height / 6))
        ffmpeg -nostdin -loglevel error -y -loop 1 -i "$photo" -filter_complex \
            "color=c=gray:s=${width}x${height}:r=30:d=$length,noise=alls=40:all_seed=7[bg];[0:v]scale=$side:$side[p];[bg][p]overlay=x='$x+$sway*sin(t)':y=$y:shortest=1,noise=alls=4:allf=t,format=yuv420p" \
            -c:v libx264 -crf 18 -preset veryfast "$clip.part.mp4" || { rm -f "$clip.part.mp4"; fail "could not make $clip"; }
        mv "$clip.part.mp4" "$clip"
    fi
    printf '%s\n' "$clip"
}
