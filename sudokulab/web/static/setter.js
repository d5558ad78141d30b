// The setting mode: the setter's bench (POST /api/setter, sudokulab.generate.setter) while givens and
// rules are entered. After each change (debounced; the request before it cancelled, here
// and on the server) the page shows how many solutions are left, draws every cell's true
// candidates as pencil marks, outlines the givens the puzzle stays unique without, shows
// where two solutions differ, and the human grade once the puzzle is unique.
// Drawn on an SVG of its own over the grid: the player's state (entries, marks) is untouched.

import { tabTag } from "./api.js";
import { drawBadges, drawOverlay, render } from "./board.js";
import { $, escape } from "./dom.js";
import { cellOf } from "./geometry.js";
import { puzzleText, state, SYMBOLS } from "./state.js";

const DEBOUNCE_MS = 150;   // a burst of keys makes one request
const WATCH_MS = 200;      // how often the puzzle is compared with the last one asked about
const TIMEOUT_S = 5;       // the count, candidates and redundancy; the grade asks again
const GRADE_TIMEOUT_S = 3;

let on = false;
let asked = "";            // the puzzle text of the last request
let timer = 0;
let seq = 0;               // the latest request: older answers are dropped
let running = null;        // {tag, controller} of the request in flight
let answer = null;         // the last answer shown

/** Stop the request in flight: its fetch here, its work on the server (whose helper stops
 * the update and stays warm for the next one: issue 54). */
function cancel() {
  if (!running) return;
  running.controller.abort();
  fetch("/api/cancel", { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ tag: running.tag }) }).catch(() => {});
  running = null;
}

async function post(body) {
  // One tagged request; null when a newer one replaced it.
  cancel();
  const mine = ++seq, tag = tabTag(`setter:${mine}`), controller = new AbortController();
  running = { tag, controller };
  try {
    const response = await fetch("/api/setter", { method: "POST", signal: controller.signal,
      headers: { "content-type": "application/json" }, body: JSON.stringify({ ...body, tag }) });
    const data = await response.json();
    if (mine !== seq) return null;
    if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
    return data;
  } catch (error) {
    if (mine !== seq || error.name === "AbortError") return null;
    throw error;
  } finally {
    if (running && running.tag === tag) running = null;
  }
}

/** Ask about the puzzle as it stands now; then, once it is unique, for its grade. */
async function update() {
  const text = puzzleText();
  asked = text;
  document.body.dataset.setter = "busy";
  try {
    // the count first (two SAT calls), then the candidates and redundancy, then the grade:
    // each shown as it comes, the old candidates dimmed meanwhile
    const quick = await post({ puzzle: text, timeout: TIMEOUT_S, candidates: false, redundancy: false, grade: false });
    if (!quick) return;
    const old = answer && answer.candidates;
    answer = { ...quick, candidates: old && old.length === state.puzzle.givens.length ? old : null, stale: true };
    show();
    const first = await post({ puzzle: text, timeout: TIMEOUT_S, grade: false });
    if (!first) return;
    answer = first;
    show();
    if (first.status !== "unique") { document.body.dataset.setter = "done"; return; }
    $("setter-grade").textContent = "grade: …";
    const graded = await post({ puzzle: text, timeout: GRADE_TIMEOUT_S + 2, grade_timeout: GRADE_TIMEOUT_S,
      candidates: false, redundancy: false });
    if (!graded) return;
    answer = { ...answer, grade: graded.grade, grade_status: graded.grade_status, grade_message: graded.grade_message };
    show();
    document.body.dataset.setter = "done";
  } catch (error) {
    $("setter-count").textContent = `the bench failed: ${error.message}`;
    document.body.dataset.setter = "error";
  }
}

function changed() {
  // The puzzle differs from the one last asked about: ask again after a pause.
  if (!on || !state.puzzle || puzzleText() === asked) return;
  clearTimeout(timer);
  timer = setTimeout(update, DEBOUNCE_MS);
}

const COUNTS = { none: "no solution", unique: "unique: exactly one solution",
  several: "at least 2 solutions", timeout: "no count yet: the time ran out", cancelled: "…" };

