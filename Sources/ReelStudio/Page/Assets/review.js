// The review view (`#review/ID`) — a session's face segments on a
// timeline, the selected one's box over its picture (dragged, resized by a corner, or moved
// with the keyboard; each change saved by the server, which answers with the truth), its
// mosaic, stamp and reset, its frames with the boxes, and the picture as the export renders it.
// The box is drawn as the server draws it (the recorded box scaled about its centre, then
// moved); every check is the server's.
import { $, counted, get, getVersioned, option, postEdit, refusal, say, signedOut } from "./common.js";

const sayHere = (text, tone) => say("review-message", text, tone);
const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
let shown = false, sessionId = null, review = null, selected = 0, shownTime = 0;
let draft = null, drag = null, timer = null, queue = Promise.resolve();
let saved = 0, version = 0;
// The version (ETag) of the review shown: each edit is made on it.
let reviewVersion = null;

const clamp = (value, low, high) => Math.min(high, Math.max(low, value));
const round = (value) => Math.round(value * 10000) / 10000;
const current = () => review?.segments[selected] ?? null;
const sessionPath = () => `/api/sessions/${encodeURIComponent(sessionId)}`;

/// 1.4 → "0:01.4".
function at(seconds) {
  const tenths = Math.round(seconds * 10), minutes = Math.floor(tenths / 600), rest = tenths % 600;
  return `${minutes}:${String(Math.floor(rest / 10)).padStart(2, "0")}.${rest % 10}`;
}

function frameURL(t, view, width, v) {
  return `${sessionPath()}/frame?t=${t.toFixed(3)}&view=${view}&width=${width}` + (v === undefined ? "" : `&v=${v}`);
}

function setSource(image, url) {
  if (image.dataset.url === url) return;
  image.dataset.url = url;
  image.src = url;
}

/// The edited box: the recorded box scaled about its centre, then moved (as the server draws it).
function editedBox([x, y, w, h], offset, scale) {
  const cx = x + w / 2 + offset[0], cy = y + h / 2 + offset[1];
  return [cx - (w * scale) / 2, cy - (h * scale) / 2, w * scale, h * scale];
}

function describe(segment) {
  const person = segment.subject > 0 ? `, person ${segment.subject + 1}` : "";
  const cover = segment.disabled ? "mosaic off" : segment.stamp ? `stamp ${stampName(segment)}` : "mosaic on";
  return `Segment ${segment.segment}${person}, ${segment.kind}, ${at(segment.start)} to ${at(segment.end)}, ${cover}`;
}

// The timeline.

function segmentButton(segment, index) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "segment";
  button.dataset.index = String(index);
  button.dataset.disabled = String(segment.disabled);
  button.textContent = String(segment.segment);
  button.setAttribute("aria-label", describe(segment));
  button.setAttribute("aria-pressed", String(index === selected));
  const length = review.duration > 0 ? review.duration : 1;
  button.style.left = `${(segment.start / length) * 100}%`;
  button.style.width = `${((segment.end - segment.start) / length) * 100}%`;
  button.style.setProperty("--row", String(segment.subject));
  button.addEventListener("click", () => select(index));
  return button;
}

function drawTimeline() {
  const timeline = $("review-timeline");
  const focused = document.activeElement?.closest?.(".segment")?.dataset.index;
  timeline.replaceChildren(...review.segments.map(segmentButton));
  timeline.style.setProperty("--rows", String(Math.max(1, ...review.segments.map((s) => s.subject + 1))));
  if (focused !== undefined) timeline.querySelector(`[data-index="${focused}"]`)?.focus();
}

// The stage, the strip and the rendered picture.

function placeBox() {
  const segment = current(), box = $("review-box");
  const [x, y, w, h] = editedBox(segment.box, draft.offset, draft.scale);
  box.style.left = `${x * 100}%`;
  box.style.top = `${y * 100}%`;
  box.style.width = `${w * 100}%`;
  box.style.height = `${h * 100}%`;
  box.dataset.disabled = String(segment.disabled);
  box.dataset.offset = draft.offset.map(round).join(",");
  box.dataset.scale = String(round(draft.scale));
  box.setAttribute("aria-label", `Face box of segment ${segment.segment}: arrow keys move, + and - scale`);
}

function showTime(t) {
  shownTime = t;
  const segment = current();
  const frame = $("review-frame"), rendered = $("review-rendered");
  setSource(frame, frameURL(t, "plain", 960));
  frame.alt = `The recorded picture at ${at(t)}`;
  $("review-stage-note").textContent = `The picture at ${at(t)}; the box is segment ${segment.segment}'s at ${at(segment.representative)}.`;
  rendered.dataset.version = String(version);
  setSource(rendered, frameURL(t, "mosaic", 960, version));
  rendered.alt = `The picture at ${at(t)} rendered with the export's mosaic`;
  for (const item of $("review-strip").children) item.setAttribute("aria-pressed", String(Number(item.dataset.time) === t));
}

// A segment's stamp is the path of a file in the stamps folder: its name is the last part.
function stampName(segment) {
  return segment.stamp ? segment.stamp.split("/").pop() : "";
}

