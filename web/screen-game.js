// #/game/{id}: play or watch a game. Arm, then commit: a tap arms a covered cell, and only the
// "Commit" button (or Enter) sends the move, naming the move number this page saw, so a move
// can never land on a board its player has not seen. Seats, whose turn, time left, mines left
// and the moves are always on screen; at the end the result is told from the viewer's side and
// the field is laid open. The page follows the game live (socket; polling while it is down).
import { h, fill, errorSlot, showError, act, timeLeft, when, touchFirst } from "./dom.js";
import * as api from "./api.js";
import { serverNow } from "./clock.js";
import * as session from "./session.js";
import { follow, live } from "./socket.js";
import { createBoard, zoomButton, touched, bombSquare } from "./board.js";
import { variantOf } from "./variants.js";
import { avatar, playerLink, seatNames } from "./people.js";
import { movesList } from "./moves.js";
import { resultWords, reasonWords, timePerMove, ordinal } from "./words.js";
import { connection, onChange as onConnection } from "./offline.js";
import * as saved from "./saved.js";

const POLL_MS = 4000;
// Read the game now and then even while live: each answer carries the server's clock (clock.js),
// so a countdown follows it when either clock moves (a phone's clock set, the local stack's
// POST /_local/clock) and nothing else changes. A conditional read: 304 when nothing changed.
const CLOCK_READ_MS = 30000;

