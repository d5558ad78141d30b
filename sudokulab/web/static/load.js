// Opening a puzzle: pasted text, a dataset's puzzle, a new one from the generator, a photo
// read by the server, or a share link. Whatever is opened starts clean: nothing of the old
// puzzle (its running requests, engines' answers, learn view, check outlines) stays.

import { api, newPuzzle, Stale, upload } from "./api.js";
import { buildGrid, render } from "./board.js";
import { $, escape, say, showBoard } from "./dom.js";
import { resetEngines } from "./engines.js";
import { buildPad } from "./input.js";
import { endLearn } from "./learn.js";
import { clock } from "./play.js";
import { BOXES, resetState, state, SYMBOLS } from "./state.js";
import { rememberPuzzle, restoreSaved, saveProgress } from "./store.js";

let loading = 0;  // the latest load: an older one that answers late is dropped

/** Put a puzzle on the board (mode "play" or "edit"), named for the player. */
export function setPuzzle(puzzle, { solution = null, mode = "play", name = "", keepPaste = false, source = null } = {}) {
  newPuzzle();
  endLearn();
  resetState(puzzle, solution);
  resetEngines();
  state.name = name;
  state.source = source;
  $("puzzle-name").textContent = name;
  $(mode === "play" ? "mode-play" : "mode-edit").checked = true;
  if (!keepPaste) $("paste").value = "";
  if ([...$("size").options].some((o) => Number(o.value) === puzzle.size)) $("size").value = String(puzzle.size);
  $("error").textContent = "";
  $("share-links").hidden = true;
  say("");
  if ($("finish").open) $("finish").close();
  // a puzzle played here before comes back as it was left (entries, marks, time)
  const restored = restoreSaved();
  rememberPuzzle();
  $("timer").textContent = mode === "play" ? clock() : "0:00";
  buildGrid();
  buildPad();
  // the teaching views (teach.js, watch.js, grids.js) drop what they showed of the old one
  document.dispatchEvent(new CustomEvent("newpuzzle"));
  if (restored) say(state.stopped ? "solved before: start over to play it again" : "your progress on this puzzle is back (start over clears it)");
  showBoard();  // a phone has its tools below the board: the new puzzle comes into sight
  document.body.dataset.loads = Number(document.body.dataset.loads || 0) + 1;
}

/** Put a position's placed digits and candidates on the board just opened: the player
 * goes on from there (a hint is found on these marks, not on the givens' own). */
function setPosition(values, candidates) {
  values.forEach((d, i) => { state.entries[i] = d; });
  candidates.forEach((digits, i) => { state.corner[i] = new Set(values[i] ? [] : digits); state.centre[i] = new Set(); });
  saveProgress(true);
  render();
}

/** An empty grid of n x n to type givens in. */
export function emptyPuzzle(n) {
  return { box: BOXES[n], size: n, givens: new Array(n * n).fill(0), rules: [], line: ".".repeat(n * n) };
}

/** The digits of a line ("1.3..."), 0 for a blank. */
export function fromLine(line, n) {
  return [...line].map((ch) => Math.max(0, SYMBOLS.indexOf(ch) + 1)).slice(0, n * n);
}

/** Read text (any form the command line reads, or a pencil-mark position: HoDoKu's
 * library line, a candidate grid, the 729-character string) through the server and open
 * it; a position opens with its placed digits as entries and its candidates as marks. */
export async function loadText(text, options = {}) {
  const mine = ++loading;
  $("error").textContent = "";
  try {
    const answer = await api("/api/position", { puzzle: text });
    if (mine === loading) {
      setPuzzle(answer.puzzle, options);
      if (answer.position) setPosition(answer.values, answer.candidates);
    }
    return mine === loading;
  } catch (error) {
    if (mine === loading && !(error instanceof Stale)) $("error").textContent = error.message;
    return false;
  }
}

/** Open puzzle k (from 1) of the dataset chosen. */
export async function loadDataset() {
  const name = $("dataset").value, k = Math.max(1, Number($("dataset-index").value) || 1);
  try {
    const page = await api(`/api/datasets/${name}?offset=${k - 1}&number=1`);
    if (!page.puzzles.length) throw new Error(`${name} has ${page.total} puzzles`);
    await openEntry(name, page.puzzles[0]);
  } catch (error) { $("error").textContent = error.message; }
}

/** Open puzzle `index` (from 0) of a dataset; false when it has none such. */
export async function openIndex(name, index) {
  const page = await api(`/api/datasets/${name}?offset=${index}&number=1`);
  return page.puzzles.length ? openEntry(name, page.puzzles[0]) : false;
}

/** Open a dataset's entry ({index, puzzle, solution}), named "dataset #k". */
export function openEntry(dataset, entry) {
  const n = Math.round(Math.sqrt(entry.solution.length));
  // the picker follows the puzzle on the board ("load from dataset" then opens the next one
  // of its set, not the first of another)
  if ([...$("dataset").options].some((o) => o.value === dataset)) $("dataset").value = dataset;
  $("dataset-index").value = entry.index + 1;
  return loadText(entry.puzzle, { solution: fromLine(entry.solution, n), name: `${dataset} #${entry.index + 1}`,
    source: { dataset, index: entry.index } });
}

/** A new puzzle of the size chosen in the Puzzle panel, the level and rules chosen here. */
export async function generate() {
  const n = Number($("size").value), box = BOXES[n];
  const body = { box, rules: $("gen-rules").value ? [$("gen-rules").value] : [],
    symmetry: $("gen-symmetric").checked ? "rotational" : "none" };
  if ($("gen-level").value) body.level = $("gen-level").value;
  const status = $("gen-status"), mine = ++loading;
  status.textContent = "generating…"; delete status.dataset.status;
  try {
    const answer = await api("/api/generate", body);
    if (mine !== loading) return;
    if (answer.status !== "generated") throw new Error(answer.message);
    setPuzzle(answer.puzzle, { solution: answer.solution, name: `new puzzle: ${answer.message}` });
    status.textContent = `new puzzle: ${answer.message}`;
    status.dataset.status = "generated";
    status.dataset.seed = answer.seed;
  } catch (error) {
    if (error instanceof Stale) return;
    status.textContent = error.message;
    status.dataset.status = "failed";
  }
}

/** Send a photo to /api/read and open the puzzle read, its doubtful cells marked. */
export async function readPhoto(file) {
  const status = $("photo-status"), mine = ++loading;
  status.textContent = `reading ${file.name}…`;
  delete status.dataset.status;
  try {
    const answer = await upload("/api/read", "image", file);
    if (mine !== loading) return;
    if (!answer.puzzle) throw new Error(answer.message || `no puzzle read (${answer.status})`);
    setPuzzle(answer.puzzle, { mode: "edit", name: `photo: ${file.name}` });
    // the cells read with low confidence, [row, col] from 1: outlined until the player types
    const n = answer.puzzle.size;
    for (const [r, c] of answer.doubtful || []) state.doubtful.add((r - 1) * n + c - 1);
    render();
    const doubts = state.doubtful.size;
    status.innerHTML = doubts ? `read; <strong>${doubts}</strong> doubtful cell(s) outlined: fix them, then play` : `read ${escape(file.name)}: check it, then play`;
    status.dataset.status = "read";
  } catch (error) {
    if (error instanceof Stale) return;
    status.textContent = error.message;
    status.dataset.status = "failed";
  }
}
