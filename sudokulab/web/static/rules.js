// Variant rules on the board: how each one is drawn (SVG, as players know it from SudokuPad)
// and which of the player's cells break it. Each rule of sudokulab/rules.py has one drawing
// function in DRAW, one checking function in CHECK and a sentence in SAYS, under its name:
// adding a rule means adding one of each here, and nowhere else on the page. Rules come in the JSON form of `rule_to_json`.
//
// Drawing coordinates: cell (r, c), counted from 0, spans [c, c+1] x [r, r+1]; the band
// one cell wide around the grid (-1..0 and n..n+1) holds the clues written outside.
// The page shows the markup in an <svg viewBox="-1 -1 n+2 n+2">. Fills are translucent so
// the digits stay readable whether the page puts this layer above or below them.

const INK = "#1f2937";
const FONT = 'font-family="system-ui, sans-serif"';
// Four pastel tones for jigsaw regions (greedy colouring needs four for most layouts; the
// fifth and sixth are there only for the rare layout greedy colouring cannot do in four).
const REGION_TONES = ["#fbd7b0", "#c4e0fb", "#cdefc5", "#efcdf0", "#fff0a8", "#dcdcdc"];
// Drawing order: shading first, then lines, then cages, dots, clues and labels on top.
const LAYER = {
  jigsaw: 0, windoku: 0, "extra-region": 0, parity: 1, "disjoint-groups": 1,
  diagonal: 2, "main-diagonal": 2, "anti-diagonal": 2, renban: 2, whispers: 2, palindrome: 2,
  thermometer: 3, arrow: 3, cage: 4, "cage-without-sum": 4, kropki: 5, xv: 5,
  "consecutive-marks": 5, sandwich: 6, "little-killer": 6,
  "anti-knight": 7, "anti-king": 7, "non-consecutive": 7,
};
const KNIGHT = [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]];
const KING = [[1, 1], [1, 0], [1, -1], [0, 1], [0, -1], [-1, 1], [-1, 0], [-1, -1]];

// --- cells and the board's geometry -------------------------------------------------------

function cellOf(name) {
  // [row, column] counted from 0, from a name like "r1c1".
  const m = /^r(\d+)c(\d+)$/i.exec(name);
  return [Number(m[1]) - 1, Number(m[2]) - 1];
}

function num(x) {
  // A coordinate, short in the markup.
  return String(Math.round(x * 1000) / 1000);
}

function centre([r, c]) {
  return [c + 0.5, r + 0.5];
}

function board(puzzle) {
  // What every drawing and check needs: size, box, cell indices, the badge list.
  const n = puzzle.size, [br, bc] = puzzle.box;
  return {
    n, br, bc, badges: [],
    index: (name) => { const [r, c] = cellOf(name); return r * n + c; },
    inside: (r, c) => r >= 0 && c >= 0 && r < n && c < n,
    // A label for a rule with no cells of its own: a placeholder in the rule's markup,
    // filled in once every label is known (they share one row below the grid).
    badge(text) { this.badges.push(text); return `<!--badge:${this.badges.length - 1}-->`; },
  };
}

function diagonals(n) {
  // The main diagonal (r1c1..rNcN) and the anti-diagonal (r1cN..rNc1), as cells.
  const k = [...Array(n).keys()];
  return { main: k.map((i) => [i, i]), anti: k.map((i) => [i, n - 1 - i]) };
}

function windows(b) {
  // Windoku's windows: box-sized, one cell in from the boxes (as sudokulab/check.py).
  const out = [];
  for (let top = 1; top <= b.n - b.br; top += b.br + 1) {
    for (let left = 1; left <= b.n - b.bc; left += b.bc + 1) {
      const cells = [];
      for (let r = 0; r < b.br; r++) for (let c = 0; c < b.bc; c++) cells.push([top + r, left + c]);
      out.push(cells);
    }
  }
  return out;
}

