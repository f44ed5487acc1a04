// The cinematic camera's view (`#cinematic`). The preview with the blur
// and the subjects' boxes over it (dashed: weak, solid: strong, the focused one highlighted); a
// click is `tap X Y`, a press held 0.6 s is `press X Y` (fixed focus), as typed on `reel
// cinematic`'s standard input; the aperture slider in the format's range; the light warning in
// a corner; record (editable by default), still; the clips and stills; and the refocus editor:
// an editable clip played with its recorded boxes, keyframes added by clicking them, rendered
// by the server into a new clip. Every decision is the server's; the page draws what it says.
import { $, bytes, get, post, say } from "./common.js";
import { JOB } from "./states.js";

const holdMs = 600;
let viewShown = false;
let shown = 0;
let down = null;
let apertureTimer = null;
// The refocus editor: the clip's timeline, the keyframes being made.
let timeline = null, keyframes = [];

const sayHere = (text, tone) => say("cinematic-message", text, tone);
const sayEditor = (text, tone) => say("cinematic-editor-message", text, tone);
const fraction = (event, element) => {
  const box = element.getBoundingClientRect();
  const clamp = (v) => Math.min(1, Math.max(0, v));
  return [clamp((event.clientX - box.left) / box.width), clamp((event.clientY - box.top) / box.height)];
};
const round = (v) => Math.round(v * 1000) / 1000;

/// Boxes over a stage: each subject's box, its style and whether it is focused.
function drawBoxes(layer, subjects) {
  layer.replaceChildren(...subjects.map((subject) => {
    const box = document.createElement("div");
    const [x, y, w, h] = subject.box;
    box.className = "cinematic-box";
    box.dataset.id = String(subject.id);
    box.dataset.style = subject.style ?? "none";
    box.dataset.focused = String(Boolean(subject.focused));
    box.style.left = `${x * 100}%`;
    box.style.top = `${y * 100}%`;
    box.style.width = `${w * 100}%`;
    box.style.height = `${h * 100}%`;
    const label = document.createElement("span");
    label.textContent = `${subject.id} ${subject.kind}`;
    box.append(label);
    return box;
  }));
}

export function showState(next) {
  drawBoxes($("cinematic-boxes"), next.subjects);
  $("cinematic-light").hidden = !next.lowLight;
  const stage = $("cinematic-stage");
  if (next.pictureSize) stage.style.aspectRatio = `${next.pictureSize[0]} / ${next.pictureSize[1]}`;
  const slider = $("cinematic-aperture");
  [slider.min, slider.max] = next.apertureRange.map(String);
  if (document.activeElement !== slider && !apertureTimer) slider.value = String(next.fNumber);
  $("cinematic-aperture-value").textContent = `f/${Number(slider.value)}`;
  const recording = next.clip?.recording === true;
  $("cinematic-rec").hidden = !recording;
  $("cinematic-record").textContent = recording ? "Stop recording" : "Record";
  $("cinematic-record").dataset.recording = String(recording);
  $("cinematic-editable").disabled = recording;
  $("cinematic-status").textContent = next.running ? (next.focus ?? "Waiting for the first picture…") : "";
  const clip = next.clip ? `${recording ? "Recording" : "Last clip"} ${next.clip.name}: ${next.clip.seconds.toFixed(1)} s, ${next.clip.pictures} pictures${next.clip.editable ? ", editable" : ""}.` : "";
  $("cinematic-source").textContent = [
    next.running ? `Source: ${next.source}${next.pictureSize ? `, ${next.pictureSize.join("x")}` : ""}; ${next.frames} pictures, ${next.dropped} dropped.`
      : next.problem ? `No picture: ${next.problem}` : "The preview starts when this view is open and a source is chosen on the record page.",
    next.warning ?? "", clip, next.clip?.problem ?? ""].filter(Boolean).join(" ");
  startPreview();
  shown += 1;
  document.body.dataset.cinematicState = String(shown);
}

function startPreview() {
  const img = $("cinematic-camera");
  if (!viewShown || document.hidden) { img.removeAttribute("src"); return; }
  if (img.getAttribute("src") !== "/api/cinematic/preview") img.src = "/api/cinematic/preview";
}

async function command(line) {
  const next = await post("/api/cinematic", { command: line }, "cinematic-message");
  if (next) { sayHere(""); showState(next); }
  return next;
}

function pointerDown(event) {
  if (event.button !== 0) return;
  down = { at: performance.now(), point: fraction(event, $("cinematic-stage")), id: event.pointerId };
  $("cinematic-stage").setPointerCapture(event.pointerId);
}

function pointerUp(event) {
  if (!down || down.id !== event.pointerId) return;
  const held = performance.now() - down.at >= holdMs;
  const [x, y] = down.point;
  down = null;
  command(`${held ? "press" : "tap"} ${round(x)} ${round(y)}`);
}

function apertureInput() {
  const value = Number($("cinematic-aperture").value);
  $("cinematic-aperture-value").textContent = `f/${value}`;
  clearTimeout(apertureTimer);
  apertureTimer = setTimeout(async () => { apertureTimer = null; await command(`aperture ${value}`); }, 150);
}

