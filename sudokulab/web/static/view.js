// A grid of candidates shown on the main board in place of the player's (issue 32): a
// position of a traced search (watch.js) or where a propagation level stops (grids.js).
// It rides on the learn view's display (board.js draws state.learn: values, marks and the
// highlighted step), so the player's own grid is untouched and comes back on close.

import { render } from "./board.js";
import { endLearn } from "./learn.js";
import { state } from "./state.js";

/** Cell i's name: r1c1. */
export const cellName = (i, n) => `r${Math.floor(i / n) + 1}c${(i % n) + 1}`;

/** Show candidates (a bitmask per cell) on the board, with `step` highlighted (learn.js's
 * shape: units, cells, placements, eliminations, links, in [row, column(, digit)]). */
export function showMarks(kind, masks, step = null) {
  const n = state.puzzle.size, digits = (m) => [...Array(n).keys()].filter((d) => m >> d & 1).map((d) => d + 1);
  const values = masks.map((m) => (m && !(m & (m - 1)) ? Math.log2(m) + 1 : 0));
  const marks = masks.map((m, i) => new Set(values[i] ? [] : digits(m)));
  const placed = new Set(values.flatMap((v, i) => (v && !state.puzzle.givens[i] ? [i] : [])));
  const empty = { units: [], cells: [], placements: [], eliminations: [], links: [] };
  state.learn = { kind, values, marks, placed, steps: [{ ...empty, ...(step || {}) }], k: 0, base: values };
  render();
}

/** Whether the board shows a view of this kind. */
export const showing = (kind) => Boolean(state.learn && state.learn.kind === kind);

/** Back to the player's grid. */
export function closeView() {
  endLearn();
  render();
}