function disjointGroups(b) {
  // The cells at the same place in their boxes, one group per place.
  const out = [];
  for (let r = 0; r < b.br; r++) {
    for (let c = 0; c < b.bc; c++) {
      const cells = [];
      for (let top = 0; top < b.n; top += b.br) for (let left = 0; left < b.n; left += b.bc) cells.push([top + r, left + c]);
      out.push(cells);
    }
  }
  return out;
}

function orthogonalPairs(n) {
  // Every pair of orthogonal neighbours, each once, as [[r, c], [r2, c2]].
  const out = [];
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (r + 1 < n) out.push([[r, c], [r + 1, c]]);
      if (c + 1 < n) out.push([[r, c], [r, c + 1]]);
    }
  }
  return out;
}

function pairKey(a, b) {
  // The same key for a pair whichever cell comes first.
  const [x, y] = [a[0] * 1000 + a[1], b[0] * 1000 + b[1]].sort((p, q) => p - q);
  return `${x}:${y}`;
}

// --- drawing helpers ------------------------------------------------------------------------

function group(name, body) {
  return `<g class="rule rule-${name}" data-rule="${name}">${body}</g>`;
}

function polyline(cells, attrs) {
  const points = cells.map((cell) => centre(cell).map(num).join(",")).join(" ");
  return `<polyline points="${points}" fill="none" stroke-linecap="round" stroke-linejoin="round" ${attrs}/>`;
}

function shade(cells, fill, opacity) {
  return cells.map(([r, c]) => `<rect x="${c}" y="${r}" width="1" height="1" fill="${fill}" fill-opacity="${opacity}"/>`).join("");
}

function under(markup) {
  // Shading meant to lie under the digits: a page with a layer below the grid moves it there.
  return `<g data-under="1">${markup}</g>`;
}

function text(x, y, label, size, attrs = "") {
  return `<text x="${num(x)}" y="${num(y)}" font-size="${size}" text-anchor="middle" `
    + `dominant-baseline="central" ${FONT} ${attrs}>${label}</text>`;
}

function outline(cells, inset) {
  // The border of a group of cells as straight segments [x1, y1, x2, y2], `inset` inside
  // it (a cage's dashed line); collinear pieces are joined so dashes run on unbroken.
  const set = new Set(cells.map(([r, c]) => `${r},${c}`));
  const has = (r, c) => set.has(`${r},${c}`);
  const d = inset, rows = [], cols = [];
  for (const [r, c] of cells) {
    // Each side without a neighbour in the group: inset, stretched to meet the next side.
    const ends = (before, after, diagBefore, diagAfter, lo) => [
      before ? (diagBefore ? lo - d : lo) : lo + d,
      after ? (diagAfter ? lo + 1 + d : lo + 1) : lo + 1 - d];
    if (!has(r - 1, c)) rows.push([r + d, ...ends(has(r, c - 1), has(r, c + 1), has(r - 1, c - 1), has(r - 1, c + 1), c)]);
    if (!has(r + 1, c)) rows.push([r + 1 - d, ...ends(has(r, c - 1), has(r, c + 1), has(r + 1, c - 1), has(r + 1, c + 1), c)]);
    if (!has(r, c - 1)) cols.push([c + d, ...ends(has(r - 1, c), has(r + 1, c), has(r - 1, c - 1), has(r + 1, c - 1), r)]);
    if (!has(r, c + 1)) cols.push([c + 1 - d, ...ends(has(r - 1, c), has(r + 1, c), has(r - 1, c + 1), has(r + 1, c + 1), r)]);
  }
  return [...joined(rows).map(([y, a, b]) => [a, y, b, y]), ...joined(cols).map(([x, a, b]) => [x, a, x, b])];
}

function joined(pieces) {
  // Pieces [at, from, to] on the same line that touch or overlap, made one.
  pieces.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  const out = [];
  for (const piece of pieces) {
    const last = out[out.length - 1];
    if (last && Math.abs(last[0] - piece[0]) < 1e-9 && piece[1] <= last[2] + 1e-9) last[2] = Math.max(last[2], piece[2]);
    else out.push([...piece]);
  }
  return out;
}

function segments(lines, attrs) {
  return lines.map(([x1, y1, x2, y2]) => `<line x1="${num(x1)}" y1="${num(y1)}" x2="${num(x2)}" y2="${num(y2)}" ${attrs}/>`).join("");
}

