// sudokulab's page: a grid to type on and play, the engines behind /api, no library and no
// build step. This module only wires the page's controls to the modules that do the work:
//   state.js    the puzzle, the player's entries, marks, colours and history
//   geometry.js units, peers and regions;   board.js the grid and its SVG overlays
//   rules.js    every variant rule's drawing and checking (drawRules, brokenCells)
//   api.js      the client: tagged requests, stale answers dropped, cancelling
//   input.js    selection, keyboard, digit pad and modes;   play.js timer, check, clear
//   learn.js    hints and explanations;   engines.js solve, compare, model
//   load.js     opening puzzles;   gallery.js thumbnails;   share.js / links.js links

import { api } from "./api.js";
import { render, useRules } from "./board.js";
import { $ } from "./dom.js";
import { compare, showModel, solve } from "./engines.js";
import { showGallery, turn } from "./gallery.js";
import { enter, onKey, redo, setMode, undo, wirePointer } from "./input.js";
import { applyHint, endLearn, learn, move } from "./learn.js";
import { emptyPuzzle, generate, loadDataset, loadText, openIndex, readPhoto, setPuzzle } from "./load.js";
import { checkEntries, clearEntries, clock, fillCandidates, startOver, startTimer } from "./play.js";
import { lastPuzzle, rememberPuzzle } from "./store.js";
import { applyShared, sharedInHash, showShare } from "./share.js";
import { state } from "./state.js";
import { loadRules as listRules, showRule } from "./teach.js";
import { wireGrids } from "./grids.js";
import { wireWatch } from "./watch.js";
import { wireTimeline } from "./timeline.js";

const on = (id, handler, kind = "click") => $(id).addEventListener(kind, handler);

async function loadRules() {
  // rules.js draws and checks every variant rule; a page without it still plays classic
  try { useRules(await import("./rules.js")); } catch (error) { console.warn("rules.js not loaded:", error.message); }
}

async function openShared() {
  // A share link: the puzzle and the player's progress in the hash.
  const shared = sharedInHash();
  if (!shared) return false;
  if (await loadText(shared.puzzle, { name: shared.name || "a shared puzzle" })) {
    applyShared(shared);
    render();
    return true;
  }
  return false;
}

async function openLast() {
  // The puzzle of the last visit, with the progress kept for it (store.js).
  const last = lastPuzzle();
  if (!last) return false;
  return loadText(last.puzzle, { name: last.name || "your last puzzle", solution: last.solution || null, source: last.source || null });
}

const DAILY = "easy50";  // the first screen's puzzle: one of these a day

async function openDaily(datasets) {
  // A first visit: today's puzzle of the easy dataset, ready to play.
  const set = datasets.find((d) => d.name === DAILY) || datasets[0];
  if (!set) return false;
  try { return await openIndex(set.name, Math.floor(Date.now() / 86_400_000) % set.puzzles); } catch { return false; }
}

async function nextPuzzle() {
  // After a finish: the next puzzle of the dataset this one came from.
  $("finish").close();
  const from = state.source;
  if (from) await openIndex(from.dataset, from.index + 1);
}

function wire() {
  wirePointer($("grid"));
  document.addEventListener("keydown", onKey);
  on("undo", undo);
  on("redo", redo);
  on("check", checkEntries);
  on("clear", clearEntries);
  on("start-over", startOver);
  on("finish-close", () => $("finish").close());
  on("finish-next", nextPuzzle);
  on("fill-candidates", fillCandidates);
  on("new-grid", () => setPuzzle(emptyPuzzle(Number($("size").value)), { mode: "edit", name: "a new grid" }));
  on("load-paste", () => loadText($("paste").value, { keepPaste: true, name: "a pasted puzzle" }));
  on("load-dataset", loadDataset);
  on("solve", solve);
  on("show-model", () => showModel($("backend").value));
  on("compare", compare);
  on("teach-rules", listRules);
  on("teach-show", () => showRule());
  on("teach-close", () => $("teach-wide").close());
  wireTimeline();  // timeline.js: the learning engines' counters over time
  wireWatch();  // watch.js: the search replay;  grids.js: where each propagation level stops
  wireGrids();
  on("hint", () => learn("hint"));
  on("pad-hint", () => learn("hint"));
  on("explain", () => learn("explain"));
  on("generate", generate);
  on("learn-prev", () => move(-1));
  on("learn-next", () => move(1));
  on("learn-apply", applyHint);
  on("learn-close", () => { endLearn(); render(); });
  on("gallery-prev", () => turn(-1));
  on("gallery-next", () => turn(1));
  on("gallery-dataset", () => turn(0), "change");
  on("share", showShare);
  on("help-open", () => $("help").showModal());
  on("help-close", () => $("help").close());
  on("photo", (event) => { const file = event.target.files[0]; if (file) readPhoto(file); event.target.value = ""; }, "change");
  on("pad-digits", (event) => { const b = event.target.closest("button"); if (b) enter(Number(b.dataset.digit)); });
  on("pad-erase", () => enter(0));
  on("pad-undo", undo);
  // up to a technique, or one technique only: one or the other
  $("only").addEventListener("change", () => { if ($("only").value) $("upto").value = ""; });
  $("upto").addEventListener("change", () => { if ($("upto").value) $("only").value = ""; });
  for (const button of document.querySelectorAll("#pad [data-mode]")) button.addEventListener("click", () => setMode(button.dataset.mode));
  for (const radio of document.querySelectorAll("input[name=mode]")) {
    radio.addEventListener("change", () => { if ($("mode-play").checked) { startTimer(); rememberPuzzle(); } else $("timer").textContent = "0:00"; });
  }
  window.addEventListener("hashchange", openShared);
  setInterval(() => { if (!state.stopped && $("mode-play").checked) $("timer").textContent = clock(); }, 500);
}

/** A select's options: these backends, those that cannot run here disabled, saying why. */
function engineOptions(backends) {
  return backends.map((b) => `<option value="${b.name}" ${b.available ? "" : "disabled"} title="${b.paradigm}${b.available ? "" : ": " + b.reason}">${b.name}${b.available ? "" : " (unavailable)"}</option>`).join("");
}

async function start() {
  await loadRules();
  setPuzzle(emptyPuzzle(9), { mode: "edit", name: "a new grid" });
  setMode("digit");
  wire();
  const [backends, datasets, techniques] = await Promise.all([api("/api/backends"), api("/api/datasets"), api("/api/techniques")]);
  $("upto").innerHTML += techniques.filter((t) => t.by_default).map((t) => `<option value="${t.name}">up to ${t.name}</option>`).join("");
  $("only").innerHTML += techniques.map((t) => `<option value="${t.name}">only ${t.name}</option>`).join("");
  $("backend").innerHTML = engineOptions(backends);
  $("watch-engine").innerHTML = engineOptions(backends.filter((b) => b.records_trace));
  $("timeline-engine").innerHTML = engineOptions(backends.filter((b) => b.keeps_timeline));
  const options = datasets.map((d) => `<option value="${d.name}">${d.name} (${d.puzzles})</option>`).join("");
  $("dataset").innerHTML = options; $("gallery-dataset").innerHTML = options;
  $("dataset").value = $("gallery-dataset").value = datasets.some((d) => d.name === "top95") ? "top95" : datasets[0].name;
  // a share link, else the last visit's puzzle, else today's puzzle: always one to play
  if (!(await openShared()) && !(await openLast())) await openDaily(datasets);
  document.body.dataset.ready = "1";
  showGallery();
}

start();
