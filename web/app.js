// MineDuel's web client: plain JavaScript modules, no build step, no dependencies.
// It reads config.json (the local stack serves it; on AWS it is uploaded from the stack's
// ClientConfig output), talks to the REST API, signs players in with Cognito, and follows the
// open game over the WebSocket API (polling with ETags when the socket is down).
import { variantOf, cellLook, VARIANTS } from "./variants.js";

const view = document.getElementById("view");
const statusLine = document.getElementById("status");
const BOT_LEVELS = ["easy", "medium", "hard"];
const DEADLINES = [
  [300, "5 minutes a move"],
  [3600, "1 hour a move"],
  [86400, "1 day a move"],
];
const POLL_MS = 4000;

let config = null;
let session = loadSession();
const live = { socket: null, open: false, followed: new Set(), retry: 0, handlers: new Set() };
let screen = null; // the current screen's cleanup (timers, subscriptions)

// ------------------------------------------------------------------ basics
function loadSession() {
  try { return JSON.parse(localStorage.getItem("mineduel.session")) || null; } catch { return null; }
}
function saveSession(next) {
  session = next;
  if (next) localStorage.setItem("mineduel.session", JSON.stringify(next));
  else localStorage.removeItem("mineduel.session");
  showWho();
  reconnect();
}
function say(text, isError = false) {
  statusLine.textContent = text || "";
  statusLine.classList.toggle("error", Boolean(isError));
}
function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}
function showWho() {
  const who = document.getElementById("who");
  const link = document.getElementById("account-link");
  if (!session) { who.textContent = "Not signed in"; link.textContent = "Sign in"; return; }
  who.textContent = session.kind === "guest" ? `${session.name}` : `Signed in: ${session.name}`;
  link.textContent = session.kind === "guest" ? "Sign in" : "Account";
}

async function api(method, path, body, extraHeaders = {}) {
  const headers = { accept: "application/json", ...extraHeaders };
  if (session) headers.authorization = `Bearer ${session.token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const answer = await fetch((config.api_url || "") + path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  const type = answer.headers.get("content-type") || "";
  if (answer.status !== 304 && type.includes("json")) data = await answer.json();
  return { status: answer.status, data, etag: answer.headers.get("etag") };
}
function problem(reply) {
  const d = reply.data || {};
  return d.detail || (d.error && d.error.message) || d.message || `HTTP ${reply.status}`;
}

// ------------------------------------------------------------------ players
async function ensureGuest() {
  if (session) return session;
  const reply = await api("POST", "/v1/guests");
  if (reply.status !== 201) throw new Error(problem(reply));
  saveSession({ kind: "guest", token: reply.data.token, player_id: reply.data.player_id,
                name: `Guest ${reply.data.player_id.replace("guest-", "").slice(0, 6)}` });
  return session;
}

async function cognito(action, payload) {
  const endpoint = config.aws_endpoint || `https://cognito-idp.${config.region}.amazonaws.com`;
  const answer = await fetch(endpoint.replace(/\/$/, "") + "/", {
    method: "POST",
    headers: {
      "content-type": "application/x-amz-json-1.1",
      "x-amz-target": `AWSCognitoIdentityProviderService.${action}`,
    },
    body: JSON.stringify({ ClientId: config.user_pool_client_id, ...payload }),
  });
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) throw new Error(data.message || data.__type || `Cognito ${action} failed`);
  return data;
}

async function signIn(email, password) {
  const data = await cognito("InitiateAuth", {
    AuthFlow: "USER_PASSWORD_AUTH", AuthParameters: { USERNAME: email, PASSWORD: password },
  });
  if (!data.AuthenticationResult) throw new Error("This account needs a second factor: use the mineduel command to sign in.");
  const token = data.AuthenticationResult.IdToken;
  session = { kind: "account", token, name: email, player_id: "" };
  const me = await api("GET", "/v1/me");
  if (me.status !== 200) throw new Error(problem(me));
  saveSession({ kind: "account", token, player_id: me.data.player_id,
                name: me.data.username || email, username: me.data.username });
}