function edgeMiddle(a, b) {
  // The middle of the edge between two orthogonal neighbours.
  return [(a[1] + b[1]) / 2 + 0.5, (a[0] + b[0]) / 2 + 0.5];
}

function dot(a, b, fill) {
  const [x, y] = edgeMiddle(a, b);
  return `<circle cx="${num(x)}" cy="${num(y)}" r="0.13" fill="${fill}" stroke="${INK}" stroke-width="0.03"/>`;
}

function letter(a, b, label) {
  const [x, y] = edgeMiddle(a, b);
  return text(x, y, label, 0.5, `font-weight="700" fill="${INK}" stroke="#fff" stroke-width="0.08" paint-order="stroke"`);
}

function arrowHead(tip, from, size) {
  // Two short strokes back from `tip`, away from `from`: an open arrowhead.
  const len = Math.hypot(tip[0] - from[0], tip[1] - from[1]) || 1;
  const ux = (tip[0] - from[0]) / len, uy = (tip[1] - from[1]) / len;
  const wing = (turn) => {
    const cos = Math.cos(turn), sin = Math.sin(turn);
    return [tip[0] - size * (ux * cos - uy * sin), tip[1] - size * (ux * sin + uy * cos)];
  };
  const [l, r] = [wing(0.6), wing(-0.6)];
  return `${num(l[0])},${num(l[1])} ${num(tip[0])},${num(tip[1])} ${num(r[0])},${num(r[1])}`;
}

function cage(rule, total) {
  // Dashed line inset in the cage; the sum small in the top-left corner of its first cell
  // (top row, then left), on a white box so a corner mark under it cannot blur it.
  const cells = rule.cells.map(cellOf);
  if (!cells.length) return "";
  const body = segments(outline(cells, 0.07), `stroke="${INK}" stroke-width="0.025" stroke-dasharray="0.08 0.06"`);
  if (total === undefined) return body;
  const [r, c] = cells.reduce((a, b) => (b[0] < a[0] || (b[0] === a[0] && b[1] < a[1]) ? b : a));
  const label = String(total), width = 0.06 + 0.15 * label.length;
  return body + `<rect x="${num(c + 0.02)}" y="${num(r + 0.02)}" width="${num(width)}" height="0.29" fill="#fff"/>`
    + `<text x="${num(c + 0.05)}" y="${num(r + 0.245)}" font-size="0.26" ${FONT} fill="${INK}">${label}</text>`;
}

function jigsawTones(b, regions) {
  // A tone per region such that neighbouring regions differ: greedy colouring of the
  // region adjacency, the regions with most neighbours first.
  const n = b.n, regionOf = new Array(n * n).fill(-1);
  regions.forEach((cells, k) => cells.forEach(([r, c]) => { regionOf[r * n + c] = k; }));
  const near = regions.map(() => new Set());
  for (const [a, c] of orthogonalPairs(n)) {
    const x = regionOf[a[0] * n + a[1]], y = regionOf[c[0] * n + c[1]];
    if (x !== y && x >= 0 && y >= 0) { near[x].add(y); near[y].add(x); }
  }
  const tone = new Array(regions.length).fill(-1);
  const order = regions.map((_, k) => k).sort((x, y) => near[y].size - near[x].size || x - y);
  for (const k of order) {
    const taken = new Set([...near[k]].map((j) => tone[j]));
    tone[k] = [...REGION_TONES.keys()].find((t) => !taken.has(t)) ?? 0;
  }
  return { tone, regionOf };
}

