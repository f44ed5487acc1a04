// The live view — `reel live` from the browser: the form (source, origin,
// token, local folder, quality, landscape, faces, archive), Go live and Stop, and the stream's
// snapshot (from `GET /api/live` once, then each `live` event): state, figures, the playlist
// and viewer addresses, `reel live`'s lines, warnings and the outcome. Every check is the
// server's: the form sends what was filled in and shows the refusal's words.
import { $, SOURCE_KINDS, counted, duration, get, option, post, say } from "./common.js";
import { LIVE } from "./states.js";

const states = { idle: "Not live", starting: "Starting…", live: "Live", stopping: "Stopping: publishing the last segment…",
                 finished: "Finished", failed: "Failed" };
const fields = ["live-source", "live-file", "live-origin", "live-token", "live-output", "live-quality", "live-landscape", "live-privacy", "live-archive", "live-privacy-archive"];
const dash = "–";
const order = { idle: 0, starting: 1, live: 2, stopping: 3, finished: 4, failed: 4 };
let running = false, said = "", latest = { state: LIVE.idle, streamID: null };

const isRunning = (state) => [LIVE.starting, LIVE.live, LIVE.stopping].includes(state);

function figures(s) {
  return {
    "live-stream": s.streamID ?? dash,
    "live-elapsed": duration(s.elapsed ?? 0),
    "live-segments": `${s.segmentsPublished} of ${s.segmentsProduced} published`,
    "live-backlog": counted(s.backlog, "segment"),
    "live-dropped": String(s.droppedFrames),
    "live-bitrate": `${(s.bitRate / 1e6).toFixed(1)} Mbps`,
    "live-failures": String(s.failedAttempts),
    "live-archive-frames": s.archiveFrames == null ? "not kept" : counted(s.archiveFrames, "frame"),
    // Left out on purpose by the archive's load policy when its encoder cannot keep up.
    "live-archive-skipped": s.archiveFrames == null ? dash : counted(s.archiveSkippedFrames ?? 0, "frame"),
    "live-archive-path": s.archivePath ?? dash,
    "live-faces": faces(s),
  };
}

// The faces' state, as `reel live`'s status line gives it: covered before encoding, or how
// many pictures left before their detections (covered wider, or whole), or the detector failed.
function faces(s) {
  if (!s.privacy) return "shown as captured";
  const archive = s.archivePath == null ? "" : s.privacyArchive ? ", archive covered too" : ", archive as captured";
  if (s.privacyFailed) return `${s.privacy}: the detector failed, every picture is covered whole`;
  const late = s.privacyLatePictures + s.privacyWholePictures;
  if (late > 0) {
    return `${s.privacy}: detection fell behind, ${counted(s.privacyLatePictures, "picture")} covered wider, `
      + `${s.privacyWholePictures} whole${archive}`;
  }
  return `${s.privacy}: covered before encoding${archive}`;
}

function showFigures(snapshot) {
  const shown = snapshot.state !== LIVE.idle;
  for (const [id, text] of Object.entries(figures(snapshot))) $(id).textContent = shown ? text : dash;
}

function showAddresses(snapshot) {
  const viewer = $("live-viewer");
  viewer.hidden = !snapshot.viewerURL;
  if (snapshot.viewerURL) viewer.href = snapshot.viewerURL; else viewer.removeAttribute("href");
  $("live-playlist").textContent = snapshot.playlistURL ?? dash;
  $("live-copy").disabled = !snapshot.playlistURL;
}

function showLines(snapshot) {
  const lines = snapshot.lines ?? [];
  $("live-lines").textContent = lines.length > 0 ? lines.join("\n") : "Nothing yet.";
  const warnings = snapshot.warnings ?? [];
  $("live-warnings").hidden = warnings.length === 0;
  $("live-warnings").replaceChildren(...warnings.map((text) => {
    const item = document.createElement("li");
    item.textContent = text;
    return item;
  }));
}

// The snapshot's message (why it failed, or the summary) is said once per state and text,
// so a refusal of the form's stays until something new happened.
function showOutcome(snapshot) {
  const key = `${snapshot.state}\n${snapshot.message}`;
  if (!snapshot.message || key === said) return;
  said = key;
  const warned = (snapshot.warnings ?? []).length > 0;
  const tone = snapshot.state === LIVE.failed ? "bad" : snapshot.state === LIVE.finished ? (warned ? "warn" : "ok") : "";
  say("live-message", snapshot.message, tone);
}

function showControls(state) {
  const now = isRunning(state);
  for (const id of fields) $(id).disabled = now;
  if (!now) privacyChanged();
  $("live-start").disabled = now;
  $("live-stop").disabled = state !== LIVE.starting && state !== LIVE.live;
}

/// The stream's snapshot (`GET /api/live`, an answer, or a `live` event).
export function showLive(snapshot) {
  latest = snapshot;
  if (isRunning(snapshot.state) && !running) reflect(snapshot);
  running = isRunning(snapshot.state);
  const state = $("live-state");
  state.textContent = states[snapshot.state] ?? snapshot.state;
  state.dataset.state = snapshot.state;
  showFigures(snapshot);
  showAddresses(snapshot);
  showLines(snapshot);
  showOutcome(snapshot);
  showControls(snapshot.state);
  document.body.dataset.liveState = snapshot.state;
  document.body.dataset.liveSegments = String(snapshot.segmentsPublished);
}

