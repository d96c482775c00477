// What each variant lets a seat do and how its board reads: data, so a new variant is a new
// entry here and nothing else in the client changes. The Game's `variant` picks the entry.

const SEAT_FLAGS = { A: 0, B: 1, C: 2, D: 3 }; // a mine flagged (found) by that seat
const SEAT_HITS = { a: 0, b: 1 }; // windows-duel: a mine revealed (hit) by that seat

export const VARIANTS = {
  "mine-duel": {
    name: "Mine duel",
    about: "Find mines: a mine found is yours and you go again; safe ground passes the turn.",
    actions: [{ id: "tap", label: "Tap" }],
    seats: [2, 3, 4],
    rated: true,
    score: (seat) => `${seat.mines} ${seat.mines === 1 ? "mine" : "mines"}`,
  },
  mineseeker: {
    name: "Mineseeker",
    about: "Mine duel for two, plus one bomb each that opens a 5 × 5 square.",
    actions: [
      { id: "tap", label: "Tap" },
      { id: "bomb", label: "Bomb", available: (seat) => !seat.bomb_used },
    ],
    seats: [2],
    rated: false,
    score: (seat) => `${seat.mines} ${seat.mines === 1 ? "mine" : "mines"}${seat.bomb_used ? ", bomb used" : ""}`,
  },
  "windows-duel": {
    name: "Windows duel",
    about: "Reveal safe squares or guess mines: +5 for a mine found, −2 for a wrong guess, −5 for a mine revealed.",
    actions: [
      { id: "reveal", label: "Reveal" },
      { id: "guess", label: "Guess mine" },
    ],
    seats: [2],
    rated: false,
    score: (seat) => `${seat.score ?? 0} points`,
  },
};

export function variantOf(gameOrKey) {
  const key = typeof gameOrKey === "string" ? gameOrKey : gameOrKey.variant;
  return VARIANTS[key] || { ...VARIANTS["mine-duel"], name: key };
}

export function variantName(key) {
  return variantOf(key).name;
}

/** A cell that the seat may still act on. */
export function playable(ch) {
  return ch === "." || ch === "?";
}

/** One board character as the cell shows it: classes, text, and its words (after the row and
 * column). `nameOf(seat)` names a seat ("Ann", "you"). `field` is the laid-open field's
 * character once the game is over ("*" a mine, "0"-"8"), for squares never opened. */
export function cellLook(ch, nameOf, field) {
  if ((ch === "." || ch === "?") && field) {
    if (field === "*") return { cls: "laid mine-left", text: "", label: "a mine nobody found" };
    return { cls: `laid n${field}`, text: field === "0" ? "" : field, label: field === "0" ? "empty, never opened" : `${field}, never opened` };
  }
  if (ch === ".") return { cls: "covered", text: "", label: "covered" };
  if (ch === "?") return { cls: "covered wrong", text: "", label: "your wrong guess" };
  if (ch in SEAT_FLAGS) {
    const seat = SEAT_FLAGS[ch];
    return { cls: `flag s${seat}`, text: "", label: `mine, found by ${nameOf(seat)}` };
  }
  if (ch in SEAT_HITS) {
    const seat = SEAT_HITS[ch];
    return { cls: `hit s${seat}`, text: "", label: `mine, hit by ${nameOf(seat)}` };
  }
  if (ch === "0") return { cls: "n0", text: "", label: "empty" };
  if (/[1-8]/.test(ch)) return { cls: `n${ch}`, text: ch, label: ch };
  return { cls: "", text: ch, label: ch };
}