function littleKillerClue(rule, b) {
  // Where the total goes: the cell just before the diagonal's first cell, outside the grid
  // (or after its last, when listed from the inside out), and the step into the grid.
  const cells = rule.cells.map(cellOf);
  const outside = ([r, c]) => !b.inside(r, c);
  let step = cells.length > 1 ? [cells[1][0] - cells[0][0], cells[1][1] - cells[0][1]] : null;
  if (!step) {
    const steps = [[1, 1], [1, -1], [-1, 1], [-1, -1]];
    const [r, c] = cells[0];
    step = steps.find(([dr, dc]) => outside([r - dr, c - dc]) && outside([r + dr, c + dc])) ?? [1, 1];
  }
  let [first, [dr, dc]] = [cells[0], step];
  if (!outside([first[0] - dr, first[1] - dc]) && outside([cells.at(-1)[0] + dr, cells.at(-1)[1] + dc])) {
    [first, dr, dc] = [cells.at(-1), -dr, -dc];
  }
  return { at: [first[0] - dr, first[1] - dc], step: [dr, dc] };
}

// --- one drawing function per rule ----------------------------------------------------------

const DRAW = {
  thermometer(rule) {
    // Grey bulb and a thick grey line, the whole thermometer one translucent shape, under
    // the digits (over them, it dimmed the givens it runs through)
    const cells = rule.cells.map(cellOf), [x, y] = centre(cells[0]);
    return under(`<g opacity="0.5"><circle cx="${x}" cy="${y}" r="0.38" fill="#8a8a8a"/>`
      + polyline(cells, 'stroke="#8a8a8a" stroke-width="0.3"') + "</g>");
  },
  arrow(rule) {
    // A circle on the first cell, a shaft from its rim through the others, an arrowhead.
    const cells = rule.cells.map(cellOf), [cx, cy] = centre(cells[0]);
    const [nx, ny] = centre(cells[1]), len = Math.hypot(nx - cx, ny - cy);
    const rim = [cx + ((nx - cx) / len) * 0.4, cy + ((ny - cy) / len) * 0.4];
    const points = [rim, ...cells.slice(1).map(centre)];
    const attrs = 'fill="none" stroke="#7a7a7a" stroke-width="0.05" stroke-linecap="round" stroke-linejoin="round"';
    return `<circle cx="${cx}" cy="${cy}" r="0.4" ${attrs}/>`
      + `<polyline points="${points.map((p) => p.map(num).join(",")).join(" ")}" ${attrs}/>`
      + `<polyline points="${arrowHead(points.at(-1), points.at(-2), 0.25)}" ${attrs}/>`;
  },
  kropki(rule, b) {
    return (rule.negative ? b.badge("kropki: every dot is given") : "")
      + (rule.white || []).map(([a, c]) => dot(cellOf(a), cellOf(c), "#fff")).join("")
      + (rule.black || []).map(([a, c]) => dot(cellOf(a), cellOf(c), INK)).join("");
  },
  xv(rule, b) {
    return (rule.negative ? b.badge("XV: every X and V is given") : "")
      + (rule.x || []).map(([a, c]) => letter(cellOf(a), cellOf(c), "X")).join("")
      + (rule.v || []).map(([a, c]) => letter(cellOf(a), cellOf(c), "V")).join("");
  },
  "consecutive-marks"(rule, b) {
    // White dots, as Kropki's consecutive dots; no dot means not consecutive.
    return b.badge("no dot: not consecutive")
      + (rule.pairs || []).map(([a, c]) => dot(cellOf(a), cellOf(c), "#fff")).join("");
  },
  renban: (rule) => polyline(rule.cells.map(cellOf), 'stroke="#d55ed5" stroke-opacity="0.55" stroke-width="0.28"'),
  whispers: (rule) => polyline(rule.cells.map(cellOf), 'stroke="#3cb043" stroke-opacity="0.55" stroke-width="0.22"'),
  palindrome: (rule) => polyline(rule.cells.map(cellOf), 'stroke="#8c8c8c" stroke-opacity="0.55" stroke-width="0.22"'),
  cage: (rule) => cage(rule, rule.total),
  "cage-without-sum": (rule) => cage(rule),
  sandwich(rule) {
    // The sum left of its row or above its column.
    const [x, y] = rule.row !== undefined ? [-0.5, rule.row - 0.5] : [rule.column - 0.5, -0.5];
    return text(x, y, rule.total, 0.42, `fill="${INK}"`);
  },
  "little-killer"(rule, b) {
    // The total outside the grid, a small arrow at its corner pointing down the diagonal.
    const { at: [r, c], step: [dr, dc] } = littleKillerClue(rule, b);
    const [x, y] = centre([r, c]), tip = [x + dc * 0.45, y + dr * 0.45], tail = [x + dc * 0.2, y + dr * 0.2];
    const attrs = `fill="none" stroke="${INK}" stroke-width="0.035" stroke-linecap="round" stroke-linejoin="round"`;
    return text(x - dc * 0.08, y - dr * 0.08, rule.total, 0.32, `fill="${INK}"`)
      + `<line x1="${num(tail[0])}" y1="${num(tail[1])}" x2="${num(tip[0])}" y2="${num(tip[1])}" ${attrs}/>`
      + `<polyline points="${arrowHead(tip, tail, 0.12)}" ${attrs}/>`;
  },
  "extra-region"(rule) {
    // Grey shading with a thin border, so two regions side by side stay two.
    const cells = rule.cells.map(cellOf);
    return under(shade(cells, "#9a9a9a", 0.3)) + segments(outline(cells, 0), 'stroke="#6b6b6b" stroke-width="0.04"');
  },
  jigsaw(rule, b) {
    // Four tones (neighbours never share one) and thick borders between regions.
    const regions = rule.regions.map((cells) => cells.map(cellOf));
    const { tone, regionOf } = jigsawTones(b, regions);
    // the tints light, in a group the page puts under the digits (data-under)
    const fills = under(regions.map((cells, k) => shade(cells, REGION_TONES[tone[k]], 0.55)).join(""));
    const walls = orthogonalPairs(b.n).filter(([a, c]) => regionOf[a[0] * b.n + a[1]] !== regionOf[c[0] * b.n + c[1]])
      .map(([a, c]) => (a[0] === c[0] ? [c[1], c[0], c[1], c[0] + 1] : [a[1], c[0], a[1] + 1, c[0]]));
    return fills + segments(walls, `stroke="${INK}" stroke-width="0.07" stroke-linecap="square"`);
  },
  windoku: (rule, b) => under(windows(b).map((cells) => shade(cells, "#6f9fd8", 0.28)).join("")),
  diagonal: (rule, b) => DRAW["main-diagonal"](rule, b) + DRAW["anti-diagonal"](rule, b),
  "main-diagonal": (rule, b) => `<line x1="0" y1="0" x2="${b.n}" y2="${b.n}" stroke="#3b6fd8" stroke-opacity="0.6" stroke-width="0.05"/>`,
  "anti-diagonal": (rule, b) => `<line x1="${b.n}" y1="0" x2="0" y2="${b.n}" stroke="#3b6fd8" stroke-opacity="0.6" stroke-width="0.05"/>`,
  "disjoint-groups"(rule, b) {
    // A faint dot in each cell at the cell's place in its box: equal dots, one group.
    return disjointGroups(b).flat().map(([r, c]) => {
      const x = c + 0.2 + (0.6 * ((c % b.bc) + 0.5)) / b.bc, y = r + 0.2 + (0.6 * ((r % b.br) + 0.5)) / b.br;
      return `<circle cx="${num(x)}" cy="${num(y)}" r="0.05" fill="#8a94a6" fill-opacity="0.7"/>`;
    }).join("");
  },
  parity(rule) {
    // Even: a grey square; odd: a grey circle.
    return rule.cells.map(cellOf).map(([r, c]) => (rule.even
      ? `<rect x="${c + 0.18}" y="${r + 0.18}" width="0.64" height="0.64" fill="#b8b8b8" fill-opacity="0.55"/>`
      : `<circle cx="${c + 0.5}" cy="${r + 0.5}" r="0.34" fill="#b8b8b8" fill-opacity="0.55"/>`)).join("");
  },
  "anti-knight": (rule, b) => b.badge("anti-knight"),
  "anti-king": (rule, b) => b.badge("anti-king"),
  "non-consecutive": (rule, b) => b.badge("non-consecutive"),
};

