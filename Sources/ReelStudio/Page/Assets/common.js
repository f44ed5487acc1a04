// What every view of the page uses (element lookup, numbers in words,
// the JSON API's POST).
export const $ = (id) => document.getElementById(id);

export function bytes(n) {
  if (n === null || n === undefined) return "unknown";
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = n, unit = 0;
  while (value >= 1000 && unit < units.length - 1) { value /= 1000; unit += 1; }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
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

/// A GET of JSON; null (and the reason said in `messageId`) when refused.
export async function get(path, messageId) {
  const answer = await fetch(path);
  if (answer.status === 401) { signedOut(); return null; }
  if (!answer.ok) { say(messageId, await answer.text(), "bad"); return null; }
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
  if (!answer.ok) { say(messageId, await answer.text(), "bad"); return null; }
  return answer.status === 204 ? {} : answer.json();
}
