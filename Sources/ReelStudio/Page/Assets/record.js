// The record view — the source, its live preview with the face box, the
// recording's form and buttons, and the readings from each `recording` event.
import { $, SOURCE_KINDS, bytes, clock, get, option, post, say as sayIn, onSignedOut } from "./common.js";
import { RECORDING } from "./states.js";

const say = (text, tone) => sayIn("rec-message", text, tone);

const stateNames = { idle: "Not recording", starting: "Starting…", recording: "Recording", paused: "Paused",
                     interrupted: "Interrupted: the source stopped", finishing: "Finishing…", finished: "Finished",
                     failed: "Failed" };
let recording = { state: RECORDING.idle, revision: -1 };
// Why the source cannot record now (a live stream or another camera view has it), or null.
let sourceBusy = null;
const active = () => [RECORDING.starting, RECORDING.recording, RECORDING.paused, RECORDING.interrupted, RECORDING.finishing].includes(recording.state);

export function showRecording(snapshot) {
  recording = snapshot;
  const state = $("rec-state");
  state.textContent = stateNames[snapshot.state] ?? snapshot.state;
  state.dataset.state = snapshot.state;
  const shown = snapshot.state !== RECORDING.idle;
  $("rec-active").textContent = shown ? clock(snapshot.activeSeconds) : "–";
  $("rec-wall").textContent = shown ? clock(snapshot.wallSeconds) : "–";
  $("rec-frames").textContent = shown ? String(snapshot.framesWritten) : "–";
  $("rec-size").textContent = shown ? bytes(snapshot.fileBytes) : "–";
  $("rec-estimate").textContent = snapshot.hoursLeft == null ? "–"
    : `${snapshot.hoursLeft >= 100 ? Math.round(snapshot.hoursLeft) : snapshot.hoursLeft.toFixed(1)} h (${bytes(snapshot.freeBytes)} free)`;
  $("rec-load").textContent = shown ? snapshot.load + (snapshot.loadReason ? `: ${snapshot.loadReason}` : "") : "–";
  const running = active();
  showStart();
  $("pause").disabled = !running || snapshot.state === RECORDING.finishing || snapshot.state === RECORDING.starting;
  $("stop").disabled = !running || snapshot.state === RECORDING.finishing;
  $("pause").textContent = snapshot.state === RECORDING.paused ? "Resume" : "Pause";
  $("source-choice").disabled = running;
  if (snapshot.state === RECORDING.finished) {
    const saved = `Saved ${snapshot.outputPath}` + (snapshot.sessionRegistered ? " (in the library)" : "");
    if (snapshot.error) say(`${saved}. It stopped early: ${snapshot.error}`, "warn");
    else say(saved, "ok");
  }
  else if (snapshot.state === RECORDING.failed) say(snapshot.error ?? "The recording failed.", "bad");
  else if (snapshot.message) say(snapshot.message, snapshot.state === RECORDING.interrupted ? "warn" : "");
  showFace(snapshot);
  // A recording that ended may have left its work folder for recovery.
  if (snapshot.state === RECORDING.finished || snapshot.state === RECORDING.failed) loadUnfinished();
}

// Start waits while a recording runs, and says why while the source is lent elsewhere.
function showStart() {
  $("start").disabled = active() || Boolean(sourceBusy);
  $("start-note").textContent = !active() && sourceBusy ? `Recording has to wait: ${sourceBusy}.` : "";
}

function showFace(snapshot) {
  const box = $("face-box"), face = snapshot.face;
  if (!active() || !face || face.kind === "defaultRegion") { box.hidden = true; return; }
  box.hidden = false;
  box.style.left = `${face.x * 100}%`;
  box.style.top = `${face.y * 100}%`;
  box.style.width = `${face.width * 100}%`;
  box.style.height = `${face.height * 100}%`;
  box.dataset.kind = face.kind;
}

export function showCamera(camera) {
  const note = $("preview-note");
  if (camera.problem) note.textContent = `No picture: ${camera.problem}`;
  else if (!camera.source) note.textContent = "Choose a source to see its picture.";
  else note.textContent = `${camera.source}${active() ? " (recording)" : ""}`;
  const choice = $("source-choice");
  // While a file's path is being typed the list stays on "Video file…".
  if (camera.source && choice.value !== camera.source && $("file-row").hidden) selectSource(camera.source);
  sourceChosen = Boolean(camera.source);
  sourceBusy = camera.busy ?? null;
  showStart();
  startPreview();
}

function selectSource(value) {
  const choice = $("source-choice");
  if (![...choice.options].some((item) => item.value === value)) choice.add(option(value, value), choice.options.length - 1);
  choice.value = value;
}

async function loadSources() {
  const answer = await fetch("/api/sources");
  if (!answer.ok) return;
  const sources = await answer.json();
  const choice = $("source-choice");
  choice.replaceChildren(option("", "Choose a source…"));
  for (const camera of sources.cameras) {
    const format = camera.formats[0];
    const detail = format ? ` — ${format.fourcc} ${format.sizes.at(-1) ?? ""}` : "";
    choice.add(option(`v4l2:${camera.path}`, `${camera.name} (${camera.path})${detail}`));
  }
  if (sources.cameras.length === 0) {
    const none = option("", "No camera found");
    none.disabled = true;
    choice.add(none);
  }
  choice.add(option("test:1280x720@15", `${SOURCE_KINDS.test}, 1280x720 at 15 fps`));
  choice.add(option("file", `${SOURCE_KINDS.file}…`));
  if (sources.chosen) selectSource(sources.chosen);
}

