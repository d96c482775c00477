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
  const variant = h("select", {}, Object.entries(VARIANTS).map(([key, v]) => h("option", { value: key }, v.name)));
  const level = h("select", {}, BOT_LEVELS.map(([key, label]) => h("option", { value: key, selected: key === "medium" }, label)));
  const time = h("select", {}, TIMES_PER_MOVE.map(([s, label]) => h("option", { value: s, selected: s === 86400 }, label)));
  const seatsSelect = h("select", {}, [2, 3, 4].map((n) => h("option", { value: n }, `${n} players`)));
  const rated = h("input", { type: "checkbox", id: "rated" });
  const invite = h("input", { type: "text", autocomplete: "off", spellcheck: "false", maxlength: 64, placeholder: "e.g. Ann" });
  const about = h("p", { class: "muted" });
  const botError = errorSlot();
  const peopleError = errorSlot();
  const inviteField = field("Invite by username", invite, "Their username; for more players, separate names with commas.");
  const seatsField = field("Seats", seatsSelect);
  const ratedLabel = h("label", { class: "check", for: "rated" }, rated, " Rated");
  const range = h("select", {}, RATING_RANGES.map(([d, label]) => h("option", { value: d }, label)));
  const rangeField = field("Opponents", range, "For quick pairing: one opponent, by rating.");
  const waiting = h("div", { class: "waiting", role: "status", "aria-live": "polite", hidden: true });

  function sync() {
    const v = VARIANTS[variant.value];
    about.textContent = v.about;
    seatsField.hidden = v.seats.length < 2;
    if (v.seats.length < 2) seatsSelect.value = "2";
    rated.disabled = !v.rated;
    if (!v.rated) rated.checked = false;
    rangeField.hidden = !v.rated;
    ratedLabel.title = v.rated ? "" : "Only mine duel games are rated.";
  }
  variant.addEventListener("change", sync);

  const playBot = h("button", { type: "button", class: "primary", onclick: (e) => act(e.currentTarget, botError, async () => {
    await session.ensurePlayer();
    const seats = Number(seatsSelect.value);
    const game = await api.post("/v1/games", {
      variant: variant.value, seats, bots: seats - 1, bot_level: level.value, move_deadline_s: Number(time.value),
    });
    location.hash = `#/game/${game.game_id}`;
  }) }, "Play the bot");

  function needAccount() {
    if (session.signedIn()) return false;
    fill(peopleError, "Games against people need an account: ", h("a", { href: "#/account" }, "sign in or sign up"), " (guests play the bot).");
    peopleError.hidden = false;
    return true;
  }

  function settings(extra = {}) {
    return { variant: variant.value, seats: Number(seatsSelect.value), bots: 0, move_deadline_s: Number(time.value), rated: rated.checked, ...extra };
  }

  const quick = h("button", { type: "button", class: "primary", onclick: (e) => { if (!needAccount()) act(e.currentTarget, peopleError, quickPairing); } }, "Quick pairing");
  const create = h("button", { type: "button", onclick: (e) => { if (!needAccount()) act(e.currentTarget, peopleError, async () => {
    const game = await api.post("/v1/games", settings());
    location.hash = `#/game/${game.game_id}`;
  }); } }, "Create game");
  const inviteButton = h("button", { type: "button", onclick: (e) => {
    if (needAccount()) return;
    const names = invite.value.split(",").map((n) => n.trim()).filter(Boolean);
    showError(inviteField, "");
    if (!names.length) { showError(inviteField, "Type the username of the player you want to invite."); invite.focus(); return; }
    act(e.currentTarget, inviteField, async () => {
      const seats = Math.max(Number(seatsSelect.value), names.length + 1);
      const game = await api.post("/v1/games", settings({ seats, invite: names }));
      location.hash = `#/game/${game.game_id}`;
    });
  } }, "Invite");

  /** Seek a game of these settings: paired at once with someone who waits for the same, or
   * wait (told over the live socket, and by reading the seek) until someone comes. */
  async function quickPairing() {
    const v = variant.value;
    const body = { variant: v, move_deadline_s: Number(time.value), rated: rated.checked };
    if (range.value && VARIANTS[v].rated) {
      const me = await api.get("/v1/me");
      const mine = (me.ratings && me.ratings[v] && me.ratings[v].rating) || 1500;
      const spread = Number(range.value);
      body.rating_range = [Math.max(0, mine - spread), mine + spread];
    }
    const seek = await api.post("/v1/seeks", body);
    if (seek.status === "paired") { location.hash = `#/game/${seek.game_id}`; return; }
    wait(seek);
  }

  let search = null;
  /** Show the open seek until it is paired (then open the game), expires or is stopped. */
  function wait(seek) {
    const stopButton = h("button", { type: "button" }, "Stop looking");
    const until = new Date(seek.expires_at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    const what = [variantName(seek.variant), timePerMove(seek.move_deadline_s), seek.rated ? "rated" : ""].filter(Boolean).join(", ");
    fill(waiting, h("p", {}, h("strong", {}, "Looking for an opponent… "), `${what}; until ${until}.`), stopButton);
    waiting.hidden = false;
    quick.disabled = true;
    const done = () => {
      if (search !== current) return;
      search = null;
      clearInterval(current.poller);
      current.unlisten();
      quick.disabled = false;
    };
    const opened = (gameId) => { done(); location.hash = `#/game/${gameId}`; };
    const current = {
      seek,
      unlisten: socket.listen("paired", (message) => { if (message.seek_id === seek.seek_id) opened(message.game_id); }),
      poller: setInterval(() => check(), SEEK_POLL_MS),
    };
    search = current;
    async function check() {
      let now;
      try { now = await api.get(`/v1/seeks/${seek.seek_id}`); } catch { return; }
      if (search !== current) return;
      if (now.status === "paired") opened(now.game_id);
      else if (now.status !== "open") {
        done();
        fill(waiting, h("p", {}, now.status === "expired" ? "Nobody came in time: try Quick pairing again." : "You stopped looking."));
      }
    }
    stopButton.addEventListener("click", () => act(stopButton, peopleError, async () => {
      try {
        await api.del(`/v1/seeks/${seek.seek_id}`);
      } catch (error) {
        if (error.code !== "seek-not-open") throw error;
        await check();
        return;
      }
      done();
      fill(waiting, h("p", {}, "You stopped looking."));
    }));
  }

  const invitations = h("ul", { class: "list", "aria-label": "Invitations" });
  const invitationsBox = h("section", { class: "card", hidden: true, "aria-labelledby": "invitations-heading" },
    h("h2", { id: "invitations-heading" }, "Invitations"), invitations);
  const running = h("ul", { class: "list", "aria-label": "Your games" });
  const runningBox = h("section", { class: "card", "aria-labelledby": "running-heading" },
    h("h2", { id: "running-heading" }, "Your games"), running);

  fill(view,
    h("h1", {}, "Play MineDuel"),
    h("section", { class: "card", "aria-labelledby": "new-game-heading" },
      h("h2", { id: "new-game-heading" }, "A new game"),
      h("div", { class: "grid-fields" }, field("Variant", variant), field("Level", level, "For the bot."), field("Time per move", time), seatsField),
      about,
      h("div", { class: "row" }, playBot, h("span", { class: "muted" }, "No account needed.")),
      botError,
      h("h3", {}, "Against people"),
      h("div", { class: "row" }, ratedLabel),
      h("div", { class: "grid-fields" }, rangeField),
      h("div", { class: "row" }, quick, create, h("a", { href: "#/lobby" }, "Browse the lobby")),
      waiting,
      h("div", { class: "invite-row" }, inviteField, inviteButton),
      peopleError),
    invitationsBox,
    runningBox);
  sync();
  const wantedInvite = hashQuery().get("invite");
  if (wantedInvite) invite.value = wantedInvite;

  // Leaving the screen while looking stops the search (nobody should be paired into a game
  // whose player has gone).
  const stop = () => {
    if (!search) return;
    const { seek } = search;
    clearInterval(search.poller);
    search.unlisten();
    search = null;
    api.del(`/v1/seeks/${seek.seek_id}`).catch(() => {});
  };
  if (!session.current()) {
    fill(running, h("li", { class: "muted" }, "Your games show here once you play."));
    return stop;
  }
  const loads = [api.get("/v1/me/games?status=active").then((data) => {
    saved.keepList(session.current().player_id, data.games);
    fill(running, data.games.length ? data.games.map(gameItem) : h("li", { class: "muted" }, "No running games: start one above."));
  }, (error) => showKeptGames(running, error))];
  if (session.signedIn()) {
    loads.push(api.get("/v1/me/invites").then((data) => {
      invitationsBox.hidden = !data.games.length;
      fill(invitations, data.games.map(invitationItem));
    }, () => { invitationsBox.hidden = true; }));
  }
  await Promise.all(loads);
  return stop;
}

