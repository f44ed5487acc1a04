#!/usr/bin/env bash
# The cost of Reel Studio's live preview: `GET /api/preview`, a multipart stream
# of 640x360 JPEGs (MJPEG quantizer 5, at most 15 a second), against ffmpeg making the same
# stream, and the preview branch's own share of a recording's capture.
#
#   bash bench/studio-preview.sh                                       # about 8 minutes
#   RUNS=1 INPUT_SECONDS=20 SECONDS_TO_RUN=15 bash bench/studio-preview.sh   # a short trial
#
# 1. Same input, RUNS runs each, alternating (a b, b a, a b): a cached 1280x720 30 fps clip
#    of INPUT_SECONDS (testsrc2, H.264 CRF 18, the video of make_input's clip without its
#    audio, so both programs decode the same thing), decoded in real time, scaled to 640x360
#    and encoded as 15 JPEGs a second at quantizer 5 by
#    (a) reel studio --source file:CLIP, with one curl reading /api/preview for
#        INPUT_SECONDS + 1 s (the file plays once; the studio reopens it 2 s after it ends):
#        the studio's CPU (utime + stime of /proc/PID/stat) over that window only, not its
#        start-up; curl's own CPU is shown apart;
#    (b) ffmpeg -re -i CLIP -vf fps=15,scale=640:360:flags=bilinear -c:v mjpeg -q:v 5 -f mpjpeg -
#        (bilinear: Reel's scaler), under /usr/bin/time.
#    Both streams are saved and their JPEG parts counted (complete parts only) and measured.
#    Goal: Reel's median CPU at most 1.0x ffmpeg's.
# 2. The branch's own share: reel studio --source test:640x360@15 (one studio), SECONDS_TO_RUN
#    seconds each, one after the other:
#    (c) the preview alone (nothing records) with one curl client: the capture (the test
#        pattern drawn) plus the preview branch;
#    (d) a timelapse recording (interval 5, canvas 1280x720, so the preview is 640x360) and no
#        preview client;
#    (e) the same recording with one curl client on /api/preview.
#    (e) - (d) over the window is the preview branch's share of one core. Goal: at most 10 %.
#
# Environment: RUNS (3), INPUT_SECONDS (60), SECONDS_TO_RUN (30), FACES (1: the recording
# tracks faces, the studio's default; 0: "faces": false), REEL_BIN (default: the release
# build), KEEP_WORK=1 keeps the temporary folder (streams, studio logs, recordings).
BENCH_NAME=studio-preview
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

runs=${RUNS:-3}
input_seconds=${INPUT_SECONDS:-60}
seconds=${SECONDS_TO_RUN:-30}
faces=${FACES:-1}
hz=$(getconf CLK_TCK)
machine=$(machine_line)
"$reel" studio --help >/dev/null 2>&1 || fail "$reel has no 'studio' command: run 'make build' (or set REEL_BIN)"

# The studio keeps its library, recordings and state in the temporary folder; the face
# models (CenterFace, from `make setup`) are linked from the usual data folder.
models="${XDG_DATA_HOME:-$HOME/.local/share}/reel/models"
export XDG_DATA_HOME="$work/xdg-data" XDG_STATE_HOME="$work/xdg-state" XDG_CACHE_HOME="$work/xdg-cache"
mkdir -p "$work/home" "$XDG_DATA_HOME/reel"
[ -d "$models" ] && ln -s "$models" "$XDG_DATA_HOME/reel/models"

studio_pid=""
# SIGTERM (a recording is finished first), SIGKILL after 60 s. Not SIGINT: after a Ctrl-C
# (which the studio got too) a second SIGINT makes it die at once, and bash, seeing its child
# killed by SIGINT, would run its own INT trap again in the middle of the cleanup.
stop_studio() {
    [ -n "$studio_pid" ] || return 0
    kill -TERM "$studio_pid" 2>/dev/null || true
    local i
    for i in $(seq 1 600); do
        kill -0 "$studio_pid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$studio_pid" 2>/dev/null; then
        say "reel studio did not stop within 60 s of SIGTERM: killed"
        kill -KILL "$studio_pid" 2>/dev/null || true
    fi
    wait "$studio_pid" 2>/dev/null || true
    studio_pid=""
}
# set +e: errexit applies in traps too, and `(exit $st)` hands the status to bench_cleanup.
trap 'st=$?; set +e; stop_studio; (exit $st); bench_cleanup' EXIT

