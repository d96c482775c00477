// A move in words, for the game's "Moves" list and the replay: who did what where, what it
// found, and (in replays) the exact chance of a mine the analysis gives.
import { h, percent } from "./dom.js";

function at(move) {
  return `row ${move.row + 1}, column ${move.col + 1}`;
}

function hasCell(move) {
  return move.row !== null && move.row !== undefined;
}

function opened(move) {
  const n = (move.opened || []).length + (move.auto_opened || []).length;
  return n > 1 ? `, opened ${n} squares` : "";
}

function points(move) {
  if (move.points === null || move.points === undefined || move.points === 0) return "";
  return `, ${move.points > 0 ? "+" : "−"}${Math.abs(move.points)} points`;
}

/** "Ann: row 3, column 4, found a mine". `who(seat)` names the seat ("You", "Ann"). */
export function describe(move, who) {
  const name = who(move.seat);
  switch (move.action) {
    case "tap":
      return `${name}: ${at(move)}, ${move.result === "mine" ? "found a mine" : "safe"}${move.result === "mine" ? "" : opened(move)}`;
    case "bomb": {
      const mines = (move.flagged || []).length;
      return `${name}: bomb on ${at(move)}, ${mines === 1 ? "1 mine" : `${mines} mines`}${opened(move)}`;
    }
    case "guess":
      if (move.result === "mine") return `${name}: guessed ${at(move)}, a mine${points(move)}`;
      return `${name}: guessed wrong${hasCell(move) ? ` at ${at(move)}` : ""}${points(move)}`;
    case "reveal":
      return `${name}: revealed ${at(move)}, ${move.result === "mine" ? "a mine" : "safe"}${points(move)}${move.result === "mine" ? "" : opened(move)}`;
    case "resign":
      return `${name} resigned`;
    case "timeout":
      return `${name} ran out of time`;
    default:
      return hasCell(move) ? `${name}: ${at(move)}` : `${name}: ${move.action}`;
  }
}

/** The exact chance of a mine for an analysed move, in words ("chance of a mine 37.5%"). */
export function chance(analysed) {
  if (!analysed) return "";
  if (analysed.p_mine !== null && analysed.p_mine !== undefined) {
    return `${analysed.exact === false ? "about " : ""}${percent(analysed.p_mine, 1)} chance of a mine`;
  }
  if (analysed.expected_mines !== undefined && analysed.action === "bomb") {
    return `${analysed.expected_mines.toFixed(2)} mines expected in the square`;
  }
  return "";
}

/** The "Moves" list, newest first; the newest also marked as the last move. */
export function movesList(moves, who, { analysis = null, current = null, onPick = null } = {}) {
  const byN = new Map((analysis ? analysis.moves : []).map((m) => [m.n, m]));
  const items = [...moves].reverse().map((move, i) => {
    const words = describe(move, who);
    const odds = chance(byN.get(move.n));
    const isCurrent = current === null ? i === 0 : move.n === current;
    const text = `${move.n}. ${words}${odds ? ` (${odds})` : ""}`;
    const body = onPick ? h("button", { type: "button", class: "linkish", onclick: () => onPick(move.n) }, text) : text;
    return h("li", { class: isCurrent ? "current" : "", "aria-current": isCurrent ? "step" : null, "data-n": move.n }, body);
  });
  return items.length ? items : [h("li", { class: "muted" }, "No moves yet.")];
}
