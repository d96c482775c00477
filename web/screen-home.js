// #/: play the bot now, or find a person: quick pairing, a game for the lobby, an invitation
// by username; the invitations waiting for you and your running games.
import { h, fill, field, errorSlot, showError, act, timeLeft } from "./dom.js";
import * as api from "./api.js";
import * as session from "./session.js";
import { hashQuery } from "./router.js";
import { VARIANTS, variantName } from "./variants.js";
import { TIMES_PER_MOVE, BOT_LEVELS, timePerMove } from "./words.js";
import { seatNames } from "./people.js";

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

  function sync() {
    const v = VARIANTS[variant.value];
    about.textContent = v.about;
    seatsField.hidden = v.seats.length < 2;
    if (v.seats.length < 2) seatsSelect.value = "2";
    rated.disabled = !v.rated;
    if (!v.rated) rated.checked = false;
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

  /** Join the first open game of these settings in the lobby; if nobody waits, open one. */
  async function quickPairing() {
    const wanted = settings();
    const me = session.current();
    const lobby = await api.get(`/v1/lobby?variant=${encodeURIComponent(wanted.variant)}`);
    const fits = lobby.games.find((g) => g.seats.length === wanted.seats && g.rated === wanted.rated
      && (g.move_deadline_s === undefined || g.move_deadline_s === null || g.move_deadline_s === wanted.move_deadline_s)
      && !g.seats.some((s) => s.player_id === me.player_id));
    if (fits) {
      try {
        await api.post(`/v1/games/${fits.game_id}/join`, {});
        location.hash = `#/game/${fits.game_id}`;
        return;
      } catch (error) {
        if (!["no-open-seat", "join-conflict"].includes(error.code)) throw error;
      }
    }
    const game = await api.post("/v1/games", wanted);
    location.hash = `#/game/${game.game_id}`;
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
      h("div", { class: "row" }, quick, create, h("a", { href: "#/lobby" }, "Browse the lobby")),
      h("div", { class: "invite-row" }, inviteField, inviteButton),
      peopleError),
    invitationsBox,
    runningBox);
  sync();
  const wantedInvite = hashQuery().get("invite");
  if (wantedInvite) invite.value = wantedInvite;

  if (!session.current()) {
    fill(running, h("li", { class: "muted" }, "Your games show here once you play."));
    return undefined;
  }
  const loads = [api.get("/v1/me/games?status=active").then((data) => {
    fill(running, data.games.length ? data.games.map(gameItem) : h("li", { class: "muted" }, "No running games: start one above."));
  }, (error) => fill(running, h("li", { class: "error-text" }, error.words)))];
  if (session.signedIn()) {
    loads.push(api.get("/v1/me/invites").then((data) => {
      invitationsBox.hidden = !data.games.length;
      fill(invitations, data.games.map(invitationItem));
    }, () => { invitationsBox.hidden = true; }));
  }
  await Promise.all(loads);
  return undefined;
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
