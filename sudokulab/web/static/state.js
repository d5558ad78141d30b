// The puzzle being played and everything the player did to it: entries, corner and centre
// pencil marks, cell colours, the selection, and the history that undo walks back.
// Corner marks are the player's candidates: hints start from them and "apply" changes them.

import { moves, peersOf, units } from "./geometry.js";

export const SYMBOLS = "123456789ABCDEFGHIJKLMNOP";
export const BOXES = { 4: [2, 2], 6: [2, 3], 9: [3, 3], 16: [4, 4], 25: [5, 5] };

export const state = {
  puzzle: null,       // as /api/puzzle gives it: {size, box, givens, rules, line}
  name: "",           // what the player opened: "top95 #1", "a pasted puzzle", ...
  entries: [], corner: [], centre: [], solved: [], solution: null,
  colours: [],        // a set of colours (1..9) per cell: several are drawn as segments
  wrong: new Set(),   // cells `check` found wrong: cleared when the cell changes
  doubtful: new Set(),  // cells a photo was read with low confidence
  selected: new Set(), cursor: 0,
  undo: [], redo: [], started: 0, stopped: false,
  ended: 0,           // when the grid was finished (the timer shows the time up to it)
  source: null,       // {dataset, index} when opened from a dataset: "next puzzle" opens index + 1
  units: [], pairs: [], peers: [],
  learn: null,        // a hint or an explanation being shown (learn.js)
};

/** Start a new puzzle: no entries, marks, colours or history. */
export function resetState(puzzle, solution = null) {
  const cells = puzzle.size * puzzle.size;
  Object.assign(state, {
    puzzle, solution, entries: new Array(cells).fill(0), solved: new Array(cells).fill(0),
    corner: [...Array(cells)].map(() => new Set()), centre: [...Array(cells)].map(() => new Set()),
    colours: [...Array(cells)].map(() => new Set()), wrong: new Set(), doubtful: new Set(),
    selected: new Set([0]), cursor: 0, undo: [], redo: [], started: Date.now(), stopped: false, ended: 0,
    units: units(puzzle), pairs: moves(puzzle), learn: null,
  });
  state.peers = peersOf(state.units, cells);
}

/** The digit shown in cell i (0: blank): the learn view's position while it is open. */
export function value(i) {
  if (state.learn) return state.learn.values[i];
  return state.puzzle.givens[i] || state.entries[i] || state.solved[i] || 0;
}

function snapshot(cells) {
  // What undo needs to put cells back as they are now.
  return cells.map((i) => ({ i, given: state.puzzle.givens[i], entry: state.entries[i],
    corner: new Set(state.corner[i]), centre: new Set(state.centre[i]), colour: new Set(state.colours[i]) }));
}

function putBack(saved) {
  for (const s of saved) {
    state.puzzle.givens[s.i] = s.given; state.entries[s.i] = s.entry;
    state.corner[s.i] = s.corner; state.centre[s.i] = s.centre; state.colours[s.i] = s.colour;
    state.wrong.delete(s.i);
  }
}

/** Change some cells as one step of the history (undo takes it back at once). */
export function change(cells, update) {
  const before = snapshot(cells);
  update();
  state.undo.push(before);
  state.redo = [];
  state.solved.fill(0);
  for (const i of cells) { state.wrong.delete(i); state.doubtful.delete(i); }
}

/** Undo (or redo, with the stacks swapped) the last step; false when there is none. */
export function travel(from, to) {
  const last = from.pop();
  if (!last) return false;
  to.push(snapshot(last.map((s) => s.i)));
  putBack(last);
  state.solved.fill(0);
  state.selected = new Set(last.map((s) => s.i));
  state.cursor = last[0].i;
  return true;
}

/** Givens and entries: the grid the player sees (0 blank). */
export function playerValues() {
  return state.puzzle.givens.map((g, i) => g || state.entries[i]);
}

/** Whether the player keeps any corner marks (their candidates). */
export function keepsMarks() {
  return state.corner.some((marks, i) => marks.size && !playerValues()[i]);
}

/** The digits cell i can take from what the grid shows (peers and the pairs' rules). */
export function localCandidates(i, values = playerValues()) {
  const n = state.puzzle.size, out = new Set([...Array(n).keys()].map((k) => k + 1));
  for (const j of state.peers[i]) out.delete(values[j]);
  for (const [a, b, kind] of state.pairs) {
    const v = values[a === i ? b : b === i ? a : -1];
    if (!v) continue;
    if (kind === "differ") out.delete(v); else { out.delete(v - 1); out.delete(v + 1); }
  }
  return out;
}

/** The player's pencil marks for /api/hint and /api/explain ([] where they marked
 * nothing: the server takes what the digits allow there), or null when they keep none.
 * Only their own marks go: a cell the page filled in would be blamed as theirs. */
export function playerCandidates() {
  if (!keepsMarks()) return null;
  const values = playerValues();
  return values.map((v, i) => (v ? [] : [...state.corner[i]].sort((a, b) => a - b)));
}

function rows(values) {
  const n = state.puzzle.size;
  return [...Array(n).keys()].map((r) => values.slice(r * n, r * n + n));
}

/** The puzzle as JSON the command line reads: its givens (and entries, if asked). */
export function puzzleText(withEntries = false) {
  const p = state.puzzle;
  return JSON.stringify({ box: p.box, givens: rows(withEntries ? playerValues() : p.givens), rules: p.rules });
}

/** The player's progress, for a share link. */
export function progress() {
  const lists = (sets) => sets.map((s) => [...s]);
  return { entries: state.entries, corner: lists(state.corner), centre: lists(state.centre), colours: lists(state.colours) };
}

/** Put back a shared progress (lengths checked: a link for another size is ignored). */
export function restoreProgress(saved) {
  const cells = state.entries.length, fits = (list) => Array.isArray(list) && list.length === cells;
  if (fits(saved.entries)) state.entries = saved.entries.map(Number);
  if (fits(saved.corner)) state.corner = saved.corner.map((d) => new Set(d));
  if (fits(saved.centre)) state.centre = saved.centre.map((d) => new Set(d));
  // a colour per cell (older links) or a list of them
  if (fits(saved.colours)) state.colours = saved.colours.map((c) => new Set((Array.isArray(c) ? c : [c]).map(Number).filter(Boolean)));
}
