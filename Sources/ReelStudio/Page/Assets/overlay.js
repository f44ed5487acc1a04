// The overlay camera's view (`#overlay`). Two previews of the one
// capture (unfiltered, and through the filter preset), the chosen artwork drawn over each with
// the transform the server sends (the one the photo is burned in with, as CSS `matrix()`), moved
// by drag, scaled by wheel or pinch, turned by its handle, aligned by anchor; the shutter (a
// button and Space); the artwork shelf with import; the gallery with format badges and cut-out
// by clicking the subject. A gesture under way is this page's own state; every placement goes
// to the server, whose answer is what is drawn.
import { $, bytes, get, option, post, say } from "./common.js";

const previews = ["unfiltered", "filtered"];
const anchors = ["top-left", "top", "top-right", "left", "center", "right", "bottom-left", "bottom", "bottom-right"];
let snapshot = null;
let viewShown = false;
let shown = 0;
// Placements on their way: one request at a time, the newest waiting.
let pending = null, sending = false;
// Pointers down on a stage: id → { x, y }; the gesture they started.
const pointers = new Map();
let gesture = null;

const sayHere = (text, tone) => say("overlay-message", text, tone);

/// The server's transform (artwork 0…1 → preview 0…1) as CSS matrix() on an element the
/// size of a w × h stage with its origin at the top left.
function cssMatrix(t, w, h) {
  const [a, b, c, d, e, f] = t;
  return `matrix(${a}, ${b * h / w}, ${c * w / h}, ${d}, ${e * w}, ${f * h})`;
}

/// A point of the artwork (u, v in 0…1) in preview coordinates.
const point = (t, u, v) => [t[0] * u + t[2] * v + t[4], t[1] * u + t[3] * v + t[5]];

const placement = () => pending ?? snapshot?.state.placement;
/// Where new artwork (an import, a cut-out) starts, and Reset returns to: fitted whole, centred,
/// upright (the last artwork's scale, turn and place were for another shape).
const fitted = { anchor: "center", offsetX: 0, offsetY: 0, scale: 1, rotationDegrees: 0 };

function drawArt() {
  for (const preview of previews) {
    const art = $(`overlay-art-${preview}`), turn = $(`overlay-turn-${preview}`), stage = $(`overlay-stage-${preview}`);
    const t = snapshot?.transforms?.[preview];
    if (!t || !snapshot.asset) {
      art.hidden = true;
      turn.hidden = true;
      art.removeAttribute("src");
      continue;
    }
    const src = `/api/overlay/assets/${snapshot.asset.id}`;
    if (art.getAttribute("src") !== src) art.src = src;
    art.alt = `Artwork: ${snapshot.asset.name}`;
    const w = stage.clientWidth, h = stage.clientHeight;
    art.style.width = `${w}px`;
    art.style.height = `${h}px`;
    art.style.transform = cssMatrix(t, w, h);
    art.dataset.matrix = t.join(",");
    art.hidden = false;
    const [x, y] = point(t, 0.5, 0);
    turn.style.left = `${x * w}px`;
    turn.style.top = `${y * h}px`;
    turn.hidden = snapshot.state.preview !== preview;
  }
}

