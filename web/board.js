// The board: a grid named "Board" whose cells are gridcells named by their row and column
// (1-based, for people) and what is on them, with zero-based data-row/data-col for code.
// A tap, a click or Space arms a covered cell (aria-selected, and the polite live region says
// "Armed: row R, column C"); nothing is sent until the game screen's Commit. Arrows move over
// the board, Enter commits. "Zoom" (and a pinch) enlarges the cells for a thumb, with panning.
import { h } from "./dom.js";
import { cellLook, playable } from "./variants.js";

const PINCH_IN = 1.25;
const PINCH_OUT = 0.8;

/** A board for the game screen or a replay: `armable()` says whether a cell may be armed now,
 * `onArm(cell or null)` hears arming, `onCommit()` hears Enter on the armed cell. */
export function createBoard({ armable = () => false, onArm = () => {}, onCommit = () => {}, announce }) {
  return new Board({ armable, onArm, onCommit, announce });
}

class Board {
  constructor(callbacks) {
    this.callbacks = callbacks;
    this.grid = h("div", { class: "board", role: "grid", "aria-label": "Board" });
    this.element = h("div", { class: "board-wrap" }, this.grid);
    this.cells = [];
    this.width = 0;
    this.height = 0;
    this.armedCell = null; // [row, col]
    this.focus = [0, 0];
    this.square = null; // the cells a bomb would open: a function (row, col) -> [[r, c], ...]
    this.zoomedIn = false;
    this.zoomListeners = new Set();
    this.grid.addEventListener("click", (event) => this.onClick(event));
    this.grid.addEventListener("keydown", (event) => this.onKey(event));
    listenForPinch(this);
  }

  get armed() { return this.armedCell; }

  get zoomed() { return this.zoomedIn; }

  cell(row, col) {
    return this.cells[row] && this.cells[row][col];
  }

  build(w, hgt) {
    this.width = w;
    this.height = hgt;
    this.grid.style.setProperty("--cols", w);
    this.cells = [];
    const rows = [];
    for (let r = 0; r < hgt; r += 1) {
      const line = [];
      for (let c = 0; c < w; c += 1) {
        line.push(h("div", {
          role: "gridcell", class: "cell covered", tabindex: r === 0 && c === 0 ? "0" : "-1",
          "data-row": r, "data-col": c, "aria-selected": "false",
        }));
      }
      this.cells.push(line);
      rows.push(h("div", { role: "row", class: "board-row" }, line));
    }
    this.grid.replaceChildren(...rows);
    this.focus = [0, 0];
    this.armedCell = null;
  }

  /** Draw `board` (the Game's strings). Options: nameOf(seat), field (laid-open strings),
   * last (Set of "r,c" the last move touched). */
  render(board, { nameOf, field = null, last = new Set() }) {
    const hgt = board.length;
    const w = hgt ? board[0].length : 0;
    if (w !== this.width || hgt !== this.height) this.build(w, hgt);
    for (let r = 0; r < hgt; r += 1) {
      for (let c = 0; c < w; c += 1) {
        const ch = board[r][c];
        const look = cellLook(ch, nameOf, field ? field[r][c] : null);
        const node = this.cells[r][c];
        const isLast = last.has(`${r},${c}`);
        node.className = `cell ${look.cls}${isLast ? " last" : ""}`;
        node.dataset.ch = ch;
        node.textContent = look.text;
        node.setAttribute("aria-label", `Row ${r + 1}, column ${c + 1}, ${look.label}${isLast ? ", last move" : ""}`);
      }
    }
    const armed = this.armedCell;
    if (armed && !playable(board[armed[0]][armed[1]])) this.disarm();
    else this.paintArm();
  }

  paintArm() {
    for (const node of this.grid.querySelectorAll('[aria-selected="true"], .in-square')) {
      node.setAttribute("aria-selected", "false");
      node.classList.remove("in-square");
    }
    const armed = this.armedCell;
    if (!armed) return;
    this.cell(armed[0], armed[1]).setAttribute("aria-selected", "true");
    if (this.square) for (const [r, c] of this.square(armed[0], armed[1])) this.cell(r, c).classList.add("in-square");
  }

  arm(row, col) {
    const node = this.cell(row, col);
    if (!node || !this.callbacks.armable() || !playable(node.dataset.ch)) return false;
    this.armedCell = [row, col];
    this.paintArm();
    this.callbacks.announce(`Armed: row ${row + 1}, column ${col + 1}`);
    this.callbacks.onArm(this.armedCell);
    return true;
  }

  disarm() {
    if (!this.armedCell) return;
    this.armedCell = null;
    this.paintArm();
    this.callbacks.onArm(null);
  }

  setSquare(fn) {
    this.square = fn;
    this.paintArm();
  }

