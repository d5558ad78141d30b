// sudokulab's page: a grid to type on and play, the engines behind /api, no library.
"use strict";

const SYMBOLS = "123456789ABCDEFGHIJKLMNOP";
const $ = (id) => document.getElementById(id);

// The puzzle (as /api/puzzle gives it), the player's entries and pencil marks, history.
const state = {
  puzzle: null, entries: [], marks: [], solved: [], solution: null,
  selected: 0, undo: [], redo: [], started: 0, stopped: false,
  learn: null,  // a hint or an explanation being shown (see "learn mode" below)
};

// --- geometry: units and peers, from the box shape and the rules --------------------------

function cellOf(name) {
  const m = /^r(\d+)c(\d+)$/.exec(name);
  return [Number(m[1]) - 1, Number(m[2]) - 1];
}

function regions(p) {
  // Region number of each cell: the jigsaw's regions, or the boxes.
  const n = p.size, [br, bc] = p.box, jig = p.rules.find((r) => r.type === "jigsaw");
  const region = new Array(n * n);
  if (jig) {
    jig.regions.forEach((cells, k) => cells.forEach((c) => {
      const [r, col] = cellOf(c); region[r * n + col] = k;
    }));
  } else {
    for (let i = 0; i < n * n; i++) {
      const r = Math.floor(i / n), c = i % n;
      region[i] = Math.floor(r / br) * (n / bc) + Math.floor(c / bc);
    }
  }
  return region;
}

function windows(p) {
  // Windoku's extra windows: box-sized, one cell in from the boxes.
  const n = p.size, [br, bc] = p.box, out = [];
  for (let top = 1; top + br < n; top += br + 1) {
    for (let left = 1; left + bc < n; left += bc + 1) {
      const cells = [];
      for (let r = top; r < top + br; r++) for (let c = left; c < left + bc; c++) cells.push(r * n + c);
      out.push(cells);
    }
  }
  return out;
}

function units(p) {
  // Every group of cells that holds distinct digits.
  const n = p.size, out = [], region = regions(p), types = p.rules.map((r) => r.type);
  for (let r = 0; r < n; r++) out.push([...Array(n).keys()].map((c) => r * n + c));
  for (let c = 0; c < n; c++) out.push([...Array(n).keys()].map((r) => r * n + c));
  for (let k = 0; k < n; k++) out.push(region.flatMap((g, i) => (g === k ? [i] : [])));
  if (types.includes("diagonal")) {
    out.push([...Array(n).keys()].map((k) => k * n + k));
    out.push([...Array(n).keys()].map((k) => k * n + (n - 1 - k)));
  }
  if (types.includes("windoku")) out.push(...windows(p));
  for (const rule of p.rules) if (rule.type === "cage") out.push(rule.cells.map((c) => { const [r, col] = cellOf(c); return r * n + col; }));
  return out;
}

function moves(p) {
  // Pairs of cells a rule keeps apart (chess moves) or non-consecutive.
  const n = p.size, types = p.rules.map((r) => r.type), steps = [];
  if (types.includes("anti-knight")) steps.push(...[[1, 2], [2, 1], [2, -1], [1, -2]].map((s) => [s, "differ"]));
  if (types.includes("anti-king")) steps.push(...[[1, 1], [1, -1]].map((s) => [s, "differ"]));
  if (types.includes("non-consecutive")) steps.push(...[[0, 1], [1, 0]].map((s) => [s, "apart"]));
  const pairs = [];
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
    for (const [[dr, dc], kind] of steps) {
      const r2 = r + dr, c2 = c + dc;
      if (r2 >= 0 && r2 < n && c2 >= 0 && c2 < n) pairs.push([r * n + c, r2 * n + c2, kind]);
    }
  }
  return pairs;
}

// --- drawing ---------------------------------------------------------------------------

function value(i) {
  if (state.learn) return state.learn.values[i];
  return state.puzzle.givens[i] || state.entries[i] || state.solved[i] || 0;
}

