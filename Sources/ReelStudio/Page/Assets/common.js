// What every view of the page uses (element lookup, numbers, days and
// sources in words, the JSON API's GET and POST).
export const $ = (id) => document.getElementById(id);

/// A size in SI bytes (powers of 1000: kB, MB, GB), the one unit system of every view.
export function bytes(n) {
  if (n === null || n === undefined) return "unknown";
  const units = ["B", "kB", "MB", "GB", "TB"];
  let value = n, unit = 0;
  while (value >= 1000 && unit < units.length - 1) { value /= 1000; unit += 1; }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

// One date format for every view, the one the API, the command line and the stats use for
// days: YYYY-MM-DD, and a moment as YYYY-MM-DD HH:MM in the browser's time zone.
const two = (n) => String(n).padStart(2, "0");

/// A day, YYYY-MM-DD, of a moment (a Date or an ISO 8601 text) in the browser's time zone.
export function day(when) {
  const date = when instanceof Date ? when : new Date(when);
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
}

/// A moment, YYYY-MM-DD HH:MM, in the browser's time zone.
export function dateTime(when) {
  const date = when instanceof Date ? when : new Date(when);
  return `${day(date)} ${two(date.getHours())}:${two(date.getMinutes())}`;
}

/// One name for each kind of source, as the source lists say them: "Test pattern", "Video
/// file", "Camera".
export const SOURCE_KINDS = Object.freeze({ test: "Test pattern", file: "Video file", v4l2: "Camera" });

/// A source's spec (`test:1280x720@15`, `file:/PATH`, `v4l2:/dev/video0`) in words.
export function sourceName(spec) {
  if (!spec) return "none chosen";
  const kind = spec.split(":")[0];
  const name = SOURCE_KINDS[kind];
  if (!name) return spec;
  return kind === "test" ? `${name} (${spec})` : `${name} ${spec.slice(kind.length + 1)}`;
}

/// A number and its noun, singular for one: "1 session", "2 sessions" (the CLI's Counted.noun).
export function counted(count, noun, plural = `${noun}s`) {
  return `${count} ${count === 1 ? noun : plural}`;
}

export function duration(seconds) {
  const h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = Math.floor(seconds % 60);
  return h > 0 ? `${h} h ${m} min` : m > 0 ? `${m} min ${s} s` : `${s} s`;
}

export function clock(seconds) {
  const whole = Math.floor(seconds ?? 0);
  const two = (n) => String(n).padStart(2, "0");
  return `${Math.floor(whole / 3600)}:${two(Math.floor((whole % 3600) / 60))}:${two(whole % 60)}`;
}

export function option(value, text) {
  const item = document.createElement("option");
  item.value = value;
  item.textContent = text;
  return item;
}

/// Writes `text` into the message line `id` (tone: ok, warn, bad or none).
export function say(id, text, tone) {
  const line = $(id);
  line.textContent = text ?? "";
  line.dataset.tone = tone ?? "";
}

// Whoever wants to hear that the studio no longer knows this browser (401).
const signedOutListeners = [];
export function onSignedOut(listener) { signedOutListeners.push(listener); }
export function signedOut() { for (const listener of signedOutListeners) listener(); }

/// What a refused answer says, for a person: the server writes "422 Unprocessable Content:
/// the reason"; the page shows the reason.
export async function refusal(answer) {
  const text = (await answer.text()).trim().replace(/^\d{3} [^:\n]*: /, "");
  return text || `The studio refused: ${answer.status} ${answer.statusText}`.trim();
}

/// A GET of JSON; null (and the reason said in `messageId`) when refused.
export async function get(path, messageId) {
  const answer = await fetch(path);
  if (answer.status === 401) { signedOut(); return null; }
  if (!answer.ok) { say(messageId, await refusal(answer), "bad"); return null; }
  return answer.json();
}

/// A POST with an optional JSON body; the answer's JSON, or null (and the reason said in
/// `messageId`) when refused.
export async function post(path, body, messageId) {
  const options = { method: "POST" };
  if (body !== undefined) {
    options.headers = { "Content-Type": "application/json" };
    options.body = JSON.stringify(body);
  }
  const answer = await fetch(path, options);
  if (answer.status === 401) { signedOut(); return null; }
  if (!answer.ok) { say(messageId, await refusal(answer), "bad"); return null; }
  return answer.status === 204 ? {} : answer.json();
}

/// A GET of JSON with the version it is at (its ETag): `{ value, version }`, or null (and the
/// reason said in `messageId`) when refused.
export async function getVersioned(path, messageId) {
  const answer = await fetch(path);
  if (answer.status === 401) { signedOut(); return null; }
  if (!answer.ok) { say(messageId, await refusal(answer), "bad"); return null; }
  return { value: await answer.json(), version: answer.headers.get("ETag") };
}

/// A POST of an edit made on `version` (sent as If-Match): `{ value, version }` when applied,
/// `{ stale: true }` when what it edits changed meanwhile (412: another tab saved first, and
/// nothing was changed), or null (and the reason said in `messageId`) when refused.
export async function postEdit(path, body, version, messageId) {
  const headers = { "Content-Type": "application/json" };
  if (version) headers["If-Match"] = version;
  const answer = await fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
  if (answer.status === 401) { signedOut(); return null; }
  if (answer.status === 412) return { stale: true };
  if (!answer.ok) { say(messageId, await refusal(answer), "bad"); return null; }
  return { value: await answer.json(), version: answer.headers.get("ETag") };
}
