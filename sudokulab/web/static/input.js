// The player's hands: selecting cells (click, drag, Ctrl/Shift-click, arrows), typing or
// tapping digits on the on-screen pad, in one of four modes: digit, corner mark, centre
// mark, colour. Keyboard shortcuts are listed in the help popup (index.html #help).

import { render } from "./board.js";
import { $ } from "./dom.js";
import { endLearn } from "./learn.js";
import { finished } from "./play.js";
import { change, state, SYMBOLS, travel, value } from "./state.js";

export const MODES = ["digit", "corner", "centre", "colour"];
const MODE_KEYS = { z: "digit", x: "corner", c: "centre", v: "colour" };
let mode = "digit";
let dragging = false;
let lastDown = { i: -1, at: 0 };  // the last press on a cell: a second one soon after is a double click
const DOUBLE = 400;  // ms between the two presses of a double click or a double tap

/** Switch the input mode (digit, corner, centre or colour). */
export function setMode(next) {
  mode = next;
  document.body.dataset.inputMode = mode;
  for (const button of document.querySelectorAll("#pad [data-mode]")) {
    button.setAttribute("aria-pressed", String(button.dataset.mode === mode));
  }
  buildPad();
}

/** The pad's digit buttons for the puzzle's size (colours in colour mode). */
export function buildPad() {
  if (!state.puzzle) return;
  const n = mode === "colour" ? 9 : state.puzzle.size, pad = $("pad-digits");
  pad.style.setProperty("--columns", n > 9 ? Math.ceil(n / 2) : n);
  pad.style.setProperty("--square", Math.ceil(Math.sqrt(n)));  // a desktop: a square keypad
  pad.innerHTML = [...Array(n).keys()].map((k) => `<button type="button" data-digit="${k + 1}"${mode === "colour" ? ` class="swatch" style="--swatch:var(--c${k + 1})"` : ""}>${mode === "colour" ? "" : SYMBOLS[k]}</button>`).join("");
}

/** Undo the last change (all of a step: digits, marks, colours). */
export function undo() { endLearn(); if (travel(state.undo, state.redo)) render(); }

/** Redo what undo took back. */
export function redo() { endLearn(); if (travel(state.redo, state.undo)) render(); }

function toggleEach(sets, cells, digit) {
  // On every cell, or off every cell when all of them have it already.
  const all = cells.every((i) => sets[i].has(digit));
  for (const i of cells) if (all) sets[i].delete(digit); else sets[i].add(digit);
}

/** Enter digit (0: erase) in the selected cells, as the mode says. */
export function enter(digit) {
  const p = state.puzzle, cells = [...state.selected], editing = $("mode-edit").checked;
  if (!cells.length) return;
  endLearn();
  if (editing) {
    change(cells, () => cells.forEach((i) => { p.givens[i] = digit; state.entries[i] = 0; }));
  } else if (mode === "colour") {
    // a colour is added to each cell's own (several share a cell), or taken off every cell
    // when all of them have it; erase takes every colour off
    change(cells, () => { if (digit) toggleEach(state.colours, cells, digit); else cells.forEach((i) => state.colours[i].clear()); });
  } else {
    const open = cells.filter((i) => !p.givens[i]);
    if (!open.length) return;
    change(open, () => {
      if (!digit) {
        // erase the mode's own marks; in digit mode the entry, else what the cell holds
        for (const i of open) {
          if (mode === "corner") state.corner[i].clear();
          else if (mode === "centre") state.centre[i].clear();
          else if (state.entries[i]) state.entries[i] = 0;
          else { state.corner[i].clear(); state.centre[i].clear(); }
        }
      } else if (mode === "corner") {
        toggleEach(state.corner, open.filter((i) => !state.entries[i]), digit);
      } else if (mode === "centre") {
        toggleEach(state.centre, open.filter((i) => !state.entries[i]), digit);
      } else {
        for (const i of open) state.entries[i] = digit;
      }
    });
  }
  render();
  finished();
}

/** Select every cell showing the digit of cell i (a double click or double tap on it). */
export function selectSame(i) {
  const v = value(i);
  if (!v) return;
  state.selected = new Set(state.entries.map((_, k) => k).filter((k) => value(k) === v));
  state.cursor = i;
  render();
}

