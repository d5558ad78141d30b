// What propagation alone gets (issue 32): for the current puzzle, the grid where each level
// of the inference ladder stops before its first guess (POST /api/ladder/grids, computed by
// sudokulab/teaching/ladder.py, the same as `sudokulab show --after LEVEL`), as small boards with
// pencil marks side by side; a click opens one on the main board.

import { api, Stale } from "./api.js";
import { $, escape, pressable, showBoard } from "./dom.js";
import { regions } from "./geometry.js";
import { BOXES, puzzleText, state, SYMBOLS } from "./state.js";
import { closeView, showMarks, showing } from "./view.js";

let levels = [];

/** Ask where each level stops and draw the small boards. */
export async function showGrids() {
  $("grids-text").textContent = "propagating at every level…";
  let answer;
  try {
    answer = await api("/api/ladder/grids", { puzzle: puzzleText(false) });
  } catch (error) {
    if (!(error instanceof Stale)) $("grids-text").textContent = error.message;
    return;
  }
  levels = answer.levels;
  const n = state.puzzle.size;
  $("grids-boards").innerHTML = levels.map((level, k) => board(level, k, n)).join("");
  $("grids-text").textContent = "each board: the candidates left where the level stops (a digit: the cell is decided); click one to open it on the board";
  for (const figure of $("grids-boards").children) pressable(figure, () => open(Number(figure.dataset.k)));
}

function board(level, k, n) {
  const region = regions({ ...state.puzzle, box: state.puzzle.box || BOXES[n] || [n, 1] });  // a jigsaw's own
  const cut = level.timed_out ? " (cut short: out of time)" : "";
  const state_ = level.why || (level.marks === null ? "a contradiction" : level.finished ? "finished" : `${level.candidates} candidates left${cut}`);
  const cells = level.marks === null ? "" : level.marks.map((m, i) => {
    const r = Math.floor(i / n), c = i % n, digits = [...Array(n).keys()].filter((d) => m >> d & 1).map((d) => SYMBOLS[d]).join("");
    const edges = `${c < n - 1 && region[i] !== region[i + 1] ? " br" : ""}${r < n - 1 && region[i] !== region[i + n] ? " bb" : ""}`;
    const one = digits.length === 1;
    return `<span class="${one ? (state.puzzle.givens[i] ? "given" : "decided") : "pm"}${edges}" data-marks="${digits}">${one ? digits : `<small>${digits}</small>`}</span>`;
  }).join("");
  return `<figure class="mini level" data-k="${k}" data-level="${escape(level.name)}" title="${escape(level.what)}">`
    + `<div class="g" style="--n:${n}">${cells}</div><figcaption><b>${escape(level.name)}</b><br>${escape(state_)}</figcaption></figure>`;
}

/** Open level k's grid on the main board (close goes back to the player's grid). */
function open(k) {
  const level = levels[k];
  if (!level || level.marks === null) return;
  for (const figure of $("grids-boards").children) figure.classList.toggle("open", Number(figure.dataset.k) === k);
  showMarks("grid", level.marks);
  showBoard();
  $("grids").dataset.open = level.name;
  $("grids-text").textContent = `on the board: where ${level.name} stops (${level.what}); Escape or close goes back to your grid`;
}

/** Forget the boards: they were of a puzzle no longer on the board (load.js's newpuzzle). */
function forget() {
  levels = [];
  $("grids-boards").textContent = $("grids-text").textContent = "";
  delete $("grids").dataset.open;
}

/** Wire the controls (main.js imports this module once). */
export function wireGrids() {
  document.addEventListener("newpuzzle", forget);
  $("grids-run").addEventListener("click", showGrids);
  $("grids-close").addEventListener("click", () => {
    if (showing("grid")) closeView();
    for (const figure of $("grids-boards").children) figure.classList.remove("open");
    delete $("grids").dataset.open;
  });
}