async function recordButton() {
  const recording = $("cinematic-record").dataset.recording === "true";
  const next = recording ? await post("/api/cinematic/record/stop", undefined, "cinematic-message")
    : await post("/api/cinematic/record", { editable: $("cinematic-editable").checked }, "cinematic-message");
  if (!next) return;
  showState(next);
  // A clip that ended on a failure (nothing written when the disk filled before its first fragment) says so.
  const problem = recording ? next.clip?.problem : undefined;
  if (problem) sayHere(`${next.clip.name}: ${problem}.`, "warn");
  else sayHere(recording ? `Saved ${next.clip?.name ?? "the clip"}.` : "Recording.", "ok");
}

async function still() {
  sayHere("Taking a still…");
  const answer = await post("/api/cinematic/still", undefined, "cinematic-message");
  if (answer) sayHere(`Saved ${answer.name} (${answer.width}x${answer.height}, ${bytes(answer.bytes)}).`, "ok");
}

// MARK: Clips and stills

export async function reloadClips() {
  if (!viewShown) return;
  const list = await get("/api/cinematic/clips", "cinematic-message");
  if (!list) return;
  $("cinematic-clips").replaceChildren(...list.clips.map((clip) => {
    const item = document.createElement("li");
    item.className = "cinematic-clip";
    item.dataset.name = clip.name;
    const link = document.createElement("a");
    link.href = `/api/cinematic/clips/${clip.name}?download=1`;
    link.textContent = clip.name;
    const size = document.createElement("span");
    size.textContent = `${bytes(clip.bytes)}${clip.editable ? ", editable" : ""}`;
    item.append(link, size);
    if (clip.editable) {
      const edit = document.createElement("button");
      edit.type = "button";
      edit.textContent = "Refocus…";
      edit.addEventListener("click", () => openEditor(clip.name));
      item.append(edit);
    } else {
      // A clip with the blur in it (recorded so, or refocused) is watched here.
      const video = document.createElement("video");
      video.className = "cinematic-clip-video";
      video.controls = true;
      video.preload = "metadata";
      video.src = `/api/cinematic/clips/${clip.name}`;
      item.append(video);
    }
    return item;
  }));
  $("cinematic-stills").replaceChildren(...list.stills.map((still) => {
    const item = document.createElement("li");
    item.className = "overlay-photo";
    const picture = document.createElement("img");
    picture.src = `/api/cinematic/stills/${still.name}`;
    picture.alt = still.name;
    picture.loading = "lazy";
    const link = document.createElement("a");
    link.href = picture.src;
    link.textContent = still.name;
    item.append(picture, link);
    return item;
  }));
}

// MARK: Refocus editor

async function openEditor(name) {
  const answer = await get(`/api/cinematic/clips/${name}/timeline`, "cinematic-message");
  if (!answer) return;
  timeline = answer;
  keyframes = [];
  $("cinematic-editor").hidden = false;
  $("cinematic-editor-clip").textContent = name;
  $("cinematic-editor-stage").style.aspectRatio = `${answer.width} / ${answer.height}`;
  const video = $("cinematic-editor-video");
  video.src = `/api/cinematic/clips/${name}`;
  const time = $("cinematic-editor-time");
  time.max = String(answer.duration);
  time.value = "0";
  const slider = $("cinematic-editor-aperture");
  slider.value = String(answer.fNumber);
  $("cinematic-editor-aperture-value").textContent = `f/${answer.fNumber}`;
  sayEditor("");
  drawEditor();
  $("cinematic-editor").scrollIntoView({ block: "nearest" });
}

/// The recorded point at or before `t`.
function pointAt(t) {
  let found = timeline.points[0];
  for (const point of timeline.points) { if (point.t <= t + 1e-6) found = point; else break; }
  return found;
}

/// The keyframe that rules at `t` (the newest at or before it).
const ruling = (t) => keyframes.filter((k) => k.at <= t + 1e-6).at(-1);

function drawEditor() {
  if (!timeline) return;
  const t = $("cinematic-editor-video").currentTime;
  const point = pointAt(t);
  const rule = ruling(t);
  const chosen = rule?.command.startsWith("subject ") ? Number(rule.command.split(" ")[1]) : null;
  const recorded = point?.target?.startsWith("subject ") ? Number(point.target.split(" ")[1]) : null;
  const focusId = rule ? chosen : recorded;
  drawBoxes($("cinematic-editor-boxes"), (point?.subjects ?? []).map((s) => ({
    ...s, focused: s.id === focusId, style: s.id === focusId ? (rule ? (rule.command.endsWith("strong") ? "strong" : "weak") : point.mode) : "none",
  })));
  if (document.activeElement !== $("cinematic-editor-time")) $("cinematic-editor-time").value = String(t);
  const bar = $("cinematic-timeline");
  bar.replaceChildren(...keyframes.map((k) => {
    const mark = document.createElement("span");
    mark.className = "cinematic-mark";
    mark.style.left = `${(k.at / Math.max(timeline.duration, 0.001)) * 100}%`;
    mark.title = `${k.at.toFixed(2)} s: ${k.command}`;
    return mark;
  }));
  $("cinematic-keyframes").replaceChildren(...keyframes.map((k, index) => {
    const item = document.createElement("li");
    item.textContent = `${k.at.toFixed(2)} s — ${k.command} `;
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "quiet";
    remove.textContent = "Remove";
    remove.addEventListener("click", () => { keyframes.splice(index, 1); drawEditor(); });
    item.append(remove);
    return item;
  }));
  $("cinematic-render").disabled = keyframes.length === 0 && Number($("cinematic-editor-aperture").value) === timeline.fNumber;
}