function ruleName(rule) {
  // A rule in a few words: a cage by its sum and first cell.
  if (rule.type === "cage") return `cage ${rule.total} at ${rule.cells[0]}`;
  return rule.cells ? `${rule.type} at ${rule.cells[0]}` : rule.type;
}

/** The answer in words under the tools and drawn over the grid. */
function show() {
  const a = answer, p = state.puzzle;
  const section = $("setter");
  section.dataset.status = a.status;
  section.dataset.count = a.count ?? "";
  let count = COUNTS[a.status] || a.message || a.status;
  if (a.status === "none" && a.message) count += `: ${a.message}`;
  if (a.status === "several") count += `: two of them differ in ${a.differ.length} cells (shaded)`;
  if (a.status === "unique" && !a.complete) count += " (time ran out before every proof)";
  $("setter-count").textContent = count;
  note().textContent = `setting: ${count}`;
  $("setter-count").style.color = a.status === "unique" ? "var(--solved)" : a.status === "none" ? "var(--bad)" : "";
  const givens = a.redundant_givens, rules = a.redundant_rules;
  $("setter-redundant").innerHTML = a.status !== "unique" || !givens ? ""
    : `redundant givens: ${givens.length ? givens.map(([r, c]) => `r${r}c${c}`).join(", ") : "none"}`
      + (p.rules.length ? `<br>redundant rules: ${rules.length ? rules.map((x) => escape(ruleName(x.rule))).join("; ") : "none"}` : "");
  const g = a.grade;
  $("setter-grade").textContent = g ? `grade: ${g.level}, score ${g.score}, SE-like ${g.rating.toFixed(1)}${g.hardest ? ` (${g.hardest})` : ""}`
    : a.status === "unique" && a.grade_message ? `grade: ${a.grade_message}` : "";
  draw();
}

function note() {
  // The count again right under the board, where a phone shows it (the tools sit far below).
  let line = $("setter-note");
  if (!line) {
    line = document.createElement("p");
    line.id = "setter-note";
    line.setAttribute("role", "status");
    line.style.cssText = "margin:.3rem 0;font-size:.9rem;color:#4a5263";
    $("board").after(line);
  }
  return line;
}

function overlay() {
  // The bench's own SVG over the grid (made once; the grid's rebuilds leave it alone).
  let svg = $("setter-overlay");
  if (!svg) {
    svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.id = "setter-overlay";
    svg.setAttribute("aria-hidden", "true");
    svg.style.cssText = "position:absolute;inset:0;width:100%;height:100%;pointer-events:none;z-index:4";
    $("frame").appendChild(svg);
  }
  return svg;
}