// ------------------------------------------------------------------ live push
function reconnect() {
  if (live.socket) { live.socket.onclose = null; live.socket.close(); }
  live.socket = null; live.open = false;
  if (!config || !config.websocket_url) return;
  const url = config.websocket_url + (session ? `/?token=${encodeURIComponent(session.token)}` : "/");
  const socket = new WebSocket(url);
  live.socket = socket;
  socket.onopen = () => {
    live.open = true; live.retry = 0;
    for (const id of live.followed) socket.send(JSON.stringify({ action: "subscribe", game_id: id }));
    for (const fn of live.handlers) fn({ type: "open" });
  };
  socket.onmessage = (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch { return; }
    for (const fn of live.handlers) fn(message);
  };
  socket.onclose = () => {
    live.open = false;
    for (const fn of live.handlers) fn({ type: "closed" });
    live.retry = Math.min(live.retry + 1, 6);
    setTimeout(() => { if (live.socket === socket) reconnect(); }, 500 * 2 ** live.retry);
  };
}
function follow(gameId, handler) {
  live.followed.add(gameId);
  live.handlers.add(handler);
  if (live.open) live.socket.send(JSON.stringify({ action: "subscribe", game_id: gameId }));
  return () => {
    live.followed.delete(gameId);
    live.handlers.delete(handler);
    if (live.open) live.socket.send(JSON.stringify({ action: "unsubscribe", game_id: gameId }));
  };
}