# start_studio SOURCE ID: reel studio on a free port; sets studio_pid, base (http://…/) and token.
start_studio() {
    HOME="$work/home" "$reel" studio --port 0 --access-log none --source "$1" --library "$work/library.sqlite" \
        </dev/null >"$work/$2.studio.out" 2>"$work/$2.studio.err" &
    studio_pid=$!
    local i line
    for i in $(seq 1 200); do
        grep -q 'api:' "$work/$2.studio.out" && break
        kill -0 "$studio_pid" 2>/dev/null || fail "reel studio exited at start: $(cat "$work/$2.studio.err")"
        sleep 0.05
    done
    line=$(grep -m 1 'api:' "$work/$2.studio.out") || fail "reel studio printed no api line in 10 s: $(cat "$work/$2.studio.err")"
    base=$(sed -n 's|.*api: *\(http://[^ ]*/\)api/status.*|\1|p' <<<"$line")
    token=$(sed -n 's|.*Bearer \([^) ]*\)).*|\1|p' <<<"$line")
    [ -n "$base" ] && [ -n "$token" ] || fail "could not read the address and token from: $line"
    sleep 1   # start-up is not measured
}
api() {   # api METHOD PATH [JSON]: the answer's body
    local args=(-sS --max-time 10 -H "Authorization: Bearer $token" -X "$1")
    [ "$1" = POST ] && args+=(-H "Origin: ${base%/}" -H "Content-Type: application/json" --data "${3:-}")
    curl "${args[@]}" "$base${2#/}"
}
json_field() { "$py" -c 'import json, sys
try: v = json.load(sys.stdin).get(sys.argv[1])
except Exception: v = None
print("-" if v is None else v)' "$1"; }
studio_cpu() { awk -v hz="$hz" '{ printf "%.2f\n", ($14 + $15) / hz }' "/proc/$studio_pid/stat"; }
now() { date +%s.%N; }

# window ID SECONDS CLIENT: the studio's CPU over SECONDS, with (1) or without (0) one curl
# reading /api/preview into ID.mjpeg meanwhile; writes "studio_cpu wall other curl_cpu" to
# ID.win (other: the CPU-s the rest of the machine used, curl left out).
window() {
    local id=$1 secs=$2 client=$3 c0 c1 w0 w1 m0 m1 curl_cpu=0 status=0
    m0=$(machine_busy); c0=$(studio_cpu); w0=$(now)
    if [ "$client" = 1 ]; then
        /usr/bin/time -o "$work/$id.curl.time" -f '%U %S' curl -sS -N --max-time "$secs" -H "Authorization: Bearer $token" \
            -o "$work/$id.mjpeg" -w '%{http_code}\n' "${base}api/preview" >"$work/$id.code" 2>"$work/$id.curl.err" || status=$?
        curl_cpu=$(grep -v '^Command' "$work/$id.curl.time" | awk '{ c = $1 + $2 } END { printf "%.2f", c }')
    else
        sleep "$secs"
    fi
    c1=$(studio_cpu); w1=$(now); m1=$(machine_busy)
    # 28: the time limit ended the stream, as it should.
    [ "$client" = 0 ] || [ "$status" = 28 ] ||
        say "curl ended with status $status before the window's end (HTTP $(cat "$work/$id.code")): $(grep -v '^Command' "$work/$id.curl.err" | head -n 2)"
    awk -v c0="$c0" -v c1="$c1" -v w0="$w0" -v w1="$w1" -v m0="$m0" -v m1="$m1" -v k="$curl_cpu" 'BEGIN {
        o = m1 - m0 - (c1 - c0) - k; printf "%.2f %.2f %.1f %.2f\n", c1 - c0, w1 - w0, (o > 0 ? o : 0), k }' >"$work/$id.win"
}
win() { awk -v f="$2" '{ if (f == "cpu") print $1; else if (f == "wall") print $2; else if (f == "other") print $3; else print $4 }' "$work/$1.win"; }
pct() { awk -v c="$1" -v w="$2" 'BEGIN { printf "%.1f", (w > 0 ? 100 * c / w : 0) }'; }