function buildGrid() {
  const p = state.puzzle, n = p.size, grid = $("grid"), region = regions(p);
  grid.innerHTML = "";
  grid.style.gridTemplateColumns = `repeat(${n}, 1fr)`;
  grid.style.gridTemplateRows = `repeat(${n}, 1fr)`;
  grid.style.setProperty("--digit", `${Math.max(0.8, 15 / n)}rem`);
  grid.style.setProperty("--mark", `${Math.max(0.4, 5.6 / n)}rem`);
  const jigsaw = p.rules.some((r) => r.type === "jigsaw");
  const inWindow = new Set(p.rules.some((r) => r.type === "windoku") ? windows(p).flat() : []);
  const side = Math.ceil(Math.sqrt(n));
  for (let i = 0; i < n * n; i++) {
    const r = Math.floor(i / n), c = i % n, cell = document.createElement("div");
    cell.className = "cell";
    cell.dataset.index = i; cell.dataset.row = r + 1; cell.dataset.col = c + 1;
    if (c < n - 1 && region[i] !== region[i + 1]) cell.classList.add("br");
    if (r < n - 1 && region[i] !== region[i + n]) cell.classList.add("bb");
    if (jigsaw && region[i] % 2) cell.classList.add("region-alt");
    if (inWindow.has(i)) cell.classList.add("window");
    const marks = document.createElement("div");
    marks.className = "marks";
    marks.style.gridTemplateColumns = `repeat(${side}, 1fr)`;
    cell.innerHTML = '<span class="value"></span>';
    cell.appendChild(marks);
    cell.addEventListener("mousedown", () => { select(i); grid.focus(); });
    grid.appendChild(cell);
  }
  drawOverlay();
  drawBadges();
  render();
}

function drawBadges() {
  const names = state.puzzle.rules.map((r) => (r.type === "cage" ? "killer cages" : r.type === "parity" ? (r.even ? "even cells" : "odd cells") : r.type));
  $("badges").innerHTML = [...new Set(names)].map((t) => `<span class="badge">${t}</span>`).join("")
    || '<span class="badge">classic</span>';
}

function drawOverlay() {
  const p = state.puzzle, n = p.size, svg = $("overlay"), parts = [];
  svg.setAttribute("viewBox", `0 0 ${n} ${n}`);
  for (const rule of p.rules) {
    if (rule.type === "diagonal") {
      parts.push(`<line x1="0" y1="0" x2="${n}" y2="${n}" class="diag"/>`,
        `<line x1="${n}" y1="0" x2="0" y2="${n}" class="diag"/>`);
    } else if (rule.type === "cage") {
      parts.push(cage(rule, n));
    } else if (rule.type === "parity") {
      for (const name of rule.cells) {
        const [r, c] = cellOf(name);
        parts.push(rule.even
          ? `<rect x="${c + 0.18}" y="${r + 0.18}" width="0.64" height="0.64" class="parity"/>`
          : `<circle cx="${c + 0.5}" cy="${r + 0.5}" r="0.34" class="parity"/>`);
      }
    }
  }
  svg.innerHTML = `<style>.diag{stroke:#7b8fc4;stroke-width:.03;opacity:.55}
    .cage{stroke:#5a3d8a;stroke-width:.03;stroke-dasharray:.09 .06;fill:none}
    .sum{font-size:.24px;fill:#5a3d8a;font-weight:700}
    .parity{fill:#d9dde6;opacity:.8}</style>${parts.join("")}`;
}

