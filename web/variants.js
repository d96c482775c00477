// What each variant lets a seat do and how its board reads: data, so a new variant is a new
// entry here and nothing else in the client changes. The Game's `variant` picks the entry.

const SEAT_FLAGS = { A: 0, B: 1, C: 2, D: 3 }; // a mine flagged (or found) by that seat
const SEAT_HITS = { a: 0, b: 1 }; // windows-duel: a mine hit by that seat

export const VARIANTS = {
  "mine-duel": {
    name: "Mine duel",
    about: "Tap a covered cell: a mine is flagged for you and you go again; safe ground passes the turn.",
    actions: [{ id: "tap", label: "Tap", key: "t", help: "open the cell" }],
    score: (seat) => `${seat.mines} mines`,
  },
  mineseeker: {
    name: "Mineseeker",
    about: "Tap as in mine duel; once a game you may drop a bomb that opens a 5 × 5 square.",
    actions: [
      { id: "tap", label: "Tap", key: "t", help: "open the cell" },
      {
        id: "bomb", label: "Bomb 5×5", key: "b", help: "open the 5 × 5 square around the cell, once",
        available: (seat) => !seat.bomb_used,
      },
    ],
    score: (seat) => `${seat.mines} mines${seat.bomb_used ? " · bomb used" : ""}`,
  },
  "windows-duel": {
    name: "Windows duel",
    about: "Reveal safe cells or guess where a mine is: +5 for a mine found, −2 for a wrong guess, −5 for a mine revealed.",
    actions: [
      { id: "reveal", label: "Reveal", key: "r", help: "open the cell" },
      { id: "guess", label: "Guess mine", key: "g", help: "say the cell holds a mine" },
    ],
    score: (seat) => `${seat.score ?? 0} points`,
  },
};

export function variantOf(game) {
  return VARIANTS[game.variant] || {
    name: game.variant,
    about: "",
    actions: [{ id: "tap", label: "Tap", key: "t", help: "open the cell" }],
    score: (seat) => `${seat.mines} mines`,
  };
}

// One board character as the cell shows it: its classes, its text and its accessible label.
export function cellLook(ch) {
  if (ch === ".") return { cls: "covered", text: "", label: "covered" };
  if (ch === "?") return { cls: "covered wrong", text: "", label: "your wrong guess" };
  if (ch in SEAT_FLAGS) {
    const seat = SEAT_FLAGS[ch];
    return { cls: `flag s${seat}`, text: "", label: `mine, seat ${seat + 1}` };
  }
  if (ch in SEAT_HITS) {
    const seat = SEAT_HITS[ch];
    return { cls: `hit s${seat}`, text: "", label: `mine hit by seat ${seat + 1}` };
  }
  if (ch === "0") return { cls: "n0", text: "", label: "empty" };
  if (/[1-8]/.test(ch)) return { cls: `n${ch}`, text: ch, label: `${ch}` };
  return { cls: "", text: ch, label: ch };
}
