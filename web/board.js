// The board: a grid named "Board" whose cells are gridcells named by their row and column
// (1-based, for people) and what is on them, with zero-based data-row/data-col for code.
// A tap, a click or Space arms a covered cell (aria-selected, and the polite live region says
// "Armed: row R, column C"); nothing is sent until the game screen's Commit. Arrows move over
// the board, Enter commits. "Zoom" (and a pinch) enlarges the cells for a thumb, with panning.
import { h } from "./dom.js";
import { cellLook, playable } from "./variants.js";

const PINCH_IN = 1.25;
const PINCH_OUT = 0.8;

export function createBoard({ armable = () => false, onArm = () => {}, onCommit = () => {}, announce }) {
  const grid = h("div", { class: "board", role: "grid", "aria-label": "Board" });
  const wrap = h("div", { class: "board-wrap" }, grid);
  let cells = [];
  let width = 0;
  let height = 0;
  let armed = null; // [row, col]
  let focus = [0, 0];
  let square = null; // the cells a bomb would open: a function (row, col) -> [[r, c], ...]
  let zoomed = false;

  function cell(row, col) {
    return cells[row] && cells[row][col];
  }

  function build(w, hgt) {
    width = w; height = hgt;
    grid.style.setProperty("--cols", w);
    cells = [];
    const rows = [];
    for (let r = 0; r < hgt; r += 1) {
      const line = [];
      for (let c = 0; c < w; c += 1) {
        line.push(h("div", { role: "gridcell", class: "cell covered", tabindex: r === 0 && c === 0 ? "0" : "-1", "data-row": r, "data-col": c, "aria-selected": "false" }));
      }
      cells.push(line);
      rows.push(h("div", { role: "row", class: "board-row" }, line));
    }
    grid.replaceChildren(...rows);
    focus = [0, 0];
    armed = null;
  }

  /** Draw `board` (the Game's strings). Options: nameOf(seat), field (laid-open strings),
   * last (Set of "r,c" the last move touched). */
  function render(board, { nameOf, field = null, last = new Set() }) {
    const hgt = board.length;
    const w = hgt ? board[0].length : 0;
    if (w !== width || hgt !== height) build(w, hgt);
    for (let r = 0; r < hgt; r += 1) {
      for (let c = 0; c < w; c += 1) {
        const ch = board[r][c];
        const look = cellLook(ch, nameOf, field ? field[r][c] : null);
        const node = cells[r][c];
        const isLast = last.has(`${r},${c}`);
        node.className = `cell ${look.cls}${isLast ? " last" : ""}`;
        node.dataset.ch = ch;
        node.textContent = look.text;
        node.setAttribute("aria-label", `Row ${r + 1}, column ${c + 1}, ${look.label}${isLast ? ", last move" : ""}`);
      }
    }
    if (armed && !playable(board[armed[0]][armed[1]])) disarm();
    else paintArm();
  }

  function paintArm() {
    for (const node of grid.querySelectorAll('[aria-selected="true"], .in-square')) {
      node.setAttribute("aria-selected", "false");
      node.classList.remove("in-square");
    }
    if (!armed) return;
    const node = cell(armed[0], armed[1]);
    node.setAttribute("aria-selected", "true");
    if (square) for (const [r, c] of square(armed[0], armed[1])) cell(r, c).classList.add("in-square");
  }

  function arm(row, col) {
    const node = cell(row, col);
    if (!node || !armable() || !playable(node.dataset.ch)) return false;
    armed = [row, col];
    paintArm();
    announce(`Armed: row ${row + 1}, column ${col + 1}`);
    onArm(armed);
    return true;
  }

  function disarm() {
    if (!armed) return;
    armed = null;
    paintArm();
    onArm(null);
  }

  function moveFocus(row, col, { scroll = true } = {}) {
    const r = Math.max(0, Math.min(height - 1, row));
    const c = Math.max(0, Math.min(width - 1, col));
    const before = cell(focus[0], focus[1]);
    if (before) before.tabIndex = -1;
    focus = [r, c];
    const node = cell(r, c);
    node.tabIndex = 0;
    node.focus({ preventScroll: !scroll });
    if (scroll && zoomed) node.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  grid.addEventListener("click", (event) => {
    const node = event.target.closest('[role="gridcell"]');
    if (!node) return;
    const row = Number(node.dataset.row);
    const col = Number(node.dataset.col);
    moveFocus(row, col, { scroll: false });
    arm(row, col);
  });

  grid.addEventListener("keydown", (event) => {
    const steps = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (event.key in steps) {
      event.preventDefault();
      const [dr, dc] = steps[event.key];
      moveFocus(focus[0] + dr, focus[1] + dc);
    } else if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      moveFocus(focus[0], event.key === "Home" ? 0 : width - 1);
    } else if (event.key === " " || event.key === "Spacebar") {
      event.preventDefault();
      arm(focus[0], focus[1]);
    } else if (event.key === "Enter") {
      event.preventDefault();
      if (!armed || armed[0] !== focus[0] || armed[1] !== focus[1]) {
        if (!armed) arm(focus[0], focus[1]);
        else onCommit();
      } else onCommit();
    } else if (event.key === "Escape") {
      disarm();
    }
  });

  // Pinch: two pointers moving apart zoom in, together zoom out (the page itself does not zoom
  // over the board: touch-action lets the browser pan only).
  const pointers = new Map();
  let pinchStart = 0;
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
    if (!zoomed && ratio > PINCH_IN) { setZoom(true); pinchStart = 0; }
    else if (zoomed && ratio < PINCH_OUT) { setZoom(false); pinchStart = 0; }
  });
  for (const type of ["pointerup", "pointercancel", "pointerleave"]) {
    wrap.addEventListener(type, (event) => { pointers.delete(event.pointerId); if (pointers.size < 2) pinchStart = 0; });
  }
  function spread() {
    const [[x1, y1], [x2, y2]] = [...pointers.values()];
    return Math.hypot(x2 - x1, y2 - y1) || 1;
  }

  const zoomListeners = new Set();
  function setZoom(on) {
    zoomed = Boolean(on);
    wrap.classList.toggle("zoomed", zoomed);
    for (const fn of zoomListeners) fn(zoomed);
    const target = armed || focus;
    const node = cell(target[0], target[1]);
    if (zoomed && node) node.scrollIntoView({ block: "center", inline: "center" });
  }

  return {
    element: wrap,
    grid,
    render,
    arm,
    disarm,
    get armed() { return armed; },
    setSquare(fn) { square = fn; paintArm(); },
    setZoom,
    get zoomed() { return zoomed; },
    onZoom(fn) { zoomListeners.add(fn); },
  };
}

/** The "Zoom" toggle for a board. */
export function zoomButton(board) {
  const button = h("button", { type: "button", class: "zoom", "aria-pressed": "false", onclick: () => board.setZoom(!board.zoomed) }, "Zoom");
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
