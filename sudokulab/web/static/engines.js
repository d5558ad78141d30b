// The engines: solve with one backend, compare every backend live (server-sent events),
// and show what a backend builds for the puzzle (its model). Each answer belongs to the
// puzzle it was asked for (api.js drops the others).

import { api, cancel, Stale, stream } from "./api.js";
import { render } from "./board.js";
import { $, escape } from "./dom.js";
import { endLearn } from "./learn.js";
import { puzzleText, state } from "./state.js";
import { legend, statTitle } from "./teach.js";

/** The seconds an engine may take, from the page's timeout control. */
export function timeout() {
  const seconds = Number($("timeout").value);
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 60) : 10;
}

function withEntries() {
  // In play mode the engines solve the puzzle (givens only); in edit mode what is typed.
  return !$("mode-play").checked;
}

/** Solve with the backend chosen; the grid shows its first solution. */
export async function solve() {
  const backend = $("backend").value, status = $("solve-status");
  endLearn();  // an explanation drawn over the grid would hide the solution
  state.solved.fill(0);
  render();
  status.textContent = `${backend}: solving…`;
  delete status.dataset.status;
  try {
    const answer = await api("/api/solve", { puzzle: puzzleText(withEntries()), backend, timeout: timeout() });
    const ms = (answer.time * 1000).toFixed(1);
    status.textContent = `${backend}: ${answer.status} (${answer.count}${answer.exact ? "" : "+"} solution(s), ${ms} ms)${answer.message ? " " + answer.message : ""}`;
    status.dataset.status = answer.status;
    if (answer.solutions.length && answer.valid) {
      state.solved = answer.solutions[0].slice();
      if (answer.status === "unique") state.solution = answer.solutions[0];
      render();
    }
  } catch (error) {
    if (error instanceof Stale) return;
    status.textContent = error.message;
    status.dataset.status = "bad-input";
  }
}

/** Run the engines one at a time; a row each as it finishes, then whether they agree. */
let comparing = null;  // the tag of the compare under way: clicked again, it stops first

export async function compare() {
  if (comparing) cancel(comparing);  // else its events would land in the new run's table
  const body = $("compare-table").querySelector("tbody"), rows = {};
  body.innerHTML = "";
  const line = $("agreement");
  line.textContent = "running…"; line.className = "";
  delete line.dataset.agree; delete line.dataset.others;
  let mine = null;
  try {
    await stream("/api/compare", { puzzle: puzzleText(withEntries()), timeout: timeout() },
      (kind, data) => onCompareEvent(kind, data, body, rows), (tag) => { comparing = mine = tag; });
  } catch (error) {
    if (error instanceof Stale) return;
    line.textContent = error.message; line.className = "bad";
  } finally {
    if (comparing === mine) comparing = null;
  }
}

let seen = [];  // the statistics the compare table shows, for its legend

function onCompareEvent(kind, data, body, rows) {
  if (kind === "start") {
    seen = [];
    for (const name of data.backends) {
      const tr = document.createElement("tr");
      tr.dataset.backend = name;
      tr.innerHTML = `<td>${escape(name)}</td><td class="status status-waiting">waiting</td><td class="ms"></td><td class="cpu"></td><td class="stats"></td><td><button class="model">model</button></td>`;
      tr.querySelector(".model").addEventListener("click", () => showModel(name));
      body.appendChild(tr); rows[name] = tr;
    }
    $("compare-measured").textContent = data.measured ? `Measured ${data.measured}.` : "";
    running(rows, data.backends[0]);
  } else if (kind === "result") {
    const tr = rows[data.backend];
    if (!tr) return;
    const status = tr.querySelector(".status");
    status.textContent = data.status; status.className = `status status-${data.status}`;
    status.title = data.message || "";
    const ms = tr.querySelector(".ms");
    ms.textContent = (data.time * 1000).toFixed(1);
    if (data.warmup != null) {  // a new worker: its first solve ran untimed, not counted
      ms.textContent += " †";
      ms.title = `a new worker: a warm-up solve (${(data.warmup * 1000).toFixed(1)} ms, not counted) ran first`;
    }
    tr.querySelector(".cpu").textContent = data.cpu == null ? "" : (data.cpu * 1000).toFixed(1);
    const stats = Object.entries(data.stats || {});
    // the human engine's steps per technique ("steps: Hidden Single") shown by technique alone
    const label = (k) => (k.startsWith("steps: ") ? k.slice(7) : k);
    tr.querySelector(".stats").innerHTML = stats.map(([k, v]) => `<span title="${escape(statTitle(k))}">${escape(label(k))}=${escape(Number.isInteger(v) || typeof v !== "number" ? v : v.toPrecision(3))}</span>`).join(" ");
    seen.push(...stats.map(([k]) => k));
    legend(seen);
    tr.dataset.done = "1";
    tr.dataset.status = data.status;
    const next = Object.keys(rows).find((name) => !rows[name].dataset.done);
    if (next) running(rows, next);
  } else if (kind === "done") {
    showAgreement(data, rows);
  }
}

/** Mark the engine now solving (the others wait their turn). */
function running(rows, name) {
  const status = rows[name]?.querySelector(".status");
  if (status) { status.textContent = "running…"; status.className = "status status-running"; }
}

function showAgreement(data, rows) {
  // Agreement among the engines that answered, naming every engine that did not.
  const line = $("agreement"), others = data.others || [];
  const missing = others.map((name) => `${name} (${rows[name] ? rows[name].dataset.status || "no answer" : "no answer"})`);
  let text = data.agree ? `all ${data.answered.length} answers agree (${data.grids} grid${data.grids === 1 ? "" : "s"})`
    : data.disagree.length ? `disagreement: ${data.disagree.join(", ")}` : "no engine answered";
  if (missing.length) text += `; no answer from ${missing.join(", ")}`;
  if (data.message && !data.agree) text += ` — ${data.message}`;  // agreeing, it says the same
  line.textContent = text;
  line.className = !data.agree ? "bad" : missing.length ? "partial" : "good";
  line.dataset.agree = String(data.agree);
  line.dataset.others = others.join(",");
}

/** What one backend builds for this puzzle. */
export async function showModel(backend) {
  const pre = $("model-text");
  pre.hidden = false;
  pre.textContent = `${backend}: building the model…`;
  try {
    const model = await api("/api/model", { puzzle: puzzleText(withEntries()), backend });
    pre.textContent = model.text;
  } catch (error) {
    if (!(error instanceof Stale)) pre.textContent = error.message;
  }
}

/** A new puzzle: nothing of the old one's engines stays on the page. */
export function resetEngines() {
  $("compare-table").querySelector("tbody").innerHTML = "";
  const line = $("agreement");
  line.textContent = ""; line.className = "";
  delete line.dataset.agree; delete line.dataset.others;
  $("solve-status").textContent = "";
  delete $("solve-status").dataset.status;
  $("compare-measured").textContent = "";
  $("model-text").hidden = true;
  $("model-text").textContent = "";
  seen = [];
  legend(seen);  // the old table's statistics explained under no table
}
