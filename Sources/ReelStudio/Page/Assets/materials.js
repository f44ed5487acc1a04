// The materials view — the books with their covers, adding one by
// ISBN (looked up) or by hand, removing one.
import { $, get, post, say } from "./common.js";

let shown = false, stale = true;

function card(material) {
  const item = document.createElement("li");
  item.className = "material";
  item.dataset.id = material.id;
  if (material.coverPath) {
    const cover = document.createElement("img");
    cover.loading = "lazy";
    cover.alt = `Cover of ${material.title}`;
    cover.width = 96;
    cover.height = 136;
    cover.src = `/api/materials/${material.id}/cover`;
    item.append(cover);
  } else {
    const none = document.createElement("span");
    none.className = "no-cover";
    none.textContent = "No cover";
    item.append(none);
  }
  const text = document.createElement("div");
  const title = document.createElement("p");
  title.className = "card-title";
  title.textContent = material.title;
  const facts = document.createElement("p");
  facts.className = "card-facts";
  facts.textContent = [material.author, material.publisher, material.isbn ? `ISBN ${material.isbn}` : null]
    .filter((part) => part).join(" · ");
  const remove = document.createElement("button");
  remove.type = "button";
  remove.className = "quiet";
  remove.textContent = "Remove";
  remove.setAttribute("aria-label", `Remove ${material.title}`);
  remove.addEventListener("click", () => removeMaterial(material));
  text.append(title, facts, remove);
  item.append(text);
  return item;
}

function render(materials) {
  $("materials").replaceChildren(...materials.map(card));
  $("materials-count").textContent = materials.length === 0 ? "No materials yet: add a book by its ISBN or its title."
    : `${materials.length} material${materials.length === 1 ? "" : "s"}.`;
  document.body.dataset.materialsCount = String(materials.length);
}

export async function reload() {
  if (!shown) { stale = true; return; }
  stale = false;
  const materials = await get("/api/materials", "materials-message");
  if (materials) render(materials);
}

export function showView(visible) {
  shown = visible;
  if (visible && stale) reload();
}

async function add(event) {
  event.preventDefault();
  const body = {};
  for (const key of ["isbn", "title", "author", "publisher"]) {
    const value = $(`material-${key}`).value.trim();
    if (value) body[key] = value;
  }
  const button = $("material-add");
  button.disabled = true;
  say("materials-message", body.title ? "Adding…" : "Looking the book up…");
  try {
    const answer = await post("/api/materials", body, "materials-message");
    if (!answer) return;
    const from = answer.source ? ` (from ${answer.source})` : "";
    const warned = answer.warnings.length > 0 ? ` ${answer.warnings.join(" ")}` : "";
    say("materials-message", `Added “${answer.material.title}”${from}.${warned}`, warned ? "warn" : "ok");
    $("material-form").reset();
    await reload();
  } finally {
    button.disabled = false;
  }
}

async function removeMaterial(material) {
  const answer = await post(`/api/materials/${material.id}/remove`, undefined, "materials-message");
  if (!answer) return;
  say("materials-message", `Removed “${material.title}”.`, "ok");
  await reload();
  $("material-isbn").focus();
}

// A scan: the source's picture shown while the studio looks for a book's barcode in it;
// a book found is added as if its ISBN had been typed.
async function scan() {
  const button = $("material-scan"), picture = $("scan-preview");
  button.disabled = true;
  picture.hidden = false;
  picture.src = "/api/preview";
  say("materials-message", "Hold the book's barcode up to the camera…");
  try {
    const answer = await post("/api/materials/scan", { timeout: 30 }, "materials-message");
    if (!answer) return;
    if (!answer.isbn) { say("materials-message", answer.message, "warn"); return; }
    $("material-isbn").value = answer.isbn;
    say("materials-message", `Read ISBN ${answer.isbn}.`);
    $("material-form").requestSubmit();
  } finally {
    picture.removeAttribute("src");
    picture.hidden = true;
    button.disabled = false;
  }
}

export function initMaterials() {
  $("material-form").addEventListener("submit", add);
  $("material-scan").addEventListener("click", scan);
}
