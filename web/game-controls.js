// The game screen's controls beside the board: the radio group "Action" (where a variant has
// more than one: "Tap" or "Bomb", "Reveal" or "Guess mine"), and the footer below the moves:
// "Resign" (asked first), "Turn spectators off" and "Claim the time-out".
import { h, fill } from "./dom.js";
import * as api from "./api.js";

/** The empty group "Action", drawn by `drawActions`. */
export function actionGroup() {
  return h("div", { class: "actions", role: "radiogroup", "aria-label": "Action", hidden: true });
}

/** Draw the actions of `variant` into `group` and return the one chosen: `chosen` while the
 * viewer's seat may still use it, else the first it may. `onPick(id)` hears a new choice. */
export function drawActions(group, { game, gameId, me, variant, armable, chosen, onPick }) {
  const seat = me === null ? null : game.seats[me];
  const available = variant.actions.filter((a) => !a.available || (seat && a.available(seat)));
  let action = chosen;
  if (!action || !available.some((a) => a.id === action)) {
    action = available.length ? available[0].id : variant.actions[0].id;
  }
  if (variant.actions.length < 2 || !armable) {
    group.hidden = true;
    fill(group);
    return action;
  }
  group.hidden = false;
  const name = `action-${gameId}`;
  fill(group, h("span", { class: "group-label", "aria-hidden": "true" }, "Action:"),
    variant.actions.map((a) => actionChoice(a, {
      name, enabled: available.includes(a), checked: a.id === action, onPick,
    })));
  return action;
}

function actionChoice(action, { name, enabled, checked, onPick }) {
  const input = h("input", {
    type: "radio", name, value: action.id, checked, disabled: !enabled, onchange: () => onPick(action.id),
  });
  return h("label", { class: `choice${enabled ? "" : " disabled"}` },
    input, ` ${action.label}`, enabled ? "" : h("span", { class: "muted" }, " (used)"));
}

/** Draw the footer of `game` for the viewer's seat `me`. `send(button, request)` runs a
 * request that answers with the game and shows it; `resign.confirming` is whether "Resign"
 * is asking; `deadlinePassed` whether the player to move is out of time. */
export function drawFooter(footer, { game, gameId, me, deadlinePassed, resign, send }) {
  const parts = [];
  if (me !== null && game.status === "active" && !game.seats[me].out) {
    parts.push(...resignControls(gameId, resign, send));
    if (!game.spectators_off) {
      const stopWatchers = () => api.del(`/v1/games/${gameId}/spectators`);
      parts.push(h("button", { type: "button", class: "subtle", onclick: (e) => send(e.currentTarget, stopWatchers) },
        "Turn spectators off"));
    }
    if (game.turn && game.turn.seat !== me && deadlinePassed) {
      const claim = () => api.post(`/v1/games/${gameId}/timeout`, {});
      parts.push(h("button", { type: "button", onclick: (e) => send(e.currentTarget, claim) }, "Claim the time-out"));
    }
  }
  if (me === null && game.status === "active") parts.push(h("p", { class: "muted" }, "You are watching this game."));
  fill(footer, parts);
}

/** "Resign", which asks first: "Yes, resign" or "Keep playing". */
function resignControls(gameId, resign, send) {
  const yes = h("button", { type: "button", class: "danger", onclick: (e) => send(e.currentTarget, () => {
    resign.confirming = false;
    return api.post(`/v1/games/${gameId}/resign`, {});
  }) }, "Yes, resign");
  const keep = h("button", { type: "button", onclick: () => {
    resign.confirming = false;
    confirmBox.hidden = true;
    ask.hidden = false;
    ask.focus();
  } }, "Keep playing");
  const confirmBox = h("div", { class: "confirm", hidden: !resign.confirming },
    h("p", {}, "Resign and lose this game?"), h("div", { class: "row" }, yes, keep));
  const ask = h("button", { type: "button", class: "danger subtle", hidden: resign.confirming, onclick: () => {
    resign.confirming = true;
    ask.hidden = true;
    confirmBox.hidden = false;
    yes.focus();
  } }, "Resign");
  return [ask, confirmBox];
}
