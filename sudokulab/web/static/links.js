// Links to other players: f-puzzles and SudokuPad open the puzzle from its f-puzzles JSON,
// compressed by lz-string's compressToBase64. This is sudokulab/formats/fpuzzles.py's
// `to_fpuzzles` and links.py's `fpuzzles_link` written for the page (the API has no link route);
// tests/test_web_browser.py checks both give the same links.

export const FPUZZLES = "https://f-puzzles.com/?load=";
export const SUDOKUPAD = "https://sudokupad.app/";
const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=";
const LINES = ["thermometer", "renban", "whispers", "palindrome"];
const DIRECTIONS = { "1,1": "DR", "1,-1": "DL", "-1,1": "UR", "-1,-1": "UL" };

/** lz-string's compressToBase64 (LZW, codes written least significant bit first). */
export function compressToBase64(text) {
  const out = [], dictionary = new Map(), pending = new Set();
  let bits = 0, position = 0, enlargeIn = 2, size = 3, width = 2, w = "";
  const write = (value, count) => {
    for (let k = 0; k < count; k++) {
      bits = (bits << 1) | (value & 1); value >>= 1;
      if (position === 5) { out.push(BASE64[bits]); position = 0; bits = 0; } else position++;
    }
  };
  const grow = () => { if (--enlargeIn === 0) { enlargeIn = 2 ** width; width++; } };
  const emit = (word) => {
    if (pending.has(word)) {
      const code = word.charCodeAt(0), wide = code >= 256;
      write(wide ? 1 : 0, width);
      write(code, wide ? 16 : 8);
      grow();
      pending.delete(word);
    } else {
      write(dictionary.get(word), width);
    }
    grow();
  };
  for (const c of text) {
    if (!dictionary.has(c)) { dictionary.set(c, size++); pending.add(c); }
    if (dictionary.has(w + c)) { w += c; continue; }
    emit(w);
    dictionary.set(w + c, size++);
    w = c;
  }
  if (w !== "") emit(w);
  write(2, width);
  for (;;) { bits <<= 1; if (position === 5) { out.push(BASE64[bits]); break; } position++; }
  const result = out.join("");
  return result + "===".slice(0, (4 - (result.length % 4)) % 4);
}

const upper = (name) => name.toUpperCase();  // r1c2 -> R1C2, f-puzzles' spelling
const parse = (name) => { const m = /^r(\d+)c(\d+)$/.exec(name); return [Number(m[1]), Number(m[2])]; };

function defaultBox(n) {
  // f-puzzles' own box for a size (the widest that divides it), as fpuzzles.py reads it.
  for (let rows = Math.floor(Math.sqrt(n)); rows >= 1; rows--) if (n % rows === 0) return [rows, n / rows];
  return [1, n];
}

function windows([br, bc]) {
  // Windoku's windows, one cell in from the boxes, named cells in row order.
  const n = br * bc, out = [];
  for (let top = 1; top + br < n; top += br + 1) {
    for (let left = 1; left + bc < n; left += bc + 1) {
      const cells = [];
      for (let r = top; r < top + br; r++) for (let c = left; c < left + bc; c++) cells.push(`R${r + 1}C${c + 1}`);
      out.push({ cells });
    }
  }
  return out;
}

