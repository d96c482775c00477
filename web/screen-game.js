// #/game/{id}: play or watch a game. Arm, then commit: a tap arms a covered cell, and only the
// "Commit" button (or Enter) sends the move, naming the move number this page saw, so a move
// can never land on a board its player has not seen. Seats, whose turn, time left, mines left
// and the moves are always on screen; at the end the result is told from the viewer's side and
// the field is laid open. The page follows the game live (socket; polling while it is down).
//
// `show` composes the parts (game-seats.js, game-clock.js, game-controls.js, game-end.js, the
// board and the moves list) around one `screen` object: the game as last read and the state of
// this page. The functions below each draw, read or play one thing on it.
import { h, fill, errorSlot, showError, act, touchFirst } from "./dom.js";
import * as api from "./api.js";
import { serverNow } from "./clock.js";
import * as session from "./session.js";
import { follow, live } from "./socket.js";
import { createBoard, zoomButton, touched, bombSquare } from "./board.js";
import { variantOf } from "./variants.js";
import { seatNames } from "./people.js";
import { movesList } from "./moves.js";
import { timePerMove } from "./words.js";
import { connection, onChange as onConnection } from "./offline.js";
import * as saved from "./saved.js";
import { seatOf, seatList, drawSeats } from "./game-seats.js";
import { clockPart, drawClock, startCountdown } from "./game-clock.js";
import { actionGroup, drawActions, drawFooter } from "./game-controls.js";
import { endSection, waitingSection, drawEnd, drawWaiting } from "./game-end.js";

const POLL_MS = 4000;
// Read the game now and then even while live: each answer carries the server's clock (clock.js),
// so a countdown follows it when either clock moves (a phone's clock set, the local stack's
// POST /_local/clock) and nothing else changes. A conditional read: 304 when nothing changed.
const CLOCK_READ_MS = 30000;

export async function show(view, gameId) {
  const screen = createScreen(gameId);
  await refresh(screen);
  mount(view, screen);
  return followGame(screen);
}

/** The screen's state and its parts, not yet in the page. */
function createScreen(gameId) {
  const s = {
    gameId, game: null, etag: null, moves: [], field: null, pending: null, keptAt: null, action: null,
    busy: false, warning: false, watchers: null, resign: { confirming: false }, deadlinePassed: false,
  };
  s.title = h("h1", { id: "game-title" }, "Game");
  s.about = h("p", { class: "muted about" });
  s.seats = seatList();
  s.clock = clockPart();
  s.actions = actionGroup();
  s.armedLine = h("p", { class: "armed", role: "status", "aria-live": "polite" });
  s.commit = h("button", { type: "button", class: "primary commit", disabled: true, onclick: () => commitMove(s) },
    "Commit");
  s.commitError = errorSlot();
  s.offlineLine = h("p", { class: "hint offline-move", id: "offline-move", role: "status", hidden: true });
  s.keysHelp = touchFirst() ? null
    : h("p", { class: "hint keys" }, "Keyboard: arrows move, Space arms, Enter commits.");
  s.board = createBoard({
    armable: () => canArm(s),
    onArm: () => paintCommit(s),
    onCommit: () => commitMove(s),
    announce: (text) => { s.armedLine.textContent = text; },
  });
  s.zoom = zoomButton(s.board);
  s.endBox = endSection();
  s.waitingBox = waitingSection();
  s.movesOl = h("ol", { class: "moves", "aria-label": "Moves", reversed: true, tabindex: "0" });
  s.footer = h("section", { class: "game-footer", "aria-label": "Game options" });
  s.footerError = errorSlot();
  /** Run a request that answers with the game, and show that game; errors go into `slot`. */
  s.send = (button, request, slot = s.footerError) => act(button, slot, async () => { showGame(s, await request()); });
  return s;
}

/** Put the screen in the page once it shows the game: drawn empty first, it would grow
 * under the player's eyes (and their thumb) when the game arrives. */
function mount(view, s) {
  const { turnLine, facts, banner } = s.clock;
  fill(view,
    h("div", { class: "game" },
      h("div", { class: "game-head" }, s.title, s.about, s.seats, turnLine, facts, banner, s.endBox, s.waitingBox),
      h("div", { class: "play-area" },
        s.actions,
        s.board.element,
        h("div", { class: "commit-row" }, s.commit, s.zoom),
        s.armedLine, s.offlineLine, s.commitError, s.keysHelp),
      h("div", { class: "side" }, h("h2", { id: "moves-heading" }, "Moves"), s.movesOl, s.footer, s.footerError)));
}

const mySeat = (s) => seatOf(s.game);
const nameOf = (s) => (i) => (i === mySeat(s) ? "you" : s.game.seats[i].name);
const who = (s) => (i) => (i === mySeat(s) ? "You" : s.game.seats[i].name);

function canArm(s) {
  const g = s.game;
  return Boolean(g && g.status === "active" && mySeat(s) !== null && !g.seats[mySeat(s)].out);
}

