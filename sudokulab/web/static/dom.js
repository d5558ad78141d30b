// Small helpers for the page's elements, shared by every module.

/** The element with this id. */
export const $ = (id) => document.getElementById(id);

/** The line under the board: what the last action found (kind: "good", "bad" or ""). */
export function say(text, kind = "") {
  $("message").textContent = text;
  $("message").className = kind;
}

/** Text safe to put inside HTML. */
export function escape(text) {
  return String(text).replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** Scroll the board into sight when it is not (a phone: the tools sit far below it). */
export function showBoard() {
  const box = $("board").getBoundingClientRect();
  if (box.top < 0 || box.bottom > window.innerHeight) $("board-side").scrollIntoView({ block: "start" });
}