export function showState(next) {
  snapshot = next;
  const state = next.state;
  const filter = next.filters.find((f) => f.id === state.filter);
  const select = $("overlay-filter");
  if (select.options.length === 0) for (const f of next.filters) select.add(option(f.id, f.title));
  select.value = state.filter;
  $("overlay-format").value = state.format;
  $("overlay-orientation").value = String(state.orientation);
  $("overlay-frame").value = state.frame;
  for (const input of document.querySelectorAll("input[name=overlay-preview]")) input.checked = input.value === state.preview;
  for (const button of $("overlay-anchors").querySelectorAll("button")) {
    button.setAttribute("aria-pressed", String(button.dataset.anchor === state.placement.anchor));
  }
  const scale = $("overlay-scale"), rotation = $("overlay-rotation");
  scale.min = String(next.scaleRange[0]);
  scale.max = String(next.scaleRange[1]);
  if (document.activeElement !== scale) scale.value = String(Math.round(state.placement.scale * 1000) / 1000);
  if (document.activeElement !== rotation) rotation.value = String(Math.round(state.placement.rotationDegrees * 10) / 10);
  $("overlay-stage-unfiltered").style.aspectRatio = `${next.unfilteredAspect[0]} / ${next.unfilteredAspect[1]}`;
  const filtered = $("overlay-stage-filtered");
  filtered.style.aspectRatio = `${filter.aspect[0]} / ${filter.aspect[1]}`;
  filtered.dataset.mask = filter.mask;
  for (const preview of previews) $(`overlay-stage-${preview}`).dataset.chosen = String(preview === state.preview);
  const choice = $("overlay-source-choice");
  if (next.source && choice.value !== next.source && document.activeElement !== choice) {
    if (![...choice.options].some((o) => o.value === next.source)) choice.add(option(next.source, next.source));
    choice.value = next.source;
  }
  $("overlay-source").textContent = next.source ? `Source: ${next.source}${next.pictureSize ? `, ${next.pictureSize.join("x")} ${next.pictureSize[0] > next.pictureSize[1] ? "landscape" : "portrait"}` : ""}`
    : next.problem ? `No picture: ${next.problem}` : "The preview starts when this view is open and a source is chosen on the record page.";
  for (const item of $("overlay-assets").querySelectorAll("li")) {
    item.querySelector("button").setAttribute("aria-pressed", String(item.dataset.id ? next.asset?.id === item.dataset.id : !next.asset));
  }
  startPreviews();
  drawArt();
  shown += 1;
  document.body.dataset.overlayState = String(shown);
}

function startPreviews() {
  if (!viewShown || document.hidden) { stopPreviews(); return; }
  const views = { unfiltered: "unfiltered", filtered: snapshot?.state.filter ?? "square" };
  for (const preview of previews) {
    const img = $(`overlay-camera-${preview}`), src = `/api/overlay/preview?view=${views[preview]}`;
    if (img.getAttribute("src") !== src) img.src = src;
  }
}

function stopPreviews() {
  for (const preview of previews) $(`overlay-camera-${preview}`).removeAttribute("src");
}

async function change(body) {
  const next = await post("/api/overlay", body, "overlay-message");
  if (next) showState(next);
  return next;
}

/// Sends a placement; while one is on its way the newest waits (a drag sends many).
function place(next) {
  pending = next;
  document.body.dataset.overlaySettled = "false";
  if (!sending) flush();
}

async function flush() {
  sending = true;
  while (pending) {
    const next = pending;
    const answer = await post("/api/overlay", { placement: next }, "overlay-message");
    if (pending === next) pending = null;
    if (answer) showState(answer); else pending = null;
  }
  sending = false;
  document.body.dataset.overlaySettled = "true";
}

const clampScale = (value) => Math.min(snapshot.scaleRange[1], Math.max(snapshot.scaleRange[0], value));

function pointerDown(event, preview, kind) {
  if (!snapshot?.asset) return;
  event.preventDefault();
  event.target.setPointerCapture(event.pointerId);
  pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
  const stage = $(`overlay-stage-${preview}`), rect = stage.getBoundingClientRect();
  const positions = [...pointers.values()];
  const spread = positions.length >= 2 ? Math.hypot(positions[0].x - positions[1].x, positions[0].y - positions[1].y) : 0;
  gesture = { kind: positions.length >= 2 ? "pinch" : kind, preview, rect, start: { ...placement() }, x: event.clientX, y: event.clientY, spread };
}

