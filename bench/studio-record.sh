#!/usr/bin/env bash
# A study timelapse recorded through Reel Studio with the page open, against `reel record`.
#
#   bash bench/studio-record.sh                  # 10 minutes each (~21 min)
#   SECONDS_TO_RUN=120 bash bench/studio-record.sh
#   STUDIO_VIEW=library bash bench/studio-record.sh   # the page open on another view: no preview
#
# (a) reel record --source test:1280x720@30 --mode timelapse --interval 5 --canvas 1920x1080
#     --duration SECONDS, under /usr/bin/time.
# (b) reel studio --source test:1280x720@30, the page open in headless chromium (chromedriver,
#     driven with curl: W3C WebDriver is plain JSON over HTTP), on the record view (the default:
#     the preview runs all along) or on STUDIO_VIEW (another view closes the preview);
#     a timelapse with the same settings started and stopped SECONDS later through the API.
#     The studio's CPU is read from /proc over the recording (start → finished); chromium's is
#     reported apart (it is the browser's, not Reel's).
# For both: frames written against the frames the active time asks for (one per 5 s of study,
# the first at 0), and the file checked with ffprobe. Goal: 0 frames lost, (b)'s CPU within
# ±10 % of (a)'s.
BENCH_NAME=studio-record
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

seconds=${SECONDS_TO_RUN:-600}
view=${STUDIO_VIEW:-record}
source_spec=test:1280x720@30
[ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] || fail "chromium and chromium-driver are needed: run 'make setup'"
hz=$(getconf CLK_TCK)
cpu_of() { awk -v hz="$hz" '{ printf "%.2f\n", ($14 + $15) / hz }' "/proc/$1/stat"; }
frames_in() { ffprobe -v error -count_packets -select_streams v:0 -show_entries stream=nb_read_packets -of csv=p=0 "$1"; }
expected() { "$py" -c "import sys, math; print(math.floor(float(sys.argv[1]) / 5) + 1)" "$1"; }

studio_pid="" driver_pid=""
stop_all() {
    [ -n "$driver_pid" ] && kill "$driver_pid" 2>/dev/null || true
    [ -n "$studio_pid" ] && kill -INT "$studio_pid" 2>/dev/null && wait "$studio_pid" 2>/dev/null || true
}
trap 'stop_all; bench_cleanup' EXIT

# (a) reel record
say "(a) reel record, $seconds s"
export HOME=$work/home XDG_DATA_HOME=$work/home/data XDG_STATE_HOME=$work/home/state
mkdir -p "$HOME"
timed "$work/a.time" "$reel" record --source "$source_spec" --mode timelapse --interval 5 --canvas 1920x1080 --quiet \
    --duration "$seconds" --library "$work/a.sqlite" --output "$work/a.mp4" >"$work/a.log" 2>&1 || fail "reel record failed: $(tail -3 "$work/a.log")"
a_cpu=$(read_time "$work/a.time" cpu) a_wall=$(read_time "$work/a.time" wall) a_other=$(read_time "$work/a.time" other)
a_frames=$(frames_in "$work/a.mp4")
a_active=$(sed -n 's/.*, active \([0-9.]*\) s (.*/\1/p' "$work/a.log" | tail -n 1)

