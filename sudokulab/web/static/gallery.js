// The gallery: a page of a dataset's puzzles as square thumbnails (the givens, with box
// lines); a click opens one, named after its dataset and number.

import { api } from "./api.js";
import { $, pressable } from "./dom.js";
import { openEntry } from "./load.js";
import { BOXES, SYMBOLS } from "./state.js";

const gallery = { name: "", offset: 0, count: 12, total: 0 };

function thumbnail(line) {
  // The givens only: the solution is the player's to find.
  const n = Math.round(Math.sqrt(line.length)), [br, bc] = BOXES[n] || [n, 1];
  const cells = [...line.slice(0, n * n)].map((ch, i) => {
    const r = Math.floor(i / n), c = i % n, given = SYMBOLS.slice(0, n).includes(ch);
    const edges = `${(c + 1) % bc === 0 && c < n - 1 ? " br" : ""}${(r + 1) % br === 0 && r < n - 1 ? " bb" : ""}`;
    return `<span class="${given ? "given" : ""}${edges}">${given ? ch : ""}</span>`;
  });
  return `<div class="g" style="--n:${n}">${cells.join("")}</div>`;
}

/** Show the current page of the gallery's dataset. */
export async function showGallery() {
  gallery.name = $("gallery-dataset").value;
  const page = await api(`/api/datasets/${gallery.name}?offset=${gallery.offset}&number=${gallery.count}`);
  gallery.total = page.total;
  $("gallery-page").textContent = `${page.offset + 1}–${page.offset + page.puzzles.length} of ${page.total}`;
  $("gallery").innerHTML = page.puzzles.map((e) => `<figure class="mini" data-index="${e.index}" title="open ${gallery.name} #${e.index + 1}">${thumbnail(e.puzzle)}<figcaption>#${e.index + 1}</figcaption></figure>`).join("");
  for (const figure of $("gallery").children) {
    const entry = page.puzzles.find((x) => x.index === Number(figure.dataset.index));
    pressable(figure, () => openEntry(page.name || gallery.name, entry));
  }
}

/** Turn the gallery's page (delta -1 or +1) or start a dataset (delta 0). */
export function turn(delta) {
  if (delta === 0) gallery.offset = 0;
  else gallery.offset = Math.max(0, Math.min(gallery.offset + delta * gallery.count, Math.max(0, gallery.total - 1)));
  return showGallery();
}