function stripFrame(t, index) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "strip-frame";
  button.dataset.time = String(t);
  button.dataset.index = String(index);
  button.setAttribute("aria-pressed", String(t === shownTime));
  button.setAttribute("aria-label", `Show ${at(t)} on the stage`);
  const image = document.createElement("img");
  image.alt = "";
  image.width = 240;
  image.height = 135;
  image.decoding = "async";
  image.src = frameURL(t, "boxes", 240, version);
  button.append(image);
  button.addEventListener("click", () => showTime(t));
  return button;
}

function drawStrip(segment) {
  const strip = $("review-strip");
  const focused = document.activeElement?.closest?.(".strip-frame")?.dataset.index;
  const times = [0, 1, 2, 3, 4].map((i) => segment.start + ((segment.end - segment.start) * i) / 4);
  strip.replaceChildren(...times.map(stripFrame));
  if (focused !== undefined) strip.querySelector(`[data-index="${focused}"]`)?.focus();
}

function showControls(segment) {
  $("review-selected").textContent = describe(segment);
  $("review-mosaic").checked = !segment.disabled;
  const choice = $("review-stamp"), name = stampName(segment);
  if (name && ![...choice.options].some((item) => item.value === name)) choice.add(option(name, name));
  choice.value = name;
}

function showHeading(title) {
  $("review-title").textContent = `Review and export: ${title ?? "Untitled session"}`;
}

/// Draws the review document with segment `index` selected.
function show(answer, index) {
  review = answer;
  selected = clamp(index, 0, answer.segments.length - 1);
  showHeading(answer.title);
  $("view-review").style.setProperty("--ratio", String(answer.width / Math.max(1, answer.height)));
  const count = answer.segments.length;
  $("review-summary").textContent = `${counted(count, "segment")} in ${at(answer.duration)}. Edits are kept in ${answer.editsPath}.`;
  document.body.dataset.reviewSegments = String(count);
  $("review-faces").hidden = count === 0;
  if (count === 0) return;
  const segment = current();
  if (!timer && !drag) draft = { offset: [...segment.offset], scale: segment.scale };
  drawTimeline();
  showControls(segment);
  placeBox();
  drawStrip(segment);
}

function select(index) {
  flush();
  show(review, index);
  showTime(current().representative);
}

// Saving: one request at a time, in order; the answer is drawn.

function save(segment, change) {
  const id = sessionId, request = { segment: segment.segment, subject: segment.subject, ...change };
  queue = queue.then(async () => {
    const edited = await postEdit(`/api/sessions/${encodeURIComponent(id)}/review`, request, reviewVersion, "review-message");
    if (id !== sessionId || !review) return;
    if (edited?.stale) { await changedElsewhere(id); return; }
    const now = current();
    if (!edited) { show(review, selected); return; }
    const answer = edited.value;
    reviewVersion = edited.version;
    saved += 1;
    version += 1;
    sayHere(`Saved in ${answer.editsPath}.`, "ok");
    show(answer, answer.segments.findIndex((s) => s.segment === now.segment && s.subject === now.subject));
    showTime(shownTime);
    document.body.dataset.reviewSaved = String(saved);
  }).catch((error) => sayHere(`Not saved: ${error.message}`, "bad"));
  return queue;
}

// Another tab saved an edit of this review first: nothing of this one was saved; show what is.
async function changedElsewhere(id) {
  const found = await getVersioned(`${sessionPath()}/review`, "review-message");
  if (!found || id !== sessionId) return;
  reviewVersion = found.version;
  version += 1;
  draft = null;
  show(found.value, selected);
  showTime(shownTime);
  sayHere("This session's review changed in another tab: it now shows what was saved there; nothing of your change was saved.", "warn");
}

function saveDraft(segment) {
  save(segment, { offset: draft.offset.map(round), scale: round(draft.scale) });
}

function schedule() {
  clearTimeout(timer);
  const segment = current();
  timer = setTimeout(() => { timer = null; saveDraft(segment); }, 300);
}

function flush() {
  if (!timer) return;
  clearTimeout(timer);
  timer = null;
  saveDraft(current());
}

// The box: pointer and keyboard.

function pointerDown(event) {
  if (!draft || event.button !== 0) return;
  const rect = $("review-stage").getBoundingClientRect();
  const [x, y, w, h] = editedBox(current().box, draft.offset, draft.scale);
  const centre = [rect.left + (x + w / 2) * rect.width, rect.top + (y + h / 2) * rect.height];
  drag = { pointer: event.pointerId, scaling: event.target.closest(".handle") !== null, rect, centre,
           from: [event.clientX, event.clientY], offset: [...draft.offset], scale: draft.scale, moved: false,
           distance: Math.max(1, Math.hypot(event.clientX - centre[0], event.clientY - centre[1])) };
  $("review-box").setPointerCapture(event.pointerId);
  $("review-box").focus();
}