# (b) the studio, its page open
say "(b) reel studio with the page open in chromium, $seconds s"
"$reel" studio --port 0 --access-log none --source "$source_spec" --library "$work/b.sqlite" >"$work/b.out" 2>"$work/b.log" &
studio_pid=$!
for _ in $(seq 1 100); do grep -q 'open:' "$work/b.out" 2>/dev/null && break; sleep 0.1; done
address=$(awk '/open:/ { print $2 }' "$work/b.out")
[ -n "$address" ] || fail "the studio did not start: $(cat "$work/b.log")"
base=${address%%\?*} token=${address##*=}
auth=(-H "Authorization: Bearer $token" -H "Origin: ${base%/}")
driver_port=$(free_port)
/usr/bin/chromedriver --port="$driver_port" >"$work/driver.log" 2>&1 &
driver_pid=$!
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$driver_port/status" >/dev/null && break; sleep 0.1; done
session=$(curl -sf -X POST "http://127.0.0.1:$driver_port/session" -H 'Content-Type: application/json' -d "{\"capabilities\":{\"alwaysMatch\":{
  \"browserName\":\"chrome\",\"goog:chromeOptions\":{\"binary\":\"/usr/bin/chromium\",\"args\":[\"--headless=new\",\"--no-sandbox\",
  \"--disable-gpu\",\"--disable-dev-shm-usage\",\"--no-first-run\",\"--user-data-dir=$work/profile\",\"--window-size=1280,900\"]}}}}" \
  | "$py" -c 'import json, sys; print(json.load(sys.stdin)["value"]["sessionId"])') || fail "chromedriver did not start chromium"
curl -sf -X POST "http://127.0.0.1:$driver_port/session/$session/url" -H 'Content-Type: application/json' -d "{\"url\":\"$address\"}" >/dev/null
sleep 2
curl -sf -X POST "http://127.0.0.1:$driver_port/session/$session/execute/sync" -H 'Content-Type: application/json' \
    -d "{\"script\":\"location.hash = '$view'\",\"args\":[]}" >/dev/null || fail "the page did not switch to #$view"
sleep 1
state() { curl -sf "${auth[@]}" "${base}api/recording" | "$py" -c "import json, sys; d = json.load(sys.stdin); print(d.get('$1'))"; }
cpu_before=$(cpu_of "$studio_pid") busy_before=$(machine_busy) chromium_before=$(ps -C chromium -o times= | awk '{ s += $1 } END { print s + 0 }')
curl -sf "${auth[@]}" -X POST -H 'Content-Type: application/json' -d '{"mode":"timelapse","interval":5,"canvas":"1920x1080"}' \
    "${base}api/recording/start" >/dev/null || fail "the recording did not start"
sleep "$seconds"
curl -sf "${auth[@]}" -X POST "${base}api/recording/stop" >/dev/null
for _ in $(seq 1 600); do [ "$(state state)" = finished ] && break; sleep 0.1; done
cpu_after=$(cpu_of "$studio_pid") busy_after=$(machine_busy) chromium_after=$(ps -C chromium -o times= | awk '{ s += $1 } END { print s + 0 }')
b_cpu=$(awk -v a="$cpu_before" -v b="$cpu_after" 'BEGIN { printf "%.2f", b - a }')
b_chromium=$(awk -v a="$chromium_before" -v b="$chromium_after" 'BEGIN { printf "%.0f", b - a }')
b_other=$(awk -v a="$busy_before" -v b="$busy_after" -v c="$b_cpu" -v d="$b_chromium" 'BEGIN { o = b - a - c - d; printf "%.1f", (o > 0 ? o : 0) }')
b_output=$(state outputPath) b_active=$(state activeSeconds) b_written=$(state framesWritten)
b_frames=$(frames_in "$b_output")
watchers=$(curl -sf "${auth[@]}" "${base}api/camera" | "$py" -c 'import json, sys; print(json.load(sys.stdin)["watchers"])')
stop_all
studio_pid="" driver_pid=""

echo "== studio-record: a ${seconds} s timelapse through the studio, page open, against reel record ($(machine_line), $(date -u +%Y-%m-%dT%H:%MZ)) =="
echo "$(reel_version)"
printf '(a) reel record:        %s CPU-s over %s s wall (%.1f %% of a core), %s frames in the file, %s expected from %s s of study; other load %s CPU-s\n' \
    "$a_cpu" "$a_wall" "$(awk -v c="$a_cpu" -v w="$a_wall" 'BEGIN { print 100 * c / w }')" "$a_frames" "$(expected "${a_active:-$seconds}")" "${a_active:-?}" "$a_other"
printf "(b) studio, page open on #$view:  %s CPU-s over the recording (%.1f %% of a core), %s frames in the file (%s reported), %s expected from %.1f s of study; chromium %s CPU-s; preview watchers at the end: %s; other load %s CPU-s\n" \
    "$b_cpu" "$(awk -v c="$b_cpu" -v w="$seconds" 'BEGIN { print 100 * c / w }')" "$b_frames" "$b_written" "$(expected "$b_active")" "$b_active" "$b_chromium" "$watchers" "$b_other"
awk -v a="$a_cpu" -v b="$b_cpu" 'BEGIN { if (a > 0) printf "ratio studio / reel record CPU: %.2f (goal 0.90–1.10; the studio also runs the page preview)\n", b / a }'
