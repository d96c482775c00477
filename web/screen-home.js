// #/: play the bot now, or find a person: quick pairing (a seek: paired at once, or wait until
// someone who wants the same game comes), a game for the lobby, an invitation by username; the
// invitations waiting for you and your running games.
import { h, fill, field, errorSlot, showError, act, timeLeft } from "./dom.js";
import * as api from "./api.js";
import * as session from "./session.js";
import * as socket from "./socket.js";
import { hashQuery } from "./router.js";
import { VARIANTS, variantName } from "./variants.js";
import { TIMES_PER_MOVE, BOT_LEVELS, RATING_RANGES, timePerMove } from "./words.js";
import { seatNames } from "./people.js";
import * as saved from "./saved.js";

/** How often a waiting page reads its seek, in case the live socket is down. */
const SEEK_POLL_MS = 5000;

export async function show(view) {
  document.title = "Play · MineDuel";
  const form = newGameForm();
  const botError = errorSlot();
  const people = peopleControls(form);
  const lists = gameLists();
  fill(view,
    h("h1", {}, "Play MineDuel"),
    h("section", { class: "card", "aria-labelledby": "new-game-heading" },
      h("h2", { id: "new-game-heading" }, "A new game"),
      h("div", { class: "grid-fields" },
        field("Variant", form.variant), field("Level", form.level, "For the bot."), field("Time per move", form.time),
        form.seatsField),
      form.about,
      h("div", { class: "row" }, playBotButton(form, botError), h("span", { class: "muted" }, "No account needed.")),
      botError,
      h("h3", {}, "Against people"),
      h("div", { class: "row" }, form.ratedLabel),
      h("div", { class: "grid-fields" }, form.rangeField),
      h("div", { class: "row" }, people.quick, people.create, h("a", { href: "#/lobby" }, "Browse the lobby")),
      people.waiting,
      h("div", { class: "invite-row" }, form.inviteField, people.inviteButton),
      people.error),
    lists.invitationsBox,
    lists.runningBox);
  syncForm(form);
  const wantedInvite = hashQuery().get("invite");
  if (wantedInvite) form.invite.value = wantedInvite;

  // Leaving the screen while looking stops the search (nobody should be paired into a game
  // whose player has gone).
  const stop = () => stopSearch(people);
  if (!session.current()) {
    fill(lists.running, h("li", { class: "muted" }, "Your games show here once you play."));
    return stop;
  }
  await loadLists(lists);
  return stop;
}

// ------------------------------------------------------------------ the new game's settings
function newGameForm() {
  const options = (pairs, selected) => pairs.map(
    ([value, label]) => h("option", { value, selected: value === selected }, label));
  const f = {
    variant: h("select", {}, Object.entries(VARIANTS).map(([key, v]) => h("option", { value: key }, v.name))),
    level: h("select", {}, options(BOT_LEVELS, "medium")),
    time: h("select", {}, options(TIMES_PER_MOVE, 86400)),
    seatsSelect: h("select", {}, [2, 3, 4].map((n) => h("option", { value: n }, `${n} players`))),
    rated: h("input", { type: "checkbox", id: "rated" }),
    invite: h("input", {
      type: "text", autocomplete: "off", spellcheck: "false", maxlength: 64, placeholder: "e.g. Ann",
    }),
    about: h("p", { class: "muted" }),
    range: h("select", {}, RATING_RANGES.map(([d, label]) => h("option", { value: d }, label))),
  };
  f.inviteField = field("Invite by username", f.invite,
    "Their username; for more players, separate names with commas.");
  f.seatsField = field("Seats", f.seatsSelect);
  f.ratedLabel = h("label", { class: "check", for: "rated" }, f.rated, " Rated");
  f.rangeField = field("Opponents", f.range, "For quick pairing: one opponent, by rating.");
  f.variant.addEventListener("change", () => syncForm(f));
  return f;
}

/** What the chosen variant allows: seats, rated, a rating range. */
function syncForm(f) {
  const v = VARIANTS[f.variant.value];
  f.about.textContent = v.about;
  f.seatsField.hidden = v.seats.length < 2;
  if (v.seats.length < 2) f.seatsSelect.value = "2";
  f.rated.disabled = !v.rated;
  if (!v.rated) f.rated.checked = false;
  f.rangeField.hidden = !v.rated;
  f.ratedLabel.title = v.rated ? "" : "Only mine duel games are rated.";
}