# parts FILE: "JPEGS BYTES FIRST_SEQ LAST_SEQ" of a saved multipart stream (complete parts;
# sequences from X-Reel-Sequence, "-" without), the first JPEG written to FILE.jpg.
parts() {
    "$py" - "$1" <<'PY'
import re, sys
data = open(sys.argv[1], "rb").read()
pos, count, total, seqs, first = 0, 0, 0, [], None
while True:
    start = data.find(b"--", pos)
    end = data.find(b"\r\n\r\n", start) if start >= 0 else -1
    if end < 0:
        break
    head = data[start:end].decode("latin-1")
    length = re.search(r"(?im)^content-length:\s*(\d+)", head)
    if not length:
        pos = start + 2
        continue
    size = int(length.group(1))
    body = data[end + 4:end + 4 + size]
    if len(body) < size or not body.startswith(b"\xff\xd8"):
        break
    count += 1
    total += size
    first = first or body
    seq = re.search(r"(?im)^x-reel-sequence:\s*(\d+)", head)
    if seq:
        seqs.append(int(seq.group(1)))
    pos = end + 4 + size
if first:
    open(sys.argv[1] + ".jpg", "wb").write(first)
print(count, total, seqs[0] if seqs else "-", seqs[-1] if seqs else "-")
PY
}
picture() {   # picture MJPEG: "640x360 yuvj420p" of its first JPEG
    [ -s "$1.jpg" ] || { echo "no picture"; return; }
    ffprobe -v error -show_entries stream=width,height,pix_fmt -of csv=p=0 "$1.jpg" | head -n 1 | awk -F, '{ print $1 "x" $2 " " $3 }'
}

# ---- 1. same input ----
with_audio=$(make_input 1280x720 30 "$input_seconds" 18)
clip="$cache/testsrc2-1280x720-30fps-${input_seconds}s-crf18-video.mp4"
if [ ! -s "$clip" ]; then
    say "making the video-only clip once (cached): $clip"
    ffmpeg -nostdin -hide_banner -loglevel error -y -i "$with_audio" -map 0:v -c copy -movflags +faststart "$clip.part.mp4" ||
        { rm -f "$clip.part.mp4"; fail "could not make $clip"; }
    mv "$clip.part.mp4" "$clip"
fi
expected=$((15 * input_seconds))
ffmpeg_args=(-nostdin -hide_banner -loglevel error -re -i "$clip" -vf "fps=15,scale=640:360:flags=bilinear"
             -c:v mjpeg -q:v 5 -f mpjpeg -)

run_reel() {   # run_reel ID
    say "$1: reel studio --source file:$clip, one curl on /api/preview for $((input_seconds + 1)) s"
    start_studio "file:$clip" "$1"
    window "$1" $((input_seconds + 1)) 1
    stop_studio
}
run_ffmpeg() {   # run_ffmpeg ID
    say "$1: ffmpeg ${ffmpeg_args[*]}"
    timed "$work/$1.time" ffmpeg "${ffmpeg_args[@]}" >"$work/$1.mjpeg" 2>"$work/$1.log" ||
        fail "ffmpeg failed: $(tail -n 3 "$work/$1.log")"
}
for run in $(seq 1 "$runs"); do
    if [ $((run % 2)) = 1 ]; then run_reel "a$run"; run_ffmpeg "b$run"; else run_ffmpeg "b$run"; run_reel "a$run"; fi
