// The player's progress kept in the browser (localStorage), so a reload or a return to a
// puzzle finds it as it was left: the last puzzle played (its text, name and solution), and
// per puzzle (keyed by its givens and rules) the entries, marks, colours and time.
// Nothing leaves the browser; a browser that refuses storage just plays without it.

import { $ } from "./dom.js";
import { progress, puzzleText, restoreProgress, state } from "./state.js";

const LAST = "sudokulab:last";
const PREFIX = "sudokulab:progress:";
let written = "";  // the progress last written (with no time): rewritten only when it changes
let timeWritten = 0;

function read(key) {
  try { return JSON.parse(localStorage.getItem(key) || "null"); } catch { return null; }
}

function write(key, data) {
  try { localStorage.setItem(key, JSON.stringify(data)); return true; } catch { return false; }
}

/** The key of the puzzle on the board: its givens and rules. */
export const keyOf = () => PREFIX + puzzleText(false);

const playing = () => Boolean(state.puzzle) && $("mode-play").checked;

/** Remember the puzzle on the board as the one to open on the next visit. */
export function rememberPuzzle() {
  if (!playing()) return;
  write(LAST, { puzzle: puzzleText(false), name: state.name, solution: state.solution, source: state.source || null });
}

/** The puzzle of the last visit, or null: {puzzle, name, solution, source}. */
export const lastPuzzle = () => {
  const last = read(LAST);
  return last && typeof last.puzzle === "string" ? last : null;
};

/** Milliseconds played on this puzzle (up to the finish, once finished). */
export const elapsed = () => (state.ended || Date.now()) - state.started;

/** Save the player's progress on this puzzle (the time at most every few seconds). */
export function saveProgress(force = false) {
  if (!playing() || state.learn) return;
  const body = JSON.stringify(progress()) + String(state.stopped);
  const now = Date.now();
  if (!force && body === written && now - timeWritten < 5000) return;
  const empty = !state.entries.some(Boolean) && !progress().corner.some((m) => m.length)
    && !progress().centre.some((m) => m.length) && !state.colours.some((c) => c.size);
  if (empty && !state.stopped && elapsed() < 10000) {
    // nothing to keep yet: a puzzle only looked at leaves nothing behind
    if (written) forgetProgress();
    return;
  }
  if (write(keyOf(), { ...progress(), elapsed: elapsed(), done: state.stopped })) {
    written = body; timeWritten = now;
  }
}

/** Put back the saved progress of the puzzle just opened; true when there was some. */
export function restoreSaved() {
  written = ""; timeWritten = 0;
  if (!playing()) return false;
  const saved = read(keyOf());
  if (!saved) return false;
  restoreProgress(saved);
  const now = Date.now();
  state.started = now - (Number(saved.elapsed) || 0);
  state.stopped = Boolean(saved.done);
  state.ended = state.stopped ? now : 0;
  written = JSON.stringify(progress()) + String(state.stopped); timeWritten = now;
  return true;
}

/** Forget this puzzle's saved progress (start over). */
export function forgetProgress() {
  try { localStorage.removeItem(keyOf()); } catch { /* no storage: nothing kept */ }
  written = ""; timeWritten = 0;
}

// a reload or a closed tab keeps the time played to the second
addEventListener("pagehide", () => saveProgress(true));
document.addEventListener("visibilitychange", () => { if (document.hidden) saveProgress(true); });
