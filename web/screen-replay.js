// #/replay/{id}: a finished game move by move ("First", "Previous", "Next", "Last" and a
// slider), each move with the exact chance of a mine its square had (the analysis, computed
// from the board its player saw), and the whole field laid open at the end. It is rebuilt from
// the game's published Verification document: the same moves anybody can check.
import { h, fill, plural } from "./dom.js";
import * as api from "./api.js";
import { createBoard, boardAfter, touched } from "./board.js";
import { variantOf } from "./variants.js";
import { movesList, describe, chance } from "./moves.js";
import { resultWords } from "./words.js";
import { seatOf } from "./game-seats.js";
import { seatNames } from "./people.js";

export async function show(view, gameId) {
  document.title = "Replay · MineDuel";
  const doc = await api.get(`/v1/games/${gameId}/verify`);
  if (doc.status !== "finished" || !doc.field) {
    fill(view, h("h1", {}, "Replay"),
      h("p", {}, doc.status === "finished" ? "The field of this game is published once its day is over: come back then." : "This game is not over yet: its replay opens when it ends."),
      h("p", {}, h("a", { href: `#/game/${gameId}` }, "Back to the game")));
    return undefined;
  }
  let analysis = null;
  const game = { ...doc, seats: doc.seats || [] };
  const variant = variantOf(doc.variant);
  const me = seatOf(game);
  const who = (i) => (i === me ? "You" : (game.seats[i] || { name: `Player ${i + 1}` }).name);
  const nameOf = (i) => (i === me ? "you" : (game.seats[i] || { name: `player ${i + 1}` }).name);
  const total = doc.moves.length;
  let at = total;

  const board = createBoard({ announce: () => {} });
  const slider = h("input", { type: "range", min: 0, max: total, value: at, "aria-label": "Move", "aria-valuetext": "" });
  const position = h("p", { class: "position", role: "status", "aria-live": "polite" });
  const chanceLine = h("p", { class: "chance" });
  const list = h("ol", { class: "moves", "aria-label": "Moves", reversed: true, tabindex: "0" });
  const buttons = {
    first: h("button", { type: "button", onclick: () => go(0) }, "First"),
    previous: h("button", { type: "button", onclick: () => go(at - 1) }, "Previous"),
    next: h("button", { type: "button", onclick: () => go(at + 1) }, "Next"),
    last: h("button", { type: "button", onclick: () => go(total) }, "Last"),
  };
  slider.addEventListener("input", () => go(Number(slider.value)));
  const luck = h("div", { class: "luck" });

  fill(view,
    h("div", { class: "game" },
      h("div", { class: "game-head" },
        h("h1", {}, `Replay: ${variant.name}, ${seatNames(game.seats)}`),
        h("p", { class: "result-line" }, doc.result ? resultWords(game, me, (i) => game.seats[i].name) : ""),
        position, chanceLine),
      h("div", { class: "play-area" },
        board.element,
        h("div", { class: "row replay-controls" }, buttons.first, buttons.previous, buttons.next, buttons.last),
        h("div", { class: "slider-row" }, slider),
        luck),
      h("div", { class: "side" }, h("h2", {}, "Moves"), list,
        h("p", {}, h("a", { href: `#/game/${gameId}` }, "The game"), " · ", h("a", { href: `#/verify/${gameId}` }, "Verification")))));

  function go(n) {
    at = Math.max(0, Math.min(total, n));
    slider.value = String(at);
    const upTo = doc.moves.slice(0, at);
    const current = upTo[upTo.length - 1];
    const strings = boardAfter(doc.width, doc.height, doc.moves, at, doc.variant);
    board.render(strings, { nameOf, field: at === total ? doc.field : null, last: touched(current) });
    const words = current ? describe(current, who) : "The start: every square covered.";
    position.textContent = `Move ${at} of ${total}${current ? `: ${words}` : `. ${words}`}${at === total ? " The whole field is laid open." : ""}`;
    slider.setAttribute("aria-valuetext", `Move ${at} of ${total}`);
    const analysed = current && analysis ? analysis.moves.find((m) => m.n === current.n) : null;
    chanceLine.textContent = analysed ? `Before this move, ${chance(analysed) || "no chance to tell"}${analysed.p_best !== null && analysed.p_best !== undefined ? `; the likeliest square had ${(analysed.p_best * 100).toFixed(1)}%` : ""}.` : "";
    buttons.first.disabled = at === 0;
    buttons.previous.disabled = at === 0;
    buttons.next.disabled = at === total;
    buttons.last.disabled = at === total;
    fill(list, movesList(doc.moves, who, { analysis, current: current ? current.n : -1, onPick: (k) => go(k) }));
  }

  go(total);
  api.get(`/v1/games/${gameId}/analysis`).then((data) => {
    analysis = data;
    fill(luck, h("h2", {}, "Luck and skill"), h("ul", { class: "plain" }, data.seats.map((s) =>
      h("li", {}, `${who(s.seat)}: ${plural(s.mines, "mine")} found, ${s.expected_mines.toFixed(1)} expected from the chances (luck ${s.luck >= 0 ? "+" : ""}${s.luck.toFixed(1)}); ${s.best_moves} of ${s.moves} moves on the likeliest square.`))));
    go(at);
  }, () => fill(luck, h("p", { class: "muted" }, "The chances of each move could not be worked out right now.")));
  return undefined;
}
