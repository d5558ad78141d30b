// Certified verdicts (issue 56): "prove" asks POST /api/certify to decide the puzzle on the
// certificates' own CNF and verify the certificate (a DRAT proof, replayed by the lab's own
// checker; the solutions by check.py). The line says "proved: one solution", "proved: no
// solution" or "two solutions shown", and links the certificate: a zip of its plain files
// (<name>.json, .cnf, .drat) that `sudokulab verify` or drat-trim reads once unzipped.
// A certificate the checker rejects is never shown as proved. A click, not automatic: a
// proof costs a helper process a second or more, which a solve should not pay unasked.

import { api, Stale } from "./api.js";
import { $ } from "./dom.js";
import { timeout } from "./engines.js";
import { puzzleText, state, SYMBOLS } from "./state.js";

let link = "";         // the object URL of the certificate offered, revoked when replaced

/** Forget the certificate shown: a new puzzle, or a new proof under way. */
function reset(text = "") {
  const line = $("prove-status"), download = $("prove-download");
  line.textContent = text;
  line.className = "";
  delete line.dataset.status;
  delete line.dataset.verdict;
  if (link) URL.revokeObjectURL(link);
  link = "";
  download.hidden = true;
  download.removeAttribute("href");
  $("prove-solutions").hidden = true;
  $("prove-solutions").innerHTML = "";
}

/** Prove the verdict of the puzzle as it stands (the entries too while editing). */
export async function prove() {
  if (!state.puzzle) return;
  reset("proving…");
  $("prove-status").dataset.status = "busy";
  try {
    const answer = await api("/api/certify", { puzzle: puzzleText(!$("mode-play").checked), timeout: timeout() });
    show(answer);
  } catch (error) {
    if (error instanceof Stale) return;
    reset(`no proof: ${error.message}`);
    $("prove-status").className = "bad";
    $("prove-status").dataset.status = "error";
  }
}

/** The answer: the verdict in words, how it was proved, and the certificate to download. */
function show(answer) {
  const line = $("prove-status");
  line.dataset.status = answer.status;
  if (answer.status !== "proved") {  // rejected, timeout, error, cancelled: no verdict
    line.textContent = answer.status === "rejected" ? `not proved: ${answer.message}` : `no proof: ${answer.message || answer.status}`;
    line.className = "bad";
    return;
  }
  line.dataset.verdict = answer.verdict;
  const how = answer.lemmas ? `a DRAT proof of ${answer.lemmas} lemmas, replayed by the lab's own checker`
    : "two different grids, each checked by check.py";
  const count = answer.verdict === "multiple" && answer.count ? ` (exactly ${answer.count}, proved)` : "";
  line.textContent = `${answer.said}${count}: ${how} in ${Math.round(answer.check_ms)} ms`;
  line.className = "good";
  const bytes = Uint8Array.from(atob(answer.certificate.zip), (ch) => ch.charCodeAt(0));
  link = URL.createObjectURL(new Blob([bytes], { type: "application/zip" }));
  const download = $("prove-download");
  download.href = link;
  download.download = answer.certificate.name;
  download.textContent = `download the certificate (${answer.certificate.name}, ${Math.ceil(bytes.length / 1024)} KB)`;
  download.hidden = false;
  if (answer.verdict === "multiple") showTwo(answer.solutions);
}

/** The two solutions side by side, their differing cells marked. */
function showTwo([one, two]) {
  const n = state.puzzle.size, grid = (mine, other) => Array.from({ length: n }, (_, r) =>
    mine.slice(r * n, r * n + n).map((d, c) => (d === other[r * n + c] ? SYMBOLS[d - 1]
      : `<b>${SYMBOLS[d - 1]}</b>`)).join(" ")).join("\n");
  const box = $("prove-solutions");
  box.innerHTML = `<pre>${grid(one, two)}</pre><pre>${grid(two, one)}</pre>`;
  box.title = "two solutions of the puzzle; bold: where they differ";
  box.hidden = false;
}

function wire() {
  $("prove").addEventListener("click", prove);
  document.addEventListener("newpuzzle", () => reset());
}

wire();