function cage(rule, n) {
  // Dashed edges inset in each cell, where the neighbour is not in the cage; the sum top-left.
  const cells = new Set(rule.cells.map((name) => { const [r, c] = cellOf(name); return r * n + c; }));
  const d = 0.08, out = [];
  for (const i of cells) {
    const r = Math.floor(i / n), c = i % n;
    const inside = (rr, cc) => rr >= 0 && cc >= 0 && rr < n && cc < n && cells.has(rr * n + cc);
    if (!inside(r - 1, c)) out.push([c + d, r + d, c + 1 - d, r + d]);
    if (!inside(r + 1, c)) out.push([c + d, r + 1 - d, c + 1 - d, r + 1 - d]);
    if (!inside(r, c - 1)) out.push([c + d, r + d, c + d, r + 1 - d]);
    if (!inside(r, c + 1)) out.push([c + 1 - d, r + d, c + 1 - d, r + 1 - d]);
    if (inside(r, c + 1)) { if (!inside(r - 1, c)) out.push([c + 1 - d, r + d, c + 1 + d, r + d]); if (!inside(r + 1, c)) out.push([c + 1 - d, r + 1 - d, c + 1 + d, r + 1 - d]); }
    if (inside(r + 1, c)) { if (!inside(r, c - 1)) out.push([c + d, r + 1 - d, c + d, r + 1 + d]); if (!inside(r, c + 1)) out.push([c + 1 - d, r + 1 - d, c + 1 - d, r + 1 + d]); }
  }
  const first = Math.min(...cells), fr = Math.floor(first / n), fc = first % n;
  return out.map(([x1, y1, x2, y2]) => `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" class="cage"/>`).join("")
    + `<text x="${fc + 0.11}" y="${fr + 0.32}" class="sum">${rule.total}</text>`;
}

function conflicts() {
  // Cells whose digit clashes with another's in a unit, or across a rule's pair.
  const p = state.puzzle, bad = new Set();
  for (const unit of state.units) {
    const seen = new Map();
    for (const i of unit) {
      const v = value(i);
      if (!v) continue;
      if (seen.has(v)) { bad.add(i); bad.add(seen.get(v)); } else seen.set(v, i);
    }
  }
  for (const [a, b, kind] of state.pairs) {
    const va = value(a), vb = value(b);
    if (va && vb && (kind === "differ" ? va === vb : Math.abs(va - vb) === 1)) { bad.add(a); bad.add(b); }
  }
  for (const rule of p.rules.filter((r) => r.type === "parity")) {
    for (const name of rule.cells) {
      const [r, c] = cellOf(name), i = r * p.size + c, v = value(i);
      if (v && (v % 2 === 0) !== rule.even) bad.add(i);
    }
  }
  return bad;
}

function render() {
  const p = state.puzzle, n = p.size, bad = conflicts(), sel = state.selected;
  // in learn mode the step's units are highlighted, not the selected cell's
  const peers = new Set(state.learn ? [] : state.units.filter((u) => u.includes(sel)).flat());
  const selValue = value(sel);
  for (const cell of $("grid").children) {
    const i = Number(cell.dataset.index), v = value(i);
    cell.querySelector(".value").textContent = v ? SYMBOLS[v - 1] : "";
    cell.classList.toggle("given", Boolean(p.givens[i]));
    cell.classList.toggle("solved", !p.givens[i] && !state.entries[i] && Boolean(state.solved[i]));
    cell.classList.toggle("conflict", bad.has(i));
    cell.classList.toggle("selected", i === sel);
    cell.classList.toggle("peer", i !== sel && peers.has(i));
    cell.classList.toggle("same", i !== sel && selValue > 0 && v === selValue);
    const marks = cell.querySelector(".marks"), own = state.learn ? state.learn.marks[i] : state.marks[i];
    marks.innerHTML = !v && own.size ? [...Array(n).keys()].map((k) => `<span data-digit="${k + 1}">${own.has(k + 1) ? SYMBOLS[k] : ""}</span>`).join("") : "";
  }
  highlight();
}

// --- loading ---------------------------------------------------------------------------

function setPuzzle(puzzle, solution = null, mode = "play") {
  state.puzzle = puzzle;
  const cells = puzzle.size * puzzle.size;
  state.entries = new Array(cells).fill(0);
  state.solved = new Array(cells).fill(0);
  state.marks = [...Array(cells)].map(() => new Set());
  state.solution = solution;
  state.units = units(puzzle);
  state.pairs = moves(puzzle);
  state.undo = []; state.redo = []; state.selected = 0;
  state.started = Date.now(); state.stopped = false;
  endLearn();
  $(mode === "play" ? "mode-play" : "mode-edit").checked = true;
  say("");
  buildGrid();
  document.body.dataset.loads = Number(document.body.dataset.loads || 0) + 1;
}