/** The true candidates, the redundant givens and the two solutions' differences. */
function draw() {
  const svg = overlay(), a = answer, p = state.puzzle;
  if (!on || !a || !p || !a.solutions || a.puzzle?.givens?.length !== p.givens.length) { svg.innerHTML = ""; return; }
  const n = p.size, side = Math.ceil(Math.sqrt(n)), rows = Math.ceil(n / side), parts = [];
  svg.setAttribute("viewBox", `0 0 ${n} ${n}`);
  // the last candidates, dimmed, while those of this puzzle are being proved
  parts.push(`<g opacity="${a.stale ? 0.35 : 1}">`);
  (a.candidates || []).forEach((digits, i) => {
    if (p.givens[i]) return;
    const r = Math.floor(i / n), c = i % n;
    for (const d of digits) {
      const x = c + ((d - 1) % side + 0.5) / side, y = r + (Math.floor((d - 1) / side) + 0.5) / rows;
      parts.push(`<text x="${x}" y="${y}" class="${digits.length === 1 ? "sc1" : "sc"}">${SYMBOLS[d - 1]}</text>`);
    }
    if (!digits.length) parts.push(`<text x="${c + 0.5}" y="${r + 0.62}" class="sx">!</text>`);
  });
  parts.push("</g>");
  const differ = new Set(a.differ.map(([r, c]) => (r - 1) * n + c - 1));
  for (const i of differ) {
    const r = Math.floor(i / n), c = i % n, one = a.solutions[0][i], two = a.solutions[1][i];
    // the two solutions' digits in the middle, on a label the candidates show around
    parts.push(`<rect x="${c + 0.04}" y="${r + 0.04}" width="0.92" height="0.92" class="sd"/>`,
      `<rect x="${c + 0.29}" y="${r + 0.37}" width="0.42" height="0.26" rx="0.08" class="sdl"/>`,
      `<text x="${c + 0.5}" y="${r + 0.5}" class="sdt">${SYMBOLS[one - 1]}|${SYMBOLS[two - 1]}</text>`);
  }
  for (const [r, c] of a.redundant_givens || []) {
    parts.push(`<rect x="${c - 1 + 0.07}" y="${r - 1 + 0.07}" width="0.86" height="0.86" rx="0.12" class="rg"/>`);
  }
  for (const { rule } of a.redundant_rules || []) {
    for (const name of rule.cells || []) {
      const [r, c] = cellOf(name);
      parts.push(`<rect x="${c + 0.02}" y="${r + 0.02}" width="0.96" height="0.96" class="rr"/>`);
    }
  }
  const mark = 0.62 / side;
  svg.innerHTML = `<style>.sc,.sc1{font-size:${mark}px;fill:#2f6f4f;text-anchor:middle;dominant-baseline:central}
    .sc1{font-weight:700;fill:#127a4a}.sx{font-size:.5px;fill:#c62828;text-anchor:middle;font-weight:700}
    .sd{fill:#f59e0b;opacity:.22}.sdl{fill:#fff;opacity:.9;stroke:#f59e0b;stroke-width:.02}
    .sdt{font-size:.2px;fill:#9a3412;text-anchor:middle;dominant-baseline:central;font-weight:700}
    .rg{fill:none;stroke:#16a34a;stroke-width:.05;stroke-dasharray:.12 .07}
    .rr{fill:#16a34a;opacity:.08}</style>${parts.join("")}`;
}

/** Turn the setting mode on or off: on, the givens are entered and the bench watches. */
function toggle() {
  on = $("setter-on").checked;
  $("setter-tools").hidden = !on;
  note().hidden = !on;
  note().textContent = on ? "setting: …" : "";
  if (on) {
    $("mode-edit").checked = true;
    asked = "";
    changed();
  } else {
    cancel();
    clearTimeout(timer);
    answer = null;
    delete document.body.dataset.setter;
  }
  draw();
}

function names(cells) {
  // r1c1 names of cell indices, in order.
  const n = state.puzzle.size;
  return [...cells].sort((a, b) => a - b).map((i) => `r${Math.floor(i / n) + 1}c${(i % n) + 1}`);
}

function rulesChanged() {
  // A rule added or taken away: drawn at once (with its badge and sentence), and asked about.
  drawOverlay();
  drawBadges();
  render();
  changed();
}

/** A killer cage over the selected cells, with the sum typed next to the button. */
function addCage() {
  const total = Number($("setter-total").value), cells = names(state.selected);
  if (!cells.length || !(total > 0)) { $("setter-count").textContent = "select the cage's cells and type its sum"; return; }
  state.puzzle.rules.push({ type: "cage", cells, total });
  rulesChanged();
}

/** Take away every cage or cell rule that covers a selected cell. */
function removeRules() {
  const chosen = new Set(names(state.selected));
  const keep = state.puzzle.rules.filter((rule) => !(rule.cells || []).some((name) => chosen.has(name)));
  if (keep.length === state.puzzle.rules.length) return;
  state.puzzle.rules = keep;
  rulesChanged();
}

function wire() {
  $("setter-on").addEventListener("change", toggle);
  $("setter-add-cage").addEventListener("click", addCage);
  $("setter-remove").addEventListener("click", removeRules);
  // every way the givens change (keys, pad, undo, a puzzle loaded) ends in one of these
  for (const kind of ["keyup", "pointerup", "click"]) document.addEventListener(kind, () => setTimeout(changed, 0));
  document.addEventListener("newpuzzle", () => { answer = null; asked = ""; draw(); changed(); });
  setInterval(changed, WATCH_MS);
}

wire();