// ------------------------------------------------------------------ screens
const routes = [
  [/^#?\/?$/, homeScreen],
  [/^#\/lobby$/, lobbyScreen],
  [/^#\/account$/, accountScreen],
  [/^#\/game\/([0-9a-f-]{36})$/, gameScreen],
  [/^#\/verify\/([0-9a-f-]{36})$/, verifyScreen],
];
async function route() {
  if (screen) { screen(); screen = null; }
  say("");
  const hash = location.hash || "#/";
  for (const [pattern, render] of routes) {
    const found = hash.match(pattern);
    if (found) {
      view.replaceChildren(h("p", { class: "muted" }, "Loading…"));
      try { screen = (await render(...found.slice(1))) || null; } catch (error) {
        view.replaceChildren(h("p", { class: "error" }, error.message));
      }
      return;
    }
  }
  view.replaceChildren(h("h1", {}, "Not found"), h("p", {}, h("a", { href: "#/" }, "Back to MineDuel")));
}

function variantSelect(id) {
  return h("select", { id, "aria-label": "Variant" },
    Object.entries(VARIANTS).map(([key, v]) => h("option", { value: key }, v.name)));
}

async function homeScreen() {
  const botVariant = variantSelect("bot-variant");
  const personVariant = variantSelect("person-variant");
  const deadline = h("select", { id: "person-deadline", "aria-label": "Time per move" },
    DEADLINES.map(([s, label]) => h("option", { value: s, selected: s === 86400 }, label)));
  const watchId = h("input", { id: "watch-id", placeholder: "game id", "aria-label": "Game id to watch" });
  const myGames = h("ul", { class: "list", id: "my-games" });
  view.replaceChildren(
    h("h1", {}, "Play MineDuel"),
    h("section", { class: "card" },
      h("h2", {}, "Against the bot"),
      h("p", { class: "muted" }, "No account needed: you play as a guest."),
      h("div", { class: "row" }, botVariant,
        BOT_LEVELS.map((level) => h("button", { class: "primary", "data-level": level,
          onclick: () => startBotGame(level, botVariant.value) }, `Play ${level} bot`)))),
    h("section", { class: "card" },
      h("h2", {}, "Against a person"),
      h("p", { class: "muted" }, "Create a game anybody can join from the lobby, or join one there."),
      h("div", { class: "row" }, personVariant, deadline,
        h("button", { class: "primary", id: "create-person-game",
          onclick: () => startPersonGame(personVariant.value, Number(deadline.value)) }, "Create game"),
        h("a", { class: "button", href: "#/lobby" }, "Find a game"))),
    h("section", { class: "card" }, h("h2", {}, "Your games"), myGames),
    h("section", { class: "card" },
      h("h2", {}, "Watch a game"),
      h("form", { class: "row", onsubmit: (e) => { e.preventDefault(); location.hash = `#/game/${watchId.value.trim()}`; } },
        watchId, h("button", { type: "submit" }, "Watch"))),
  );
  if (session) {
    const reply = await api("GET", "/v1/me/games?status=active");
    if (reply.status === 200) {
      const games = reply.data.games;
      myGames.replaceChildren(...(games.length ? games.map(gameItem) : [h("li", { class: "muted" }, "No running games.")]));
    }
  } else {
    myGames.replaceChildren(h("li", { class: "muted" }, "Play a game and it shows here."));
  }
}

function gameItem(summary) {
  const names = summary.seats.map((s) => s.name).join(" vs ");
  const mine = summary.turn && summary.turn.seat === summary.my_seat ? " · your turn" : "";
  return h("li", {}, h("span", {}, `${(VARIANTS[summary.variant] || {}).name || summary.variant}: ${names}`,
    h("span", { class: "muted" }, ` (${summary.status}${mine})`)),
    h("a", { class: "button", href: `#/game/${summary.game_id}` }, "Open"));
}

async function startBotGame(level, variant) {
  try {
    await ensureGuest();
    const reply = await api("POST", "/v1/games", { variant, bots: 1, bot_level: level });
    if (reply.status !== 201) throw new Error(problem(reply));
    location.hash = `#/game/${reply.data.game_id}`;
  } catch (error) { say(error.message, true); }
}

async function startPersonGame(variant, seconds) {
  if (!session || session.kind !== "account") { say("Sign in to play people (guests play the bot).", true); location.hash = "#/account"; return; }
  const reply = await api("POST", "/v1/games", { variant, bots: 0, move_deadline_s: seconds });
  if (reply.status !== 201) { say(problem(reply), true); return; }
  location.hash = `#/game/${reply.data.game_id}`;
}

async function lobbyScreen() {
  const list = h("ul", { class: "list", id: "lobby" });
  view.replaceChildren(h("h1", {}, "Lobby"), h("p", { class: "muted" }, "Games waiting for a player."),
    h("section", { class: "card" }, list),
    h("button", { onclick: () => route() }, "Refresh"));
  const reply = await api("GET", "/v1/lobby");
  if (reply.status !== 200) { list.replaceChildren(h("li", { class: "error" }, problem(reply))); return; }
  const games = reply.data.games.filter((g) => !session || !g.seats.some((s) => s.player_id === session.player_id));
  if (!games.length) { list.replaceChildren(h("li", { class: "muted" }, "Nobody is waiting right now: create a game.")); return; }
  list.replaceChildren(...games.map((g) => h("li", { "data-game": g.game_id },
    h("span", {}, `${(VARIANTS[g.variant] || {}).name || g.variant} with ${g.seats[0].name}`),
    h("button", { class: "primary", onclick: () => joinGame(g.game_id) }, "Join"))));
}

async function joinGame(gameId) {
  if (!session || session.kind !== "account") { say("Sign in to join games.", true); location.hash = "#/account"; return; }
  const reply = await api("POST", `/v1/games/${gameId}/join`, {});
  if (reply.status !== 200) { say(problem(reply), true); return; }
  location.hash = `#/game/${gameId}`;
}

async function accountScreen() {
  if (session && session.kind === "account") {
    const me = await api("GET", "/v1/me");
    const allow = h("input", { type: "checkbox", id: "allow-spectators", checked: me.data && me.data.settings.spectators });
    allow.addEventListener("change", async () => {
      const reply = await api("PUT", "/v1/me", { settings: { spectators: allow.checked } });
      say(reply.status === 200 ? "Saved." : problem(reply), reply.status !== 200);
    });
    view.replaceChildren(h("h1", {}, "Your account"),
      h("section", { class: "card" },
        h("p", {}, "Username: ", h("strong", {}, (me.data && me.data.username) || "(none yet)")),
        h("label", {}, allow, " Let anybody watch my games live"),
        h("button", { onclick: () => { saveSession(null); location.hash = "#/"; } }, "Sign out")));
    return;
  }
  const email = h("input", { type: "email", id: "email", autocomplete: "username", required: true });
  const password = h("input", { type: "password", id: "password", autocomplete: "current-password", required: true });
  const newEmail = h("input", { type: "email", id: "new-email", autocomplete: "username", required: true });
  const newPassword = h("input", { type: "password", id: "new-password", autocomplete: "new-password", required: true, minlength: 12 });
  const username = h("input", { id: "new-username", required: true, pattern: "[A-Za-z0-9_-]{3,20}" });
  const code = h("input", { id: "code", inputmode: "numeric", autocomplete: "one-time-code" });
  const confirmBox = h("div", { hidden: true, id: "confirm-box" },
    h("label", {}, "The code we emailed you", code),
    h("button", { class: "primary", id: "confirm", onclick: confirm }, "Confirm and sign in"));
  async function submitSignIn(event) {
    event.preventDefault();
    try { await signIn(email.value.trim(), password.value); location.hash = "#/"; } catch (error) { say(error.message, true); }
  }
  async function submitSignUp(event) {
    event.preventDefault();
    try {
      await cognito("SignUp", { Username: newEmail.value.trim(), Password: newPassword.value,
        UserAttributes: [{ Name: "email", Value: newEmail.value.trim() }] });
      confirmBox.hidden = false;
      say("Check your email for the code.");
    } catch (error) { say(error.message, true); }
  }
  async function confirm() {
    try {
      await cognito("ConfirmSignUp", { Username: newEmail.value.trim(), ConfirmationCode: code.value.trim() || "000000" });
      await signIn(newEmail.value.trim(), newPassword.value);
      const named = await api("PUT", "/v1/me", { username: username.value.trim() });
      if (named.status !== 200) throw new Error(problem(named));
      saveSession({ ...session, name: named.data.username, username: named.data.username });
      location.hash = "#/";
    } catch (error) { say(error.message, true); }
  }
  view.replaceChildren(h("h1", {}, "Sign in"),
    h("form", { class: "card", id: "sign-in", onsubmit: submitSignIn },
      h("label", {}, "Email", email), h("label", {}, "Password", password),
      h("button", { class: "primary", type: "submit" }, "Sign in")),
    h("h2", {}, "New here? Sign up"),
    h("form", { class: "card", id: "sign-up", onsubmit: submitSignUp },
      h("label", {}, "Email", newEmail), h("label", {}, "Password (12 or more characters)", newPassword),
      h("label", {}, "Username (3 to 20 letters, digits, _ or -)", username),
      h("button", { class: "primary", type: "submit" }, "Sign up")),
    confirmBox);
}

// ------------------------------------------------------------------ the game
function seatOf(game) {
  if (!session) return null;
  const found = game.seats.find((s) => s.player_id === session.player_id && s.kind === session.kind);
  return found ? found.seat : null;
}
function remaining(deadline) {
  const ms = Date.parse(deadline) - Date.now();
  if (ms <= 0) return "time is up";
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400), hh = Math.floor((s % 86400) / 3600), mm = Math.floor((s % 3600) / 60), ss = s % 60;
  const pad = (n) => String(n).padStart(2, "0");
  return d ? `${d}d ${pad(hh)}h ${pad(mm)}m` : hh ? `${hh}:${pad(mm)}:${pad(ss)}` : `${mm}:${pad(ss)}`;
}
const REASONS = { reach: "out of reach", "field-done": "field done", resign: "resignation", timeout: "timeout" };

async function gameScreen(gameId) {
  const state = { game: null, etag: null, action: null, cursor: [0, 0], warning: false, busy: false, watchers: null };
  const seats = h("div", { class: "seats", id: "seats" });
  const turnLine = h("div", { class: "turn-line", id: "turn" });
  const banner = h("div", { id: "banner" });
  const actions = h("div", { class: "actions row", id: "actions", role: "toolbar", "aria-label": "Action" });
  const board = h("div", { class: "board", id: "board", role: "grid", "aria-label": "Board" });
  const footer = h("div", { class: "row", id: "game-footer" });
  const title = h("h1", { id: "game-title" });
  const liveLine = h("p", { class: "muted", id: "live-line" });
  view.replaceChildren(title, liveLine, seats, turnLine, banner, actions, board, footer,
    h("p", { class: "muted keys" }, "Keys: arrows move, Enter or Space plays, the action's letter picks it."));

  async function refresh() {
    const reply = await api("GET", `/v1/games/${gameId}`, undefined, state.etag ? { "if-none-match": state.etag } : {});
    if (reply.status === 304) return;
    if (reply.status !== 200) { view.replaceChildren(h("p", { class: "error" }, problem(reply))); return; }
    state.etag = reply.etag;
    show(reply.data);
  }

  function show(game) {
    state.game = game;
    if (typeof game.watchers === "number") state.watchers = game.watchers;
    const variant = variantOf(game);
    const mine = seatOf(game);
    const myTurn = game.status === "active" && game.turn && game.turn.seat === mine;
    if (!state.action || !variant.actions.some((a) => a.id === state.action)) state.action = variant.actions[0].id;
    title.textContent = `${variant.name} · ${game.status}`;
    title.dataset.status = game.status;
    title.dataset.moveCount = game.move_count;
    liveLine.replaceChildren(h("span", { class: `live-dot${live.open ? " on" : ""}` }),
      live.open ? "Live" : "Polling", " · ", mine === null ? "watching" : `you are seat ${mine + 1}`,
      state.watchers !== null ? ` · ${state.watchers} watching` : "",
      game.spectators_off ? " · spectators off" : "");
    seats.replaceChildren(...game.seats.map((s) => h("div", {
      class: `seat s${s.seat}${game.turn && game.turn.seat === s.seat ? " to-move" : ""}${s.out ? " out" : ""}`,
      "data-seat": s.seat },
      h("div", { class: "name" }, s.kind === "open" ? "Open seat" : s.name, s.seat === mine ? " (you)" : ""),
      h("div", { class: "score" }, variant.score(s)),
      h("div", { class: "muted" }, s.place ? `place ${s.place}` : s.out ? "out" : `${s.safe_taps} safe`))));
    turnLine.replaceChildren();
    if (game.status === "waiting") {
      turnLine.append(h("span", {}, "Waiting for a player to join. Share this page's address, or they find it in the lobby."));
    } else if (game.status === "active" && game.turn) {
      const who = myTurn ? "Your turn" : `${game.seats[game.turn.seat].name} to move`;
      turnLine.append(h("strong", { class: `s${game.turn.seat}`, id: "to-move" }, who),
        h("span", { class: "countdown", id: "countdown", "data-deadline": game.turn.deadline }, remaining(game.turn.deadline)));
    }
    banner.replaceChildren();
    if (game.status === "finished" && game.result) {
      const r = game.result;
      const text = r.winner === null ? "A shared first place." : r.winner === mine ? "You won!" : `${game.seats[r.winner].name} won.`;
      banner.append(h("div", { class: "banner", id: "result" }, h("strong", {}, text), ` By ${REASONS[r.reason] || r.reason}.`));
    } else if (state.warning && myTurn) {
      banner.append(h("div", { class: "banner warning", id: "warning" }, "Time is almost up for this move."));
    }
    actions.replaceChildren();
    if (myTurn) {
      for (const action of variant.actions) {
        if (action.available && !action.available(game.seats[mine])) continue;
        actions.append(h("button", { "aria-pressed": String(state.action === action.id), "data-action": action.id,
          title: action.help, onclick: () => { state.action = action.id; show(state.game); } },
          `${action.label} (${action.key.toUpperCase()})`));
      }
    }
    drawBoard(game, myTurn);
    footer.replaceChildren();
    if (mine !== null && game.status === "active") {
      footer.append(h("button", { id: "resign", onclick: resign }, "Resign"));
      if (!game.spectators_off) footer.append(h("button", { id: "spectators-off", onclick: spectatorsOff }, "Turn spectators off"));
    }
    if (game.status === "finished") {
      footer.append(h("a", { class: "button", id: "verify-link", href: `#/verify/${game.game_id}` }, "Verification"),
        h("a", { class: "button", id: "share-link", href: `${config.api_url || ""}/share/${game.game_id}` }, "Share page"));
    }
  }

  function drawBoard(game, myTurn) {
    const active = document.activeElement && document.activeElement.classList.contains("cell");
    board.style.gridTemplateColumns = `repeat(${game.width}, 1fr)`;
    const cells = [];
    game.board.forEach((line, row) => {
      [...line].forEach((ch, col) => {
        const look = cellLook(ch);
        const playable = myTurn && (ch === "." || ch === "?");
        const isCursor = state.cursor[0] === row && state.cursor[1] === col;
        cells.push(h("button", { class: `cell ${look.cls}${playable ? " playable" : ""}${isCursor ? " cursor" : ""}`,
          role: "gridcell", "data-row": row, "data-col": col, "data-ch": ch,
          tabindex: isCursor ? "0" : "-1", "aria-label": `row ${row + 1}, column ${col + 1}: ${look.label}`,
          onclick: () => { state.cursor = [row, col]; play(row, col); } }, look.text));
      });
    });
    board.replaceChildren(...cells);
    if (active) focusCursor();
  }
  function focusCursor() {
    const [row, col] = state.cursor;
    const cell = board.querySelector(`[data-row="${row}"][data-col="${col}"]`);
    if (cell) cell.focus();
  }

  async function play(row, col) {
    const game = state.game;
    const mine = seatOf(game);
    if (state.busy || game.status !== "active" || !game.turn || game.turn.seat !== mine) return;
    state.busy = true;
    say("");
    try {
      const reply = await api("POST", `/v1/games/${gameId}/moves`,
        { row, col, expected_move: game.move_count, action: state.action });
      if (reply.status === 200) { state.warning = false; state.etag = null; show(reply.data.game); }
      else { say(problem(reply), true); await refresh(); }
    } finally { state.busy = false; }
  }
  async function resign() {
    if (!confirm("Resign this game?")) return;
    const reply = await api("POST", `/v1/games/${gameId}/resign`);
    if (reply.status === 200) show(reply.data); else say(problem(reply), true);
  }
  async function spectatorsOff() {
    const reply = await api("DELETE", `/v1/games/${gameId}/spectators`);
    if (reply.status === 200) { say("Spectators are off for the rest of this game."); show(reply.data); }
    else say(problem(reply), true);
  }

  function onKey(event) {
    if (!state.game || event.target.closest("input, select, textarea")) return;
    const variant = variantOf(state.game);
    const picked = variant.actions.find((a) => a.key === event.key.toLowerCase());
    if (picked) { state.action = picked.id; show(state.game); return; }
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (event.key in moves) {
      event.preventDefault();
      const [dr, dc] = moves[event.key];
      state.cursor = [Math.max(0, Math.min(state.game.height - 1, state.cursor[0] + dr)),
                      Math.max(0, Math.min(state.game.width - 1, state.cursor[1] + dc))];
      drawBoard(state.game, state.game.status === "active" && state.game.turn && state.game.turn.seat === seatOf(state.game));
      focusCursor();
    } else if ((event.key === "Enter" || event.key === " ") && event.target.classList.contains("cell")) {
      event.preventDefault();
      play(state.cursor[0], state.cursor[1]);
    }
  }
  function onLive(message) {
    if (message.type === "open" || message.type === "closed") { if (state.game) show(state.game); return; }
    if (message.game_id !== gameId) return;
    if (message.type === "watchers") { state.watchers = message.watchers; show(state.game); return; }
    if (message.type === "game") {
      if (typeof message.watchers === "number") state.watchers = message.watchers;
      if (message.event === "warning") state.warning = true;
      refresh();
    } else if (message.type === "error") {
      say(message.message, true);
    } else if (message.type === "unsubscribed" && message.reason) {
      say(message.message || "You no longer follow this game live.");
    }
  }

  await refresh();
  document.addEventListener("keydown", onKey);
  const unfollow = follow(gameId, onLive);
  const ticker = setInterval(() => {
    const el = document.getElementById("countdown");
    if (el) { el.textContent = remaining(el.dataset.deadline); el.classList.toggle("low", Date.parse(el.dataset.deadline) - Date.now() < 60000); }
  }, 1000);
  const poller = setInterval(() => {
    if (!live.open && state.game && state.game.status !== "finished" && state.game.status !== "cancelled") refresh();
  }, POLL_MS);
  return () => { document.removeEventListener("keydown", onKey); unfollow(); clearInterval(ticker); clearInterval(poller); };
}

async function verifyScreen(gameId) {
  const reply = await api("GET", `/v1/games/${gameId}/verify`);
  if (reply.status !== 200) { view.replaceChildren(h("p", { class: "error" }, problem(reply))); return; }
  const doc = reply.data;
  const verdict = doc.verdict;
  const ok = verdict.checked && verdict.ok;
  view.replaceChildren(h("h1", {}, "Verification"),
    h("section", { class: "card" },
      h("p", { id: "verdict", "data-ok": String(ok) }, h("strong", {},
        !verdict.checked ? "Not checked yet: the game is still running." : ok ? "Every move checks out against the published seed." : "Problems found.")),
      verdict.problems.length ? h("ul", {}, verdict.problems.map((p) => h("li", { class: "error" }, p))) : null,
      h("p", {}, "Commitment: ", h("code", {}, doc.commitment)),
      h("p", {}, "Seed: ", h("code", {}, doc.seed || "(published when the game ends)")),
      h("p", {}, `${doc.moves.length} moves. Check it yourself: `, h("code", {}, `mineduel verify ${location.origin}${config.api_url || ""}/v1/games/${gameId}/verify`)),
      h("div", { class: "row" },
        h("a", { class: "button", href: `${config.api_url || ""}/v1/games/${gameId}/verify` }, "The document (JSON)"),
        h("a", { class: "button", href: `#/game/${gameId}` }, "Back to the game"))));
}

// ------------------------------------------------------------------ start
async function start() {
  try {
    const answer = await fetch("config.json", { cache: "no-cache" });
    config = await answer.json();
  } catch {
    view.replaceChildren(h("p", { class: "error" }, "config.json is missing: the client cannot find the API."));
    return;
  }
  showWho();
  reconnect();
  window.addEventListener("hashchange", route);
  await route();
}
start();
