// The backup view — the folder's last backup, a backup run with its
// progress (from `backup` events), and a restore that always shows its dry run first.
import { $, bytes, counted, dateTime, get, post, say } from "./common.js";
import { JOB } from "./states.js";

let shown = false, loaded = false, checked = null;

const states = { idle: "No backup run yet from this studio", running: "Backing up…", finished: "Backed up",
                 stopped: "Stopped (the previous backup is as it was)", failed: "Failed" };

// Snapshots shown so far: a POST's answer is older than any event shown after it was sent.
let snapshotsShown = 0;

export function showBackup(snapshot) {
  snapshotsShown += 1;
  const state = $("backup-state");
  state.textContent = states[snapshot.state] ?? snapshot.state;
  state.dataset.state = snapshot.state;
  if (snapshot.folder && !$("backup-folder").value) $("backup-folder").value = snapshot.folder;
  $("backup-last").textContent = snapshot.lastBackupAt
    ? `${dateTime(snapshot.lastBackupAt)} (${snapshot.sessionsInBackup} sessions)` : "none in this folder";
  const progress = $("backup-progress");
  const running = snapshot.state === JOB.running;
  progress.hidden = !running && snapshot.state !== JOB.finished;
  progress.max = Math.max(1, snapshot.bytesTotal);
  progress.value = snapshot.bytesTotal === 0 ? (running ? 0 : 1) : snapshot.bytesDone;
  $("backup-files").textContent = snapshot.filesTotal > 0
    ? `${snapshot.filesDone} of ${snapshot.filesTotal} files, ${bytes(snapshot.bytesDone)} of ${bytes(snapshot.bytesTotal)}` : "";
  $("backup-run").disabled = running;
  const missing = snapshot.missing.length > 0 ? ` Missing, backed up without: ${snapshot.missing.join(", ")}.` : "";
  if (snapshot.message) say("backup-message", snapshot.message + missing, snapshot.state === JOB.finished ? (missing ? "warn" : "ok") : "bad");
  document.body.dataset.backupState = snapshot.state;
}

export async function reload() {
  if (!shown) return;
  const snapshot = await get("/api/backup", "backup-message");
  if (snapshot) { loaded = true; showBackup(snapshot); }
}

export function showView(visible) {
  shown = visible;
  if (visible && !loaded) reload();
}

async function runBackup(event) {
  event.preventDefault();
  say("backup-message", "");
  const before = snapshotsShown;
  const snapshot = await post("/api/backup", { folder: $("backup-folder").value.trim() }, "backup-message");
  // A quick backup may have finished (and said so by event) before this answer arrived.
  if (snapshot && snapshotsShown === before) showBackup(snapshot);
}

function restoreRequest(dryRun) {
  const request = { folder: $("restore-folder").value.trim() || $("backup-folder").value.trim(), dryRun };
  const media = $("restore-media").value.trim();
  if (media) request.mediaFolder = media;
  if ($("restore-skip-missing").checked) request.skipMissing = true;
  return request;
}

function listPlan(answer) {
  const lines = [];
  for (const s of answer.sessions) lines.push(`session ${s.id.slice(0, 8)} ${s.startedAt.slice(0, 10)}${s.title ? ` (${s.title})` : ""}`);
  for (const t of answer.tags) lines.push(`tag '${t}'`);
  for (const g of answer.goals) lines.push(`goal from ${g.date}: ${g.minutes} min`);
  for (const m of answer.materials) lines.push(`material '${m.title}'`);
  for (const f of answer.media) lines.push(`file ${f}`);
  for (const f of answer.skipped) lines.push(`left out ${f}`);
  const list = $("restore-plan");
  list.replaceChildren(...lines.map((line) => { const item = document.createElement("li"); item.textContent = line; return item; }));
  return lines.length;
}

async function check(event) {
  event.preventDefault();
  const request = restoreRequest(true);
  say("restore-message", "Checking…");
  const answer = await post("/api/restore", request, "restore-message");
  $("restore-run").disabled = true;
  if (!answer) return;
  const count = listPlan(answer);
  const nothing = answer.sessions.length + answer.tags.length + answer.goals.length + answer.materials.length + answer.media.length === 0;
  if (nothing) { say("restore-message", "Nothing to restore: the library already has everything in this backup.", "ok"); return; }
  checked = JSON.stringify({ ...request, dryRun: false });
  $("restore-run").disabled = false;
  say("restore-message", `A restore would add the ${counted(count, "item")} below; nothing in the library changes or goes.`, "");
  document.body.dataset.restoreChecked = "yes";
}

async function restore() {
  const request = restoreRequest(false);
  if (JSON.stringify(request) !== checked) {
    say("restore-message", "The folder or options changed: check again first.", "warn");
    $("restore-run").disabled = true;
    return;
  }
  $("restore-run").disabled = true;
  const answer = await post("/api/restore", request, "restore-message");
  checked = null;
  if (!answer) return;
  listPlan(answer);
  say("restore-message", `Restored ${counted(answer.sessions.length, "session")}, ${counted(answer.tags.length, "tag")}, `
      + `${counted(answer.goals.length, "goal")}, ${counted(answer.materials.length, "material")}, ${counted(answer.media.length, "file")}.`, "ok");
}

export function initBackup() {
  $("backup-form").addEventListener("submit", runBackup);
  $("restore-form").addEventListener("submit", check);
  $("restore-run").addEventListener("click", restore);
  for (const id of ["restore-folder", "restore-media", "restore-skip-missing"]) {
    $(id).addEventListener("input", () => { $("restore-run").disabled = true; });
  }
}