export async function show(view, gameId) {
  const state = { game: null, etag: null, moves: [], field: null, pending: null, keptAt: null, action: null, busy: false, warning: false, watchers: null, confirming: false, deadlinePassed: false };

  const title = h("h1", { id: "game-title" }, "Game");
  const about = h("p", { class: "muted about" });
  const seats = h("ul", { class: "seats", "aria-label": "Players" });
  const turnLine = h("p", { class: "turn", role: "status", "aria-live": "polite" });
  const clock = h("p", { class: "facts" });
  const banner = h("div", { class: "banner-slot" });
  const actions = h("div", { class: "actions", role: "radiogroup", "aria-label": "Action", hidden: true });
  const armedLine = h("p", { class: "armed", role: "status", "aria-live": "polite" });
  const commit = h("button", { type: "button", class: "primary commit", disabled: true, onclick: () => commitMove() }, "Commit");
  const commitError = errorSlot();
  const offlineLine = h("p", { class: "hint offline-move", id: "offline-move", role: "status", hidden: true });
  const keysHelp = touchFirst() ? null : h("p", { class: "hint keys" }, "Keyboard: arrows move, Space arms, Enter commits.");
  const board = createBoard({
    armable: () => canArm(),
    onArm: () => paintCommit(),
    onCommit: () => commitMove(),
    announce: (text) => { armedLine.textContent = text; },
  });
  const zoom = zoomButton(board);
  const endBox = h("section", { class: "end", hidden: true, "aria-labelledby": "result" });
  const waitingBox = h("section", { class: "card waiting", hidden: true });
  const movesHeading = h("h2", { id: "moves-heading" }, "Moves");
  const movesOl = h("ol", { class: "moves", "aria-label": "Moves", reversed: true, tabindex: "0" });
  const footer = h("section", { class: "game-footer", "aria-label": "Game options" });
  const footerError = errorSlot();

  /** Put the screen in the page once it shows the game: drawn empty first, it would grow
   * under the player's eyes (and their thumb) when the game arrives. */
  function mount() {
    fill(view,
      h("div", { class: "game" },
        h("div", { class: "game-head" }, title, about, seats, turnLine, clock, banner, endBox, waitingBox),
        h("div", { class: "play-area" },
          actions,
          board.element,
          h("div", { class: "commit-row" }, commit, zoom),
          armedLine, offlineLine, commitError, keysHelp),
        h("div", { class: "side" }, movesHeading, movesOl, footer, footerError)));
  }

  const mySeat = () => seatOf(state.game);
  const nameOf = (i) => (i === mySeat() ? "you" : state.game.seats[i].name);
  const who = (i) => (i === mySeat() ? "You" : state.game.seats[i].name);

  function canArm() {
    const g = state.game;
    return Boolean(g && g.status === "active" && mySeat() !== null && !g.seats[mySeat()].out);
  }
  function myTurn() {
    const g = state.game;
    return Boolean(g && g.status === "active" && g.turn && g.turn.seat === mySeat());
  }
  function paintCommit() {
    commit.disabled = !(board.armed && myTurn() && !state.busy && !connection.offline);
    paintOffline();
  }

  /** Offline, Commit stays off and says why; what is armed stays armed for when it is back. */
  function paintOffline() {
    const words = !connection.offline || !canArm() ? ""
      : `No connection: a move can be committed once it is back${board.armed ? "; your square stays armed" : ""}.${state.keptAt ? ` The game as it was at ${new Date(state.keptAt).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}.` : ""}`;
    if (offlineLine.textContent !== words) offlineLine.textContent = words;
    offlineLine.hidden = !words;
    if (words) commit.setAttribute("aria-describedby", offlineLine.id);
    else commit.removeAttribute("aria-describedby");
  }

  // ------------------------------------------------------------ drawing
  function draw() {
    const g = state.game;
    const variant = variantOf(g);
    const me = mySeat();
    document.title = `${variant.name}: ${seatNames(g.seats)} · MineDuel`;
    title.textContent = `${variant.name}: ${seatNames(g.seats)}`;
    title.dataset.status = g.status;
    title.dataset.moveCount = g.move_count;
    about.textContent = `${variant.about} ${timePerMove(g.move_deadline_s)}${g.rated ? ", rated" : ""}.`;
    drawSeats(g, me, variant);
    drawTurn(g, me);
    drawActions(g, me, variant);
    const last = touched(state.moves[state.moves.length - 1]);
    board.render(g.board, { nameOf, field: g.status === "finished" ? state.field : null, last });
    board.setSquare(state.action === "bomb" ? bombSquare(g.width, g.height) : null);
    board.grid.setAttribute("aria-readonly", String(!canArm()));
    zoom.hidden = false;
    commit.hidden = !canArm();
    if (!canArm()) { armedLine.textContent = ""; board.disarm(); }
    paintCommit();
    if (keysHelp) keysHelp.hidden = !canArm();
    drawEnd(g, me);
    drawWaiting(g, me);
    fill(movesOl, movesList(state.moves, who));
    drawFooter(g, me);
  }

  function drawSeats(g, me, variant) {
    fill(seats, g.seats.map((seat) => {
      const toMove = g.turn && g.turn.seat === seat.seat && g.status === "active";
      const status = [];
      if (seat.seat === me) status.push("you");
      if (toMove) status.push("to move");
      if (seat.out) status.push("out");
      if (seat.place) status.push(`${ordinal(seat.place)} place`);
      if (seat.rating_after !== null && seat.rating_after !== undefined) status.push(`rating ${seat.rating_before} → ${seat.rating_after}`);
      const name = seat.kind === "open" ? h("span", {}, seat.name || "Open seat") : playerLink(seat.name, seat.kind);
      return h("li", { class: `seat s${seat.seat}${toMove ? " to-move" : ""}${seat.out ? " out" : ""}`, "data-seat": seat.seat },
        avatar(seat.name, { kind: seat.kind }),
        h("span", { class: "seat-text" },
          h("span", { class: "name" }, name),
          h("span", { class: "score" }, seat.kind === "open" ? "waiting" : variant.score(seat)),
          status.length ? h("span", { class: "seat-status" }, status.join(", ")) : null));
    }));
  }

  function drawTurn(g, me) {
    let words = "";
    if (g.status === "waiting") {
      const open = g.seats.filter((s) => s.kind === "open").length;
      words = `Waiting for ${open === 1 ? "a player" : `${open} players`} to join`;
    } else if (g.status === "cancelled") words = "This game was cancelled";
    else if (g.status === "finished") words = "The game is over";
    else if (g.turn) words = g.turn.seat === me ? "Your turn" : `${g.seats[g.turn.seat].name} to move`;
    if (turnLine.textContent !== words) turnLine.textContent = words;
    turnLine.id = "to-move";
    const facts = [];
    if (g.status === "active" && g.turn) {
      facts.push(h("span", { class: "time-left" }, "Time left: ",
        h("time", { id: "countdown", datetime: g.turn.deadline, "data-deadline": g.turn.deadline, title: `Until ${when(g.turn.deadline)}` }, timeLeft(g.turn.deadline))));
    }
    facts.push(h("span", { class: "mines-left" }, `Mines left: ${g.mines_left}`));
    if (state.watchers) facts.push(h("span", {}, `${state.watchers} watching`));
    facts.push(h("span", { class: "live-state" }, h("span", { class: `live-dot${live.open ? " on" : ""}`, "aria-hidden": "true" }), live.open ? "Live" : "Updating every few seconds"));
    fill(clock, facts);
    fill(banner, state.warning && myTurn() ? h("p", { class: "banner warning" }, "Your time is almost up: commit a move soon.") : null);
  }

  function drawActions(g, me, variant) {
    const seat = me === null ? null : g.seats[me];
    const available = variant.actions.filter((a) => !a.available || (seat && a.available(seat)));
    if (!state.action || !available.some((a) => a.id === state.action)) state.action = available.length ? available[0].id : variant.actions[0].id;
    if (variant.actions.length < 2 || !canArm()) { actions.hidden = true; fill(actions); return; }
    actions.hidden = false;
    fill(actions, h("span", { class: "group-label", "aria-hidden": "true" }, "Action:"), variant.actions.map((a) => {
      const enabled = available.includes(a);
      const input = h("input", { type: "radio", name: `action-${gameId}`, value: a.id, checked: a.id === state.action, disabled: !enabled,
        onchange: () => { state.action = a.id; board.setSquare(a.id === "bomb" ? bombSquare(g.width, g.height) : null); } });
      return h("label", { class: `choice${enabled ? "" : " disabled"}` }, input, ` ${a.label}`, enabled ? "" : h("span", { class: "muted" }, " (used)"));
    }));
  }

  function drawEnd(g, me) {
    const over = g.status === "finished";
    endBox.hidden = !over;
    if (!over) { fill(endBox); return; }
    const words = resultWords(g, me, (i) => g.seats[i].name);
    const reason = g.result ? reasonWords(g.result.reason, g, (i) => g.seats[i].name) : "";
    const rematch = me !== null
      ? h("a", { href: `#/game/${gameId}`, class: "button", onclick: (e) => { e.preventDefault(); rematchGame(e.currentTarget); } }, "Rematch")
      : null;
    const rematchError = errorSlot();
    fill(endBox,
      h("h2", { id: "result", class: `result${words.startsWith("You won") ? " won" : ""}` }, words),
      reason ? h("p", { class: "muted" }, `The game ended because ${reason}.`) : null,
      state.field || !g.daily ? null : h("p", { class: "muted" }, "The whole field is shown once the day's duel is over."),
      h("div", { class: "row links" },
        h("a", { class: "button", href: `#/replay/${gameId}` }, "Replay"),
        h("a", { class: "button", href: api.url(`/share/${gameId}`), id: "share-link" }, "Share page"),
        h("a", { class: "button", href: `#/verify/${gameId}`, id: "verify-link" }, "Verification"),
        rematch),
      rematchError);
    endBox.rematchError = rematchError;
  }

  function drawWaiting(g, me) {
    const waiting = g.status === "waiting";
    waitingBox.hidden = !waiting;
    if (!waiting) { fill(waitingBox); return; }
    const you = session.current();
    const reservedForMe = g.seats.find((s) => s.kind === "open" && you && you.username && s.name === `Reserved for ${you.username}`);
    const openSeat = g.seats.some((s) => s.kind === "open" && !/^Reserved for /.test(s.name));
    const slot = errorSlot();
    const parts = [h("h2", {}, "Waiting for players")];
    if (me !== null && me === (g.creator_seat ?? 0)) {
      parts.push(h("p", {}, "Share this page's address with the people you want to play, or wait for someone from the lobby."),
        h("div", { class: "row" },
          h("button", { type: "button", onclick: (e) => copyLink(e.currentTarget) }, "Copy the link"),
          h("button", { type: "button", class: "danger", onclick: (e) => act(e.currentTarget, slot, async () => { show_(await api.del(`/v1/games/${gameId}`)); }) }, "Cancel game")));
    } else if (reservedForMe) {
      parts.push(h("p", {}, `${(g.seats.find((s) => s.kind !== "open") || g.seats[0]).name} invites you to this game.`),
        h("div", { class: "row" },
          h("button", { type: "button", class: "primary", onclick: (e) => act(e.currentTarget, slot, async () => { show_(await api.post(`/v1/games/${gameId}/join`, {})); }) }, "Accept"),
          h("button", { type: "button", onclick: (e) => act(e.currentTarget, slot, async () => { await api.post(`/v1/games/${gameId}/decline`, {}); location.hash = "#/"; }) }, "Decline")));
    } else if (me === null && openSeat) {
      if (session.signedIn()) {
        parts.push(h("button", { type: "button", class: "primary", onclick: (e) => act(e.currentTarget, slot, async () => { show_(await api.post(`/v1/games/${gameId}/join`, {})); }) }, "Join"));
      } else {
        parts.push(h("p", {}, "Games against people need an account. ", h("a", { href: "#/account" }, "Sign in or sign up"), " to join."));
      }
    } else if (me !== null) {
      parts.push(h("p", {}, "You have a seat: the game starts when every seat is taken."));
    }
    parts.push(slot);
    fill(waitingBox, parts);
  }

  function drawFooter(g, me) {
    const parts = [];
    // Recorded as drawn: the ticker redraws when this changes, so a redraw for another reason (a
    // refresh just past the deadline) must not leave it believing the footer shows otherwise.
    state.deadlinePassed = Boolean(g.turn) && Date.parse(g.turn.deadline) < serverNow();
    if (me !== null && g.status === "active" && !g.seats[me].out) {
      const confirmBox = h("div", { class: "confirm", hidden: !state.confirming },
        h("p", {}, "Resign and lose this game?"),
        h("div", { class: "row" },
          h("button", { type: "button", class: "danger", onclick: (e) => act(e.currentTarget, footerError, async () => { state.confirming = false; show_(await api.post(`/v1/games/${gameId}/resign`, {})); }) }, "Yes, resign"),
          h("button", { type: "button", onclick: () => { state.confirming = false; confirmBox.hidden = true; resign.hidden = false; resign.focus(); } }, "Keep playing")));
      const resign = h("button", { type: "button", class: "danger subtle", hidden: state.confirming, onclick: () => { state.confirming = true; resign.hidden = true; confirmBox.hidden = false; confirmBox.querySelector("button").focus(); } }, "Resign");
      parts.push(resign, confirmBox);
      if (!g.spectators_off) {
        parts.push(h("button", { type: "button", class: "subtle", onclick: (e) => act(e.currentTarget, footerError, async () => { show_(await api.del(`/v1/games/${gameId}/spectators`)); }) }, "Turn spectators off"));
      }
      if (g.turn && g.turn.seat !== me && state.deadlinePassed) {
        parts.push(h("button", { type: "button", onclick: (e) => act(e.currentTarget, footerError, async () => { show_(await api.post(`/v1/games/${gameId}/timeout`, {})); }) }, "Claim the time-out"));
      }
    }
    if (me === null && g.status === "active") parts.push(h("p", { class: "muted" }, "You are watching this game."));
    fill(footer, parts);
  }

  // ------------------------------------------------------------ reading and playing
  function show_(game) {
    if (!game) return;
    if (state.game && game.move_count < state.game.move_count) return; // an older read arrived late
    state.game = game;
    layOpen(game);
    state.etag = null;
    state.keptAt = null;
    draw();
    afterShow();
  }

  async function afterShow() {
    const g = state.game;
    if (g.status === "finished" && state.moves.some(hiddenCell)) state.moves = []; // all public now
    if (state.moves.length < g.move_count) await loadMoves();
  }

  /** A move read while the game ran whose cell was not shown (another seat's wrong guess). */
  function hiddenCell(move) {
    return move.action === "guess" && (move.row === null || move.row === undefined);
  }

  /** The finished game's answer carries its whole field (once its seed is published): the
   * board is laid open by the very answer that ends the game, no second request. */
  function layOpen(game) {
    if (game.status === "finished" && Array.isArray(game.field)) state.field = game.field;
  }

  async function loadMoves() {
    const after = state.moves.length ? state.moves[state.moves.length - 1].n : 0;
    try {
      const data = await api.get(`/v1/games/${gameId}/moves?after=${after}`);
      const known = new Set(state.moves.map((m) => m.n));
      state.moves = state.moves.concat(data.moves.filter((m) => !known.has(m.n)));
      keep();
      fill(movesOl, movesList(state.moves, who));
      board.render(state.game.board, { nameOf, field: state.game.status === "finished" ? state.field : null, last: touched(state.moves[state.moves.length - 1]) });
    } catch { /* the list catches up on the next read */ }
  }

  async function refresh() {
    try {
      const reply = await api.request("GET", `/v1/games/${gameId}`, { etag: state.etag });
      if (reply.status === 304) return;
      const etag = reply.etag;
      show_(reply.data);
      keep();
      state.etag = etag;
      showError(footerError, "");
    } catch (error) {
      if (!state.game && !showKept(error)) throw error;
      if (error.status !== 0) showError(footerError, error.words); // offline: the line says it
    }
  }

  /** This game as this browser last showed it to this player (saved.js), for offline. */
  function keep() {
    const you = session.current();
    if (you && state.game) saved.keepGame(you.player_id, state.game, state.moves);
  }

  /** Offline with no answer yet: show the kept state, if any, and say when it is from. */
  function showKept(error) {
    const you = session.current();
    const kept = error.status === 0 && you ? saved.game(you.player_id, gameId) : null;
    if (!kept) return false;
    state.moves = kept.moves || [];
    show_(kept.game);
    state.keptAt = kept.at;
    paintCommit();
    return true;
  }

  /** The Idempotency-Key of a commit: the same for the same armed move on the same board, so
   * sending it again after the answer was lost (a bad connection) plays it at most once. */
  function commitKey(body) {
    const same = state.pending && ["row", "col", "expected_move", "action"].every((k) => state.pending.body[k] === body[k]);
    if (!same) state.pending = { body, key: crypto.randomUUID() };
    return state.pending.key;
  }

  async function commitMove() {
    const g = state.game;
    if (!board.armed || !myTurn() || state.busy) return;
    if (connection.offline) { paintOffline(); return; } // Enter too: sent only when it can land
    const [row, col] = board.armed;
    state.busy = true;
    paintCommit();
    showError(commitError, "");
    const body = { row, col, expected_move: g.move_count, action: state.action };
    try {
      const reply = await api.request("POST", `/v1/games/${gameId}/moves`, {
        body, headers: { "idempotency-key": commitKey(body) },
      });
      state.pending = null;
      board.disarm();
      armedLine.textContent = "";
      state.warning = false;
      const known = new Set(state.moves.map((m) => m.n));
      if (state.moves.length === g.move_count) state.moves = state.moves.concat(reply.data.moves.filter((m) => !known.has(m.n)));
      show_(reply.data.game);
    } catch (error) {
      if (error.status !== 0) state.pending = null; // refused: a new try is a new request
      showError(commitError, error.words || "The move did not go through: try again.");
      await refresh();
    } finally {
      state.busy = false;
      paintCommit();
    }
  }

  async function rematchGame(link) {
    await act(link, endBox.rematchError, async () => {
      const game = await api.post(`/v1/games/${gameId}/rematch`, {});
      location.hash = `#/game/${game.game_id}`;
    });
  }

  async function copyLink(button) {
    const address = location.href;
    try {
      await navigator.clipboard.writeText(address);
      button.textContent = "Link copied";
    } catch {
      button.textContent = address;
    }
  }

  function onLive(message) {
    if (message.type === "open") { refresh(); return; }
    if (message.type === "watchers") { state.watchers = message.watchers; if (state.game) drawTurn(state.game, mySeat()); return; }
    if (message.type === "game") {
      if (typeof message.watchers === "number") state.watchers = message.watchers;
      if (message.event === "warning") state.warning = true;
      if (!state.game || message.move_count !== state.game.move_count || message.status !== state.game.status || message.event === "join") refresh();
      else if (state.game) drawTurn(state.game, mySeat());
    } else if (message.type === "unsubscribed" && message.reason === "spectators-off") {
      showError(footerError, "The players turned spectators off: this page no longer updates by itself.");
    }
  }

  await refresh();
  mount();
  const unfollow = follow(gameId, onLive);
  const stopConnection = onConnection((offline) => { paintCommit(); if (!offline) refresh(); });
  const readOnReturn = () => { if (document.visibilityState === "visible") refresh(); };
  document.addEventListener("visibilitychange", readOnReturn);
  const clockReader = setInterval(() => { if (state.game && state.game.status === "active") refresh(); }, CLOCK_READ_MS);
  const stopStatus = session.onChange(() => { if (state.game) { state.etag = null; refresh(); } });
  const ticker = setInterval(() => {
    const el = document.getElementById("countdown");
    if (!el) return;
    el.textContent = timeLeft(el.dataset.deadline);
    el.classList.toggle("low", Date.parse(el.dataset.deadline) - serverNow() < 60000);
    // The other player's time running out changes what this one may do (claim the time-out)
    // without any change to the game: redraw the actions the moment it happens.
    const passed = Date.parse(el.dataset.deadline) < serverNow();
    if (passed !== state.deadlinePassed) {
      state.deadlinePassed = passed;
      if (state.game) drawFooter(state.game, mySeat());
    }
  }, 1000);
  const poller = setInterval(() => {
    const g = state.game;
    if (!live.open && g && (g.status === "active" || g.status === "waiting")) refresh();
  }, POLL_MS);
  return () => {
    unfollow(); stopStatus(); stopConnection(); clearInterval(ticker); clearInterval(poller); clearInterval(clockReader);
    document.removeEventListener("visibilitychange", readOnReturn);
  };
}

/** The viewer's seat in `game` (null: watching). */
export function seatOf(game) {
  const you = session.current();
  if (!game || !you) return null;
  const seat = game.seats.find((s) => s.player_id === you.player_id && s.kind === you.kind);
  return seat ? seat.seat : null;
}
