// Playing: the timer, `check` against the solution, `clear entries`, filling the corner
// marks with every candidate, and noticing when the grid is solved.

import { api, Stale } from "./api.js";
import { conflicts, render } from "./board.js";
import { $, say } from "./dom.js";
import { endLearn } from "./learn.js";
import { change, localCandidates, playerValues, puzzleText, state } from "./state.js";
import { elapsed, forgetProgress, saveProgress } from "./store.js";

/** Minutes and seconds since the puzzle was started (up to its finish, once finished). */
export function clock() {
  const s = Math.floor(elapsed() / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** Every cell filled, right (as the solution, when the page knows it) or with no conflict:
 * the timer stops and a dialog says so, with the time. */
export function finished() {
  const values = playerValues(), full = values.every(Boolean);
  if (!$("mode-play").checked || !full || state.stopped) return;
  const right = state.solution ? values.every((v, i) => v === state.solution[i]) : conflicts().size === 0;
  if (!right) {
    say("the grid is full, but not right yet: check outlines what differs", "bad");
    return;
  }
  state.stopped = true;
  state.ended = Date.now();
  const time = clock();
  $("timer").textContent = time;
  say(`solved in ${time}`, "good");
  saveProgress(true);
  $("finish-text").textContent = `You solved ${state.name || "the puzzle"} in ${time}.`;
  $("finish-next").hidden = !state.source;
  if (!$("finish").open) $("finish").showModal();
}

/** Compare the entries with the solution (the dataset's, or one found by norvig). */
export async function checkEntries() {
  const p = state.puzzle;
  try {
    if (!state.solution) {
      const answer = await api("/api/solve", { puzzle: puzzleText(false), backend: "norvig", limit: 2 });
      if (answer.status !== "unique") { say(`cannot check: the puzzle's answer is ${answer.status}`, "bad"); return; }
      state.solution = answer.solutions[0];
    }
  } catch (error) {
    if (!(error instanceof Stale)) say(error.message, "bad");
    return;
  }
  let wrong = 0, left = 0;
  state.wrong = new Set();
  p.givens.forEach((given, i) => {
    const v = state.entries[i];
    if (!given && v && v !== state.solution[i]) { state.wrong.add(i); wrong++; }
    if (!given && !v) left++;
  });
  render();
  say(wrong ? `${wrong} wrong, ${left} to go` : left ? `all correct so far, ${left} to go` : "solved!", wrong ? "bad" : "good");
}

/** Take every entry, mark and colour off the grid (undo puts them back). */
export function clearEntries() {
  endLearn();
  const cells = state.entries.map((_, i) => i);
  change(cells, () => {
    state.entries.fill(0);
    state.corner.forEach((m) => m.clear());
    state.centre.forEach((m) => m.clear());
    state.colours.forEach((c) => c.clear());
  });
  state.wrong = new Set();
  say("");
  render();
}

/** Fill every empty cell's corner marks with the digits its peers leave (one undo step). */
export function fillCandidates() {
  endLearn();
  const values = playerValues(), cells = values.flatMap((v, i) => (v ? [] : [i]));
  change(cells, () => { for (const i of cells) state.corner[i] = localCandidates(i, values); });
  render();
}

/** Restart the timer (when play starts). */
export function startTimer() {
  state.started = Date.now();
  state.stopped = false;
  state.ended = 0;
  $("timer").textContent = clock();
}

/** Start the puzzle over: entries, marks and colours off (one undo step puts them back),
 * the timer at 0:00 and the saved progress forgotten. */
export function startOver() {
  clearEntries();
  forgetProgress();
  startTimer();
  say("started over (undo puts your grid back)");
}
