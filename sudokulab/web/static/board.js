// The board: the grid of cells (digits, corner and centre marks, colours, conflicts,
// selection) and the SVG overlays drawn over it: the rules (rules.js's drawRules, one place
// for every rule's look) and the learn view's step (its units, cells and chain links).

import { $ } from "./dom.js";
import { cellOf, indexOf, regions, windows } from "./geometry.js";
import { SAYS } from "./rules.js";
import { state, SYMBOLS, value } from "./state.js";
import { saveProgress } from "./store.js";

export const COLOURS = ["", "#f6c1c1", "#fbd7a8", "#fbf0a0", "#c9ecc0", "#bfe3f5", "#cdd1fa",
  "#e6c8f3", "#d6d6d6", "#9fb0c8"];
const OUTSIDE = ["sandwich", "little-killer"];  // rules with clues in a band around the grid

let rules = null;  // rules.js once it has loaded: draws and checks every rule
let cellList = [];  // the grid's cells by index (they sit in rows: #grid's children are rows)

/** The cells of the grid, by index. */
export const cells = () => cellList;

/** Use rules.js (drawRules, brokenCells); without it only the classic look is drawn. */
export function useRules(module) { rules = module; }

/** Build the cells of a new puzzle, its rule overlay and badges. */
export function buildGrid() {
  const p = state.puzzle, n = p.size, grid = $("grid"), region = regions(p);
  const side = Math.ceil(Math.sqrt(n));
  grid.innerHTML = "";
  grid.style.gridTemplateColumns = grid.style.gridTemplateRows = `repeat(${n}, minmax(0, 1fr))`;
  const board = $("board");
  board.style.setProperty("--n", n);
  // sizes in container units: the digits and marks scale with the board, whatever its size
  board.style.setProperty("--digit", `${62 / n}cqw`);
  // a corner mark's size in cells (drawOverlay sets --cell: the band of outside clues
  // makes the cells smaller); 80% of a cell's side shared by `side` marks
  board.style.setProperty("--mark", `calc(var(--cell, ${100 / n}cqw) * ${(0.8 / side).toFixed(4)})`);
  board.style.setProperty("--centre", `${Math.min(26, 150 / side) / n}cqw`);
  const inWindow = new Set(p.rules.some((r) => r.type === "windoku") ? windows(p).flat() : []);
  // the cells holding a killer cage's total (its top-left cell): their marks go around it
  const totals = new Set(p.rules.filter((r) => r.type === "cage" && r.total !== undefined && r.cells.length)
    .map((r) => Math.min(...r.cells.map((name) => indexOf(name, n)))));
  const caged = new Set(p.rules.filter((r) => r.type === "cage" || r.type === "cage-without-sum")
    .flatMap((r) => r.cells.map((name) => indexOf(name, n))));
  cellList = [];
  let row = null;
  for (let i = 0; i < n * n; i++) {
    const r = Math.floor(i / n), c = i % n, cell = document.createElement("div");
    if (c === 0) {
      // rows for assistive technology (role grid > row > gridcell); display: contents
      row = document.createElement("div");
      row.className = "grid-row"; row.setAttribute("role", "row");
      grid.appendChild(row);
    }
    cell.className = "cell";
    cell.id = `cell-${i}`;
    cell.setAttribute("role", "gridcell");
    cell.dataset.index = i; cell.dataset.row = r + 1; cell.dataset.col = c + 1;
    if (totals.has(i)) cell.classList.add("cage-total");
    if (caged.has(i)) cell.classList.add("caged");  // its marks kept inside the dashed line
    if (c < n - 1 && region[i] !== region[i + 1]) cell.classList.add("br");
    if (r < n - 1 && region[i] !== region[i + n]) cell.classList.add("bb");
    if (inWindow.has(i)) cell.classList.add("window");
    cell.innerHTML = `<span class="paint"></span><span class="value"></span>`
      + `<div class="marks" style="grid-template-columns:repeat(${side},1fr)"></div><div class="centre"></div>`;
    row.appendChild(cell);
    cellList.push(cell);
  }
  colourRegions(p, region);
  drawOverlay();
  drawBadges();
  render();
}

function colourRegions(p, region) {
  // A tone per jigsaw region, neighbouring regions never sharing one (greedy: at most six);
  // rules.js draws its own tones
  if (rules || !p.rules.some((r) => r.type === "jigsaw")) return;
  const n = p.size, touching = new Map(), tone = new Map();
  for (let i = 0; i < n * n; i++) {
    for (const j of [i + 1, i + n]) {
      if ((j === i + 1 && i % n === n - 1) || j >= n * n || region[i] === region[j]) continue;
      for (const [a, b] of [[region[i], region[j]], [region[j], region[i]]]) {
        if (!touching.has(a)) touching.set(a, new Set());
        touching.get(a).add(b);
      }
    }
  }
  for (const k of [...new Set(region)].sort((a, b) => a - b)) {
    const used = new Set([...(touching.get(k) || [])].map((other) => tone.get(other)));
    tone.set(k, [0, 1, 2, 3, 4, 5].find((t) => !used.has(t)));
  }
  for (const cell of cellList) cell.dataset.region = tone.get(region[Number(cell.dataset.index)]);
}