// An answer can reach the page after an event about the same stream that is newer than it
// (a stream that failed at once, a stop that finished at once): it never moves the page back.
function showAnswer(snapshot) {
  const same = snapshot.streamID === latest.streamID;
  if (!same || (order[snapshot.state] ?? 0) >= (order[latest.state] ?? 0)) showLive(snapshot);
}

// A stream this tab did not start (another tab, or before a reload): the form shows what it runs with.
function reflect(snapshot) {
  if (snapshot.source) selectSource(snapshot.source);
  $("live-origin").value = snapshot.origin ?? "";
  $("live-output").value = snapshot.output ?? "";
  if (snapshot.quality) $("live-quality").value = snapshot.quality;
  $("live-landscape").checked = Boolean(snapshot.landscape);
  $("live-privacy").value = snapshot.privacy ?? "";
  $("live-archive").checked = snapshot.archivePath != null;
  $("live-privacy-archive").checked = Boolean(snapshot.privacyArchive);
}

function selectSource(value) {
  const choice = $("live-source");
  if (value.startsWith("file:")) { $("live-file").value = value.slice(5); value = "file"; }
  if (![...choice.options].some((item) => item.value === value)) choice.add(option(value, value), choice.options.length - 1);
  choice.value = value;
  $("live-file-row").hidden = value !== "file";
}

function addCameras(choice, cameras) {
  for (const camera of cameras) {
    const format = camera.formats[0];
    const detail = format ? ` — ${format.fourcc} ${format.sizes.at(-1) ?? ""}` : "";
    choice.add(option(`v4l2:${camera.path}`, `${camera.name} (${camera.path})${detail}`));
  }
  if (cameras.length > 0) return;
  const none = option("", "No camera found");
  none.disabled = true;
  choice.add(none);
}

// The list keeps what was selected (a source reflected from a running stream) over the studio's choice.
async function loadSources() {
  const sources = await get("/api/sources", "live-message");
  if (!sources) return;
  const choice = $("live-source"), kept = choice.value;
  choice.replaceChildren(option("", "As chosen on the record page"));
  addCameras(choice, sources.cameras);
  choice.add(option(sources.test ?? "test", SOURCE_KINDS.test));
  choice.add(option("file", `${SOURCE_KINDS.file}…`));
  const wanted = kept || sources.chosen;
  if (wanted) selectSource(wanted);
}

function chosenSource() {
  const value = $("live-source").value;
  return value === "file" ? `file:${$("live-file").value.trim()}` : value;
}

/// The request: only the fields filled in (the server fills in the rest, and judges it all).
function request() {
  const body = { quality: $("live-quality").value, landscape: $("live-landscape").checked, archive: $("live-archive").checked };
  const source = chosenSource(), origin = $("live-origin").value.trim(), output = $("live-output").value.trim();
  if (source) body.source = source;
  if (origin) body.origin = origin;
  if ($("live-token").value) body.token = $("live-token").value;
  if (output) body.output = output;
  if ($("live-privacy").value) {
    body.privacy = $("live-privacy").value;
    body.privacyArchive = $("live-archive").checked && $("live-privacy-archive").checked;
  }
  return body;
}

async function start(event) {
  event.preventDefault();
  say("live-message", "");
  said = "";
  $("live-start").disabled = true;
  let snapshot = null;
  try { snapshot = await post("/api/live", request(), "live-message"); }
  finally { if (!snapshot) $("live-start").disabled = running; }
  if (!snapshot) return;
  showAnswer(snapshot);
  if (isRunning(latest.state)) say("live-message", "Going live: the stream's state is shown under “The stream”.", "ok");
}

async function stop() {
  const snapshot = await post("/api/live/stop", undefined, "live-message");
  if (snapshot) showAnswer(snapshot);
}

function selectPlaylist() {
  const range = document.createRange();
  range.selectNodeContents($("live-playlist"));
  const selection = window.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
}

async function copyPlaylist() {
  try {
    await navigator.clipboard.writeText($("live-playlist").textContent);
    say("live-copy-note", "Copied.", "ok");
  } catch (_) {
    // No clipboard here (a page not served from this machine, or the permission refused).
    selectPlaylist();
    say("live-copy-note", "Selected: press Ctrl+C to copy it.", "");
  }
}

// The archive is covered only when faces are hidden and an archive is kept.
function privacyChanged() {
  $("live-privacy-archive").disabled = !$("live-privacy").value || !$("live-archive").checked;
}

function sourceChanged() {
  const file = $("live-source").value === "file";
  $("live-file-row").hidden = !file;
  if (file) $("live-file").focus();
}

export function showView() {}

export function initLive() {
  $("live-form").addEventListener("submit", start);
  $("live-stop").addEventListener("click", stop);
  $("live-copy").addEventListener("click", copyPlaylist);
  $("live-source").addEventListener("change", sourceChanged);
  $("live-privacy").addEventListener("change", privacyChanged);
  $("live-archive").addEventListener("change", privacyChanged);
  loadSources().then(() => get("/api/live", "live-message")).then((snapshot) => { if (snapshot) showAnswer(snapshot); });
}