/** The body of a new game against people, from the form. */
function settings(f, extra = {}) {
  return {
    variant: f.variant.value, seats: Number(f.seatsSelect.value), bots: 0, move_deadline_s: Number(f.time.value),
    rated: f.rated.checked, ...extra,
  };
}

function playBotButton(f, slot) {
  return h("button", { type: "button", class: "primary", onclick: (e) => act(e.currentTarget, slot, async () => {
    await session.ensurePlayer();
    const seats = Number(f.seatsSelect.value);
    const game = await api.post("/v1/games", {
      variant: f.variant.value, seats, bots: seats - 1, bot_level: f.level.value, move_deadline_s: Number(f.time.value),
    });
    location.hash = `#/game/${game.game_id}`;
  }) }, "Play the bot");
}

// ------------------------------------------------------------------ against people
/** Say in `slot` that games against people need an account, when they do. */
function needAccount(slot) {
  if (session.signedIn()) return false;
  fill(slot, "Games against people need an account: ", h("a", { href: "#/account" }, "sign in or sign up"),
    " (guests play the bot).");
  slot.hidden = false;
  return true;
}

/** "Quick pairing", "Create game" and "Invite", with the search they may leave waiting. */
function peopleControls(f) {
  const p = {
    error: errorSlot(), search: null,
    waiting: h("div", { class: "waiting", role: "status", "aria-live": "polite", hidden: true }),
  };
  const guarded = (work) => (e) => { if (!needAccount(p.error)) act(e.currentTarget, p.error, work); };
  const open = (game) => { location.hash = `#/game/${game.game_id}`; };
  const create = async () => open(await api.post("/v1/games", settings(f)));
  p.quick = h("button", { type: "button", class: "primary", onclick: guarded(() => quickPairing(f, p)) },
    "Quick pairing");
  p.create = h("button", { type: "button", onclick: guarded(create) }, "Create game");
  p.inviteButton = h("button", { type: "button", onclick: (e) => {
    if (needAccount(p.error)) return;
    const names = f.invite.value.split(",").map((n) => n.trim()).filter(Boolean);
    showError(f.inviteField, "");
    if (!names.length) {
      showError(f.inviteField, "Type the username of the player you want to invite.");
      f.invite.focus();
      return;
    }
    act(e.currentTarget, f.inviteField, async () => {
      const seats = Math.max(Number(f.seatsSelect.value), names.length + 1);
      open(await api.post("/v1/games", settings(f, { seats, invite: names })));
    });
  } }, "Invite");
  return p;
}

/** Seek a game of these settings: paired at once with someone who waits for the same, or
 * wait (told over the live socket, and by reading the seek) until someone comes. */
async function quickPairing(f, p) {
  const v = f.variant.value;
  const body = { variant: v, move_deadline_s: Number(f.time.value), rated: f.rated.checked };
  if (f.range.value && VARIANTS[v].rated) {
    const me = await api.get("/v1/me");
    const mine = (me.ratings && me.ratings[v] && me.ratings[v].rating) || 1500;
    const spread = Number(f.range.value);
    body.rating_range = [Math.max(0, mine - spread), mine + spread];
  }
  const seek = await api.post("/v1/seeks", body);
  if (seek.status === "paired") { location.hash = `#/game/${seek.game_id}`; return; }
  wait(p, seek);
}