/** The puzzle's rules in a sentence or two. */
export function rulesText(p = state.puzzle) {
  const n = p.size, [br, bc] = p.box || [0, 0], jigsaw = p.rules.some((r) => r.type === "jigsaw");
  const top = n <= 9 ? `1–${n}` : `1–9 and A–${SYMBOLS[n - 1]}`;
  const base = `Place ${top} once in every row, column${jigsaw ? "" : ` and ${br}×${bc} box`}.`.replace("row, column.", "row and column.");
  const extra = [...new Set(p.rules.map((r) => SAYS[r.type] || r.type))];
  return extra.length ? `${base} Also: ${extra.join("; ")}.` : base;
}

/** The rules sentence and the badges (again when the setter adds or takes away a rule). */
export function drawBadges() {
  $("rules-text").textContent = rulesText();
  const names = state.puzzle.rules.map((r) => (r.type === "cage" ? "killer cages" : r.type === "parity" ? (r.even ? "even cells" : "odd cells") : r.type));
  $("badges").innerHTML = [...new Set(names)].map((t) => `<span class="badge">${t}</span>`).join("")
    || '<span class="badge">classic</span>';
}

/** Draw the puzzle's rules over the grid (with a band for clues outside it when needed). */
export function drawOverlay() {
  const p = state.puzzle, n = p.size, svg = $("overlay");
  // rules.js writes outside clues and the labels of rules without cells in the band; a
  // puzzle with neither (a killer, a jigsaw) has no band: larger cells, legible marks
  const outside = rules ? (rules.usesBand ? rules.usesBand(p) : p.rules.length > 0) : p.rules.some((r) => OUTSIDE.includes(r.type));
  $("board").classList.toggle("outside", outside);
  $("board").style.setProperty("--band", outside ? 1 / (n + 2) : 0);
  svg.setAttribute("viewBox", outside ? `-1 -1 ${n + 2} ${n + 2}` : `0 0 ${n} ${n}`);
  // a cell's width in the board's container units (the marks that shrink to fit use it)
  $("board").style.setProperty("--cell", `${100 / (outside ? n + 2 : n)}cqw`);
  let markup = "";
  if (rules) {
    try { markup = rules.drawRules(p); } catch (error) { console.warn("drawRules:", error); markup = classicRules(p); }
  } else {
    markup = classicRules(p);
  }
  svg.innerHTML = markup;
  // shading (jigsaw regions, windows) goes under the digits: a tint over them made givens
  // and entries look alike and conflicts barely red
  const under = $("underlay");
  under.setAttribute("viewBox", `0 0 ${n} ${n}`);
  under.replaceChildren(...svg.querySelectorAll("[data-under]"));
}

function classicRules(p) {
  // The look without rules.js: diagonals, killer cages and parity marks.
  const n = p.size, parts = [];
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
  return `<style>.diag{stroke:#7b8fc4;stroke-width:.03;opacity:.55}
    .cage{stroke:#5a3d8a;stroke-width:.03;stroke-dasharray:.09 .06;fill:none}
    .sum{font-size:.24px;fill:#5a3d8a;font-weight:700}
    .parity{fill:#d9dde6;opacity:.8}</style>${parts.join("")}`;
}

