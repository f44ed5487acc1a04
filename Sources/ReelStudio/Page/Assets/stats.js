// The stats view — the week's or month's chart (the SVG `reel stats --svg`
// draws), its figures and each day as a table, earlier and later periods, and the daily goal.
import { $, counted, get, post, say } from "./common.js";

let shown = false, stale = true, date = null, current = null;
// Each drawing of the chart asks for it anew: the same period's address would show the old bars.
let drawn = 0;

function period() { return document.querySelector("input[name=period]:checked").value; }

// Minutes as the page says them: under a minute in seconds (the API gives tenths of a
// minute, so 6 s steps), else hours and whole minutes.
function minutes(value) {
  if (value > 0 && value < 1) return `${Math.round(value * 60)} s`;
  const whole = Math.floor(value + 1e-9), h = Math.floor(whole / 60), m = whole % 60;
  return h > 0 ? `${h} h ${String(m).padStart(2, "0")} min` : `${m} min`;
}

const verdicts = { met: "met", below: "below the goal", "so far": "so far", "to come": "to come" };

function render(stats, goals) {
  current = stats;
  const query = `?period=${stats.period}&date=${stats.from}`;
  const chart = $("stats-chart");
  drawn += 1;
  chart.src = `/api/stats.svg${query}&v=${drawn}`;
  chart.alt = `Bar chart of study minutes a day from ${stats.from} to ${stats.to}`;
  $("stats-range").textContent = `${stats.from} to ${stats.to}`;
  $("stats-total").textContent = minutes(stats.totalMinutes);
  $("stats-met").textContent = stats.daysWithGoal > 0 ? `${stats.daysMet} of ${stats.daysWithGoal} days` : "no goal in this period";
  $("stats-streak").textContent = counted(stats.streak, "day");
  const rows = stats.days.map((day) => {
    const row = document.createElement("tr");
    if (day.verdict) row.dataset.verdict = day.verdict;
    for (const text of [day.date, day.activeMinutes > 0 ? minutes(day.activeMinutes) : "–",
                        day.goalMinutes === null ? "–" : minutes(day.goalMinutes), verdicts[day.verdict] ?? "", String(day.sessions)]) {
      const cell = document.createElement("td");
      cell.textContent = text;
      row.append(cell);
    }
    return row;
  });
  $("stats-days").replaceChildren(...rows);
  const list = goals.length === 0 ? "none yet"
    : goals.map((goal) => `${goal.minutes === 0 ? "none" : minutes(goal.minutes)} from ${goal.date}`).join(", ");
  $("goals-list").textContent = list;
  document.body.dataset.statsFrom = stats.from;
}

export async function reload() {
  if (!shown) { stale = true; return; }
  stale = false;
  const query = `?period=${period()}` + (date ? `&date=${date}` : "");
  const [stats, goals] = await Promise.all([get(`/api/stats${query}`, "stats-message"), get("/api/goals", "stats-message")]);
  if (stats && goals) render(stats, goals);
}

export function showView(visible) {
  shown = visible;
  if (visible && stale) reload();
}

/// The day `offset` days from `text` (YYYY-MM-DD), as YYYY-MM-DD.
function shifted(text, offset) {
  const day = new Date(`${text}T12:00:00Z`);
  day.setUTCDate(day.getUTCDate() + offset);
  return day.toISOString().slice(0, 10);
}

async function setGoal(event) {
  event.preventDefault();
  const body = { minutes: Number($("goal-minutes").value) };
  if ($("goal-date").value) body.date = $("goal-date").value;
  if (!Number.isInteger(body.minutes)) { say("stats-message", "The goal is whole minutes, 0 to 1440.", "bad"); return; }
  const goals = await post("/api/goals", body, "stats-message");
  if (!goals) return;
  say("stats-message", body.minutes === 0 ? "No daily goal from then on." : `Daily goal set: ${minutes(body.minutes)}.`, "ok");
  await reload();
}

export function initStats() {
  for (const radio of document.querySelectorAll("input[name=period]")) radio.addEventListener("change", () => reload());
  $("stats-previous").addEventListener("click", () => { if (current) { date = shifted(current.from, -1); reload(); } });
  $("stats-next").addEventListener("click", () => { if (current) { date = shifted(current.to, 1); reload(); } });
  $("stats-today").addEventListener("click", () => { date = null; reload(); });
  $("goal-form").addEventListener("submit", setGoal);
}