export const RULE_NAMES = Object.freeze(Object.keys(DRAW));

// Each rule in plain words, for the line that tells a player what to do (board.js).
export const SAYS = {
  cage: "the digits in a dashed cage add up to its total and do not repeat",
  "cage-without-sum": "digits do not repeat in a dashed cage",
  jigsaw: "each bold-outlined region (not the 3×3 boxes) holds every digit once",
  diagonal: "each of the two long diagonals holds every digit once",
  "main-diagonal": "the main diagonal holds every digit once",
  "anti-diagonal": "the anti-diagonal holds every digit once",
  windoku: "each shaded window holds every digit once",
  "extra-region": "each grey region holds every digit once",
  "anti-knight": "cells a chess knight's move apart never hold the same digit",
  "anti-king": "cells a chess king's move apart never hold the same digit",
  "non-consecutive": "orthogonal neighbours never hold consecutive digits",
  parity: "a grey square holds an even digit, a grey circle an odd one",
  thermometer: "digits rise from a thermometer's bulb",
  arrow: "the digits on an arrow add up to the digit in its circle",
  kropki: "a white dot joins consecutive digits, a black dot a digit and its double",
  xv: "X joins digits adding up to 10, V digits adding up to 5",
  "consecutive-marks": "a white dot joins consecutive digits; no dot, not consecutive",
  sandwich: "a clue outside the grid is the sum between the 1 and the 9 of its row or column",
  "little-killer": "a clue outside the grid is the sum along its arrow's diagonal",
  renban: "a pink line holds consecutive digits in any order",
  whispers: "neighbours on a green line differ by at least 5",
  palindrome: "a grey line reads the same both ways",
  "disjoint-groups": "cells at the same place in their boxes hold different digits",
};

