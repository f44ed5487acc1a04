// The export job — one snapshot (from `GET /api/export` once, then each
// `export` event) drawn into every job panel on the page (the export view's and the review
// view's), a session's export started from the review view, the weekly vlog, and Cancel.
import { $, bytes, duration, get, post, say } from "./common.js";
import { JOB } from "./states.js";

const states = { idle: "Nothing exported yet", running: "Running", finished: "Finished",
                 stopped: "Cancelled (the partial file was removed)", failed: "Failed" };
let finished = 0, lastState = null;
// Snapshots shown so far: a POST's answer is older than any event shown after it was sent
// (a short job may have finished, and said so by event, before its answer arrived).
let snapshotsShown = 0;

async function postJob(path, request, messageId) {
  const before = snapshotsShown;
  const snapshot = await post(path, request, messageId);
  if (snapshot && snapshotsShown === before) showExport(snapshot);
  return snapshot;
}

function progressText(snapshot) {
  const parts = [];
  if (snapshot.fraction !== null && snapshot.fraction !== undefined) parts.push(`${Math.round(snapshot.fraction * 100)} %`);
  if (snapshot.frames) parts.push(`${snapshot.frames} frames`);
  if (snapshot.state === JOB.running && snapshot.secondsLeft !== null && snapshot.secondsLeft !== undefined) {
    parts.push(`about ${duration(Math.ceil(snapshot.secondsLeft))} left`);
  }
  return parts.join(", ") || "–";
}

function messageTone(snapshot) {
  if (snapshot.state === JOB.failed) return "bad";
  if (snapshot.state === JOB.stopped) return "warn";
  if (snapshot.state === JOB.finished) return (snapshot.warnings ?? []).length > 0 ? "warn" : "ok";
  return "";
}

function showProgress(bar, snapshot) {
  bar.hidden = snapshot.state === JOB.idle;
  if (snapshot.state === JOB.finished) bar.value = 1;
  else if (snapshot.fraction === null || snapshot.fraction === undefined) bar.removeAttribute("value");
  else bar.value = snapshot.fraction;
}

// The finished job's video: its address changes with each finished job, so a new file is fetched.
function showVideo(video, version) {
  video.hidden = version === null;
  const wanted = version === null ? "" : `/api/export/file?v=${version}`;
  if ((video.dataset.src ?? "") === wanted) return;
  video.dataset.src = wanted;
  if (wanted) { video.src = wanted; return; }
  video.pause();
  video.removeAttribute("src");
  video.load();
}

/// Draws the snapshot into one job panel (its parts are found by class).
function fill(root, snapshot, version) {
  const part = (name) => root.querySelector(`.job-${name}`);
  const isFinished = snapshot.state === JOB.finished;
  part("state").textContent = states[snapshot.state] ?? snapshot.state;
  part("state").dataset.state = snapshot.state;
  part("label").textContent = snapshot.label || "–";
  part("done").textContent = progressText(snapshot);
  part("file").textContent = isFinished && snapshot.output ? `${snapshot.output} (${bytes(snapshot.bytes)})` : "–";
  showProgress(part("progress"), snapshot);
  part("stop").disabled = snapshot.state !== JOB.running;
  const message = part("message");
  message.textContent = [snapshot.message, ...(snapshot.warnings ?? [])].filter(Boolean).join(" ");
  message.dataset.tone = messageTone(snapshot);
  part("download").hidden = !isFinished;
  showVideo(part("video"), isFinished ? version : null);
}

/// The job's snapshot (the `export` event's, or an answer's): every panel shows it.
export function showExport(snapshot) {
  snapshotsShown += 1;
  if (snapshot.state === JOB.finished && lastState !== JOB.finished) finished += 1;
  lastState = snapshot.state;
  for (const root of document.querySelectorAll(".job")) fill(root, snapshot, finished);
  const running = snapshot.state === JOB.running;
  $("export-start").disabled = running;
  $("vlog-start").disabled = running;
  document.body.dataset.exportState = snapshot.state;
  document.body.dataset.exportFraction = String(snapshot.fraction ?? "");
}

export function showView(visible) {
  if (!visible) $("job-video").pause();
}

async function startExport(event) {
  event.preventDefault();
  say("export-message", "");
  const request = { session: $("export-form").dataset.session, size: $("export-size").value, caption: $("export-caption").checked };
  const snapshot = await postJob("/api/export", request, "export-message");
  if (snapshot) say("export-message", "Export started: its progress is below.", "ok");
}

async function startVlog(event) {
  event.preventDefault();
  say("vlog-message", "");
  const request = { week: $("vlog-week").value, layout: $("vlog-layout").value };
  const snapshot = await postJob("/api/vlog", request, "vlog-message");
  if (snapshot) say("vlog-message", "The vlog is being made: its progress is above.", "ok");
}

async function stop(event) {
  const root = event.currentTarget.closest(".job");
  await postJob("/api/export/stop", undefined, root.querySelector(".job-message").id);
}

// Puts the job panel (index.html's one <template id="job-panel-template">) where each
// data-job-panel="PREFIX" stands, its ids and labels made PREFIX-…: the review view's
// (review-job-…) and the export view's (job-…). app.js calls it before any view looks for them.
export function placeJobPanels() {
  const template = $("job-panel-template");
  for (const spot of document.querySelectorAll("[data-job-panel]")) {
    const panel = template.content.firstElementChild.cloneNode(true);
    for (const element of [panel, ...panel.querySelectorAll("[id], [aria-labelledby]")]) {
      for (const name of ["id", "aria-labelledby"]) {
        const value = element.getAttribute(name);
        if (value) element.setAttribute(name, value.replace("{prefix}", spot.dataset.jobPanel));
      }
    }
    spot.replaceWith(panel);
  }
}

export function initExports() {
  $("export-form").addEventListener("submit", startExport);
  $("vlog-form").addEventListener("submit", startVlog);
  for (const button of document.querySelectorAll(".job-stop")) button.addEventListener("click", stop);
  const before = snapshotsShown;
  get("/api/export", "job-message").then((snapshot) => { if (snapshot && snapshotsShown === before) showExport(snapshot); });
}