/** Select cell i: alone, added (Shift, or a drag) or toggled (Ctrl/Cmd). */
export function select(i, how = "only") {
  if (how === "only") state.selected = new Set([i]);
  else if (how === "toggle" && state.selected.has(i) && state.selected.size > 1) state.selected.delete(i);
  else state.selected.add(i);
  state.cursor = i;
  render();
}

function cellAt(x, y) {
  const cell = document.elementFromPoint(x, y)?.closest?.("#grid .cell");
  return cell ? Number(cell.dataset.index) : null;
}

/** Pointer selection on the grid: click, drag over cells, Ctrl/Shift-click. */
export function wirePointer(grid) {
  grid.addEventListener("pointerdown", (event) => {
    const i = cellAt(event.clientX, event.clientY);
    if (i === null) return;
    event.preventDefault();
    grid.dataset.pointer = "1";  // no focus ring for a click (style.css): Tab's focus shows one
    const plain = !(event.ctrlKey || event.metaKey || event.shiftKey), now = Date.now();
    if (plain && lastDown.i === i && now - lastDown.at < DOUBLE) {
      lastDown = { i: -1, at: 0 };
      selectSame(i);
      grid.focus({ preventScroll: true });
      return;
    }
    lastDown = { i, at: now };
    dragging = true;
    select(i, event.ctrlKey || event.metaKey ? "toggle" : event.shiftKey ? "add" : "only");
    grid.focus({ preventScroll: true });
  });
  grid.addEventListener("pointermove", (event) => {
    if (!dragging) return;
    const i = cellAt(event.clientX, event.clientY);
    if (i !== null && !state.selected.has(i)) select(i, "add");
  });
  for (const kind of ["pointerup", "pointercancel"]) window.addEventListener(kind, () => { dragging = false; });
  grid.addEventListener("blur", () => { delete grid.dataset.pointer; });
}

/** The digit a key stands for on this grid (1..n), or 0 when none. */
function digitOf(event) {
  const n = state.puzzle.size;
  const fromCode = /^(?:Digit|Numpad)(\d)$/.exec(event.code || "");
  const key = fromCode && (event.shiftKey || event.ctrlKey) ? fromCode[1] : event.key;
  if (key.length !== 1) return 0;
  const k = SYMBOLS.slice(0, n).indexOf(key.toUpperCase());
  return k + 1;
}

/** Keyboard shortcuts (the help popup lists them). */
export function onKey(event) {
  const target = event.target, tag = target.tagName;
  if (["INPUT", "TEXTAREA", "SELECT"].includes(tag) || target.closest("dialog")) return;
  if (tag === "BUTTON" && [" ", "Enter"].includes(event.key)) return;
  if (!state.puzzle) return;
  const n = state.puzzle.size, i = state.cursor, r = Math.floor(i / n), c = i % n;
  const arrows = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  const key = event.key, ctrl = event.ctrlKey || event.metaKey, lower = key.toLowerCase();
  if (ctrl && lower === "z") undo();
  else if (ctrl && lower === "y") redo();
  else if (ctrl && lower === "a") { state.selected = new Set(state.entries.map((_, k) => k)); render(); }
  else if (arrows[key]) {
    const [dr, dc] = arrows[key];
    select(((r + dr + n) % n) * n + ((c + dc + n) % n), event.shiftKey ? "add" : "only");
  } else if (["Delete", "Backspace", "0", "."].includes(key)) enter(0);
  else if (key === "Escape") { endLearn(); state.selected = new Set([state.cursor]); render(); }
  else if (key === "?") $("help").showModal();
  else if (key === " ") setMode(MODES[(MODES.indexOf(mode) + 1) % MODES.length]);
  else if (ctrl && !event.altKey && digitOf(event)) {
    // Ctrl (Cmd) + digit: a centre mark, as in SudokuPad, without leaving the mode
    const digit = digitOf(event), was = mode;
    mode = "centre"; enter(digit); mode = was;
  } else if (!ctrl && digitOf(event)) {
    const digit = digitOf(event), was = mode;
    // Shift-digit: a corner mark, as in SudokuPad, without leaving the mode
    if (event.shiftKey && /^(?:Digit|Numpad)/.test(event.code || "")) { mode = "corner"; enter(digit); mode = was; } else enter(digit);
  } else if (!ctrl && MODE_KEYS[lower] && !SYMBOLS.slice(0, n).includes(key.toUpperCase())) setMode(MODE_KEYS[lower]);
  else return;
  event.preventDefault();
}