/** f-puzzles' JSON of a puzzle as the API gives it ({size, box, givens, rules}). */
export function toFpuzzles(puzzle) {
  const n = puzzle.size;
  const grid = [...Array(n).keys()].map((r) => [...Array(n).keys()].map((c) => {
    const d = puzzle.givens[r * n + c];
    return d ? { value: d, given: true } : {};
  }));
  const jigsaw = puzzle.rules.find((rule) => rule.type === "jigsaw");
  let regions = [];
  const [dr, dc] = defaultBox(n);
  if (jigsaw) {
    regions = jigsaw.regions.map((region) => region.map((name) => parse(name).map((x) => x - 1)));
  } else if (puzzle.box[0] !== dr || puzzle.box[1] !== dc) {
    const [rows, cols] = puzzle.box;
    for (let top = 0; top < n; top += rows) {
      for (let left = 0; left < n; left += cols) {
        const region = [];
        for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) region.push([top + r, left + c]);
        regions.push(region);
      }
    }
  }
  regions.forEach((region, k) => region.forEach(([r, c]) => { grid[r][c].region = k; }));
  const data = { size: n, grid };
  const add = (key, ...items) => { (data[key] = data[key] || []).push(...items); };
  refuseSharedNegatives(puzzle.rules);
  for (const rule of puzzle.rules) {
    const cells = (rule.cells || []).map(upper);
    if (rule.type === "diagonal") { data["diagonal+"] = true; data["diagonal-"] = true; }
    else if (rule.type === "anti-knight") data.antiknight = true;
    else if (rule.type === "anti-king") data.antiking = true;
    else if (rule.type === "non-consecutive") data.nonconsecutive = true;
    else if (rule.type === "cage") add("killercage", { cells, value: String(rule.total) });
    else if (rule.type === "parity") add(rule.even ? "even" : "odd", ...cells.map((cell) => ({ cell })));
    else if (rule.type === "windoku") data.extraregion = windows(puzzle.box);
    else if (LINES.includes(rule.type)) add(rule.type, { lines: [cells] });
    else if (rule.type === "main-diagonal") data["diagonal-"] = true;
    else if (rule.type === "anti-diagonal") data["diagonal+"] = true;
    else if (rule.type === "disjoint-groups") data.disjointgroups = true;
    else if (rule.type === "arrow") add("arrow", { cells: cells.slice(0, 1), lines: [cells] });
    else if (rule.type === "cage-without-sum") add("killercage", { cells });
    else if (rule.type === "extra-region") add("extraregion", { cells });
    else if (rule.type === "little-killer") {
      const [r1, c1] = parse(rule.cells[0]), second = rule.cells[1] && parse(rule.cells[1]);
      const step = second ? [second[0] - r1, second[1] - c1] : [1, 1];
      add("littlekillersum", { cell: `R${r1 - step[0]}C${c1 - step[1]}`, cells,
        direction: DIRECTIONS[step.join(",")], value: String(rule.total) });
    } else if (rule.type === "sandwich") {
      add("sandwichsum", { cell: rule.column ? `R0C${rule.column}` : `R${rule.row}C0`, value: String(rule.total) });
    } else if (rule.type === "consecutive-marks") {
      add("difference", ...rule.pairs.map((pair) => ({ cells: pair.map(upper), value: "1" })));
      add("negative", "difference");
    } else if (rule.type === "kropki" || rule.type === "xv") {
      const kropki = rule.type === "kropki";
      const marks = kropki ? [["difference", rule.white, "1"], ["ratio", rule.black, "2"]]
        : [["xv", rule.x, "X"], ["xv", rule.v, "V"]];
      for (const [key, pairs, value] of marks) add(key, ...pairs.map((pair) => ({ cells: pair.map(upper), value })));
      if (rule.negative) add("negative", ...(kropki ? ["ratio", "difference"] : ["xv"]));
    } else if (rule.type !== "jigsaw") throw new Error(`f-puzzles has no form for the rule ${rule.type}`);  // never dropped
  }
  mergeMarks(data);
  return data;
}

// The f-puzzles keys a dot rule writes its marks under, and those its negative covers.
function dotKeys(rule) {
  if (rule.type === "consecutive-marks") return [["difference"], ["difference"]];
  if (rule.type === "kropki") return [["difference", "ratio"], rule.negative ? ["difference", "ratio"] : []];
  if (rule.type === "xv") return [["xv"], rule.negative ? ["xv"] : []];
  return [[], []];
}

// f-puzzles keeps one list of marks per key with one negative constraint: two dot rules
// sharing a key, one of them negative there, would open another puzzle (formats/fpuzzles.py).
function refuseSharedNegatives(rules) {
  const users = new Map();
  for (const rule of rules) {
    const [keys, negative] = dotKeys(rule);
    for (const key of keys) users.set(key, [...(users.get(key) || []), [rule.type, negative.includes(key)]]);
  }
  for (const [key, listed] of users) {
    if (listed.length > 1 && listed.some(([, negative]) => negative)) {
      throw new Error(`f-puzzles keeps one list of '${key}' marks with one negative constraint: `
        + `${listed.map(([name]) => name).join(" and ")} (one of them negative) cannot share it`);
    }
  }
}

// Each pair of cells marked once per key; two different marks between the same cells refused.
function mergeMarks(data) {
  for (const key of ["difference", "ratio", "xv"]) {
    if (!data[key]) continue;
    const kept = new Map();
    for (const mark of data[key]) {
      const cells = [...mark.cells].sort().join(",");
      if (kept.has(cells) && kept.get(cells).value !== mark.value) {
        throw new Error(`two '${key}' marks between ${cells.replace(",", " and ")}: f-puzzles holds one`);
      }
      if (!kept.has(cells)) kept.set(cells, mark);
    }
    data[key] = [...kept.values()];
  }
  const white = new Set((data.difference || []).map((mark) => [...mark.cells].sort().join(",")));
  const both = (data.ratio || []).find((mark) => white.has([...mark.cells].sort().join(",")));
  if (both) {  // the reader makes one kropki rule of the two keys: one dot a pair
    throw new Error(`a white and a black dot between ${both.cells[0]} and ${both.cells[1]}: `
      + "f-puzzles reads them as one kropki rule, which holds one");
  }
  if (data.negative) data.negative = [...new Set(data.negative)];
}

/** The f-puzzles and SudokuPad links that open the puzzle; null links and the reason
 * (`why`) for a rule those sites have no form for: a link without it would open another
 * puzzle. */
export function playerLinks(puzzle) {
  let data;
  try {
    data = toFpuzzles(puzzle);
  } catch (error) {
    return { fpuzzles: null, sudokupad: null, why: error.message };
  }
  const payload = compressToBase64(JSON.stringify(data));
  return { fpuzzles: FPUZZLES + payload, sudokupad: `${SUDOKUPAD}fpuzzles${payload}`, why: "" };
}
