// What a learning engine reports over time (issue 32): one that keeps a timeline (its
// keeps_timeline in /api/backends) solves the current puzzle while its counters are sampled (POST /api/timeline, recorded by
// sudokulab/backends/timeline.py); each figure is drawn as a small SVG line chart against time, with
// the one sentence of what it means in that paradigm and how the engine was observed.

import { api, Stale } from "./api.js";
import { $, escape } from "./dom.js";
import { puzzleText } from "./state.js";

const W = 220, H = 70, PAD = 4;  // one chart's size in SVG units

/** Sample the chosen engine on the puzzle and draw a chart per figure. */
export async function showTimeline() {
  const backend = $("timeline-engine").value, box = $("timeline-charts");
  $("timeline-text").textContent = `sampling ${backend}…`;
  box.innerHTML = "";
  let answer;
  try {
    answer = await api("/api/timeline", { puzzle: puzzleText(false), backend });
  } catch (error) {
    if (!(error instanceof Stale)) $("timeline-text").textContent = error.message;
    return;
  }
  const samples = answer.samples, last = samples[samples.length - 1];
  $("timeline-text").textContent = `${backend}: ${answer.status}, ${samples.length} samples over ${(last.t * 1000).toFixed(1)} ms; sampled by ${answer.how}.`;
  box.dataset.backend = backend;
  box.innerHTML = answer.figures.map((figure) => chart(figure, samples, answer.meaning[figure])).join("");
}

/** One figure's line chart (x: seconds, or sample number when time did not move), captioned. */
function chart(figure, samples, meaning) {
  const span = samples[samples.length - 1].t - samples[0].t;
  const xs = samples.map((s, k) => (span > 0 ? s.t / span : k / Math.max(1, samples.length - 1)));
  const top = Math.max(1, ...samples.map((s) => s[figure]));
  const points = samples.map((s, k) =>
    `${(PAD + xs[k] * (W - 2 * PAD)).toFixed(1)},${(H - PAD - (s[figure] / top) * (H - 2 * PAD)).toFixed(1)}`).join(" ");
  const final = samples[samples.length - 1][figure];
  return `<figure class="timeline" data-figure="${escape(figure)}" data-points="${samples.length}">
    <svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${escape(figure)} over time">
      <line x1="${PAD}" y1="${H - PAD}" x2="${W - PAD}" y2="${H - PAD}" class="axis"/>
      <polyline points="${points}"/></svg>
    <figcaption><b>${escape(figure)}</b> ${Number(final).toLocaleString()}: ${escape(meaning)}</figcaption></figure>`;
}

/** Forget the charts: they were of a puzzle no longer on the board (load.js's newpuzzle). */
function forget() {
  $("timeline-text").textContent = $("timeline-charts").innerHTML = "";
  delete $("timeline-charts").dataset.backend;
}

/** The timeline controls. */
export function wireTimeline() {
  document.addEventListener("newpuzzle", forget);
  $("timeline-run").addEventListener("click", showTimeline);
}
