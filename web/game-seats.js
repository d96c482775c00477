// The list "Players" of a game screen: each seat's picture, name, score and what it is doing
// (to move, out, its place and rating change at the end); and which seat is the viewer's.
// The game screen and the replay both name the viewer "you" by it.
import { h, fill } from "./dom.js";
import * as session from "./session.js";
import { avatar, playerLink } from "./people.js";
import { ordinal } from "./words.js";

/** The viewer's seat in `game` (null: watching). */
export function seatOf(game) {
  const you = session.current();
  if (!game || !you) return null;
  const seat = game.seats.find((s) => s.player_id === you.player_id && s.kind === you.kind);
  return seat ? seat.seat : null;
}

/** The empty list, drawn by `drawSeats`. */
export function seatList() {
  return h("ul", { class: "seats", "aria-label": "Players" });
}

/** Every seat of `game` into `list`, `me` being the viewer's seat (or null). */
export function drawSeats(list, game, me, variant) {
  fill(list, game.seats.map((seat) => seatItem(seat, game, me, variant)));
}

function seatItem(seat, game, me, variant) {
  const toMove = Boolean(game.turn) && game.turn.seat === seat.seat && game.status === "active";
  const status = seatStatus(seat, me, toMove);
  const name = seat.kind === "open" ? h("span", {}, seat.name || "Open seat") : playerLink(seat.name, seat.kind);
  const classes = `seat s${seat.seat}${toMove ? " to-move" : ""}${seat.out ? " out" : ""}`;
  return h("li", { class: classes, "data-seat": seat.seat },
    avatar(seat.name, { kind: seat.kind }),
    h("span", { class: "seat-text" },
      h("span", { class: "name" }, name),
      h("span", { class: "score" }, seat.kind === "open" ? "waiting" : variant.score(seat)),
      status.length ? h("span", { class: "seat-status" }, status.join(", ")) : null));
}

/** What a seat is doing, in words: "you, to move", "out", "2nd place, rating 1500 → 1512". */
function seatStatus(seat, me, toMove) {
  const status = [];
  if (seat.seat === me) status.push("you");
  if (toMove) status.push("to move");
  if (seat.out) status.push("out");
  if (seat.place) status.push(`${ordinal(seat.place)} place`);
  if (seat.rating_after !== null && seat.rating_after !== undefined) {
    status.push(`rating ${seat.rating_before} → ${seat.rating_after}`);
  }
  return status;
}