function emptyPuzzle(n) {
  const box = { 4: [2, 2], 6: [2, 3], 9: [3, 3], 16: [4, 4] }[n];
  return { box, size: n, givens: new Array(n * n).fill(0), rules: [], line: ".".repeat(n * n) };
}

function puzzleText() {
  // The grid as JSON the CLI reads: the givens (and in play mode the entries) and the rules.
  const p = state.puzzle, n = p.size, withEntries = !$("mode-play").checked;
  const rows = [...Array(n).keys()].map((r) => [...Array(n).keys()].map((c) => {
    const i = r * n + c;
    return p.givens[i] || (withEntries ? state.entries[i] : 0);
  }));
  return JSON.stringify({ box: p.box, givens: rows, rules: p.rules });
}

async function api(path, body) {
  const response = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

async function loadText(text, solution = null) {
  $("error").textContent = "";
  try {
    setPuzzle(await api("/api/puzzle", { puzzle: text }), solution);
  } catch (error) {
    $("error").textContent = error.message;
  }
}

function fromLine(line, n) {
  return [...line].map((ch) => Math.max(0, SYMBOLS.indexOf(ch) + 1)).slice(0, n * n);
}

// --- typing and playing ----------------------------------------------------------------

function select(i) { state.selected = i; render(); }

function change(i, update) {
  // Apply one change to cell i, remembering how to undo it.
  const before = { i, entry: state.entries[i], given: state.puzzle.givens[i], marks: new Set(state.marks[i]) };
  endLearn();
  update();
  state.undo.push(before); state.redo = [];
  state.solved.fill(0);
  render();
  finished();
}

function restore(stack, other) {
  const last = stack.pop();
  if (!last) return;
  endLearn();
  const i = last.i;
  other.push({ i, entry: state.entries[i], given: state.puzzle.givens[i], marks: new Set(state.marks[i]) });
  state.entries[i] = last.entry; state.puzzle.givens[i] = last.given; state.marks[i] = last.marks;
  state.selected = i;
  render();
}

function put(digit) {
  const i = state.selected, p = state.puzzle, editing = $("mode-edit").checked;
  if (!editing && p.givens[i]) return;
  change(i, () => {
    if (editing) { p.givens[i] = digit; state.entries[i] = 0; return; }
    if ($("pencil").checked && digit) {
      if (state.marks[i].has(digit)) state.marks[i].delete(digit); else state.marks[i].add(digit);
    } else {
      state.entries[i] = digit;
      if (!digit) state.marks[i].clear();
    }
  });
}

function onKey(event) {
  if (!state.puzzle) return;
  const n = state.puzzle.size, i = state.selected, r = Math.floor(i / n), c = i % n;
  const arrows = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  const key = event.key;
  if ((event.ctrlKey || event.metaKey) && key.toLowerCase() === "z") { restore(state.undo, state.redo); event.preventDefault(); return; }
  if ((event.ctrlKey || event.metaKey) && key.toLowerCase() === "y") { restore(state.redo, state.undo); event.preventDefault(); return; }
  if (arrows[key]) {
    const [dr, dc] = arrows[key];
    select(((r + dr + n) % n) * n + ((c + dc + n) % n));
  } else if (["Delete", "Backspace", "0", "."].includes(key)) {
    put(0);
  } else if (key.length === 1 && SYMBOLS.slice(0, n).includes(key.toUpperCase())) {
    put(SYMBOLS.indexOf(key.toUpperCase()) + 1);
  } else if (key === "p") {
    $("pencil").checked = !$("pencil").checked;
  } else {
    return;
  }
  event.preventDefault();
}

function finished() {
  // Every cell filled with no conflict: the timer stops.
  const p = state.puzzle, cells = p.size * p.size;
  const full = [...Array(cells).keys()].every((i) => p.givens[i] || state.entries[i]);
  if ($("mode-play").checked && full && conflicts().size === 0 && !state.stopped) {
    state.stopped = true;
    say(`solved in ${clock()}`, "good");
  }
}

function clock() {
  const s = Math.floor((Date.now() - state.started) / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function say(text, kind = "") {
  $("message").textContent = text;
  $("message").className = kind;
}

async function checkEntries() {
  // Compare the entries with the solution (the dataset's, or one found by norvig).
  const p = state.puzzle;
  try {
    if (!state.solution) {
      const answer = await api("/api/solve", { puzzle: givensJson(), backend: "norvig", limit: 2 });
      if (answer.status !== "unique") { say(`cannot check: the puzzle's answer is ${answer.status}`, "bad"); return; }
      state.solution = answer.solutions[0];
    }
  } catch (error) { say(error.message, "bad"); return; }
  let wrong = 0, left = 0;
  for (const cell of $("grid").children) {
    const i = Number(cell.dataset.index), v = state.entries[i];
    const bad = Boolean(v) && !p.givens[i] && v !== state.solution[i];
    cell.classList.toggle("wrong", bad);
    wrong += bad; left += !p.givens[i] && !v;
  }
  say(wrong ? `${wrong} wrong, ${left} to go` : left ? `all correct so far, ${left} to go` : "solved!", wrong ? "bad" : "good");
}

function givensJson() {
  const p = state.puzzle, n = p.size;
  const rows = [...Array(n).keys()].map((r) => p.givens.slice(r * n, r * n + n));
  return JSON.stringify({ box: p.box, givens: rows, rules: p.rules });
}

// --- engines ---------------------------------------------------------------------------

async function solve() {
  const backend = $("backend").value;
  $("solve-status").textContent = `${backend}: solving…`;
  try {
    const answer = await api("/api/solve", { puzzle: puzzleText(), backend });
    const ms = (answer.time * 1000).toFixed(1);
    $("solve-status").textContent = `${backend}: ${answer.status} (${answer.count}${answer.exact ? "" : "+"} solution(s), ${ms} ms)${answer.message ? " " + answer.message : ""}`;
    $("solve-status").dataset.status = answer.status;
    if (answer.solutions.length && answer.valid) {
      state.solved = answer.solutions[0].slice();
      if (answer.status === "unique") state.solution = answer.solutions[0];
      render();
    }
  } catch (error) {
    $("solve-status").textContent = error.message;
    $("solve-status").dataset.status = "bad-input";
  }
}

async function compare() {
  const body = $("compare-table").querySelector("tbody");
  body.innerHTML = "";
  $("agreement").textContent = "running…"; $("agreement").className = "";
  const rows = {};
  let response;
  try {
    response = await fetch("/api/compare", {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ puzzle: puzzleText() }),
    });
    if (!response.ok) throw new Error((await response.json()).error);
  } catch (error) { $("agreement").textContent = error.message; $("agreement").className = "bad"; return; }
  const reader = response.body.getReader(), decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value: chunk, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(chunk, { stream: true });
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const text = buffer.slice(0, cut); buffer = buffer.slice(cut + 2);
      const kind = /^event: (.*)$/m.exec(text)[1], data = JSON.parse(/^data: (.*)$/m.exec(text)[1]);
      onCompareEvent(kind, data, body, rows);
    }
  }
}