function cage(rule, n) {
  // Dashed edges inset in each cell, where the neighbour is not in the cage; the sum top-left.
  const cells = new Set(rule.cells.map((name) => indexOf(name, n)));
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

/** Cells whose digit clashes with another's in a unit, across a rule's pair, or breaks a rule. */
export function conflicts() {
  const p = state.puzzle, bad = new Set(), values = p.givens.map((_, i) => value(i));
  for (const unit of state.units) {
    const seen = new Map();
    for (const i of unit) {
      const v = values[i];
      if (!v) continue;
      if (seen.has(v)) { bad.add(i); bad.add(seen.get(v)); } else seen.set(v, i);
    }
  }
  for (const [a, b, kind] of state.pairs) {
    const va = values[a], vb = values[b];
    if (va && vb && (kind === "differ" ? va === vb : Math.abs(va - vb) === 1)) { bad.add(a); bad.add(b); }
  }
  if (rules) {
    try { for (const i of rules.brokenCells(p, values)) bad.add(i); } catch (error) { console.warn("brokenCells:", error); }
  } else {
    for (const rule of p.rules.filter((r) => r.type === "parity")) {
      for (const name of rule.cells) {
        const i = indexOf(name, p.size), v = values[i];
        if (v && (v % 2 === 0) !== rule.even) bad.add(i);
      }
    }
  }
  return bad;
}

function marksHtml(own, n) {
  return own.size ? [...Array(n).keys()].map((k) => `<span data-digit="${k + 1}">${own.has(k + 1) ? SYMBOLS[k] : ""}</span>`).join("") : "";
}

/** Show the state: digits, marks, colours, conflicts, selection and the learn step. */
export function render() {
  const p = state.puzzle, n = p.size, bad = conflicts(), cursor = state.cursor;
  // in learn mode the step's units are highlighted, not the selected cell's
  const single = state.selected.size === 1 && !state.learn;
  const peers = single ? state.peers[cursor] : new Set();
  const cursorValue = single ? value(cursor) : 0;
  for (const cell of cellList) {
    const i = Number(cell.dataset.index), v = value(i);
    put(cell.querySelector(".value"), "textContent", v ? SYMBOLS[v - 1] : "");
    cell.classList.toggle("given", Boolean(p.givens[i]));
    cell.classList.toggle("solved", !state.learn && !p.givens[i] && !state.entries[i] && Boolean(state.solved[i]));
    cell.classList.toggle("conflict", bad.has(i));
    cell.classList.toggle("selected", state.selected.has(i));
    cell.classList.toggle("peer", !state.selected.has(i) && peers.has(i));
    cell.classList.toggle("same", i !== cursor && cursorValue > 0 && v === cursorValue);
    cell.classList.toggle("wrong", state.wrong.has(i));
    cell.classList.toggle("doubtful", state.doubtful.has(i));
    cell.querySelector(".paint").style.background = paint(state.colours[i]);
    const corner = state.learn ? state.learn.marks[i] : state.corner[i];
    put(cell.querySelector(".marks"), "innerHTML", v ? "" : marksHtml(corner, n));
    const centre = state.learn || v ? [] : [...state.centre[i]].sort((a, b) => a - b);
    const centreBox = cell.querySelector(".centre");
    put(centreBox, "textContent", centre.map((d) => SYMBOLS[d - 1]).join(""));
    // many centre marks shrink to fit the cell's width (eight or nine stay legible)
    if (centreBox.dataset.k !== String(centre.length)) { centreBox.dataset.k = centre.length; centreBox.style.setProperty("--k", Math.max(4, centre.length)); }
    attribute(cell, "aria-label", describe(i, v, corner, centre, bad));
    attribute(cell, "aria-selected", String(state.selected.has(i)));
  }
  attribute($("grid"), "aria-activedescendant", `cell-${cursor}`);
  highlight();
  saveProgress();  // kept in the browser: a reload finds the grid as it is now
}

/** A cell's colours: one fills it, several share it as segments of a circle (a pie). */
function paint(colours) {
  const list = [...(colours || [])].sort((a, b) => a - b).map((k) => COLOURS[k]).filter(Boolean);
  if (list.length < 2) return list[0] || "";
  const step = 360 / list.length;
  return `conic-gradient(from 45deg, ${list.map((c, k) => `${c} ${k * step}deg ${(k + 1) * step}deg`).join(", ")})`;
}

function describe(i, v, corner, centre, bad) {
  // What a screen reader says of a cell: where it is and what it holds.
  const n = state.puzzle.size, at = `row ${Math.floor(i / n) + 1}, column ${(i % n) + 1}`;
  const sym = (d) => SYMBOLS[d - 1];
  let what;
  if (v) what = `${sym(v)}${state.puzzle.givens[i] ? ", given" : ""}${bad.has(i) ? ", conflict" : ""}${state.wrong.has(i) ? ", wrong" : ""}`;
  else {
    const marks = [...(corner || [])].sort((a, b) => a - b);
    what = "empty" + (marks.length ? `, candidates ${marks.map(sym).join(" ")}` : "")
      + (centre.length ? `, centre ${centre.map(sym).join(" ")}` : "");
  }
  const colours = state.colours[i] && state.colours[i].size ? `, colour ${[...state.colours[i]].sort().join(" ")}` : "";
  return `${at}, ${what}${colours}`;
}

function attribute(element, name, text) {
  // Set only when it changes (as put does for content).
  if (element.getAttribute(name) !== text) element.setAttribute(name, text);
}

function put(target, property, text) {
  // Written only when it changes: a write, even of the same text, has the browser lay out
  // and paint the cell again, and render() runs at every key
  if (target[property] !== text) target[property] = text;
}

function highlight() {
  // Mark the learn view's pending step: units, cells, placements, eliminations, links.
  const cells = cellList, n = state.puzzle.size, L = state.learn;
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