function pointerMove(event) {
  if (!gesture || !pointers.has(event.pointerId)) return;
  pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
  const { rect, start } = gesture;
  if (gesture.kind === "move") {
    place({ ...start, offsetX: start.offsetX + (event.clientX - gesture.x) / rect.width,
            offsetY: start.offsetY + (event.clientY - gesture.y) / rect.height });
  } else if (gesture.kind === "turn") {
    const t = snapshot.transforms[gesture.preview], [cx, cy] = point(t, 0.5, 0.5);
    const dx = event.clientX - (rect.left + cx * rect.width), dy = event.clientY - (rect.top + cy * rect.height);
    place({ ...start, rotationDegrees: Math.round(Math.atan2(dx, -dy) * 1800 / Math.PI) / 10 });
  } else if (gesture.kind === "pinch" && pointers.size >= 2) {
    const [a, b] = [...pointers.values()];
    place({ ...start, scale: clampScale(start.scale * Math.hypot(a.x - b.x, a.y - b.y) / Math.max(1, gesture.spread)) });
  }
}

function pointerUp(event) {
  pointers.delete(event.pointerId);
  if (pointers.size === 0) gesture = null;
}

function wheel(event) {
  if (!snapshot?.asset) return;
  event.preventDefault();
  const now = placement();
  place({ ...now, scale: clampScale(now.scale * Math.exp(-event.deltaY / 500)) });
}

function typing(target) {
  return target instanceof HTMLInputElement || target instanceof HTMLSelectElement
    || target instanceof HTMLTextAreaElement || target instanceof HTMLButtonElement;
}

function keys(event) {
  if (!viewShown || typing(event.target) || event.ctrlKey || event.metaKey || event.altKey || $("overlay-cutout").open) return;
  if (event.code === "Space") {
    event.preventDefault();
    if (!event.repeat) shoot();
    return;
  }
  const now = placement();
  if (!now || !snapshot.asset) return;
  const step = event.shiftKey ? 0.05 : 0.01;
  const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
  if (event.key in moves) {
    const [dx, dy] = moves[event.key];
    place({ ...now, offsetX: now.offsetX + dx, offsetY: now.offsetY + dy });
  } else if (event.key === "+" || event.key === "=") {
    place({ ...now, scale: clampScale(now.scale * 1.1) });
  } else if (event.key === "-") {
    place({ ...now, scale: clampScale(now.scale / 1.1) });
  } else if (event.key === "[" || event.key === "]") {
    place({ ...now, rotationDegrees: now.rotationDegrees + (event.key === "]" ? 5 : -5) });
  } else {
    return;
  }
  event.preventDefault();
}

async function shoot() {
  const button = $("overlay-shoot");
  if (button.disabled) return;
  button.disabled = true;
  sayHere("Taking the photo…");
  try {
    const shot = await post("/api/overlay/shoot", undefined, "overlay-message");
    if (!shot) return;
    sayHere(`Saved ${shot.photo.name}: ${shot.width}x${shot.height}, ${shot.photo.format.toUpperCase()}, ${bytes(shot.photo.bytes)}`
      + ` (shutter lag ${Math.round(shot.shutterLagSeconds * 1000)} ms).`, "ok");
    document.body.dataset.overlayShot = shot.photo.name;
    reloadPhotos();
  } finally {
    button.disabled = false;
  }
}

// MARK: Artwork