function onCompareEvent(kind, data, body, rows) {
  if (kind === "start") {
    for (const name of data.backends) {
      const tr = document.createElement("tr");
      tr.dataset.backend = name;
      tr.innerHTML = `<td>${name}</td><td class="status status-running">running…</td><td class="ms"></td><td class="stats"></td><td><button class="model">model</button></td>`;
      tr.querySelector(".model").addEventListener("click", () => showModel(name));
      body.appendChild(tr); rows[name] = tr;
    }
  } else if (kind === "result") {
    const tr = rows[data.backend], status = tr.querySelector(".status");
    status.textContent = data.status; status.className = `status status-${data.status}`;
    status.title = data.message || "";
    tr.querySelector(".ms").textContent = (data.time * 1000).toFixed(1);
    tr.querySelector(".stats").textContent = Object.entries(data.stats).map(([k, v]) => `${k}=${Number.isInteger(v) || typeof v !== "number" ? v : v.toPrecision(3)}`).join(" ");
    tr.dataset.done = "1";
  } else if (kind === "done") {
    const a = $("agreement");
    a.textContent = data.agree ? `all ${data.answered.length} answers agree (${data.grids} grid(s))`
      : data.disagree.length ? `disagreement: ${data.disagree.join(", ")}` : "no engine answered";
    a.className = data.agree ? "good" : "bad";
    a.dataset.agree = String(data.agree);
  }
}

