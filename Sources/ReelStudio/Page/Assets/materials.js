// The materials view — the books with their covers, adding one by
// ISBN (looked up), by hand or by a scan of its barcode (with the time left and Cancel),
// removing one (asked twice).
import { $, counted, get, post, say } from "./common.js";

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
  remove.addEventListener("click", () => removeMaterial(material, remove));
  text.append(title, facts, remove);
  item.append(text);
  return item;
}

function render(materials) {
  $("materials").replaceChildren(...materials.map(card));
  $("materials-count").textContent = materials.length === 0 ? "No materials yet: add a book by its ISBN or its title."
    : `${counted(materials.length, "material")}.`;
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

// Removing asks first: the button's first press turns it into "Really remove?", the second
// removes; leaving it (focus elsewhere) or 5 s without a second press puts it back.
function removeMaterial(material, button) {
  if (button.dataset.confirm !== "1") {
    button.dataset.confirm = "1";
    button.textContent = "Really remove?";
    button.setAttribute("aria-label", `Really remove ${material.title}? Press again to remove it`);
    const undo = () => {
      clearTimeout(button.confirmTimer);
      delete button.dataset.confirm;
      button.textContent = "Remove";
      button.setAttribute("aria-label", `Remove ${material.title}`);
    };
    button.confirmTimer = setTimeout(undo, 5000);
    button.addEventListener("blur", undo, { once: true });
    return;
  }
  clearTimeout(button.confirmTimer);
  removeConfirmed(material);
}

async function removeConfirmed(material) {
  const answer = await post(`/api/materials/${material.id}/remove`, undefined, "materials-message");
  if (!answer) return;
  say("materials-message", `Removed “${material.title}”.`, "ok");
  await reload();
  $("material-isbn").focus();
}

// A scan: the source's picture shown while the studio looks for a book's barcode in it, for
// at most `scanSeconds`, with the time left shown and Cancel; a book found is added as if its
// ISBN had been typed. The studio is asked in slices of at most 2 s, so Cancel ends the
// studio's scan too within one slice (it has no request of its own to stop a scan).
const scanSeconds = 30, sliceSeconds = 2;
let scanCancelled = false;

async function scanSlices() {
  const deadline = Date.now() + scanSeconds * 1000;
  const tell = () => {
    if (scanCancelled) return;
    const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    say("materials-message", `Hold the book's barcode up to the camera… ${left} s left.`);
  };
  tell();
  const ticker = setInterval(tell, 250);
  try {
    for (;;) {
      const left = (deadline - Date.now()) / 1000;
      const answer = await post("/api/materials/scan", { timeout: Math.max(1, Math.min(sliceSeconds, Math.ceil(left))) }, "materials-message");
      if (!answer || scanCancelled || answer.isbn || Date.now() >= deadline) return answer;
    }
  } finally {
    clearInterval(ticker);
  }
}

async function scan() {
  const button = $("material-scan"), cancel = $("material-scan-cancel"), picture = $("scan-preview");
  button.disabled = true;
  scanCancelled = false;
  cancel.hidden = false;
  picture.hidden = false;
  picture.src = "/api/preview";
  try {
    const answer = await scanSlices();
    if (scanCancelled) { say("materials-message", "Scan cancelled."); return; }
    if (!answer) return;
    if (!answer.isbn) { say("materials-message", answer.message, "warn"); return; }
    $("material-isbn").value = answer.isbn;
    say("materials-message", `Read ISBN ${answer.isbn}.`);
    $("material-form").requestSubmit();
  } finally {
    picture.removeAttribute("src");
    picture.hidden = true;
    cancel.hidden = true;
    cancel.disabled = false;
    button.disabled = false;
  }
}

function cancelScan() {
  scanCancelled = true;
  $("material-scan-cancel").disabled = true;
  say("materials-message", "Cancelling the scan…");
}

export function initMaterials() {
  $("material-form").addEventListener("submit", add);
  $("material-scan").addEventListener("click", scan);
  $("material-scan-cancel").addEventListener("click", cancelScan);
}
