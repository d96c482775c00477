// The live channel (WebSocket): a screen follows a game and hears "read the game" whenever it
// changes. The socket reconnects with backoff, re-subscribes, and connects again with the new
// token whenever the session changes; when it is down, screens poll (they read `live.open`).
import * as session from "./session.js";
import * as api from "./api.js";

const PING_MS = 5 * 60 * 1000;
let url = "";
let socket = null;
let retry = 0;
let failedHandshakes = 0;
let pinger = null;
const follows = new Map(); // game id -> Set of handlers
const listeners = new Map(); // message type -> Set of handlers, for messages about the player
const statusListeners = new Set();

export const live = { open: false };

export function configure(config) {
  url = config.websocket_url || "";
  session.onChange((_state, _notice, tokenChanged) => { if (tokenChanged) connect(); });
  connect();
}

export function onStatus(fn) {
  statusListeners.add(fn);
  return () => statusListeners.delete(fn);
}

function announce() {
  for (const fn of statusListeners) fn(live.open);
}

function send(message) {
  if (live.open) socket.send(JSON.stringify(message));
}

async function connect() {
  if (socket) { socket.onclose = null; socket.close(); }
  socket = null;
  live.open = false;
  clearInterval(pinger);
  if (!url) return;
  const token = await session.token();
  const target = url.replace(/\/$/, "") + (token ? `/?token=${encodeURIComponent(token)}` : "/");
  const mine = new WebSocket(target);
  socket = mine;
  let opened = false;
  mine.onopen = () => {
    opened = true; live.open = true; retry = 0; failedHandshakes = 0;
    for (const gameId of follows.keys()) send({ action: "subscribe", game_id: gameId });
    pinger = setInterval(() => send({ action: "ping" }), PING_MS);
    announce();
    for (const [gameId, handlers] of follows) for (const fn of handlers) fn({ type: "open", game_id: gameId });
  };
  mine.onmessage = (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch { return; }
    const typed = listeners.get(message.type);
    if (typed) { for (const fn of typed) fn(message); return; }
    const handlers = follows.get(message.game_id);
    if (handlers) for (const fn of handlers) fn(message);
  };
  mine.onclose = async () => {
    if (socket !== mine) return;
    live.open = false;
    clearInterval(pinger);
    announce();
    if (!opened) {
      failedHandshakes += 1;
      if (failedHandshakes === 2 && session.current()) await askAboutToken();
    }
    retry = Math.min(retry + 1, 6);
    setTimeout(() => { if (socket === mine) connect(); }, 500 * 2 ** retry);
  };
}

/** Two handshakes failed: the token may be one the server no longer takes, or the network (a
 * phone going through a tunnel) or the live channel may be down. The browser does not say
 * which, so one read of the REST API does: its 401 replaces the token (api.js, session.js),
 * anything else leaves the session alone. A guest must never become a new guest, and lose its
 * games, because the connection dropped. */
async function askAboutToken() {
  try {
    await api.request("GET", "/v1/me/games?status=active&limit=1");
  } catch { /* offline, or a refusal that is not about the token: keep it */ }
}

/** Follow a game: `handler(message)` for its messages; returns the unfollow. */
export function follow(gameId, handler) {
  if (!follows.has(gameId)) {
    follows.set(gameId, new Set());
    send({ action: "subscribe", game_id: gameId });
  }
  follows.get(gameId).add(handler);
  return () => {
    const handlers = follows.get(gameId);
    if (!handlers) return;
    handlers.delete(handler);
    if (!handlers.size) {
      follows.delete(gameId);
      send({ action: "unsubscribe", game_id: gameId });
    }
  };
}

/** Hear the messages of one type that are about the player rather than a game they follow
 * (`paired`: a seek of theirs became a game); returns the stop. */
export function listen(type, handler) {
  if (!listeners.has(type)) listeners.set(type, new Set());
  listeners.get(type).add(handler);
  return () => {
    const handlers = listeners.get(type);
    if (handlers) handlers.delete(handler);
  };
}
