// The library view — the sessions as a grid of cards (thumbnails load
// lazily), the filter by tag and days, and a session's dialog: play it, edit its title and
// tags, move it to the Trash (undoable from the page), or go to its review and export.
import { $, clock, duration, option, get, post, say } from "./common.js";

const sayHere = (text, tone) => say("library-message", text, tone);
const dayAndTime = new Intl.DateTimeFormat(undefined, { weekday: "short", day: "numeric", month: "short", year: "numeric",
                                                        hour: "2-digit", minute: "2-digit" });
let shown = false, stale = true, loading = null, sessions = [], open = null, lastTotal = null;

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
  const when = dayAndTime.format(new Date(session.startedAt));
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
    : filtered ? `${sessions.length} of ${answer.total} sessions match.` : `${answer.total} sessions.`;
  document.body.dataset.libraryCount = String(sessions.length);
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
    const answer = await get(`/api/sessions${query()}`, "library-message");
    if (answer) render(answer);
  })();
  try { await loading; } finally { loading = null; }
  if (stale) return reload();
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
  $("session-when").textContent = `${dayAndTime.format(new Date(session.startedAt))} to ${dayAndTime.format(new Date(session.endedAt))}`;
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

async function openSession(id) {
  const session = sessions.find((s) => s.id === id);
  if (!session) return;
  say("session-message", "");
  showSession(session);
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
  const back = id && document.querySelector(`.card[data-id="${id}"]`);
  if (back) back.focus();
}

async function edit(change) {
  if (!open) return null;
  const answer = await post(`/api/sessions/${open.id}/edit`, change, "session-message");
  if (answer) {
    showSession(answer.session);
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

async function untrash() {
  const undo = $("library-undo"), id = undo.dataset.id;
  if (!id) return;
  const answer = await post(`/api/sessions/${id}/untrash`, undefined, "library-message");
  if (!answer) return;
  undo.hidden = true;
  delete undo.dataset.id;
  sayHere(`Put “${label(answer.session)}” back.`, "ok");
  await reload();
  const back = document.querySelector(`.card[data-id="${id}"]`);
  if (back) back.focus();
}

export function initLibrary() {
  for (const id of ["filter-tag", "filter-since", "filter-until"]) $(id).addEventListener("change", () => reload());
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