/// A click on the clip: a subject's box → that subject from now (weak; again: strong), else
/// focus near the point; with Shift, fixed focus on the point's plane.
function editorClick(event) {
  if (!timeline) return;
  const video = $("cinematic-editor-video");
  video.pause();
  const t = Math.round(video.currentTime * 100) / 100;
  const [x, y] = fraction(event, $("cinematic-editor-stage"));
  const point = pointAt(t);
  const hit = (point?.subjects ?? []).find((s) => x >= s.box[0] && x <= s.box[0] + s.box[2] && y >= s.box[1] && y <= s.box[1] + s.box[3]);
  let line;
  if (event.shiftKey) line = `press ${round(x)} ${round(y)}`;
  else if (hit) line = ruling(t)?.command === `subject ${hit.id} weak` ? `subject ${hit.id} strong` : `subject ${hit.id} weak`;
  else line = `tap ${round(x)} ${round(y)}`;
  keyframes = keyframes.filter((k) => Math.abs(k.at - t) > 0.005);
  keyframes.push({ at: t, command: line });
  keyframes.sort((a, b) => a.at - b.at);
  sayEditor(`Keyframe at ${t.toFixed(2)} s: ${line}.`, "ok");
  drawEditor();
}

async function render() {
  const aperture = Number($("cinematic-editor-aperture").value);
  const body = { clip: timeline.name, keyframes, aperture: aperture === timeline.fNumber ? null : aperture };
  const job = await post("/api/cinematic/refocus", body, "cinematic-editor-message");
  if (job) showRefocus(job);
}

export function showRefocus(job) {
  const running = job.state === JOB.running;
  const bar = $("cinematic-render-progress");
  bar.hidden = !running;
  bar.max = Math.max(1, job.total);
  bar.value = job.done;
  $("cinematic-render-stop").hidden = !running;
  if (running) sayEditor(`Rendering ${job.output}: ${job.done} of ${job.total || "…"} pictures.`);
  else if (job.state === JOB.finished) { sayEditor(job.message, "ok"); reloadClips(); }
  else if (job.state === JOB.failed) sayEditor(job.message, "bad");
  document.body.dataset.cinematicRefocus = job.state;
}

export function showView(visible) {
  viewShown = visible;
  if (visible) {
    get("/api/cinematic", "cinematic-message").then((next) => { if (next) showState(next); });
    get("/api/cinematic/refocus", "cinematic-editor-message").then((job) => { if (job && job.state !== JOB.idle) showRefocus(job); });
    reloadClips();
  } else {
    $("cinematic-camera").removeAttribute("src");
  }
}

export function initCinematic() {
  const stage = $("cinematic-stage");
  stage.addEventListener("pointerdown", pointerDown);
  stage.addEventListener("pointerup", pointerUp);
  stage.addEventListener("pointercancel", () => { down = null; });
  stage.addEventListener("contextmenu", (event) => event.preventDefault());
  $("cinematic-camera").addEventListener("error", () => {
    $("cinematic-camera").removeAttribute("src");
    setTimeout(startPreview, 2000);
  });
  $("cinematic-aperture").addEventListener("input", apertureInput);
  $("cinematic-lock").addEventListener("click", () => command("lock"));
  $("cinematic-auto").addEventListener("click", () => command("auto"));
  $("cinematic-record").addEventListener("click", recordButton);
  $("cinematic-still").addEventListener("click", still);
  const video = $("cinematic-editor-video");
  video.addEventListener("timeupdate", drawEditor);
  video.addEventListener("seeked", drawEditor);
  $("cinematic-editor-time").addEventListener("input", (event) => { video.currentTime = Number(event.target.value); });
  $("cinematic-editor-boxes").addEventListener("click", editorClick);
  $("cinematic-editor-play").addEventListener("click", () => (video.paused ? video.play() : video.pause()));
  $("cinematic-editor-aperture").addEventListener("input", (event) => {
    $("cinematic-editor-aperture-value").textContent = `f/${Number(event.target.value)}`;
    drawEditor();
  });
  $("cinematic-render").addEventListener("click", render);
  $("cinematic-render-stop").addEventListener("click", () => post("/api/cinematic/refocus/stop", undefined, "cinematic-editor-message"));
  $("cinematic-editor-close").addEventListener("click", () => {
    $("cinematic-editor").hidden = true;
    video.removeAttribute("src");
    timeline = null;
  });
  document.addEventListener("visibilitychange", () => { if (viewShown) startPreview(); });
}
