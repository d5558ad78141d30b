// Search you can watch (issue 32): the search of an engine that records a trace (its
// records_trace in /api/backends) on the current puzzle, event by event (POST /api/trace,
// recorded by sudokulab/backends/trace.py), replayed on the board with a
// step slider, play/pause and speed, and the search tree beside it (SVG, each node a guess,
// coloured by outcome). The replay rebuilds the candidates exactly as trace.replay does.

import { api, Stale } from "./api.js";
import { $, escape } from "./dom.js";
import { puzzleText, state } from "./state.js";
import { cellName, closeView, showMarks, showing } from "./view.js";

const replay = { events: [], states: [], tree: [], nodeAt: [], puzzle: null, timer: 0 };

/** The candidates after each event (bitmasks per cell): sudokulab.backends.trace.replay. */
export function statesOf(events) {
  let current = [];
  const saved = new Map(), out = [];
  for (const e of events) {
    if (e.event === "start") current = e.marks.slice();
    else if (e.event === "wave") for (const [cell, d] of e.removed) current[cell] &= ~(1 << (d - 1));
    else if (e.event === "guess") {
      if (e.first) saved.set(e.slot, current.slice()); else current = saved.get(e.slot).slice();
      current[e.cell] = 1 << (e.digit - 1);
    } else if (e.event === "backtrack") current = saved.get(e.slot).slice();
    else if (e.event === "solution") current = e.grid.map((d) => 1 << (d - 1));
    out.push(current.slice());
  }
  return out;
}

/** Record the chosen engine's search on the puzzle and show its first position. */
export async function trace() {
  stop();
  const engine = $("watch-engine").value;
  $("watch-text").textContent = `recording ${engine}'s search…`;
  let answer;
  try {
    answer = await api("/api/trace", { puzzle: puzzleText(false), engine });
  } catch (error) {
    if (!(error instanceof Stale)) $("watch-text").textContent = error.message;
    return;
  }
  Object.assign(replay, { events: answer.events, states: statesOf(answer.events), tree: answer.tree, puzzle: state.puzzle, answer });
  replay.nodeAt = nodesAt(answer.events, answer.tree);
  const slider = $("watch-step");
  slider.max = String(answer.events.length - 1);
  $("watch").dataset.engine = engine;
  $("watch").dataset.steps = String(answer.events.length);
  drawTree();
  go(0);
}

function nodesAt(events, tree) {
  // The tree node being worked on after each event: the last guess's (the root before any).
  const byEvent = new Map(tree.map((node) => [node.event, node.id]));
  let node = 0;
  return events.map((e, k) => { if (e.event === "guess" && byEvent.has(k)) node = byEvent.get(k); return node; });
}

/** Show position k: the candidates after event k, with event k+1 highlighted as next. */
export function go(k) {
  if (!replay.events.length || replay.puzzle !== state.puzzle) return;
  const last = replay.events.length - 1;
  k = Math.max(0, Math.min(k, last));
  $("watch-step").value = String(k);
  $("watch").dataset.step = String(k);
  const next = replay.events[k + 1], n = state.puzzle.size;
  showMarks("replay", replay.states[k], highlight(next, n));
  $("watch-position").textContent = ` step ${k} of ${last}`;
  $("watch-text").innerHTML = `<b>now</b>: ${escape(describe(replay.events[k], n))}`
    + (next ? `<br><b>next</b>: ${escape(describe(next, n))}` : `<br>${escape(ending())}`);
  markNode(replay.nodeAt[k]);
  if (k === last) stop();
}

function ending() {
  const a = replay.answer;
  const cut = a.truncated ? ` (the trace keeps its first ${a.cap} events, then jumps to the solution)` : "";
  return a.solution ? `the engine's solution: ${a.stats.guesses} guesses, ${a.stats.backtracks} dead ends${cut}` : `${a.status}: ${a.message || "no solution"}`;
}

function highlight(e, n) {
  // The next event's cells, as board.js draws a learn step.
  if (!e) return null;
  const rc = (cell) => [Math.floor(cell / n) + 1, (cell % n) + 1];
  if (e.event === "wave") return { placements: e.placed.map(([c, d]) => [...rc(c), d]), eliminations: e.removed.map(([c, d]) => [...rc(c), d]) };
  if (e.event === "guess") return { cells: [rc(e.cell)], placements: [[...rc(e.cell), e.digit]] };
  if (e.event === "dead_end") return { units: [{ cells: e.cells.map(rc) }] };
  return null;
}