async function chooseSource(value) {
  $("file-row").hidden = value !== "file";
  if (value === "file") { $("source-file").focus(); return; }
  if (!value) return;
  const camera = await post("/api/source", { source: value }, "rec-message");
  if (camera) { say(""); showCamera(camera); }
}

// A file is probed by the studio when chosen: a refusal is said, and the row stays with what
// was typed, to be corrected; the row goes once the file is taken.
async function useFile() {
  const camera = await post("/api/source", { source: `file:${$("source-file").value.trim()}` }, "rec-message");
  if (!camera) { $("source-file").focus(); return; }
  $("file-row").hidden = true;
  say("");
  showCamera(camera);
}

// The recordings a recorder left unfinished (killed, crashed, power cut), and Recover, which
// finishes them as `reel recover` does.
async function loadUnfinished() {
  const answer = await get("/api/recordings/unfinished", "rec-message");
  if (answer) showUnfinished(answer.recordings);
}

function showUnfinished(recordings) {
  $("unfinished").hidden = recordings.length === 0;
  $("unfinished-list").replaceChildren(...recordings.map((item) => {
    const line = document.createElement("li");
    const started = item.startedAt ? new Date(item.startedAt).toLocaleString() : "at an unknown time";
    line.textContent = item.outputPath
      ? `${item.title ?? "Untitled"}, ${item.mode}, started ${started}, for ${item.outputPath}`
      : `${item.folder}: ${item.problem}`;
    return line;
  }));
}

async function recover() {
  $("recover").disabled = true;
  say("Recovering…");
  let answer = null;
  try { answer = await post("/api/recordings/recover", undefined, "rec-message"); }
  finally { $("recover").disabled = false; }
  if (!answer) return;
  say(answer.summary, answer.failed > 0 ? "bad" : answer.warned ? "warn" : "ok");
  showUnfinished(answer.unfinished);
}

// The answer to a start or a stop can arrive after an event newer than it (a start the disk
// check refuses fails by event at once): an answer older than what is shown is dropped.
function showAnswer(snapshot) {
  if (snapshot.id !== recording.id || snapshot.revision > recording.revision) showRecording(snapshot);
}

async function start(event) {
  event.preventDefault();
  const mode = document.querySelector("input[name=mode]:checked").value;
  const request = { mode, title: $("title").value, tags: $("tags").value.split(",").map((t) => t.trim()).filter((t) => t) };
  if (mode === "timelapse") request.interval = Number($("interval").value);
  const folder = $("output-folder").value.trim(), floor = $("min-hours").value.trim();
  if (folder) request.folder = folder;
  if (floor) request.minHours = Number(floor);
  say("");
  const snapshot = await post("/api/recording/start", request, "rec-message");
  if (snapshot) showAnswer(snapshot);
}

async function control(action) {
  const snapshot = await post(`/api/recording/${action}`, undefined, "rec-message");
  if (snapshot) showAnswer(snapshot);
}

function typing(target) {
  return target instanceof HTMLInputElement || target instanceof HTMLSelectElement
    || target instanceof HTMLTextAreaElement || target instanceof HTMLButtonElement;
}

function keys(event) {
  if (event.code !== "Space" || event.repeat || typing(event.target) || !active() || !viewShown) return;
  event.preventDefault();
  control("toggle");
}

// The preview is a stream that never ends: it starts after the page has loaded (an
// image still loading would hold the page's load event), once there is a source, and
// only while this view is shown in a tab in sight (the studio encodes nothing for a
// preview nobody watches). A preview that ended (the source delivered nothing for a
// while, the studio restarted) is asked for again after 2 s.
let pageLoaded = false, sourceChosen = false, signedOutNow = false, viewShown = true;
function startPreview() {
  const img = $("preview");
  if (pageLoaded && sourceChosen && viewShown && !signedOutNow && !document.hidden && !img.getAttribute("src")) {
    img.src = "/api/preview";
  }
}

function stopPreview() { $("preview").removeAttribute("src"); }

function previewEnded() {
  stopPreview();
  setTimeout(startPreview, 2000);
}

/// The view shown or hidden (the page's navigation).
export function showView(shown) {
  viewShown = shown;
  if (shown) startPreview(); else stopPreview();
}

export function initRecord() {
  $("record-form").addEventListener("submit", start);
  $("pause").addEventListener("click", () => control("toggle"));
  $("stop").addEventListener("click", () => control("stop"));
  $("source-choice").addEventListener("change", (event) => chooseSource(event.target.value));
  $("use-file").addEventListener("click", useFile);
  $("recover").addEventListener("click", recover);
  for (const radio of document.querySelectorAll("input[name=mode]")) {
    radio.addEventListener("change", () => { $("interval").disabled = radio.value === "full" && radio.checked; });
  }
  document.addEventListener("keydown", keys);
  document.addEventListener("visibilitychange", () => { if (document.hidden) stopPreview(); else startPreview(); });
  $("preview").addEventListener("error", previewEnded);
  window.addEventListener("load", () => { pageLoaded = true; startPreview(); });
  onSignedOut(() => { signedOutNow = true; stopPreview(); });
  loadSources();
  loadUnfinished();
}