  moveFocus(row, col, { scroll = true } = {}) {
    const r = Math.max(0, Math.min(this.height - 1, row));
    const c = Math.max(0, Math.min(this.width - 1, col));
    const before = this.cell(this.focus[0], this.focus[1]);
    if (before) before.tabIndex = -1;
    this.focus = [r, c];
    const node = this.cell(r, c);
    node.tabIndex = 0;
    node.focus({ preventScroll: !scroll });
    if (scroll && this.zoomedIn) node.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  onClick(event) {
    const node = event.target.closest('[role="gridcell"]');
    if (!node) return;
    const row = Number(node.dataset.row);
    const col = Number(node.dataset.col);
    this.moveFocus(row, col, { scroll: false });
    this.arm(row, col);
  }

  /** Arrows move, Home and End go to the ends of a row, Space arms, Enter commits (arming
   * first when nothing is armed), Escape disarms. */
  onKey(event) {
    const steps = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const [row, col] = this.focus;
    if (event.key in steps) {
      event.preventDefault();
      const [dr, dc] = steps[event.key];
      this.moveFocus(row + dr, col + dc);
    } else if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      this.moveFocus(row, event.key === "Home" ? 0 : this.width - 1);
    } else if (event.key === " " || event.key === "Spacebar") {
      event.preventDefault();
      this.arm(row, col);
    } else if (event.key === "Enter") {
      event.preventDefault();
      if (!this.armedCell) this.arm(row, col);
      else this.callbacks.onCommit();
    } else if (event.key === "Escape") {
      this.disarm();
    }
  }

  setZoom(on) {
    this.zoomedIn = Boolean(on);
    this.element.classList.toggle("zoomed", this.zoomedIn);
    for (const fn of this.zoomListeners) fn(this.zoomedIn);
    const target = this.armedCell || this.focus;
    const node = this.cell(target[0], target[1]);
    if (this.zoomedIn && node) node.scrollIntoView({ block: "center", inline: "center" });
  }

  onZoom(fn) {
    this.zoomListeners.add(fn);
  }
}

/** Pinch: two pointers moving apart zoom in, together zoom out (the page itself does not zoom
 * over the board: touch-action lets the browser pan only). */
function listenForPinch(board) {
  const wrap = board.element;
  const pointers = new Map();
  let pinchStart = 0;
  const spread = () => {
    const [[x1, y1], [x2, y2]] = [...pointers.values()];
    return Math.hypot(x2 - x1, y2 - y1) || 1;
  };
  wrap.addEventListener("pointerdown", (event) => {
    if (event.pointerType !== "touch") return;
    pointers.set(event.pointerId, [event.clientX, event.clientY]);
    if (pointers.size === 2) pinchStart = spread();
  });
  wrap.addEventListener("pointermove", (event) => {
    if (!pointers.has(event.pointerId)) return;
    pointers.set(event.pointerId, [event.clientX, event.clientY]);
    if (pointers.size !== 2 || !pinchStart) return;
    const ratio = spread() / pinchStart;
    if (!board.zoomed && ratio > PINCH_IN) { board.setZoom(true); pinchStart = 0; }
    else if (board.zoomed && ratio < PINCH_OUT) { board.setZoom(false); pinchStart = 0; }
  });
  for (const type of ["pointerup", "pointercancel", "pointerleave"]) {
    wrap.addEventListener(type, (event) => {
      pointers.delete(event.pointerId);
      if (pointers.size < 2) pinchStart = 0;
    });
  }
}

/** The "Zoom" toggle for a board. */
export function zoomButton(board) {
  const button = h("button", {
    type: "button", class: "zoom", "aria-pressed": "false", onclick: () => board.setZoom(!board.zoomed),
  }, "Zoom");
  board.onZoom((on) => button.setAttribute("aria-pressed", String(on)));
  return button;
}

/** A board's strings rebuilt from moves (replays): every cell covered, then each move's
 * openings and finds. `upTo` moves are applied. */
export function boardAfter(width, height, moves, upTo, variant) {
  const rows = Array.from({ length: height }, () => Array(width).fill("."));
  for (const move of moves.slice(0, upTo)) {
    for (const [r, c, n] of move.opened || []) rows[r][c] = String(n);
    for (const [r, c, n] of move.auto_opened || []) rows[r][c] = String(n);
    for (const [r, c] of move.flagged || []) rows[r][c] = "ABCD"[move.seat];
    if (variant === "windows-duel" && move.row !== null && move.row !== undefined && move.result === "mine") {
      rows[move.row][move.col] = move.action === "reveal" ? "ab"[move.seat] : "AB"[move.seat];
    }
  }
  return rows.map((line) => line.join(""));
}

/** The cells a move touched (highlighted as the last move). */
export function touched(move) {
  const cells = new Set();
  if (!move) return cells;
  if (move.row !== null && move.row !== undefined) cells.add(`${move.row},${move.col}`);
  for (const [r, c] of move.flagged || []) cells.add(`${r},${c}`);
  if (move.action === "bomb") for (const [r, c] of move.opened || []) cells.add(`${r},${c}`);
  return cells;
}

/** The 5 x 5 square a bomb aimed at (row, col) opens: its centre moved inwards. */
export function bombSquare(width, height) {
  return (row, col) => {
    const r0 = Math.max(0, Math.min(height - 5, row - 2));
    const c0 = Math.max(0, Math.min(width - 5, col - 2));
    const out = [];
    for (let r = r0; r < r0 + 5; r += 1) for (let c = c0; c < c0 + 5; c += 1) out.push([r, c]);
    return out;
  };
}
