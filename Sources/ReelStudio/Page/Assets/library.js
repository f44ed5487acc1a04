// The library view — the sessions as a grid of cards (thumbnails load
// lazily), the filter by tag and days, the Trash's sessions with Put back, and a session's
// dialog: play it, edit its title and tags (each edit made on the version it shows), move it
// to the Trash (undoable from the page), or go to its review and export.
import { $, clock, counted, dateTime, duration, option, get, getVersioned, post, postEdit, say } from "./common.js";

const sayHere = (text, tone) => say("library-message", text, tone);
let shown = false, stale = true, loading = null, sessions = [], open = null, lastTotal = null;
// The version (ETag) of the session the dialog shows: its edits are made on it.
let version = null, reading = Promise.resolve();

function mode(session) {
  if (session.mode !== "timelapse") return "Full";
  const every = session.intervalSeconds;
  return `Timelapse, ${every === null ? "?" : Number.isInteger(every) ? every : every.toFixed(2)} s a frame`;
}

function label(session) { return session.title ?? "Untitled session"; }

function card(session) {
  const item = document.createElement("li");
  const button = document.createElement("button");
  button.type = "button";
  button.className = "card";
  button.dataset.id = session.id;
  const when = dateTime(session.startedAt);
  button.setAttribute("aria-label", `${label(session)}, ${when}, ${clock(session.activeSeconds)} of study`);
  if (session.thumbnailPath) {
    const picture = document.createElement("img");
    picture.loading = "lazy";
    picture.decoding = "async";
    picture.alt = "";
    picture.width = 320;
    picture.height = 180;
    picture.src = `/api/sessions/${session.id}/thumbnail`;
    button.append(picture);
  } else {
    const none = document.createElement("span");
    none.className = "no-picture";
    none.textContent = "No picture";
    button.append(none);
  }
  const title = document.createElement("span");
  title.className = "card-title";
  title.textContent = label(session);
  const facts = document.createElement("span");
  facts.className = "card-facts";
  facts.textContent = `${when} · ${clock(session.activeSeconds)} · ${mode(session)}`;
  button.append(title, facts);
  if (session.tags.length > 0) {
    const tags = document.createElement("span");
    tags.className = "card-tags";
    for (const name of session.tags) {
      const chip = document.createElement("span");
      chip.className = "chip";
      chip.textContent = name;
      tags.append(chip);
    }
    button.append(tags);
  }
  button.addEventListener("click", () => openSession(session.id));
  item.append(button);
  return item;
}

function query() {
  const parts = new URLSearchParams();
  for (const [key, id] of [["tag", "filter-tag"], ["since", "filter-since"], ["until", "filter-until"]]) {
    if ($(id).value) parts.set(key, $(id).value);
  }
  const text = parts.toString();
  return text ? `?${text}` : "";
}

function showTags(tags) {
  const choice = $("filter-tag"), chosen = choice.value;
  choice.replaceChildren(option("", "All tags"));
  for (const tag of tags) choice.add(option(tag.name, `${tag.name} (${tag.sessions})`));
  choice.value = tags.some((tag) => tag.name === chosen) ? chosen : "";
  $("tag-names").replaceChildren(...tags.map((tag) => option(tag.name, tag.name)));
}

function render(answer) {
  sessions = answer.sessions;
  lastTotal = answer.total;
  showTags(answer.tags);
  // A card that has the focus keeps it across a reload (another tab's change, a status).
  const focused = document.activeElement?.closest?.(".card")?.dataset.id;
  $("sessions").replaceChildren();
  drawn = 0;
  drawMore(Math.max(firstCards, sessions.findIndex((s) => s.id === focused) + 1));
  if (focused) document.querySelector(`.card[data-id="${focused}"]`)?.focus();
  const filtered = query() !== "";
  $("library-count").textContent = answer.total === 0 ? "No sessions yet: a recording adds one when it stops."
    : filtered ? `${sessions.length} of ${counted(answer.total, "session")} match${sessions.length === 1 ? "es" : ""}.` : `${counted(answer.total, "session")}.`;
  document.body.dataset.libraryCount = String(sessions.length);
  // A refusal of an earlier filter no longer holds once a list comes.
  if ($("library-message").dataset.tone === "bad") sayHere("");
  performance.mark("reel-library-rendered");
}

