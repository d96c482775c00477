// Who is playing in this browser: a guest (a token from the API) or an account (Cognito tokens),
// kept in localStorage. An account's access token is refreshed a few minutes before it expires
// (and at once when the API says it has expired, as after a night or a moved local clock); a
// guest token the server no longer knows is replaced by a new guest, with a short message.
import * as cognito from "./cognito.js";
import { serverNow } from "./clock.js";
import { forget } from "./saved.js";

const KEY = "mineduel.session";
const REFRESH_MARGIN_MS = 5 * 60 * 1000;

let base = "";
let state = load();
let timer = null;
let refreshing = null;
let renewing = null; // a new guest on its way (recover)
const listeners = new Set();

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY));
    return saved && saved.token ? saved : null;
  } catch {
    return null;
  }
}

export function configure(config) {
  base = config.api_url || "";
  schedule();
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && nearExpiry()) refreshNow().catch(() => {});
  });
}

export function current() {
  return state;
}

export function signedIn() {
  return Boolean(state && state.kind === "account");
}

/** `fn(state, notice)` after every change; returns the unsubscribe. */
export function onChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function set(next, notice = "") {
  const before = state && state.token;
  state = next;
  if (next) localStorage.setItem(KEY, JSON.stringify(next));
  else localStorage.removeItem(KEY);
  schedule();
  for (const fn of listeners) fn(state, notice, before !== (next && next.token));
}

export function update(fields) {
  if (state) set({ ...state, ...fields });
}

function nearExpiry() {
  return signedIn() && state.expires_at - Date.now() < REFRESH_MARGIN_MS;
}

function schedule() {
  clearTimeout(timer);
  if (!signedIn()) return;
  const wait = Math.max(1000, state.expires_at - Date.now() - REFRESH_MARGIN_MS);
  timer = setTimeout(() => refreshNow().catch(() => {}), Math.min(wait, 2 ** 31 - 1));
}

/** The token to send, refreshed first when it is about to expire; null for nobody. */
export async function token() {
  if (nearExpiry()) {
    try { await refreshNow(); } catch { /* the API will say 401 and recover() decides */ }
  }
  return state ? state.token : null;
}

/** New tokens from the refresh token (one refresh at a time); a refused refresh signs out. */
export function refreshNow() {
  if (!signedIn()) return Promise.resolve(false);
  if (refreshing) return refreshing;
  const refreshToken = state.refresh_token;
  refreshing = cognito.refresh(refreshToken).then(
    (fresh) => {
      if (state && state.refresh_token === refreshToken) {
        set({ ...state, token: fresh.access_token, expires_at: fresh.expires_at });
      }
      return true;
    },
    (error) => {
      if (error && error.type && error.type !== "NetworkError") {
        set(null, "Your sign-in has ended: sign in again to go on.");
      }
      throw error;
    },
  ).finally(() => { refreshing = null; });
  return refreshing;
}

/** The API refused our token (401). An account refreshes; a guest becomes a new guest.
 * True when the request is worth sending again. */
export async function recover(sentToken) {
  if (!state) return false;
  if (state.token !== sentToken) return true; // already replaced meanwhile
  if (state.kind === "account") {
    try {
      return await refreshNow();
    } catch {
      return false;
    }
  }
  // One new guest for all the requests the old token failed at once (the socket's check and a
  // screen's read): two would leave a game with the guest that was replaced.
  if (!renewing) {
    renewing = newGuest("Your guest session had ended, so you now play as a new guest.")
      .finally(() => { renewing = null; });
  }
  await renewing;
  return true;
}

async function postGuest() {
  const answer = await fetch(`${base}/v1/guests`, { method: "POST", headers: { accept: "application/json" } });
  if (answer.status !== 201) throw Object.assign(new Error("guest"), { words: "The server could not start a guest session: try again in a moment." });
  return answer.json();
}

export async function newGuest(notice = "") {
  const data = await postGuest();
  set({
    kind: "guest", token: data.token, player_id: data.player_id,
    name: `Guest ${data.player_id.replace("guest-", "").slice(0, 6)}`,
    guest_expires_at: data.expires_at,
  }, notice);
  return state;
}

/** A guest session unless someone already plays here (guests may play the bot). */
export async function ensurePlayer() {
  if (state && state.kind === "guest" && state.guest_expires_at && Date.parse(state.guest_expires_at) < serverNow()) {
    return newGuest("Your guest session had ended, so you now play as a new guest.");
  }
  return state || newGuest();
}

/** An account's tokens and profile become the session; a guest playing here before is kept
 * aside, so its games can be moved to the account. */
export function signedInAs(tokens, profile, email) {
  const guest = state && state.kind === "guest" ? { token: state.token, name: state.name } : (state && state.previous_guest) || null;
  set({
    kind: "account", token: tokens.access_token, refresh_token: tokens.refresh_token,
    expires_at: tokens.expires_at, email, player_id: profile.player_id,
    username: profile.username || null, name: profile.username || email,
    avatar_url: profile.avatar_url || null, previous_guest: guest,
  });
}

export async function signOut() {
  const was = state;
  if (was) forget(was.player_id); // the games kept for offline (saved.js) go with the player
  set(null, "You are signed out.");
  if (was && was.kind === "account") {
    try { await cognito.signOut(was.token); } catch { /* the tokens are gone from here anyway */ }
  }
}