/** Show the open seek until it is paired (then open the game), expires or is stopped. */
function wait(p, seek) {
  const stopButton = h("button", { type: "button" }, "Stop looking");
  const until = new Date(seek.expires_at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  const what = [variantName(seek.variant), timePerMove(seek.move_deadline_s), seek.rated ? "rated" : ""]
    .filter(Boolean).join(", ");
  fill(p.waiting, h("p", {}, h("strong", {}, "Looking for an opponent… "), `${what}; until ${until}.`), stopButton);
  p.waiting.hidden = false;
  p.quick.disabled = true;
  const done = () => {
    if (p.search !== current) return;
    p.search = null;
    clearInterval(current.poller);
    current.unlisten();
    p.quick.disabled = false;
  };
  const opened = (gameId) => { done(); location.hash = `#/game/${gameId}`; };
  const current = {
    seek,
    unlisten: socket.listen("paired", (message) => { if (message.seek_id === seek.seek_id) opened(message.game_id); }),
    poller: setInterval(() => check(), SEEK_POLL_MS),
  };
  p.search = current;
  async function check() {
    let now;
    try { now = await api.get(`/v1/seeks/${seek.seek_id}`); } catch { return; }
    if (p.search !== current) return;
    if (now.status === "paired") opened(now.game_id);
    else if (now.status !== "open") {
      done();
      const words = now.status === "expired" ? "Nobody came in time: try Quick pairing again." : "You stopped looking.";
      fill(p.waiting, h("p", {}, words));
    }
  }
  stopButton.addEventListener("click", () => act(stopButton, p.error, async () => {
    try {
      await api.del(`/v1/seeks/${seek.seek_id}`);
    } catch (error) {
      if (error.code !== "seek-not-open") throw error;
      await check();
      return;
    }
    done();
    fill(p.waiting, h("p", {}, "You stopped looking."));
  }));
}

/** Withdraw the seek this page waits on, if any. */
function stopSearch(p) {
  if (!p.search) return;
  const { seek } = p.search;
  clearInterval(p.search.poller);
  p.search.unlisten();
  p.search = null;
  api.del(`/v1/seeks/${seek.seek_id}`).catch(() => {});
}

// ------------------------------------------------------------------ invitations and your games
function gameLists() {
  const invitations = h("ul", { class: "list", "aria-label": "Invitations" });
  const running = h("ul", { class: "list", "aria-label": "Your games" });
  return {
    invitations, running,
    invitationsBox: h("section", { class: "card", hidden: true, "aria-labelledby": "invitations-heading" },
      h("h2", { id: "invitations-heading" }, "Invitations"), invitations),
    runningBox: h("section", { class: "card", "aria-labelledby": "running-heading" },
      h("h2", { id: "running-heading" }, "Your games"), running),
  };
}

async function loadLists({ invitations, invitationsBox, running }) {
  const loads = [api.get("/v1/me/games?status=active").then((data) => {
    saved.keepList(session.current().player_id, data.games);
    fill(running, data.games.length ? data.games.map(gameItem)
      : h("li", { class: "muted" }, "No running games: start one above."));
  }, (error) => showKeptGames(running, error))];
  if (session.signedIn()) {
    loads.push(allInvitations().then((games) => {
      invitationsBox.hidden = !games.length;
      fill(invitations, games.map(invitationItem));
    }, () => { invitationsBox.hidden = true; }));
  }
  await Promise.all(loads);
}

/** Every invitation waiting for the player: the list pages (`next`), and all of them are shown. */
async function allInvitations() {
  const games = [];
  let cursor = null;
  do {
    const data = await api.get(`/v1/me/invites?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    games.push(...data.games);
    cursor = data.next;
  } while (cursor);
  return games;
}

/** Offline, the running games as this browser last read them (saved.js), and when. */
function showKeptGames(running, error) {
  const you = session.current();
  const kept = error.status === 0 && you ? saved.list(you.player_id) : null;
  if (!kept) { fill(running, h("li", { class: "error-text" }, error.words)); return; }
  const at = new Date(kept.at).toLocaleString([],
    { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
  fill(running,
    h("li", { class: "muted kept" }, `Offline: your games as they were at ${at}.`),
    kept.games.length ? kept.games.map(gameItem) : h("li", { class: "muted" }, "No running games."));
}

function gameItem(game) {
  const mine = game.turn && game.turn.seat === game.my_seat;
  let state = game.status;
  if (game.status === "waiting") state = "waiting for players";
  else if (mine) state = `your turn, ${timeLeft(game.turn.deadline)} left`;
  else if (game.turn) state = `${game.seats[game.turn.seat].name} to move`;
  return h("li", { class: mine ? "your-turn" : "" },
    h("span", {}, h("strong", {}, variantName(game.variant)), ` ${seatNames(game.seats)}`,
      h("span", { class: "muted" }, ` · ${state}`)),
    h("a", { class: "button", href: `#/game/${game.game_id}` }, "Open"));
}

function invitationItem(game) {
  const slot = errorSlot();
  const host = (game.seats.find((s) => s.kind !== "open") || game.seats[0]).name;
  const item = h("li", { class: "invitation" },
    h("span", {}, `${host} invites you: ${variantName(game.variant)}`,
      game.move_deadline_s ? `, ${timePerMove(game.move_deadline_s)}` : "", game.rated ? ", rated" : ""),
    h("span", { class: "row" },
      h("button", { type: "button", class: "primary", onclick: (e) => act(e.currentTarget, slot, async () => {
        await api.post(`/v1/games/${game.game_id}/join`, {});
        location.hash = `#/game/${game.game_id}`;
      }) }, "Accept"),
      h("button", { type: "button", onclick: (e) => act(e.currentTarget, slot, async () => {
        await api.post(`/v1/games/${game.game_id}/decline`, {});
        item.remove();
      }) }, "Decline")),
    slot);
  return item;
}