function badges(b, clueRows) {
  // Each badge's markup: the labels in a row in the band below the grid (above it when
  // little killer totals sit below), shrunk to fit the grid's width; a repeat is dropped.
  const labels = b.badges.filter((label, k) => b.badges.indexOf(label) === k), gap = 0.15;
  let size = 0.3;
  const widthOf = (label) => label.length * size * 0.56 + size;
  const total = () => labels.reduce((w, label) => w + widthOf(label), 0) + gap * (labels.length - 1);
  if (total() > b.n) size *= b.n / total();
  const y = clueRows.has(b.n) && !clueRows.has(-1) ? -0.5 : b.n + 0.5, h = size * 1.5;
  let x = (b.n - total()) / 2;
  const drawn = new Map(labels.map((label) => {
    const w = widthOf(label);
    const part = `<rect x="${num(x)}" y="${num(y - h / 2)}" width="${num(w)}" height="${num(h)}" rx="${num(h / 2)}" `
      + `fill="#eef1f6" stroke="#8a94a6" stroke-width="0.02"/>${text(x + w / 2, y, label, num(size), 'fill="#374151"')}`;
    x += w + gap;
    return [label, part];
  }));
  return b.badges.map((label, k) => (b.badges.indexOf(label) === k ? drawn.get(label) : ""));
}

/** Whether the drawing needs the band around the grid: a clue outside it (sandwich, little
 * killer) or a rule's label (anti-knight, negative kropki, ...). Without one the page
 * leaves the band out and the cells are larger. */
export function usesBand(puzzle) {
  const b = board(puzzle), rules = puzzle.rules || [];
  for (const rule of rules) DRAW[rule.type]?.(rule, b);
  return b.badges.length > 0 || rules.some((rule) => rule.type === "sandwich" || rule.type === "little-killer");
}

export function drawRules(puzzle) {
  // SVG markup for every rule of the puzzle, one <g data-rule="name"> each, in layers.
  const b = board(puzzle);
  const rules = (puzzle.rules || []).map((rule, k) => [rule, k])
    .sort(([x, i], [y, j]) => (LAYER[x.type] ?? 8) - (LAYER[y.type] ?? 8) || i - j);
  const clueRows = new Set(rules.filter(([rule]) => rule.type === "little-killer")
    .map(([rule]) => littleKillerClue(rule, b).at[0]));
  const markup = rules.map(([rule]) => (DRAW[rule.type] ? group(rule.type, DRAW[rule.type](rule, b)) : "")).join("");
  const labels = badges(b, clueRows);
  return markup.replace(/<!--badge:(\d+)-->/g, (_, k) => labels[Number(k)]);
}