export function showAssets(assets) {
  const list = $("overlay-assets");
  list.replaceChildren();
  const none = document.createElement("li");
  none.className = "overlay-asset none";
  const noneButton = document.createElement("button");
  noneButton.type = "button";
  noneButton.textContent = "No artwork";
  noneButton.setAttribute("aria-pressed", String(!snapshot?.state.assetID));
  noneButton.addEventListener("click", () => change({ asset: "" }));
  none.append(noneButton);
  list.append(none);
  for (const asset of assets) {
    const item = document.createElement("li");
    item.className = "overlay-asset";
    item.dataset.id = asset.id;
    const picture = document.createElement("img");
    picture.src = `/api/overlay/assets/${asset.id}`;
    picture.alt = "";
    picture.loading = "lazy";
    const use = document.createElement("button");
    use.type = "button";
    use.className = "use";
    use.textContent = asset.name;
    use.title = `${asset.format}, ${asset.width}x${asset.height}, ${asset.profile}${asset.hasAlpha ? ", transparent" : ""}`;
    use.setAttribute("aria-pressed", String(snapshot?.asset?.id === asset.id));
    use.addEventListener("click", () => change({ asset: asset.id }));
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "quiet";
    remove.textContent = "Remove";
    remove.setAttribute("aria-label", `Remove ${asset.name}`);
    remove.addEventListener("click", async () => {
      if (await post(`/api/overlay/assets/${asset.id}/remove`, undefined, "overlay-message")) sayHere(`Removed ${asset.name}.`, "ok");
    });
    item.append(picture, use, remove);
    list.append(item);
  }
  document.body.dataset.overlayAssets = String(assets.length);
}

async function reloadAssets() {
  const assets = await get("/api/overlay/assets", "overlay-message");
  if (assets) showAssets(assets);
}

async function importFile() {
  const input = $("overlay-import"), file = input.files[0];
  if (!file) return;
  sayHere(`Importing ${file.name}…`);
  try {
    const answer = await fetch(`/api/overlay/assets?name=${encodeURIComponent(file.name)}`, { method: "POST", body: file });
    if (!answer.ok) { sayHere(await answer.text(), "bad"); return; }
    const asset = await answer.json();
    sayHere(`Imported ${asset.name} (${asset.format}, ${asset.width}x${asset.height}).`, "ok");
    await change({ asset: asset.id, placement: fitted });
  } catch (error) {
    sayHere(`The import did not go through: ${error.message}`, "bad");
  } finally {
    input.value = "";
  }
}

// MARK: Photos

export async function reloadPhotos() {
  const photos = await get("/api/overlay/photos", "overlay-message");
  if (!photos) return;
  const list = $("overlay-photos");
  list.replaceChildren();
  for (const photo of photos) {
    const item = document.createElement("li");
    item.className = "overlay-photo";
    item.dataset.name = photo.name;
    const picture = document.createElement("img");
    picture.src = `/api/overlay/photos/${photo.name}/view`;
    picture.alt = `Photo ${photo.name}`;
    picture.loading = "lazy";
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.dataset.format = photo.format;
    badge.textContent = photo.format.toUpperCase();
    const name = document.createElement("a");
    name.href = `/api/overlay/photos/${photo.name}`;
    name.download = photo.name;
    name.textContent = `${photo.name} (${bytes(photo.bytes)})`;
    const cut = document.createElement("button");
    cut.type = "button";
    cut.textContent = "Cut out…";
    cut.setAttribute("aria-label", `Cut a subject out of ${photo.name}`);
    cut.addEventListener("click", () => openCutout(photo.name));
    item.append(picture, badge, name, cut);
    list.append(item);
  }
  document.body.dataset.overlayPhotos = String(photos.length);
}

function openCutout(name) {
  const dialog = $("overlay-cutout"), picture = $("overlay-cutout-photo");
  picture.src = `/api/overlay/photos/${name}/view`;
  picture.dataset.name = name;
  say("overlay-cutout-message", "");
  dialog.showModal();
}

async function cutAt(event) {
  const picture = $("overlay-cutout-photo"), rect = picture.getBoundingClientRect();
  const x = (event.clientX - rect.left) / rect.width, y = (event.clientY - rect.top) / rect.height;
  say("overlay-cutout-message", "Cutting out…");
  const asset = await post("/api/overlay/cutout", { photo: picture.dataset.name, x, y }, "overlay-cutout-message");
  if (!asset) return;
  $("overlay-cutout").close();
  sayHere(`Made ${asset.name} (${asset.width}x${asset.height}).`, "ok");
  await change({ asset: asset.id, placement: fitted });
}

