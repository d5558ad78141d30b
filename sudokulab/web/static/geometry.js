// The puzzle's geometry as the page needs it: the region of each cell, the units whose
// digits differ, and the pairs of cells a chess or non-consecutive rule keeps apart.

/** [row, column] from 0 of a cell named r1c1. */
export function cellOf(name) {
  const m = /^r(\d+)c(\d+)$/.exec(name);
  return [Number(m[1]) - 1, Number(m[2]) - 1];
}

/** The index (row * n + column) of a cell named r1c1. */
export function indexOf(name, n) {
  const [r, c] = cellOf(name);
  return r * n + c;
}

/** Region number of each cell: the jigsaw's regions, or the boxes. */
export function regions(p) {
  const n = p.size, [br, bc] = p.box, jig = p.rules.find((r) => r.type === "jigsaw");
  const region = new Array(n * n);
  if (jig) {
    jig.regions.forEach((cells, k) => cells.forEach((c) => { region[indexOf(c, n)] = k; }));
  } else {
    for (let i = 0; i < n * n; i++) {
      const r = Math.floor(i / n), c = i % n;
      region[i] = Math.floor(r / br) * (n / bc) + Math.floor(c / bc);
    }
  }
  return region;
}

/** Windoku's extra windows: box-sized, one cell in from the boxes. */
export function windows(p) {
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

/** Every group of cells that holds distinct digits. */
export function units(p) {
  const n = p.size, out = [], region = regions(p), types = p.rules.map((r) => r.type);
  for (let r = 0; r < n; r++) out.push([...Array(n).keys()].map((c) => r * n + c));
  for (let c = 0; c < n; c++) out.push([...Array(n).keys()].map((r) => r * n + c));
  for (let k = 0; k < n; k++) out.push(region.flatMap((g, i) => (g === k ? [i] : [])));
  if (types.includes("diagonal") || types.includes("main-diagonal")) out.push([...Array(n).keys()].map((k) => k * n + k));
  if (types.includes("diagonal") || types.includes("anti-diagonal")) out.push([...Array(n).keys()].map((k) => k * n + (n - 1 - k)));
  if (types.includes("windoku")) out.push(...windows(p));
  for (const rule of p.rules) {
    if (["cage", "cage-without-sum", "extra-region"].includes(rule.type)) out.push(rule.cells.map((c) => indexOf(c, n)));
  }
  return out;
}

/** Pairs of cells a rule keeps apart (chess moves) or non-consecutive. */
export function moves(p) {
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

/** Each cell's peers: the cells sharing a unit with it. */
export function peersOf(unitList, size) {
  const peers = [...Array(size)].map(() => new Set());
  for (const unit of unitList) for (const i of unit) for (const j of unit) if (i !== j) peers[i].add(j);
  return peers;
}
