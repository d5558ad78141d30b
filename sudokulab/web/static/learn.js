// The learn view: a hint (the easiest next step from the player's own grid and pencil
// marks) or an explanation (every step to the end). The grid shows a position of the
// human-style solver's path: the values and marks after the first k steps (from the API's
// start candidates and each step's `removed`), with step k+1 highlighted by board.js.

import { api, Stale } from "./api.js";
import { render } from "./board.js";
import { $ } from "./dom.js";
import { finished } from "./play.js";
import { change, keepsMarks, playerCandidates, playerValues, puzzleText, state } from "./state.js";

/** Ask for a hint or an explanation ("hint" or "explain") of the grid as the player has it. */
export async function learn(kind) {
  endLearn();
  render();
  const base = playerValues(), body = { puzzle: puzzleText(false), values: base };
  const candidates = playerCandidates();
  if (candidates) body.candidates = candidates;
  if ($("only").value) body.techniques = [$("only").value];
  else if ($("upto").value) body.upto = $("upto").value;
  $("learn-sentence").textContent = kind === "hint" ? "looking for a step…" : "taking every step…";
  let answer;
  try {
    answer = await api(`/api/${kind}`, body);
  } catch (error) {
    if (!(error instanceof Stale)) showLearnMessage(error.message, "bad-input");
    return;
  }
  const steps = kind === "hint" ? (answer.step ? [answer.step] : []) : answer.steps || [];
  if (answer.status === "wrong") markWrong(answer);
  if (!steps.length) { showLearnMessage(answer.message, answer.status); return; }
  const start = answer.candidates && answer.candidates.length ? answer.candidates : base.map(() => []);
  state.learn = { kind, steps, start, base, k: 0, answer };
  position(0);
}

function markWrong(answer) {
  // The entries the server found contradicting the solution, outlined as `check` does.
  const n = state.puzzle.size;
  // the API names them in `wrong` ([row, col] from 1)
  for (const cell of answer.wrong || answer.cells || []) {
    const i = Array.isArray(cell) ? (cell[0] - 1) * n + cell[1] - 1 : Number(cell);
    if (Number.isInteger(i)) state.wrong.add(i);
  }
  render();
}

/** Show the position after k steps, with step k+1 highlighted. */
export function position(k) {
  const L = state.learn;
  if (!L) return;
  const n = state.puzzle.size;
  L.k = Math.max(0, Math.min(k, L.steps.length));
  L.values = L.base.slice();
  L.marks = L.start.map((digits) => new Set(digits));
  L.placed = new Set();
  for (const step of L.steps.slice(0, L.k)) {
    for (const [r, c, d] of step.placements) { const i = (r - 1) * n + c - 1; L.values[i] = d; L.marks[i].clear(); L.placed.add(i); }
    for (const [r, c, d] of step.removed) L.marks[(r - 1) * n + c - 1].delete(d);
  }
  showLearn();
  render();
}

function showLearn() {
  const L = state.learn, step = L.steps[L.k], a = L.answer, explaining = L.kind === "explain";
  $("learn-controls").hidden = false;
  $("learn-prev").hidden = $("learn-next").hidden = !explaining;
  $("learn-apply").hidden = explaining;
  $("learn-position").textContent = explaining ? `step ${Math.min(L.k + 1, L.steps.length)} of ${L.steps.length}${step ? "" : " done"}` : "";
  $("learn-prev").disabled = L.k === 0;
  $("learn-next").disabled = L.k >= L.steps.length;
  $("learn-notation").textContent = step ? step.text : "";
  $("learn-sentence").textContent = step ? step.sentence : a.message;
  $("learn-text").dataset.step = String(L.k);
  $("learn").dataset.status = a.status;
  const referee = a.referee || "the referee";
  const checked = a.verified === true ? `every step agrees with ${referee}'s solution` : a.verified === false ? `a step disagrees with ${referee}'s solution: ${a.problems[0]}` : "not checked (no unique solution)";
  const grade = explaining && a.rating != null ? `${a.message}; level ${a.level}, score ${a.score}, rating ${Number(a.rating).toFixed(1)} (hardest: ${a.hardest || "none"}); ` : "";
  $("learn-grade").textContent = grade + checked;
  $("learn-grade").className = a.verified === false ? "bad" : "";
}

function showLearnMessage(text, status) {
  $("learn-notation").textContent = "";
  $("learn-sentence").textContent = text || "";
  $("learn-grade").textContent = "";
  $("learn").dataset.status = status || "";
}

/** Close the learn view and clear what it said (also when nothing was open). */
export function endLearn() {
  state.learn = null;
  $("learn-controls").hidden = true;
  $("learn-notation").textContent = $("learn-sentence").textContent = $("learn-grade").textContent = "";
  $("learn-position").textContent = "";
  delete $("learn").dataset.status;
  delete $("learn-text").dataset.step;
  $("learn-overlay").innerHTML = "";
}

/** Step through an explanation (delta -1 or +1); nothing when none is open. */
export function move(delta) {
  if (state.learn) position(state.learn.k + delta);
}

/** Put the hint's digits in the grid and take its eliminations from the player's marks. */
export function applyHint() {
  const L = state.learn;
  if (!L || L.kind !== "hint") return;
  const n = state.puzzle.size, step = L.steps[0], at = ([r, c]) => (r - 1) * n + c - 1;
  const marked = keepsMarks(), eliminates = step.eliminations.length > 0;
  endLearn();
  // a step that only eliminates needs candidates to take them from: the hint's own become
  // the player's, so the next hint starts after this one (never the same step again)
  const fill = !marked && eliminates;
  const cells = fill ? state.entries.map((_, i) => i)
    : [...new Set([...step.placements.map(at), ...step.eliminations.map(at), ...step.placements.flatMap((p) => [...state.peers[at(p)]])])];
  change(cells, () => {
    if (fill) L.start.forEach((digits, i) => { if (!L.base[i]) state.corner[i] = new Set(digits); });
    for (const [r, c, d] of step.placements) {
      const i = at([r, c]);
      state.entries[i] = d; state.corner[i].clear(); state.centre[i].clear();
      for (const j of state.peers[i]) state.corner[j].delete(d);  // the digit is no candidate of its peers now
    }
    for (const [r, c, d] of step.eliminations) state.corner[at([r, c])].delete(d);
  });
  if (step.placements.length) {
    state.cursor = at(step.placements[0]);
    state.selected = new Set([state.cursor]);
  }
  render();
  finished();  // the hint's digit may be the last one: the timer stops, the page says so
}
