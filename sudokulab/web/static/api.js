// The client of /api. Every request carries a tag "<tab>:<puzzle>:<request>" (contract 1 of
// issue 29, echoed by the server in every answer and event): an answer whose puzzle is no
// longer the one on the board is dropped, and loading a puzzle cancels the old puzzle's
// requests here (AbortController) and on the server (POST /api/cancel), which stops their
// work. <tab> is random per page load (issue 54): two tabs never share a tag, so one tab's
// cancel never stops another's work; the server treats a tag as an opaque string.

/** This page load's random id, the first part of each of its tags. */
export const TAB = (() => {
  if (globalThis.crypto && typeof crypto.randomUUID === "function") return crypto.randomUUID();
  if (globalThis.crypto && typeof crypto.getRandomValues === "function") {
    // randomUUID needs a secure context (https or localhost): a LAN address has only this
    return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
  }
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
})();

/** A tag of this tab for other work than the puzzle's (e.g. "setter:3"). */
export const tabTag = (rest) => `${TAB}:${rest}`;

let puzzleId = 0;
let counter = 0;
const running = new Map();  // tag -> AbortController of the requests still waiting

/** An answer (or failure) for a puzzle that is no longer on the board: ignore it. */
export class Stale extends Error {
  constructor(tag) { super(`stale answer ${tag}`); this.name = "Stale"; }
}

const isCurrent = (tag) => tag.startsWith(`${TAB}:${puzzleId}:`);

/** A new puzzle is on the board: stop everything asked for the old one. */
export function newPuzzle() {
  const old = [...running.keys()];
  puzzleId += 1;
  old.forEach(cancel);
}

/** Stop one request, here and on the server (a compare clicked again, a new puzzle). */
export function cancel(tag) {
  const controller = running.get(tag);
  if (!controller) return;  // answered already
  running.delete(tag);
  controller.abort();
  fetch("/api/cancel", { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ tag }) }).catch(() => {});  // a server without it: nothing to stop
}

function start() {
  const tag = tabTag(`${puzzleId}:${++counter}`), controller = new AbortController();
  running.set(tag, controller);
  return { tag, signal: controller.signal };
}

async function send(path, init, tag) {
  // The JSON answer of this request, or Stale when its puzzle has gone meanwhile.
  let response, data;
  try {
    response = await fetch(path, init);
    data = await response.json();
  } catch (error) {
    if (!isCurrent(tag) || error.name === "AbortError") throw new Stale(tag);
    throw new Error(`the server did not answer (${error.message})`);
  } finally {
    running.delete(tag);
  }
  if (!isCurrent(tag) || (data && data.tag != null && data.tag !== tag)) throw new Stale(tag);
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

/** GET path (no body) or POST body as JSON, tagged with the current puzzle. */
export async function api(path, body) {
  if (body === undefined) {
    const response = await fetch(path), data = await response.json();
    if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
    return data;
  }
  const { tag, signal } = start();
  return send(path, { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...body, tag }), signal }, tag);
}

/** POST a file as multipart form data (field `field`), tagged like any request. */
export async function upload(path, field, file) {
  const { tag, signal } = start(), form = new FormData();
  form.append(field, file);
  form.append("tag", tag);
  return send(`${path}?tag=${encodeURIComponent(tag)}`, { method: "POST", body: form, signal }, tag);
}

/** POST body and call onEvent(kind, data) for each server-sent event while it is current;
 * onTag(tag), if given, learns the request's tag first (to `cancel` it). */
export async function stream(path, body, onEvent, onTag) {
  const { tag, signal } = start();
  if (onTag) onTag(tag);
  let response;
  try {
    response = await fetch(path, { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...body, tag }), signal });
    if (!response.ok) throw new Error((await response.json()).error || `HTTP ${response.status}`);
    const reader = response.body.getReader(), decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value: chunk, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(chunk, { stream: true });
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const text = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const kind = /^event: (.*)$/m.exec(text)[1], data = JSON.parse(/^data: (.*)$/m.exec(text)[1]);
        if (!isCurrent(tag) || (data.tag != null && data.tag !== tag)) throw new Stale(tag);
        if (kind === "error") throw new Error(data.error);  // the server stopped midway
        onEvent(kind, data);
      }
    }
  } catch (error) {
    if (error instanceof Stale || !isCurrent(tag) || error.name === "AbortError") throw new Stale(tag);
    throw error;
  } finally {
    running.delete(tag);
  }
}