// --- one checking function per rule ---------------------------------------------------------
// Each adds to `bad` the indices of the cells that break the rule: the cells that clash, or
// those of a sum or line that can no longer come right. Blank cells (0) break nothing.

function repeats(cells, values, b, bad) {
  // The cells of a group that repeat a digit.
  const seen = new Map();
  for (const [r, c] of cells) {
    const i = r * b.n + c, v = values[i];
    if (v) seen.set(v, [...(seen.get(v) || []), i]);
  }
  for (const same of seen.values()) if (same.length > 1) same.forEach((i) => bad.add(i));
}

function pairs(list, values, b, bad, broken) {
  // The two cells of each listed pair, both filled, for which `broken(a, b)` holds.
  for (const [x, y] of list) {
    const i = x[0] * b.n + x[1], j = y[0] * b.n + y[1];
    if (values[i] && values[j] && broken(values[i], values[j])) { bad.add(i); bad.add(j); }
  }
}

function moves(steps, values, b, bad, broken) {
  // Pairs of cells one step apart (chess moves, orthogonal neighbours) that break a rule.
  const list = [];
  for (let r = 0; r < b.n; r++) {
    for (let c = 0; c < b.n; c++) {
      for (const [dr, dc] of steps) if (b.inside(r + dr, c + dc)) list.push([[r, c], [r + dr, c + dc]]);
    }
  }
  pairs(list, values, b, bad, broken);
}

function sum(cells, values, b, bad, total, also = []) {
  // A sum that cannot come right: full and wrong, or already too big for its blanks (each
  // at least 1). Marks the filled cells, and `also` (an arrow's circle).
  const idx = cells.map(([r, c]) => r * b.n + c), filled = idx.filter((i) => values[i]);
  const got = filled.reduce((s, i) => s + values[i], 0), blanks = idx.length - filled.length;
  if ((blanks === 0 && got !== total) || (blanks > 0 && got + blanks > total)) {
    [...filled, ...also].forEach((i) => bad.add(i));
  }
}

function marks(rule, fields, tests, values, b, bad) {
  // Dots or letters on edges; with `negative`, the pairs without one that would take one.
  const marked = new Set();
  for (const field of fields) {
    const list = (rule[field] || []).map(([x, y]) => [cellOf(x), cellOf(y)]);
    list.forEach(([x, y]) => marked.add(pairKey(x, y)));
    pairs(list, values, b, bad, (x, y) => !tests[field](x, y));
  }
  if (rule.negative) {
    const free = orthogonalPairs(b.n).filter(([x, y]) => !marked.has(pairKey(x, y)));
    pairs(free, values, b, bad, (x, y) => fields.some((field) => tests[field](x, y)));
  }
}

const consecutive = (x, y) => Math.abs(x - y) === 1;
const KROPKI = { white: consecutive, black: (x, y) => x === 2 * y || y === 2 * x };
const XV = { x: (x, y) => x + y === 10, v: (x, y) => x + y === 5 };

