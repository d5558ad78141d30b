// One rule in every engine, side by side (issue 32): pick a rule of the puzzle (the rules of
// the selected cell come first), and each engine's real piece for it (POST /api/model/rule,
// built by sudokulab/teaching/sidebyside.py from the engines' own model builders) is shown as code, with
// its sizes. Also the plain-words legend of the compare table's statistics.

import { api, Stale } from "./api.js";
import { $, escape } from "./dom.js";
import { puzzleText, state } from "./state.js";

/** What each statistic of the compare table means, in plain words. */
export const STATS = {
  conflicts: "dead ends the solver met; each teaches it a clause (SAT, CP-SAT) or a nogood (ASP)",
  decisions: "guesses the solver made: literals set true without being forced",
  propagations: "literals (or domains) forced by the clauses or constraints, without guessing",
  restarts: "times the solver dropped its guesses to start again, keeping what it learned",
  nodes: "points of the search tree visited: each a state after propagation",
  guesses: "digits tried in a cell (or rows tried in a column) that were not forced",
  backtracks: "dead ends: a cell (or column) with no candidate left, undone by going back",
  assignments: "digits placed, by propagation or by a guess",
  eliminations: "candidates removed because a peer holds that digit",
  inferences: "Prolog's logical inferences: steps of the program and its constraints",
  choices: "clingo's choices: atoms decided by guessing",
  steps: "deductions a player makes, one named technique each",
  columns: "primary columns of the exact cover matrix: each must be covered exactly once",
  secondary_columns: "secondary columns: pairs of rows that may not both be chosen",
  rows: "rows of the exact cover matrix: one per (cell, digit)",
  variables: "variables of the model",
  rules: "ground rules of the answer set program",
  atoms: "ground atoms of the answer set program",
  failures: "dead ends Gecode met in its search",
};

/** The title of a statistic: its meaning, or its name when it has none here. */
export const statTitle = (name) => STATS[name] || STATS[name.split("_")[0]] || name;

/** A legend line for the statistics shown in the compare table. */
export function legend(names) {
  const known = [...new Set(names)].filter((n) => STATS[n]);
  $("stats-legend").innerHTML = known.map((n) => `<span><b>${escape(n)}</b>: ${escape(STATS[n])}</span>`).join("");
}

let rules = [];

// A new puzzle (load.js): the old one's rules and pieces go, the next "side by side" lists its own
document.addEventListener("newpuzzle", () => {
  rules = [];
  $("teach-rule").textContent = $("teach-title").textContent = $("teach-pieces").textContent = "";
  delete $("teach-pieces").dataset.rule;
  if ($("teach-wide").open) $("teach-wide").close();
});

/** Load the puzzle's numbered rules into the picker, the selected cell's first. */
export async function loadRules() {
  const picker = $("teach-rule");
  try {
    const answer = await api("/api/model/rule", { puzzle: puzzleText(false) });
    rules = answer.rules;
    const cell = state.cursor;
    const mine = rules.filter((r) => r.cells.includes(cell)), others = rules.filter((r) => !r.cells.includes(cell));
    picker.innerHTML = [...mine, ...others].map((r) => `<option value="${r.number}">${r.number}: ${escape(r.name)}${r.cells.includes(cell) ? " ★" : ""}</option>`).join("");
  } catch (error) {
    if (!(error instanceof Stale)) $("teach-pieces").textContent = error.message;
  }
}

/** Each engine's piece for the rule picked, side by side. */
export async function showRule(number = Number($("teach-rule").value)) {
  const box = $("teach-pieces");
  // the panels side by side in a dialog as wide as the window (the tools' column is narrow)
  if (!$("teach-wide").open) $("teach-wide").showModal();
  if (!number) { await loadRules(); number = Number($("teach-rule").value); }
  box.textContent = "building every engine's model…";
  try {
    const answer = await api("/api/model/rule", { puzzle: puzzleText(false), rule: number, encoding: $("teach-encoding").value });
    box.dataset.rule = String(answer.rule.number);
    $("teach-title").textContent = `${answer.rule.number}: ${answer.rule.name} (${answer.rule.cells.length} cells)`;
    box.innerHTML = answer.pieces.map(panel).join("");
  } catch (error) {
    if (!(error instanceof Stale)) box.textContent = error.message;
  }
}

function panel(piece) {
  const sizes = Object.entries(piece.size).map(([k, v]) => `${v.toLocaleString("en")} ${escape(k)}`).join(", ");
  const body = piece.missing ? `<p class="missing">${escape(piece.missing)}</p>`
    : `<pre class="code lang-${piece.language}"><code>${highlight(piece.text, piece.language)}</code></pre>`;
  return `<section class="piece" data-engine="${escape(piece.engine)}"${piece.missing ? ' data-missing="1"' : ""}>` +
    `<h4>${escape(piece.engine)} <small>${escape(piece.title)}</small></h4>` +
    `<p class="sizes">${sizes}</p>${body}</section>`;
}

const COMMENT = { asp: "%", prolog: "%", minizinc: "%", python: "#", dimacs: "c ", smt2: ";", text: "%" };
const KEYWORDS = {
  python: /\b(def|for|in|if|elif|else|while|return|raise|try|finally|continue|break|not|and|or|is|None|True|False)\b/g,
  prolog: /\b(maplist|all_distinct|all_different|sum|tuples_in|ins|in|transpose|length|append|foldl)\b/g,
  minizinc: /\b(predicate|constraint|forall|alldifferent|sum|array|var|int|where|in|index_set|index_set_1of2)\b/g,
  asp: /(#count|#sum|\bnot\b|:-)/g,
  smt2: /\b(assert|or|and|not|distinct|ite|at-most|pbeq)\b/g,
  text: /\b(ExactlyOne|AtMostOne|AllDifferent|Sum|clauses|not both)\b/g,
  dimacs: null,  // numbers only
};

/** The text as HTML: comments, keywords and numbers marked (a small highlighter, no library). */
export function highlight(text, language) {
  const mark = COMMENT[language] || "%";
  return text.split("\n").map((line) => {
    const at = line.indexOf(mark);
    const isComment = at >= 0 && (language !== "dimacs" || at === 0) && (language !== "python" || !/["']/.test(line.slice(0, at)));
    const code = isComment ? line.slice(0, at) : line, comment = isComment ? line.slice(at) : "";
    const keywords = language in KEYWORDS ? KEYWORDS[language] : KEYWORDS.text;
    let html = escape(code);
    if (keywords) html = html.replace(keywords, '<span class="kw">$1</span>');
    html = html
      .replace(/(^|[^\w&#])(-?\d+)(?![\w;])/g, '$1<span class="num">$2</span>');
    if (comment) html += `<span class="comment">${escape(comment)}</span>`;
    return html;
  }).join("\n");
}