async function showModel(backend) {
  const pre = $("model-text");
  pre.hidden = false;
  pre.textContent = `${backend}: building the model…`;
  try {
    const model = await api("/api/model", { puzzle: puzzleText(), backend });
    pre.textContent = model.text;
  } catch (error) { pre.textContent = error.message; }
}

// --- learn mode: hints and step-by-step explanations ------------------------------------
// The grid shows a position of the human-style solver's path: the values and pencil marks
// after the first k steps (computed here from the API's start candidates and each step's
// `removed`), with step k+1 highlighted: its units, its cells, the digits it places and
// the candidates it eliminates, and its chain links.

function learnBody() {
  // The grid as it stands (givens and entries) and the techniques chosen.
  const p = state.puzzle, n = p.size;
  const rows = [...Array(n).keys()].map((r) => [...Array(n).keys()].map((c) => p.givens[r * n + c] || state.entries[r * n + c]));
  const body = { puzzle: JSON.stringify({ box: p.box, givens: rows, rules: p.rules }) };
  if ($("upto").value) body.upto = $("upto").value;
  return body;
}

async function learn(kind) {
  const body = learnBody(), base = JSON.parse(body.puzzle).givens.flat();
  endLearn();
  $("learn-sentence").textContent = kind === "hint" ? "looking for a step…" : "taking every step…";
  let answer;
  try { answer = await api(`/api/${kind}`, body); } catch (error) { showLearnMessage(error.message, "bad-input"); return; }
  const steps = kind === "hint" ? (answer.step ? [answer.step] : []) : answer.steps;
  if (!steps.length) { showLearnMessage(answer.message, answer.status); return; }
  state.learn = { kind, steps, start: answer.candidates, base, k: 0, answer };
  position(0);
}

function position(k) {
  // Show the position after k steps, with step k+1 highlighted.
  const L = state.learn, n = state.puzzle.size;
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
  const checked = a.verified === true ? "every step agrees with norvig's solution" : a.verified === false ? `a step disagrees with norvig's solution: ${a.problems[0]}` : "not checked (no unique solution)";
  $("learn-grade").textContent = explaining ? `${a.message}; level ${a.level}, score ${a.score}, rating ${a.rating.toFixed(1)} (hardest: ${a.hardest || "none"}); ${checked}` : checked;
  $("learn-grade").className = a.verified === false ? "bad" : "";
}

function showLearnMessage(text, status) {
  $("learn-notation").textContent = "";
  $("learn-sentence").textContent = text;
  $("learn-grade").textContent = "";
  $("learn").dataset.status = status;
}

function endLearn() {
  if (!state.learn) return;
  state.learn = null;
  $("learn-controls").hidden = true;
  $("learn-notation").textContent = $("learn-sentence").textContent = $("learn-grade").textContent = "";
  delete $("learn").dataset.status;
  delete $("learn-text").dataset.step;
  $("learn-overlay").innerHTML = "";
}

