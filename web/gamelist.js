// Finished games as a list (history, a profile's recent games): who played, the result from
// the list owner's side, when, and a "Replay" link.
import { h, when } from "./dom.js";
import { variantName } from "./variants.js";
import { ordinal } from "./words.js";
import { seatNames } from "./people.js";

/** One finished game; `mySeat` is the list owner's seat (null: told neutrally). */
export function finishedItem(game, mySeat) {
  const seats = game.seats;
  const firsts = seats.filter((s) => s.place === 1);
  let outcome;
  if (game.status === "cancelled") outcome = "cancelled";
  else if (mySeat !== null && mySeat !== undefined && seats[mySeat]) {
    const place = seats[mySeat].place;
    if (place === 1 && firsts.length > 1) outcome = "draw";
    else if (place === 1) outcome = "won";
    else outcome = seats.length > 2 ? `lost (${ordinal(place)})` : "lost";
  } else {
    outcome = firsts.length === 1 ? `${firsts[0].name} won` : "draw";
  }
  const score = seats.map((s) => `${s.name} ${s.mines}`).join(" – ");
  return h("li", { "data-game": game.game_id },
    h("span", {},
      h("strong", {}, variantName(game.variant)), ` ${seatNames(seats)}: `, h("span", { class: `outcome ${outcome.split(" ")[0]}` }, outcome),
      h("br"), h("span", { class: "muted" }, `${score}${game.rated ? " · rated" : ""} · ${when(game.ended_at || game.created_at)}`)),
    game.status === "finished" ? h("a", { class: "button", href: `#/replay/${game.game_id}`, "aria-label": `Replay: ${seatNames(seats)}, ${when(game.ended_at)}` }, "Replay") : null);
}
