// Whose turn and how long: the game screen's turn line ("Your turn", "Ann to move"), its facts
// ("Time left", the deadline in the tooltip, "Mines left", who watches, whether the page is
// live), the warning that time is almost up, and the countdown that ticks by the server's clock.
import { h, fill, timeLeft, when } from "./dom.js";
import { serverNow } from "./clock.js";
import { live } from "./socket.js";

/** The turn line, the facts and the warning's slot, drawn by `drawClock`. */
export function clockPart() {
  return {
    turnLine: h("p", { class: "turn", role: "status", "aria-live": "polite", id: "to-move" }),
    facts: h("p", { class: "facts" }),
    banner: h("div", { class: "banner-slot" }),
  };
}

/** Whose turn it is in `game`, in words, `me` being the viewer's seat. */
export function turnWords(game, me) {
  if (game.status === "waiting") {
    const open = game.seats.filter((s) => s.kind === "open").length;
    return `Waiting for ${open === 1 ? "a player" : `${open} players`} to join`;
  }
  if (game.status === "cancelled") return "This game was cancelled";
  if (game.status === "finished") return "The game is over";
  if (game.turn) return game.turn.seat === me ? "Your turn" : `${game.seats[game.turn.seat].name} to move`;
  return "";
}

/** Draw `part` for `game`; `watchers` counts spectators, `warn` shows the time warning. */
export function drawClock(part, game, me, { watchers, warn }) {
  const words = turnWords(game, me);
  if (part.turnLine.textContent !== words) part.turnLine.textContent = words;
  const facts = [];
  if (game.status === "active" && game.turn) facts.push(timeLeftFact(game.turn.deadline));
  facts.push(h("span", { class: "mines-left" }, `Mines left: ${game.mines_left}`));
  if (watchers) facts.push(h("span", {}, `${watchers} watching`));
  facts.push(h("span", { class: "live-state" },
    h("span", { class: `live-dot${live.open ? " on" : ""}`, "aria-hidden": "true" }),
    live.open ? "Live" : "Updating every few seconds"));
  fill(part.facts, facts);
  fill(part.banner, warn ? h("p", { class: "banner warning" }, "Your time is almost up: commit a move soon.") : null);
}

function timeLeftFact(deadline) {
  return h("span", { class: "time-left" }, "Time left: ",
    h("time", { id: "countdown", datetime: deadline, "data-deadline": deadline, title: `Until ${when(deadline)}` },
      timeLeft(deadline)));
}

/** Tick the countdown on the page every second; `onTick(passed)` learns each time whether its
 * deadline has passed (by the server's clock). Returns the function that stops it. */
export function startCountdown(onTick) {
  const ticker = setInterval(() => {
    const el = document.getElementById("countdown");
    if (!el) return;
    el.textContent = timeLeft(el.dataset.deadline);
    el.classList.toggle("low", Date.parse(el.dataset.deadline) - serverNow() < 60000);
    onTick(Date.parse(el.dataset.deadline) < serverNow());
  }, 1000);
  return () => clearInterval(ticker);
}