function myTurn(s) {
  const g = s.game;
  return Boolean(g && g.status === "active" && g.turn && g.turn.seat === mySeat(s));
}

function paintCommit(s) {
  s.commit.disabled = !(s.board.armed && myTurn(s) && !s.busy && !connection.offline);
  paintOffline(s);
}

/** Offline, Commit stays off and says why; what is armed stays armed for when it is back. */
function paintOffline(s) {
  const at = s.keptAt ? new Date(s.keptAt).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : null;
  const words = !connection.offline || !canArm(s) ? ""
    : `No connection: a move can be committed once it is back${s.board.armed ? "; your square stays armed" : ""}.`
      + (at ? ` The game as it was at ${at}.` : "");
  if (s.offlineLine.textContent !== words) s.offlineLine.textContent = words;
  s.offlineLine.hidden = !words;
  if (words) s.commit.setAttribute("aria-describedby", s.offlineLine.id);
  else s.commit.removeAttribute("aria-describedby");
}

// ------------------------------------------------------------ drawing
function draw(s) {
  const g = s.game;
  const variant = variantOf(g);
  const me = mySeat(s);
  document.title = `${variant.name}: ${seatNames(g.seats)} · MineDuel`;
  s.title.textContent = `${variant.name}: ${seatNames(g.seats)}`;
  s.title.dataset.status = g.status;
  s.title.dataset.moveCount = g.move_count;
  s.about.textContent = `${variant.about} ${timePerMove(g.move_deadline_s)}${g.rated ? ", rated" : ""}.`;
  drawSeats(s.seats, g, me, variant);
  drawTurn(s);
  s.action = drawActions(s.actions, {
    game: g, gameId: s.gameId, me, variant, armable: canArm(s), chosen: s.action,
    onPick: (id) => { s.action = id; s.board.setSquare(id === "bomb" ? bombSquare(g.width, g.height) : null); },
  });
  drawBoard(s);
  s.board.setSquare(s.action === "bomb" ? bombSquare(g.width, g.height) : null);
  s.board.grid.setAttribute("aria-readonly", String(!canArm(s)));
  s.zoom.hidden = false;
  s.commit.hidden = !canArm(s);
  if (!canArm(s)) { s.armedLine.textContent = ""; s.board.disarm(); }
  paintCommit(s);
  if (s.keysHelp) s.keysHelp.hidden = !canArm(s);
  drawEnd(s.endBox, { game: g, gameId: s.gameId, me, field: s.field });
  drawWaiting(s.waitingBox, { game: g, gameId: s.gameId, me, send: s.send });
  fill(s.movesOl, movesList(s.moves, who(s)));
  drawFooterOf(s);
}

function drawTurn(s) {
  drawClock(s.clock, s.game, mySeat(s), { watchers: s.watchers, warn: s.warning && myTurn(s) });
}

function drawBoard(s) {
  const g = s.game;
  const last = touched(s.moves[s.moves.length - 1]);
  s.board.render(g.board, { nameOf: nameOf(s), field: g.status === "finished" ? s.field : null, last });
}

function drawFooterOf(s) {
  const g = s.game;
  // Recorded as drawn: the ticker redraws when this changes, so a redraw for another reason (a
  // refresh just past the deadline) must not leave it believing the footer shows otherwise.
  s.deadlinePassed = Boolean(g.turn) && Date.parse(g.turn.deadline) < serverNow();
  drawFooter(s.footer, {
    game: g, gameId: s.gameId, me: mySeat(s), deadlinePassed: s.deadlinePassed, resign: s.resign, send: s.send,
  });
}

// ------------------------------------------------------------ reading and playing
function showGame(s, game) {
  if (!game) return;
  if (s.game && game.move_count < s.game.move_count) return; // an older read arrived late
  s.game = game;
  layOpen(s, game);
  s.etag = null;
  s.keptAt = null;
  draw(s);
  afterShow(s);
}

async function afterShow(s) {
  const g = s.game;
  if (g.status === "finished" && s.moves.some(hiddenCell)) s.moves = []; // all public now
  if (s.moves.length < g.move_count) await loadMoves(s);
}

/** A move read while the game ran whose cell was not shown (another seat's wrong guess). */
function hiddenCell(move) {
  return move.action === "guess" && (move.row === null || move.row === undefined);
}

/** The finished game's answer carries its whole field (once its seed is published): the
 * board is laid open by the very answer that ends the game, no second request. */
function layOpen(s, game) {
  if (game.status === "finished" && Array.isArray(game.field)) s.field = game.field;
}

/** Add the moves `s.moves` lacks to it. */
function addMoves(s, moves) {
  const known = new Set(s.moves.map((m) => m.n));
  s.moves = s.moves.concat(moves.filter((m) => !known.has(m.n)));
}