/** Offline, the running games as this browser last read them (saved.js), and when. */
function showKeptGames(running, error) {
  const you = session.current();
  const kept = error.status === 0 && you ? saved.list(you.player_id) : null;
  if (!kept) { fill(running, h("li", { class: "error-text" }, error.words)); return; }
  const at = new Date(kept.at).toLocaleString([], { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
  fill(running,
    h("li", { class: "muted kept" }, `Offline: your games as they were at ${at}.`),
    kept.games.length ? kept.games.map(gameItem) : h("li", { class: "muted" }, "No running games."));
}

function gameItem(game) {
  const mine = game.turn && game.turn.seat === game.my_seat;
  const state = game.status === "waiting" ? "waiting for players" : mine ? `your turn, ${timeLeft(game.turn.deadline)} left` : game.turn ? `${game.seats[game.turn.seat].name} to move` : game.status;
  return h("li", { class: mine ? "your-turn" : "" },
    h("span", {}, h("strong", {}, variantName(game.variant)), ` ${seatNames(game.seats)}`, h("span", { class: "muted" }, ` · ${state}`)),
    h("a", { class: "button", href: `#/game/${game.game_id}` }, "Open"));
}

function invitationItem(game) {
  const slot = errorSlot();
  const item = h("li", { class: "invitation" },
    h("span", {}, `${(game.seats.find((s) => s.kind !== "open") || game.seats[0]).name} invites you: ${variantName(game.variant)}`, game.move_deadline_s ? `, ${timePerMove(game.move_deadline_s)}` : "", game.rated ? ", rated" : ""),
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