/// The cameras, the test pattern and the chosen source, for the lens switch.
async function loadSources() {
  const sources = await get("/api/sources", "overlay-message");
  if (!sources) return;
  const choice = $("overlay-source-choice");
  choice.replaceChildren();
  for (const camera of sources.cameras) choice.add(option(`v4l2:${camera.path}`, `${camera.name} (${camera.path})`));
  choice.add(option("test:1280x720@30", "Test pattern, 1280x720 at 30 fps"));
  const chosen = snapshot?.source ?? sources.chosen;
  if (chosen && ![...choice.options].some((o) => o.value === chosen)) choice.add(option(chosen, chosen));
  if (chosen) choice.value = chosen;
}

async function switchSource(event) {
  sayHere(`Switching to ${event.target.value}…`);
  const next = await post("/api/overlay/source", { source: event.target.value }, "overlay-message");
  if (next) { sayHere(""); showState(next); } else if (snapshot?.source) event.target.value = snapshot.source;
}

// MARK: View

export function showView(visible) {
  viewShown = visible;
  if (visible) {
    get("/api/overlay", "overlay-message").then((next) => { if (next) showState(next); });
    reloadAssets();
    reloadPhotos();
    loadSources();
  } else {
    stopPreviews();
  }
}

export function initOverlay() {
  const fieldset = $("overlay-anchors");
  for (const anchor of anchors) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.anchor = anchor;
    button.setAttribute("aria-label", `Align ${anchor.replace("-", " ")}`);
    button.addEventListener("click", () => place({ ...placement(), anchor, offsetX: 0, offsetY: 0 }));
    fieldset.append(button);
  }
  for (const preview of previews) {
    const art = $(`overlay-art-${preview}`), turn = $(`overlay-turn-${preview}`), stage = $(`overlay-stage-${preview}`);
    art.addEventListener("pointerdown", (event) => pointerDown(event, preview, "move"));
    turn.addEventListener("pointerdown", (event) => pointerDown(event, preview, "turn"));
    for (const element of [art, turn]) {
      element.addEventListener("pointermove", pointerMove);
      element.addEventListener("pointerup", pointerUp);
      element.addEventListener("pointercancel", pointerUp);
    }
    stage.addEventListener("wheel", wheel, { passive: false });
    $(`overlay-camera-${preview}`).addEventListener("error", () => {
      // The stream ended (no source, or it went away): ask again in a while.
      $(`overlay-camera-${preview}`).removeAttribute("src");
      setTimeout(startPreviews, 2000);
    });
    new ResizeObserver(drawArt).observe(stage);
  }
  for (const input of document.querySelectorAll("input[name=overlay-preview]")) {
    input.addEventListener("change", () => change({ preview: input.value }));
  }
  $("overlay-filter").addEventListener("change", (event) => change({ filter: event.target.value }));
  $("overlay-format").addEventListener("change", (event) => change({ format: event.target.value }));
  $("overlay-source-choice").addEventListener("change", switchSource);
  $("overlay-frame").addEventListener("change", (event) => change({ frame: event.target.value }));
  $("overlay-orientation").addEventListener("change", (event) => change({ orientation: Number(event.target.value) }));
  $("overlay-scale").addEventListener("change", (event) => {
    const value = Number(event.target.value);
    if (Number.isFinite(value) && value > 0) place({ ...placement(), scale: clampScale(value) });
  });
  $("overlay-rotation").addEventListener("change", (event) => {
    const value = Number(event.target.value);
    if (Number.isFinite(value)) place({ ...placement(), rotationDegrees: value });
  });
  $("overlay-reset").addEventListener("click", () => place(fitted));
  $("overlay-shoot").addEventListener("click", shoot);
  $("overlay-import").addEventListener("change", importFile);
  $("overlay-cutout-photo").addEventListener("click", cutAt);
  $("overlay-cutout-close").addEventListener("click", () => $("overlay-cutout").close());
  document.addEventListener("keydown", keys);
  document.addEventListener("visibilitychange", () => { if (viewShown) startPreviews(); });
}
