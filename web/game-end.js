// What a game screen shows before and after play: while it waits for players, "Copy the link"
// and "Cancel game" for its creator, "Accept" and "Decline" for an invited player, "Join" for
// anybody else signed in; once over, the result from the viewer's side, why it ended, and the
// links "Replay", "Share page", "Verification" and (for players) "Rematch".
import { h, fill, errorSlot, act } from "./dom.js";
import * as api from "./api.js";
import * as session from "./session.js";
import { resultWords, reasonWords } from "./words.js";

/** The empty end box, drawn by `drawEnd`. */
export function endSection() {
  return h("section", { class: "end", hidden: true, "aria-labelledby": "result" });
}

/** The empty waiting box, drawn by `drawWaiting`. */
export function waitingSection() {
  return h("section", { class: "card waiting", hidden: true });
}

/** The end of `game` into `box` (hidden while it runs); `field` is the laid-open field. */
export function drawEnd(box, { game, gameId, me, field }) {
  const over = game.status === "finished";
  box.hidden = !over;
  if (!over) { fill(box); return; }
  const nameOf = (i) => game.seats[i].name;
  const words = resultWords(game, me, nameOf);
  const reason = game.result ? reasonWords(game.result.reason, game, nameOf) : "";
  const rematchError = errorSlot();
  const rematch = me === null ? null : h("a", { href: `#/game/${gameId}`, class: "button", onclick: (e) => {
    e.preventDefault();
    rematchGame(e.currentTarget, rematchError, gameId);
  } }, "Rematch");
  fill(box,
    h("h2", { id: "result", class: `result${words.startsWith("You won") ? " won" : ""}` }, words),
    reason ? h("p", { class: "muted" }, `The game ended because ${reason}.`) : null,
    field || !game.daily ? null : h("p", { class: "muted" }, "The whole field is shown once the day's duel is over."),
    h("div", { class: "row links" },
      h("a", { class: "button", href: `#/replay/${gameId}` }, "Replay"),
      h("a", { class: "button", href: api.url(`/share/${gameId}`), id: "share-link" }, "Share page"),
      h("a", { class: "button", href: `#/verify/${gameId}`, id: "verify-link" }, "Verification"),
      rematch),
    rematchError);
}

async function rematchGame(link, slot, gameId) {
  await act(link, slot, async () => {
    const game = await api.post(`/v1/games/${gameId}/rematch`, {});
    location.hash = `#/game/${game.game_id}`;
  });
}

/** What the viewer can do while `game` waits for players, into `box` (hidden otherwise).
 * `send(button, request, slot)` runs a request that answers with the game and shows it. */
export function drawWaiting(box, { game, gameId, me, send }) {
  const waiting = game.status === "waiting";
  box.hidden = !waiting;
  if (!waiting) { fill(box); return; }
  const slot = errorSlot();
  const parts = [h("h2", {}, "Waiting for players")];
  parts.push(...waitingChoices(game, gameId, me, (button, request) => send(button, request, slot), slot));
  parts.push(slot);
  fill(box, parts);
}

function waitingChoices(game, gameId, me, send, slot) {
  const you = session.current();
  const reservedForMe = game.seats.find((s) => s.kind === "open" && you && you.username
    && s.name === `Reserved for ${you.username}`);
  const openSeat = game.seats.some((s) => s.kind === "open" && !/^Reserved for /.test(s.name));
  const join = () => api.post(`/v1/games/${gameId}/join`, {});
  if (me !== null && me === (game.creator_seat ?? 0)) {
    return [
      h("p", {}, "Share this page's address with the people you want to play, or wait for someone from the lobby."),
      h("div", { class: "row" },
        h("button", { type: "button", onclick: (e) => copyLink(e.currentTarget) }, "Copy the link"),
        h("button", { type: "button", class: "danger",
          onclick: (e) => send(e.currentTarget, () => api.del(`/v1/games/${gameId}`)) }, "Cancel game"))];
  }
  if (reservedForMe) {
    const host = (game.seats.find((s) => s.kind !== "open") || game.seats[0]).name;
    return [h("p", {}, `${host} invites you to this game.`),
      h("div", { class: "row" },
        h("button", { type: "button", class: "primary", onclick: (e) => send(e.currentTarget, join) }, "Accept"),
        h("button", { type: "button", onclick: (e) => act(e.currentTarget, slot, async () => {
          await api.post(`/v1/games/${gameId}/decline`, {});
          location.hash = "#/";
        }) }, "Decline"))];
  }
  if (me === null && openSeat) {
    if (session.signedIn()) {
      return [h("button", { type: "button", class: "primary", onclick: (e) => send(e.currentTarget, join) }, "Join")];
    }
    return [h("p", {}, "Games against people need an account. ", h("a", { href: "#/account" }, "Sign in or sign up"),
      " to join.")];
  }
  if (me !== null) return [h("p", {}, "You have a seat: the game starts when every seat is taken.")];
  return [];
}

async function copyLink(button) {
  const address = location.href;
  try {
    await navigator.clipboard.writeText(address);
    button.textContent = "Link copied";
  } catch {
    button.textContent = address;
  }
}
