// Sharing: a link to this page that opens the same puzzle with the player's progress (all
// in the URL's hash, nothing stored on the server), and links to SudokuPad and f-puzzles.

import { $ } from "./dom.js";
import { playerLinks } from "./links.js";
import { progress, puzzleText, restoreProgress, state } from "./state.js";

const PREFIX = "#p=";

function encode(text) {
  // base64url of UTF-8 text
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decode(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(binary, (ch) => ch.charCodeAt(0)));
}

/** This page's link to the puzzle and the player's progress. */
export function pageLink() {
  const data = { puzzle: puzzleText(false), name: state.name, progress: progress() };
  return `${location.origin}${location.pathname}${PREFIX}${encode(JSON.stringify(data))}`;
}

/** Show the three links under the board. */
export function showShare() {
  const links = playerLinks(state.puzzle);
  $("share-url").value = pageLink();
  $("share-page").href = $("share-url").value;
  for (const site of ["sudokupad", "fpuzzles"]) {
    const anchor = $(`share-${site}`);
    anchor.hidden = !links[site];
    if (links[site]) anchor.href = links[site];
  }
  $("share-why").textContent = links.why;
  $("share-links").hidden = false;
  $("share-url").select();
}

/** The shared puzzle in the page's hash, or null: {puzzle (text), name, progress}. */
export function sharedInHash() {
  if (!location.hash.startsWith(PREFIX)) return null;
  try {
    const data = JSON.parse(decode(location.hash.slice(PREFIX.length)));
    return typeof data.puzzle === "string" ? data : null;
  } catch {
    return null;
  }
}

/** Put the shared progress on the board just opened. */
export function applyShared(data) {
  if (data.progress) restoreProgress(data.progress);
}