// The cards are drawn as they come near the screen: the first screens at once, then
// more each time the last card drawn comes within reach of the viewport, so a library
// of a thousand sessions draws as fast as one of fifty.
const firstCards = 48, moreCards = 96;
let drawn = 0;
const nearEnd = new IntersectionObserver((entries) => {
  if (entries.some((entry) => entry.isIntersecting)) drawMore(moreCards);
}, { rootMargin: "1200px 0px" });

function drawMore(count) {
  const list = $("sessions");
  const next = sessions.slice(drawn, drawn + count);
  if (next.length === 0) return;
  const cards = document.createDocumentFragment();
  for (const session of next) cards.append(card(session));
  list.append(cards);
  drawn += next.length;
  document.body.dataset.libraryDrawn = String(drawn);
  nearEnd.disconnect();
  if (drawn < sessions.length) nearEnd.observe(list.lastElementChild);
}

/// Loads the list again (one load at a time; a change meanwhile loads once more after).
export async function reload() {
  if (!shown) { stale = true; return; }
  if (loading) { stale = true; return loading; }
  stale = false;
  loading = (async () => {
    const [answer, trashed] = await Promise.all([get(`/api/sessions${query()}`, "library-message"), get("/api/trash", "library-message")]);
    if (answer) render(answer);
    if (trashed) renderTrash(trashed.sessions);
  })();
  try { await loading; } finally { loading = null; }
  if (stale) return reload();
  if (open) await refresh(false);
}

/// The view shown or hidden (the page's navigation).
export function showView(visible) {
  shown = visible;
  if (visible && stale) reload();
  if (!visible && open) $("session-dialog").close();
}

/// The status event's count: another program (reel record, reel recover) changed it.
export function noteTotal(total) {
  if (total !== null && lastTotal !== null && total !== lastTotal) reload();
}

// One session's dialog.

function showSession(session) {
  open = session;
  $("session-heading").textContent = label(session);
  $("session-when").textContent = `${dateTime(session.startedAt)} to ${dateTime(session.endedAt)}`;
  $("session-active").textContent = `${duration(Math.round(session.activeSeconds))} of study, ${duration(Math.round(session.videoSeconds))} of video`;
  $("session-mode").textContent = mode(session) + (session.recovered ? " (recovered after a crash)" : "");
  $("session-file").textContent = session.filePath;
  $("session-title").value = session.title ?? "";
  const tags = $("session-tags");
  tags.replaceChildren();
  for (const name of session.tags) {
    const item = document.createElement("li");
    item.className = "chip";
    const text = document.createElement("span");
    text.textContent = name;
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "quiet";
    remove.textContent = "×";
    remove.setAttribute("aria-label", `Remove tag ${name}`);
    remove.addEventListener("click", () => edit({ removeTags: [name] }));
    item.append(text, remove);
    tags.append(item);
  }
  $("session-no-tags").hidden = session.tags.length > 0;
}

// Whether the title field holds a change not saved yet.
function titleTyped() {
  return open !== null && $("session-title").value.trim() !== (open.title ?? "");
}

/// The open dialog read again (another tab or program may have changed the session). A title
/// being typed is kept, and with it the version it was typed on: saving it then is refused as
/// stale, and the dialog shows the new state. `always` shows the new state regardless.
async function refresh(always) {
  if (!open) return;
  const id = open.id;
  const found = await getVersioned(`/api/sessions/${id}`, "session-message");
  if (!found || open?.id !== id || (!always && titleTyped())) return;
  version = found.version;
  if (always || found.value.session.title !== open.title || found.value.session.tags.join("\n") !== open.tags.join("\n")) {
    showSession(found.value.session);
  }
}

async function openSession(id) {
  const session = sessions.find((s) => s.id === id);
  if (!session) return;
  say("session-message", "");
  version = null;
  showSession(session);
  reading = refresh(false);
  const video = $("session-video");
  video.src = `/api/sessions/${id}/video`;
  $("session-dialog").showModal();
  $("session-title").focus();
}

function closed() {
  const video = $("session-video");
  video.pause();
  video.removeAttribute("src");
  video.load();
  const id = open?.id;
  open = null;
  version = null;
  const back = id && document.querySelector(`.card[data-id="${id}"]`);
  if (back) back.focus();
}

