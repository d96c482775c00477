// Whether the server can be reached now. A phone on a train is offline more often than the
// browser admits (navigator.onLine is true on a connection that carries nothing), so every API
// request tells this module how it went (api.js), and the browser's online/offline events
// count too. While offline, the page says so in one line under the header; screens show what
// they last knew (saved.js) and the game screen keeps Commit off: a move is committed only
// when the server can answer, so it cannot be lost half-way or sent twice.
const listeners = new Set();
export const connection = { offline: typeof navigator !== "undefined" && navigator.onLine === false };

const WORDS = "You are offline: this is what the app last knew. Moves can be committed once the connection is back.";

function set(offline) {
  if (connection.offline === offline) return;
  connection.offline = offline;
  paint();
  for (const fn of listeners) fn(offline);
}

function paint() {
  const line = document.getElementById("offline");
  if (!line) return;
  line.textContent = connection.offline ? WORDS : "";
  line.hidden = !connection.offline;
}

/** A request could not reach the server. */
export function lost() { set(true); }

/** The server answered (whatever it said). */
export function reached() { set(false); }

/** `fn(offline)` on every change; returns the unsubscribe. */
export function onChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function start() {
  window.addEventListener("offline", () => set(true));
  window.addEventListener("online", () => set(false));
  paint();
}
