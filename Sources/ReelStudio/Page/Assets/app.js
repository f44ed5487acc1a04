// The page's entry. It follows `/api/events` and hands each `status`,
// `camera`, `recording`, `library`, `backup`, `export`, `live`, `overlay…` and `cinematic…` event to its view, switches
// views by the address's hash (`#record`, `#live`, `#library`, `#review/ID`: a view's name, then
// what it shows), and signs out. The page holds no rule of its own: every figure and every
// check comes from the server.
import { $, bytes, duration, onSignedOut, signedOut, sourceName } from "./common.js";
import { RECORDING } from "./states.js";
import { EVENTS } from "./events.js";
import * as record from "./record.js";
import * as library from "./library.js";
import * as stats from "./stats.js";
import * as materials from "./materials.js";
import * as backup from "./backup.js";
import * as review from "./review.js";
import * as exports from "./exports.js";
import * as live from "./live.js";
import * as overlay from "./overlay.js";
import * as cinematic from "./cinematic.js";

// The review view has no link of its own: a session's dialog in the library leads to it.
const views = { record, live, overlay, cinematic, library, review, stats, materials, exports, backup };

function route() {
  const [wanted, ...rest] = location.hash.slice(1).split("/");
  const name = wanted in views ? wanted : "record";
  for (const [key, view] of Object.entries(views)) {
    const visible = key === name;
    $(`view-${key}`).hidden = !visible;
    const link = $(`nav-${key}`);
    if (link && visible) link.setAttribute("aria-current", "page"); else if (link) link.removeAttribute("aria-current");
    view.showView(visible, visible ? rest.join("/") : "");
  }
}

function connection(state, text) {
  const line = $("connection");
  line.dataset.state = state;
  line.textContent = text;
}

function showStatus(status) {
  $("library-path").textContent = status.library.path;
  $("library-sessions").textContent = status.library.sessions ?? `cannot be read: ${status.library.problem}`;
  $("disk-free").textContent = bytes(status.disk.freeBytes);
  $("source").textContent = sourceName(status.source);
  $("streams").textContent = String(status.eventStreams);
  $("uptime").textContent = duration(status.uptimeSeconds);
  $("version").textContent = status.version;
  document.body.dataset.updated = String(Date.now());
  library.noteTotal(status.library.sessions ?? null);
}

let events = null, retryTimer = null, retryDelay = 0, behind = false, stopped = false;
// EventSource retries a dropped stream by itself, but gives up for good after an answer that is
// not a stream (503 while every stream is taken): the page then opens a new one itself, waiting
// 1 s, then twice as long each time, at most 15 s, until the studio answers.
const firstRetry = 1000, lastRetry = 15000;

function retryLater() {
  if (stopped || retryTimer) return;
  retryDelay = retryDelay === 0 ? firstRetry : Math.min(lastRetry, retryDelay * 2);
  connection("lost", `Connection lost, retrying in ${Math.round(retryDelay / 1000)} s…`);
  retryTimer = setTimeout(() => { retryTimer = null; follow(); }, retryDelay);
}

// Back after a gap: what changed meanwhile sent events this page missed.
function caughtUp() {
  retryDelay = 0;
  connection("live", "Live");
  if (!behind) return;
  behind = false;
  library.reload();
  stats.reload();
  materials.reload();
}

function follow() {
  if (events) events.close();
  events = new EventSource("/api/events");
  events.addEventListener("open", caughtUp);
  events.addEventListener(EVENTS.status, (event) => {
    connection("live", "Live");
    showStatus(JSON.parse(event.data));
  });
  events.addEventListener(EVENTS.recording, (event) => {
    const snapshot = JSON.parse(event.data);
    record.showRecording(snapshot);
    if (snapshot.state === RECORDING.finished && snapshot.sessionRegistered) { library.reload(); stats.reload(); }
  });
  events.addEventListener(EVENTS.camera, (event) => record.showCamera(JSON.parse(event.data)));
  events.addEventListener(EVENTS.backup, (event) => backup.showBackup(JSON.parse(event.data)));
  events.addEventListener(EVENTS.export, (event) => exports.showExport(JSON.parse(event.data)));
  // While live runs the camera's own event says the preview is off: the record view needs nothing more.
  events.addEventListener(EVENTS.live, (event) => live.showLive(JSON.parse(event.data)));
  events.addEventListener(EVENTS.overlay, (event) => overlay.showState(JSON.parse(event.data)));
  events.addEventListener(EVENTS.overlayPhoto, () => overlay.reloadPhotos());
  events.addEventListener(EVENTS.overlayAssets, (event) => overlay.showAssets(JSON.parse(event.data)));
  events.addEventListener(EVENTS.cinematic, (event) => cinematic.showState(JSON.parse(event.data)));
  events.addEventListener(EVENTS.cinematicClips, () => cinematic.reloadClips());
  events.addEventListener(EVENTS.cinematicRefocus, (event) => cinematic.showRefocus(JSON.parse(event.data)));
  events.addEventListener(EVENTS.library, () => { library.reload(); stats.reload(); materials.reload(); });
  events.addEventListener("error", async () => {
    const source = events;
    behind = true;
    connection("lost", "Connection lost, retrying…");
    // A studio that restarted has forgotten this session: say so instead of retrying for ever.
    try {
      const answer = await fetch("/api/status");
      if (answer.status === 401) { signedOut(); return; }
    } catch (_) { /* the studio is not there: retry */ }
    if (source === events && source.readyState === EventSource.CLOSED) retryLater();
  });
}

onSignedOut(() => {
  stopped = true;
  clearTimeout(retryTimer);
  if (events) events.close();
  connection("lost", "Signed out");
  $("signed-out").hidden = false;
});

async function signOut() {
  const answer = await fetch("/api/sign-out", { method: "POST" });
  if (answer.ok) signedOut();
}

$("sign-out").addEventListener("click", signOut);
window.addEventListener("hashchange", route);
exports.placeJobPanels();
record.initRecord();
library.initLibrary();
stats.initStats();
materials.initMaterials();
backup.initBackup();
review.initReview();
exports.initExports();
live.initLive();
overlay.initOverlay();
cinematic.initCinematic();
route();
follow();