async function loadMoves(s) {
  const after = s.moves.length ? s.moves[s.moves.length - 1].n : 0;
  try {
    const data = await api.get(`/v1/games/${s.gameId}/moves?after=${after}`);
    addMoves(s, data.moves);
    keep(s);
    fill(s.movesOl, movesList(s.moves, who(s)));
    drawBoard(s);
  } catch { /* the list catches up on the next read */ }
}

async function refresh(s) {
  try {
    const reply = await api.request("GET", `/v1/games/${s.gameId}`, { etag: s.etag });
    if (reply.status === 304) return;
    const etag = reply.etag;
    showGame(s, reply.data);
    keep(s);
    s.etag = etag;
    showError(s.footerError, "");
  } catch (error) {
    if (!s.game && !showKept(s, error)) throw error;
    if (error.status !== 0) showError(s.footerError, error.words); // offline: the line says it
  }
}

/** This game as this browser last showed it to this player (saved.js), for offline. */
function keep(s) {
  const you = session.current();
  if (you && s.game) saved.keepGame(you.player_id, s.game, s.moves);
}

/** Offline with no answer yet: show the kept state, if any, and say when it is from. */
function showKept(s, error) {
  const you = session.current();
  const kept = error.status === 0 && you ? saved.game(you.player_id, s.gameId) : null;
  if (!kept) return false;
  s.moves = kept.moves || [];
  showGame(s, kept.game);
  s.keptAt = kept.at;
  paintCommit(s);
  return true;
}

/** The Idempotency-Key of a commit: the same for the same armed move on the same board, so
 * sending it again after the answer was lost (a bad connection) plays it at most once. */
function commitKey(s, body) {
  const same = s.pending && ["row", "col", "expected_move", "action"].every((k) => s.pending.body[k] === body[k]);
  if (!same) s.pending = { body, key: crypto.randomUUID() };
  return s.pending.key;
}

async function commitMove(s) {
  const g = s.game;
  if (!s.board.armed || !myTurn(s) || s.busy) return;
  if (connection.offline) { paintOffline(s); return; } // Enter too: sent only when it can land
  const [row, col] = s.board.armed;
  s.busy = true;
  paintCommit(s);
  showError(s.commitError, "");
  const body = { row, col, expected_move: g.move_count, action: s.action };
  try {
    const reply = await api.request("POST", `/v1/games/${s.gameId}/moves`, {
      body, headers: { "idempotency-key": commitKey(s, body) },
    });
    s.pending = null;
    s.board.disarm();
    s.armedLine.textContent = "";
    s.warning = false;
    if (s.moves.length === g.move_count) addMoves(s, reply.data.moves);
    showGame(s, reply.data.game);
  } catch (error) {
    if (error.status !== 0) s.pending = null; // refused: a new try is a new request
    showError(s.commitError, error.words || "The move did not go through: try again.");
    await refresh(s);
  } finally {
    s.busy = false;
    paintCommit(s);
  }
}

// ------------------------------------------------------------ following
function onLive(s, message) {
  if (message.type === "open") { refresh(s); return; }
  if (message.type === "watchers") {
    s.watchers = message.watchers;
    if (s.game) drawTurn(s);
    return;
  }
  if (message.type === "game") {
    if (typeof message.watchers === "number") s.watchers = message.watchers;
    if (message.event === "warning") s.warning = true;
    const changed = !s.game || message.move_count !== s.game.move_count || message.status !== s.game.status;
    if (changed || message.event === "join") refresh(s);
    else if (s.game) drawTurn(s);
  } else if (message.type === "unsubscribed" && message.reason === "spectators-off") {
    showError(s.footerError, "The players turned spectators off: this page no longer updates by itself.");
  }
}

/** Follow the game: live messages, the connection, the page coming back into view, the
 * regular reads, the countdown and, while the socket is down, polling. Returns the stop. */
function followGame(s) {
  const unfollow = follow(s.gameId, (message) => onLive(s, message));
  const stopConnection = onConnection((offline) => { paintCommit(s); if (!offline) refresh(s); });
  const readOnReturn = () => { if (document.visibilityState === "visible") refresh(s); };
  document.addEventListener("visibilitychange", readOnReturn);
  const running = () => s.game && s.game.status === "active";
  const clockReader = setInterval(() => { if (running()) refresh(s); }, CLOCK_READ_MS);
  const stopStatus = session.onChange(() => { if (s.game) { s.etag = null; refresh(s); } });
  // The other player's time running out changes what this one may do (claim the time-out)
  // without any change to the game: redraw the footer the moment it happens.
  const stopCountdown = startCountdown((passed) => {
    if (passed === s.deadlinePassed) return;
    s.deadlinePassed = passed;
    if (s.game) drawFooterOf(s);
  });
  const poller = setInterval(() => {
    const g = s.game;
    if (!live.open && g && (g.status === "active" || g.status === "waiting")) refresh(s);
  }, POLL_MS);
  return () => {
    unfollow(); stopStatus(); stopConnection(); stopCountdown(); clearInterval(poller); clearInterval(clockReader);
    document.removeEventListener("visibilitychange", readOnReturn);
  };
}