done

say "counting the JPEGs"
declare -A jpegs bytes
for run in $(seq 1 "$runs"); do
    for side in a b; do
        read -r n b _ _ < <(parts "$work/$side$run.mjpeg")
        jpegs[$side$run]=$n; bytes[$side$run]=$b
    done
done
list() { local run out=(); for run in $(seq 1 "$runs"); do out+=("$("$@" "$run")"); done; echo "${out[*]}"; }
reel_cpu_of() { win "a$1" cpu; }
ffmpeg_cpu_of() { read_time "$work/b$1.time" cpu; }
reel_pct_of() { pct "$(win "a$1" cpu)" "$(win "a$1" wall)"; }
ffmpeg_pct_of() { pct "$(read_time "$work/b$1.time" cpu)" "$(read_time "$work/b$1.time" wall)"; }
reel_jpegs_of() { echo "${jpegs[a$1]}"; }
ffmpeg_jpegs_of() { echo "${jpegs[b$1]}"; }
kb_of() { awk -v b="${bytes[$1]}" -v n="${jpegs[$1]}" 'BEGIN { printf "%.1f", (n > 0 ? b / n / 1024 : 0) }'; }
curl_of() { win "a$1" curl; }
reel_other_of() { win "a$1" other; }
ffmpeg_other_of() { read_time "$work/b$1.time" other; }
pair_of() { awk -v a="$(win "a$1" cpu)" -v b="$(read_time "$work/b$1.time" cpu)" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
reel_med=$(list reel_cpu_of | tr ' ' '\n' | median)
ffmpeg_med=$(list ffmpeg_cpu_of | tr ' ' '\n' | median)
ratio=$(awk -v a="$reel_med" -v b="$ffmpeg_med" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
verdict=$(awk -v r="$ratio" 'BEGIN { print (r > 0 && r <= 1.0 ? "PASS" : "FAIL") }')

# ---- 2. the branch's share during a recording ----
body="{\"mode\":\"timelapse\",\"interval\":5,\"canvas\":\"1280x720\"$([ "$faces" = 1 ] || echo ',"faces":false')}"
say "c: reel studio --source test:640x360@15, nothing recording, one curl on /api/preview for $seconds s"
start_studio "test:640x360@15" share
window c "$seconds" 1
sleep 3   # the preview's capture stops about a second after its last client
say "d: recording $body, no preview client, $seconds s"
api POST /api/recording/start "$body" >"$work/start.json" || fail "could not start the recording: $(cat "$work/start.json")"
state=""
for _ in $(seq 1 100); do
    state=$(api GET /api/recording | json_field state)
    [ "$state" = recording ] && break
    [ "$state" = failed ] && break
    sleep 0.1
done
[ "$state" = recording ] || fail "the recording did not start (state $state): $(api GET /api/recording)"
sleep 3   # the recorder's start-up is not measured
frames_d0=$(api GET /api/recording | json_field framesWritten)
window d "$seconds" 0
frames_e0=$(api GET /api/recording | json_field framesWritten)
say "e: the same recording, one curl on /api/preview for $seconds s"
window e "$seconds" 1
frames_e1=$(api GET /api/recording | json_field framesWritten)
api POST /api/recording/stop >/dev/null || say "could not stop the recording"
for _ in $(seq 1 300); do
    state=$(api GET /api/recording | json_field state)
    [ "$state" = finished ] || [ "$state" = failed ] && break
    sleep 0.1
done
recording=$(api GET /api/recording)
stop_studio
read -r c_jpegs c_bytes _ _ < <(parts "$work/c.mjpeg")
read -r e_jpegs e_bytes _ _ < <(parts "$work/e.mjpeg")
share=$(awk -v e="$(win e cpu)" -v we="$(win e wall)" -v d="$(win d cpu)" -v wd="$(win d wall)" \
    'BEGIN { printf "%.1f", 100 * (e / we - d / wd) }')
share_verdict=$(awk -v s="$share" 'BEGIN { print (s <= 10 ? "PASS" : "FAIL") }')
frames_d=$(awk -v a="$frames_d0" -v b="$frames_e0" 'BEGIN { print (a ~ /^[0-9]+$/ && b ~ /^[0-9]+$/ ? b - a : "-") }')
frames_e=$(awk -v a="$frames_e0" -v b="$frames_e1" 'BEGIN { print (a ~ /^[0-9]+$/ && b ~ /^[0-9]+$/ ? b - a : "-") }')
table() { printf '  %-16s %12s   %-22s %-22s %-18s %s' "$@"; }
row() {   # row LABEL ID CLIENT JPEGS FRAMES
    printf '  %-38s %6s %%  %7s CPU-s  %6s s  %10s  %7s  %s\n' "$1" "$(pct "$(win "$2" cpu)" "$(win "$2" wall)")" \
        "$(win "$2" cpu)" "$(win "$2" wall)" "$4" "$5" "$(win "$2" other)"
}

cat <<RESULT

==== studio-preview: reel studio's live preview (/api/preview: 640x360 JPEG q5, 15/s) against ffmpeg ====
reel:       $(reel_version)
ffmpeg:     $(ffmpeg -version | head -n 1 | cut -d' ' -f1-3)
machine:    $machine
same input: $clip (1280x720 30 fps, $input_seconds s, H.264, no audio), decoded in real time -> 640x360 -> 15 JPEG/s q5; runs: $runs each, alternating
  (a) reel studio --source file:CLIP, one curl on /api/preview for $((input_seconds + 1)) s: the studio's CPU over that window (start-up left out)
  (b) ffmpeg ${ffmpeg_args[*]}
$(table "" "median CPU-s" "CPU-s per run" "% of a core per run" "JPEGs (of $expected)" "KB/JPEG (run 1)")
$(table "(a) reel studio" "$reel_med" "$(list reel_cpu_of)" "$(list reel_pct_of)" "$(list reel_jpegs_of)" "$(kb_of a1)")
$(table "(b) ffmpeg" "$ffmpeg_med" "$(list ffmpeg_cpu_of)" "$(list ffmpeg_pct_of)" "$(list ffmpeg_jpegs_of)" "$(kb_of b1)")
  reel/ffmpeg CPU: ${ratio}x (per run: $(list pair_of)) ; goal <= 1.0x -> $verdict
  pictures: reel $(picture "$work/a1.mjpeg"), ffmpeg $(picture "$work/b1.mjpeg"); curl's own CPU-s (not counted): $(list curl_of)
  other load (CPU-s, rest of the machine): reel $(list reel_other_of); ffmpeg $(list ffmpeg_other_of)
branch share: reel studio --source test:640x360@15, timelapse every 5 s on a 1280x720 canvas (faces $([ "$faces" = 1 ] && echo on || echo off)), $seconds s per window
$(printf '  %-38s %8s  %13s  %8s  %10s  %7s  %s' "" "studio" "" "window" "JPEGs" "frames" "other load")
$(printf '  %-38s %8s  %13s  %8s  %10s  %7s  %s' "" "CPU" "" "" "(of $((15 * seconds)))" "written" "(CPU-s)")
$(row "(c) preview alone, 1 client" c 1 "$c_jpegs" -)
$(row "(d) recording, no preview client" d 0 - "$frames_d")
$(row "(e) recording + 1 preview client" e 1 "$e_jpegs" "$frames_e")
  preview branch's share: ${share} % of one core ((e) - (d)); goal <= 10 % -> $share_verdict
  pictures: $(picture "$work/e.mjpeg"), $(awk -v b="$e_bytes" -v n="$e_jpegs" 'BEGIN { printf "%.1f", (n > 0 ? b / n / 1024 : 0) }') KB/JPEG; recording: state $(json_field state <<<"$recording"), $(json_field framesWritten <<<"$recording") frames written
  studio's note at the start: $(json_field message <"$work/start.json")
RESULT