/** One event in words. */
export function describe(e, n) {
  switch (e.event) {
    case "start": return "the givens: every other cell may hold any digit the givens allow";
    case "wave": return `propagation: ${e.removed.length} candidates removed, ${e.placed.length} cells left with one`;
    case "guess": return `guess ${e.digit} in ${cellName(e.cell, n)} (depth ${e.depth}): ${e.why}`;
    case "dead_end": return `dead end: ${e.why}`;
    case "backtrack": return `backtrack to depth ${e.depth}: its candidates as before its guesses`;
    case "solution": return "solved: every cell holds one digit";
    case "truncated": return `the trace stops here (cap of ${e.cap} events); the search went on`;
    default: return e.why ? `${e.event}: ${e.why}` : e.event;  // cover, learnt, restart ...
  }
}

/** Play from the current step, or pause. */
export function toggle() {
  if (replay.timer) { stop(); return; }
  if (!replay.events.length) return;
  let k = Number($("watch-step").value);
  if (k >= replay.events.length - 1) k = -1;
  $("watch-play").textContent = "pause";
  let shown = false;  // once the replay is on the board, anything else put there pauses it
  const tick = () => {
    if (shown && !showing("replay")) { stop(); return; }
    k += 1; go(k); shown = true;
    if (replay.timer) replay.timer = setTimeout(tick, 1000 / Number($("watch-speed").value));
  };
  replay.timer = setTimeout(tick, 0);
}

function stop() {
  clearTimeout(replay.timer);
  replay.timer = 0;
  $("watch-play").textContent = "play";
}

const COLOURS = { solved: "#2e7d32", dead: "#c62828", open: "#9aa3b5" };

function drawTree() {
  // A tidy tree: leaves side by side in search order, a parent over its children.
  const nodes = replay.tree, kids = new Map(), x = [], depth = [];
  for (const node of nodes.slice(1)) { if (!kids.has(node.parent)) kids.set(node.parent, []); kids.get(node.parent).push(node.id); }
  let leaves = 0;
  const place = (id, d) => {
    depth[id] = d;
    const children = kids.get(id) || [];
    children.forEach((c) => place(c, d + 1));
    x[id] = children.length ? (x[children[0]] + x[children[children.length - 1]]) / 2 : leaves++;
  };
  place(0, 0);
  const dx = 12, dy = 18, width = Math.max(1, leaves) * dx + 12, height = (Math.max(...depth) + 1) * dy + 12;
  const at = (id) => [6 + x[id] * dx + dx / 2, 8 + depth[id] * dy];
  const lines = nodes.slice(1).map((node) => { const [x1, y1] = at(node.parent), [x2, y2] = at(node.id); return `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}"/>`; });
  const n = state.puzzle.size;
  const dots = nodes.map((node) => { const [cx, cy] = at(node.id); const label = node.id ? `${node.digit} in ${cellName(node.cell, n)}` : "the givens";
    return `<circle cx="${cx}" cy="${cy}" r="4.5" fill="${COLOURS[node.outcome]}" data-node="${node.id}" data-outcome="${node.outcome}" data-event="${node.event}"><title>${label}: ${node.outcome}</title></circle>`; });
  $("watch-tree").innerHTML = `<svg viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="search tree">`
    + `<g stroke="#b8c0d0" stroke-width="1">${lines.join("")}</g>${dots.join("")}</svg>`
    + `<p class="legend"><span style="color:${COLOURS.solved}">● solved</span><span style="color:${COLOURS.dead}">● dead end</span><span style="color:${COLOURS.open}">● open (not finished in the trace)</span></p>`;
  for (const dot of $("watch-tree").querySelectorAll("circle")) dot.addEventListener("click", () => { stop(); go(Number(dot.dataset.event)); });
}

function markNode(id) {
  for (const dot of $("watch-tree").querySelectorAll("circle")) dot.classList.toggle("here", Number(dot.dataset.node) === id);
}

/** Forget the trace: it was of a puzzle no longer on the board (load.js's newpuzzle). */
function forget() {
  stop();
  Object.assign(replay, { events: [], states: [], tree: [], nodeAt: [], puzzle: null, answer: null });
  $("watch-step").max = "0";
  $("watch-step").value = "0";
  $("watch-position").textContent = $("watch-text").textContent = $("watch-tree").textContent = "";
  for (const key of ["engine", "steps", "step"]) delete $("watch").dataset[key];
}

/** Wire the controls (main.js imports this module once). */
export function wireWatch() {
  document.addEventListener("newpuzzle", forget);
  $("watch-run").addEventListener("click", trace);
  $("watch-play").addEventListener("click", toggle);
  $("watch-step").addEventListener("input", () => { stop(); go(Number($("watch-step").value)); });
  $("watch-close").addEventListener("click", () => { stop(); if (showing("replay")) closeView(); });
}