const CHECK = {
  thermometer(rule, values, b, bad) {
    // Strictly increasing from the bulb: two filled cells k steps apart differ by k or more.
    const idx = rule.cells.map((name) => b.index(name));
    idx.forEach((i, k) => idx.slice(k + 1).forEach((j, step) => {
      if (values[i] && values[j] && values[j] - values[i] < step + 1) { bad.add(i); bad.add(j); }
    }));
  },
  arrow(rule, values, b, bad) {
    const circle = b.index(rule.cells[0]);
    if (values[circle]) sum(rule.cells.slice(1).map(cellOf), values, b, bad, values[circle], [circle]);
  },
  kropki: (rule, values, b, bad) => marks(rule, ["white", "black"], KROPKI, values, b, bad),
  xv: (rule, values, b, bad) => marks(rule, ["x", "v"], XV, values, b, bad),
  "consecutive-marks"(rule, values, b, bad) {
    marks({ ...rule, negative: true }, ["pairs"], { pairs: consecutive }, values, b, bad);
  },
  renban(rule, values, b, bad) {
    // Digits differ and make a run: the filled ones span no more than the line's length.
    const cells = rule.cells.map(cellOf);
    repeats(cells, values, b, bad);
    const filled = rule.cells.map((name) => b.index(name)).filter((i) => values[i]);
    const digits = filled.map((i) => values[i]);
    if (digits.length && Math.max(...digits) - Math.min(...digits) > cells.length - 1) filled.forEach((i) => bad.add(i));
  },
  whispers(rule, values, b, bad) {
    const cells = rule.cells.map(cellOf), gap = Math.floor((b.n + 1) / 2);
    pairs(cells.slice(1).map((cell, k) => [cells[k], cell]), values, b, bad, (x, y) => Math.abs(x - y) < gap);
  },
  palindrome(rule, values, b, bad) {
    const cells = rule.cells.map(cellOf), half = Math.floor(cells.length / 2);
    pairs(cells.slice(0, half).map((cell, k) => [cell, cells[cells.length - 1 - k]]), values, b, bad, (x, y) => x !== y);
  },
  cage(rule, values, b, bad) {
    const cells = rule.cells.map(cellOf);
    repeats(cells, values, b, bad);
    sum(cells, values, b, bad, rule.total);
  },
  "cage-without-sum": (rule, values, b, bad) => repeats(rule.cells.map(cellOf), values, b, bad),
  "extra-region": (rule, values, b, bad) => repeats(rule.cells.map(cellOf), values, b, bad),
  "little-killer": (rule, values, b, bad) => sum(rule.cells.map(cellOf), values, b, bad, rule.total),
  sandwich(rule, values, b, bad) {
    // Between the 1 and the N (first of each, as sudokulab/check.py reads them).
    const k = [...Array(b.n).keys()];
    const line = rule.row !== undefined ? k.map((c) => [rule.row - 1, c]) : k.map((r) => [r, rule.column - 1]);
    const digits = line.map(([r, c]) => values[r * b.n + c]);
    const one = digits.indexOf(1), top = digits.indexOf(b.n);
    if (one < 0 || top < 0) return;
    const [lo, hi] = [Math.min(one, top), Math.max(one, top)];
    const ends = [line[one], line[top]].map(([r, c]) => r * b.n + c);
    sum(line.slice(lo + 1, hi), values, b, bad, rule.total, ends);
  },
  jigsaw: (rule, values, b, bad) => rule.regions.forEach((cells) => repeats(cells.map(cellOf), values, b, bad)),
  windoku: (rule, values, b, bad) => windows(b).forEach((cells) => repeats(cells, values, b, bad)),
  diagonal(rule, values, b, bad) {
    const { main, anti } = diagonals(b.n);
    repeats(main, values, b, bad);
    repeats(anti, values, b, bad);
  },
  "main-diagonal": (rule, values, b, bad) => repeats(diagonals(b.n).main, values, b, bad),
  "anti-diagonal": (rule, values, b, bad) => repeats(diagonals(b.n).anti, values, b, bad),
  "disjoint-groups": (rule, values, b, bad) => disjointGroups(b).forEach((cells) => repeats(cells, values, b, bad)),
  parity(rule, values, b, bad) {
    for (const name of rule.cells) {
      const i = b.index(name);
      if (values[i] && (values[i] % 2 === 0) !== rule.even) bad.add(i);
    }
  },
  "anti-knight": (rule, values, b, bad) => moves(KNIGHT, values, b, bad, (x, y) => x === y),
  "anti-king": (rule, values, b, bad) => moves(KING, values, b, bad, (x, y) => x === y),
  "non-consecutive": (rule, values, b, bad) => moves([[0, 1], [1, 0]], values, b, bad, consecutive),
};

export function brokenCells(puzzle, values) {
  // The indices (r*n+c) of the cells whose values (N*N digits, 0 blank) break a variant rule.
  const b = board(puzzle), bad = new Set();
  for (const rule of puzzle.rules || []) CHECK[rule.type]?.(rule, values, b, bad);
  return bad;
}