function pointerMove(event) {
  if (!drag || event.pointerId !== drag.pointer) return;
  drag.moved = true;
  if (drag.scaling) {
    const distance = Math.hypot(event.clientX - drag.centre[0], event.clientY - drag.centre[1]);
    draft.scale = clamp((drag.scale * distance) / drag.distance, 0.1, 10);
  } else {
    draft.offset = [clamp(drag.offset[0] + (event.clientX - drag.from[0]) / drag.rect.width, -1, 1),
                    clamp(drag.offset[1] + (event.clientY - drag.from[1]) / drag.rect.height, -1, 1)];
  }
  placeBox();
}

function pointerUp(event) {
  if (!drag || event.pointerId !== drag.pointer) return;
  const moved = drag.moved;
  drag = null;
  if (moved) saveDraft(current());
}

function pointerCancel() {
  if (!drag) return;
  drag = null;
  show(review, selected);
}

function keyDown(event) {
  if (!draft) return;
  const move = moves[event.key];
  if (move) {
    const step = event.shiftKey ? 0.05 : 0.01;
    draft.offset = draft.offset.map((value, axis) => clamp(value + move[axis] * step, -1, 1));
  } else if (event.key === "+" || event.key === "=") {
    draft.scale = clamp(draft.scale * 1.1, 0.1, 10);
  } else if (event.key === "-" || event.key === "_") {
    draft.scale = clamp(draft.scale / 1.1, 0.1, 10);
  } else {
    return;
  }
  event.preventDefault();
  placeBox();
  schedule();
}

// The segment's controls.

async function loadStamps() {
  const answer = await get("/api/stamps", "review-message");
  if (!answer) return;
  const stamps = answer.stamps.map((stamp) => option(stamp.name, `${stamp.name} (${stamp.width}×${stamp.height})`));
  $("review-stamp").replaceChildren(option("", "Mosaic"), ...stamps);
  if (current()) showControls(current());
}

async function upload() {
  const input = $("review-upload"), file = input.files[0], segment = current();
  if (!file) return;
  sayHere(`Uploading ${file.name}…`);
  let answer;
  try {
    answer = await fetch(`/api/stamps?name=${encodeURIComponent(file.name)}`,
                         { method: "POST", headers: { "Content-Type": "image/png" }, body: file });
  } catch (error) {
    sayHere(`The upload did not go through: ${error.message}`, "bad");
    return;
  } finally {
    input.value = "";
  }
  if (answer.status === 401) { signedOut(); return; }
  if (!answer.ok) { sayHere(await refusal(answer), "bad"); return; }
  const stamp = await answer.json();
  await loadStamps();
  if (segment) save(segment, { stamp: stamp.name });
}

function change(request) {
  const segment = current();
  if (segment) { flush(); save(segment, request); }
}

// Loading a session.

async function refused(id, answer) {
  sayHere(await refusal(answer), answer.status === 422 ? "warn" : "bad");
  document.body.dataset.reviewSegments = "0";
  const found = await get(`/api/sessions/${encodeURIComponent(id)}`, "review-message");
  if (found && id === sessionId) showHeading(found.session.title);
}

async function load(id) {
  flush();
  sessionId = id;
  review = null;
  reviewVersion = null;
  draft = null;
  $("review-faces").hidden = true;
  $("review-summary").textContent = "";
  $("review-export").hidden = !id;
  $("export-form").dataset.session = id ?? "";
  say("export-message", "");
  $("review-title").textContent = "Review and export";
  if (!id) { sayHere("Choose a session in the library, then “Review faces and export”.", "warn"); return; }
  sayHere("Loading…");
  const answer = await fetch(`${sessionPath()}/review`);
  if (id !== sessionId) return;
  if (answer.status === 401) { signedOut(); return; }
  if (!answer.ok) { await refused(id, answer); return; }
  sayHere("");
  reviewVersion = answer.headers.get("ETag");
  show(await answer.json(), 0);
  if (current()) showTime(current().representative);
  await loadStamps();
}

/// The view shown (with the session's id from the address) or hidden.
export function showView(visible, id) {
  const arriving = visible && !shown;
  shown = visible;
  if (!visible) { flush(); $("review-job-video").pause(); return; }
  load(id || null);
  if (arriving) $("review-title").focus();
}

export function initReview() {
  const box = $("review-box");
  box.addEventListener("pointerdown", pointerDown);
  box.addEventListener("pointermove", pointerMove);
  box.addEventListener("pointerup", pointerUp);
  box.addEventListener("pointercancel", pointerCancel);
  box.addEventListener("keydown", keyDown);
  $("review-mosaic").addEventListener("change", (event) => change({ disabled: !event.target.checked }));
  $("review-stamp").addEventListener("change", (event) => change({ stamp: event.target.value }));
  $("review-reset").addEventListener("click", () => change({ reset: true }));
  $("review-upload").addEventListener("change", upload);
  $("review-controls").addEventListener("submit", (event) => event.preventDefault());
  $("review-rendered").addEventListener("load", (event) => {
    document.body.dataset.reviewRendered = event.target.dataset.version;
  });
  $("review-rendered").addEventListener("error", () => sayHere("The rendered picture could not be made.", "warn"));
}
