// Small helpers for the page's elements, shared by every module.

/** The element with this id. */
export const $ = (id) => document.getElementById(id);

/** The line under the board: what the last action found (kind: "good", "bad" or ""). */
export function say(text, kind = "") {
  $("message").textContent = text;
  $("message").className = kind;
}

/** Make an element that opens something on a click a control the keyboard reaches too:
 * Tab stops on it, Enter or Space presses it (and goes no further: Space is a grid key). */
export function pressable(element, press) {
  element.tabIndex = 0;
  element.setAttribute("role", "button");
  element.addEventListener("click", press);
  element.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    event.stopPropagation();
    press();
  });
}

/** Text safe to put inside HTML. */
export function escape(text) {
  return String(text).replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** Scroll the board into sight when it is not (a phone: the tools sit far below it). */
export function showBoard() {
  const box = $("board").getBoundingClientRect();
  // (a phone lays the board's side out as its children, sticky: then the page's top)
  const side = $("board-side"), target = side.getClientRects().length ? side : $("title-row");
  if (box.top < 0 || box.bottom > window.innerHeight) target.scrollIntoView({ block: "start" });
}