function highlight() {
  // Mark the pending step on the grid: units, cells, placements, eliminations, links.
  const cells = $("grid").children, n = state.puzzle.size, L = state.learn;
  const step = L && L.steps[L.k], at = ([r, c]) => (r - 1) * n + c - 1;
  const unit = new Set(step ? step.units.flatMap((u) => u.cells.map(at)) : []);
  const own = new Set(step ? step.cells.map(at) : []);
  const place = new Set(step ? step.placements.map(at) : []);
  for (const cell of cells) {
    const i = Number(cell.dataset.index);
    cell.classList.toggle("hl-unit", unit.has(i));
    cell.classList.toggle("hl-cell", own.has(i));
    cell.classList.toggle("hl-place", place.has(i));
    cell.classList.toggle("learned", Boolean(L && L.placed.has(i)));
  }
  if (!step) { $("learn-overlay").innerHTML = ""; return; }
  const mark = (kind) => ([r, c, d]) => { const span = cells[at([r, c])].querySelector(`.marks span[data-digit="${d}"]`); if (span) span.classList.add(kind); };
  step.placements.forEach(mark("place"));
  step.eliminations.forEach(mark("elim"));
  step.links.forEach((link) => { mark("link")(link.from); mark("link")(link.to); });
  drawLinks(step.links, n);
}

function drawLinks(links, n) {
  // A chain's links between candidates: strong solid, weak dashed.
  const side = Math.ceil(Math.sqrt(n)), rows = Math.ceil(n / side), svg = $("learn-overlay");
  const spot = ([r, c, d]) => [c - 1 + ((d - 1) % side + 0.5) / side, r - 1 + (Math.floor((d - 1) / side) + 0.5) / rows];
  svg.setAttribute("viewBox", `0 0 ${n} ${n}`);
  svg.innerHTML = `<style>.strong{stroke:#c2410c;stroke-width:.045}.weak{stroke:#c2410c;stroke-width:.035;stroke-dasharray:.08 .06}</style>`
    + links.map((link) => { const [x1, y1] = spot(link.from), [x2, y2] = spot(link.to); return `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" class="${link.strong ? "strong" : "weak"}"/>`; }).join("");
}

function applyHint() {
  // Put the hint's digits in the grid as entries and take its eliminations from the pencil marks.
  const L = state.learn, n = state.puzzle.size, step = L.steps[0];
  endLearn();
  for (const [r, c, d] of step.placements) { const i = (r - 1) * n + c - 1; state.selected = i; change(i, () => { state.entries[i] = d; state.marks[i].clear(); }); }
  for (const [r, c, d] of step.eliminations) state.marks[(r - 1) * n + c - 1].delete(d);
  render();
}

// --- new puzzles from the generator ------------------------------------------------------

async function generate() {
  // A new puzzle of the size chosen under the grid, the level and rules chosen here.
  const n = Number($("size").value), box = { 4: [2, 2], 6: [2, 3], 9: [3, 3], 16: [4, 4] }[n];
  const body = { box, rules: $("gen-rules").value ? [$("gen-rules").value] : [],
    symmetry: $("gen-symmetric").checked ? "rotational" : "none" };
  if ($("gen-level").value) body.level = $("gen-level").value;
  const status = $("gen-status");
  status.textContent = "generating…"; delete status.dataset.status;
  try {
    const answer = await api("/api/generate", body);
    if (answer.status !== "generated") throw new Error(answer.message);
    setPuzzle(answer.puzzle, answer.solution);
    status.textContent = `new puzzle: ${answer.message}`;
    status.dataset.status = "generated";
    status.dataset.seed = answer.seed;
  } catch (error) {
    status.textContent = error.message;
    status.dataset.status = "failed";
  }
}

// --- datasets and gallery --------------------------------------------------------------

const gallery = { name: "", offset: 0, count: 12, total: 0 };

async function loadDataset() {
  const name = $("dataset").value, k = Math.max(1, Number($("dataset-index").value) || 1);
  try {
    const page = await api(`/api/datasets/${name}?offset=${k - 1}&count=1`);
    if (!page.puzzles.length) throw new Error(`${name} has ${page.total} puzzles`);
    const entry = page.puzzles[0];
    await loadText(entry.puzzle, fromLine(entry.solution, Math.sqrt(entry.solution.length)));
  } catch (error) { $("error").textContent = error.message; }
}

function mini(line, solution) {
  const n = Math.round(Math.sqrt(line.length));
  return `<div class="g" style="grid-template-columns:repeat(${n},1fr)">${[...solution].map((s, i) =>
    `<span class="${SYMBOLS.includes(line[i]) ? "given" : ""}">${s}</span>`).join("")}</div>`;
}