async function edit(change) {
  if (!open) return null;
  await reading;  // the version the dialog shows, read as it opened
  if (!open) return null;
  const answer = await postEdit(`/api/sessions/${open.id}/edit`, change, version, "session-message");
  if (answer?.stale) {
    await refresh(true);
    say("session-message", "This session changed in another tab: it now shows what was saved there; nothing of your change was saved.", "warn");
    return null;
  }
  if (answer) {
    version = answer.version;
    showSession(answer.value.session);
    say("session-message", "Saved.", "ok");
    reload();
  }
  return answer;
}

async function saveTitle(event) {
  event.preventDefault();
  const text = $("session-title").value.trim();
  await edit({ title: text === "" ? null : text });
}

async function addTag() {
  const name = $("session-new-tag").value.trim();
  if (!name || !open) return;
  // A name not known yet is made first, as `reel tags add` would.
  if (![...$("tag-names").options].some((item) => item.value === name)) {
    if (!(await post("/api/tags", { name }, "session-message"))) return;
  }
  if (await edit({ addTags: [name] })) $("session-new-tag").value = "";
}

async function trash() {
  if (!open) return;
  const session = open;
  const answer = await post(`/api/sessions/${session.id}/trash`, undefined, "session-message");
  if (!answer) return;
  open = null;  // nothing to return focus to: it goes to Undo
  $("session-dialog").close();
  sayHere(`Moved “${label(session)}” to the Trash.`, "ok");
  const undo = $("library-undo");
  undo.hidden = false;
  undo.dataset.id = session.id;
  undo.focus();
  reload();
}

// The Trash: the sessions moved there (from this page or by `reel sessions rm`), each with a
// button that puts it back, as long as the Trash holds it (a reload of the page keeps it).
function renderTrash(trashed) {
  const items = trashed.map((session) => {
    const item = document.createElement("li");
    const text = document.createElement("span");
    text.textContent = `${label(session)}, ${dateTime(session.startedAt)}`;
    const back = document.createElement("button");
    back.type = "button";
    back.dataset.id = session.id;
    back.textContent = "Put back";
    back.setAttribute("aria-label", `Put back ${label(session)}`);
    back.addEventListener("click", () => putBack(session.id));
    item.append(text, back);
    return item;
  });
  $("trash-list").replaceChildren(...items);
  $("trash-empty").hidden = items.length > 0;
  document.body.dataset.trashCount = String(items.length);
}

async function untrash() {
  const id = $("library-undo").dataset.id;
  if (id) await putBack(id);
}

async function putBack(id) {
  const answer = await post(`/api/sessions/${id}/untrash`, undefined, "library-message");
  if (!answer) return;
  const undo = $("library-undo");
  undo.hidden = true;
  delete undo.dataset.id;
  sayHere(`Put “${label(answer.session)}” back.`, "ok");
  await reload();
  const back = document.querySelector(`.card[data-id="${id}"]`);
  if (back) back.focus();
}

// A date field changes with each digit typed (the year 2026 passes 0002, 0020 and 0202): the
// list is asked for once the fields hold whole days and the typing has paused.
const dayFields = ["filter-since", "filter-until"];
let dayTimer = null;

function wholeDay(text) {
  if (text === "") return true;
  const found = /^(\d{4})-\d{2}-\d{2}$/.exec(text);
  return found !== null && Number(found[1]) >= 1900;
}

function dayTyped() {
  clearTimeout(dayTimer);
  dayTimer = setTimeout(() => {
    dayTimer = null;
    if (dayFields.every((id) => wholeDay($(id).value) && !$(id).validity.badInput)) reload();
  }, 400);
}

export function initLibrary() {
  $("filter-tag").addEventListener("change", () => reload());
  for (const id of dayFields) $(id).addEventListener("change", dayTyped);
  $("library-filter").addEventListener("reset", () => clearTimeout(dayTimer));
  $("library-filter").addEventListener("reset", () => setTimeout(reload));
  $("library-filter").addEventListener("submit", (event) => { event.preventDefault(); reload(); });
  $("session-form").addEventListener("submit", saveTitle);
  $("session-add-tag").addEventListener("click", addTag);
  $("session-new-tag").addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); addTag(); }
  });
  $("session-trash").addEventListener("click", trash);
  $("session-review").addEventListener("click", () => { if (open) location.hash = `#review/${open.id}`; });
  $("session-close").addEventListener("click", () => $("session-dialog").close());
  $("session-dialog").addEventListener("close", closed);
  $("library-undo").addEventListener("click", untrash);
}