async function showGallery() {
  gallery.name = $("gallery-dataset").value;
  const page = await api(`/api/datasets/${gallery.name}?offset=${gallery.offset}&count=${gallery.count}`);
  gallery.total = page.total;
  $("gallery-page").textContent = `${page.offset + 1}–${page.offset + page.puzzles.length} of ${page.total}`;
  $("gallery").innerHTML = page.puzzles.map((e) => `<figure class="mini" data-index="${e.index}">${mini(e.puzzle, e.solution)}<figcaption>#${e.index + 1}</figcaption></figure>`).join("");
  for (const fig of $("gallery").children) {
    const e = page.puzzles.find((x) => x.index === Number(fig.dataset.index));
    fig.addEventListener("click", () => loadText(e.puzzle, fromLine(e.solution, Math.sqrt(e.solution.length))));
  }
}

// --- start -----------------------------------------------------------------------------

async function start() {
  setPuzzle(emptyPuzzle(9), null, "edit");
  $("grid").addEventListener("keydown", onKey);
  $("undo").addEventListener("click", () => restore(state.undo, state.redo));
  $("redo").addEventListener("click", () => restore(state.redo, state.undo));
  $("check").addEventListener("click", checkEntries);
  $("clear").addEventListener("click", () => { endLearn(); state.entries.fill(0); state.solved.fill(0); state.marks.forEach((m) => m.clear()); render(); });
  $("new-grid").addEventListener("click", () => setPuzzle(emptyPuzzle(Number($("size").value)), null, "edit"));
  $("load-paste").addEventListener("click", () => loadText($("paste").value));
  $("load-dataset").addEventListener("click", loadDataset);
  $("solve").addEventListener("click", solve);
  $("show-model").addEventListener("click", () => showModel($("backend").value));
  $("compare").addEventListener("click", compare);
  $("hint").addEventListener("click", () => learn("hint"));
  $("generate").addEventListener("click", generate);
  $("explain").addEventListener("click", () => learn("explain"));
  $("learn-prev").addEventListener("click", () => position(state.learn.k - 1));
  $("learn-next").addEventListener("click", () => position(state.learn.k + 1));
  $("learn-apply").addEventListener("click", applyHint);
  $("learn-close").addEventListener("click", () => { endLearn(); render(); });
  $("gallery-prev").addEventListener("click", () => { gallery.offset = Math.max(0, gallery.offset - gallery.count); showGallery(); });
  $("gallery-next").addEventListener("click", () => { if (gallery.offset + gallery.count < gallery.total) gallery.offset += gallery.count; showGallery(); });
  $("gallery-dataset").addEventListener("change", () => { gallery.offset = 0; showGallery(); });
  for (const radio of document.querySelectorAll("input[name=mode]")) {
    radio.addEventListener("change", () => { if ($("mode-play").checked) { state.started = Date.now(); state.stopped = false; } });
  }
  setInterval(() => { if (!state.stopped && $("mode-play").checked) $("timer").textContent = clock(); }, 500);
  const [backends, datasets, techniques] = await Promise.all([api("/api/backends"), api("/api/datasets"), api("/api/techniques")]);
  $("upto").innerHTML += techniques.map((t) => `<option value="${t.name}">up to ${t.name}</option>`).join("");
  $("backend").innerHTML = backends.map((b) => `<option value="${b.name}" ${b.available ? "" : "disabled"} title="${b.paradigm}${b.available ? "" : ": " + b.reason}">${b.name}${b.available ? "" : " (unavailable)"}</option>`).join("");
  const options = datasets.map((d) => `<option value="${d.name}">${d.name} (${d.puzzles})</option>`).join("");
  $("dataset").innerHTML = options; $("gallery-dataset").innerHTML = options;
  $("dataset").value = $("gallery-dataset").value = datasets.some((d) => d.name === "top95") ? "top95" : datasets[0].name;
  document.body.dataset.ready = "1";
  showGallery();
}

start();
