// #/lobby: the players looking for an opponent (quick pairing's open seeks) and the open
// games of every variant, with their seats, time per move, whether rated, and the creator's
// rating; it refreshes itself, and a signed-in player plays or joins with one button.
import { h, fill, errorSlot, act, when } from "./dom.js";
import * as api from "./api.js";
import * as session from "./session.js";
import { VARIANTS } from "./variants.js";
import { timePerMove } from "./words.js";
import { avatar, playerLink } from "./people.js";

const REFRESH_MS = 10000;

export async function show(view) {
  document.title = "Lobby · MineDuel";
  const lists = {};
  const updated = h("p", { class: "muted", "aria-live": "off" });
  const sections = Object.entries(VARIANTS).map(([key, v]) => {
    lists[key] = h("ul", { class: "list", "aria-label": `${v.name} games` });
    return h("section", { class: "card", "aria-labelledby": `lobby-${key}` },
      h("h2", { id: `lobby-${key}` }, v.name), lists[key]);
  });
  const seekers = h("ul", { class: "list", "aria-label": "Players looking for an opponent" });
  const seeking = h("section", { class: "card", "aria-labelledby": "lobby-seeks" },
    h("h2", { id: "lobby-seeks" }, "Looking for an opponent"), seekers);
  const signIn = session.signedIn() ? null
    : h("p", {}, "Joining a game needs an account: ", h("a", { href: "#/account" }, "sign in or sign up"),
      ". Guests play the bot.");
  fill(view, h("h1", {}, "Lobby"), h("p", { class: "muted" }, "Games waiting for players. The list updates by itself."),
    signIn, updated, seeking, ...sections,
    h("p", {}, h("a", { href: "#/" }, "Start a game of your own")));

  const load = () => loadLobby({ lists, seekers, updated });
  await load();
  const timer = setInterval(() => { if (document.visibilityState === "visible") load(); }, REFRESH_MS);
  return () => clearInterval(timer);
}

/** Read every variant's open games and the open seeks into the lists. */
async function loadLobby({ lists, seekers, updated }) {
  const me = session.current();
  await Promise.all(Object.keys(VARIANTS).map(async (key) => {
    try {
      const data = await api.get(`/v1/lobby?variant=${encodeURIComponent(key)}`);
      const games = data.games.filter((g) => !me || !g.seats.some((s) => s.player_id === me.player_id));
      fill(lists[key], games.length ? games.map((g) => gameItem(g, key))
        : h("li", { class: "muted" }, "Nobody is waiting right now."));
    } catch (error) {
      fill(lists[key], h("li", { class: "error-text" }, error.words));
    }
  }));
  await loadSeeks(seekers, me);
  updated.textContent = `Updated ${when(new Date().toISOString())}.`;
}

async function loadSeeks(seekers, me) {
  try {
    const pages = await Promise.all(Object.keys(VARIANTS).map(
      (key) => api.get(`/v1/seeks?variant=${encodeURIComponent(key)}`)));
    const mine = me && me.username;
    const open = pages.flatMap((page) => page.seeks).filter((seek) => seek.name !== mine);
    fill(seekers, open.length ? open.map(seekItem)
      : h("li", { class: "muted" }, "Nobody is looking right now: Quick pairing on the start page puts you here."));
  } catch (error) {
    fill(seekers, h("li", { class: "error-text" }, error.words));
  }
}

function seekItem(seek) {
  const slot = errorSlot();
  const what = [
    VARIANTS[seek.variant] ? VARIANTS[seek.variant].name : seek.variant,
    timePerMove(seek.move_deadline_s),
    seek.rated ? "rated" : "unrated",
    seek.rating_range ? `opponents rated ${seek.rating_range[0]} to ${seek.rating_range[1]}` : null,
  ].filter(Boolean).join(" · ");
  return h("li", { "data-seek": seek.seek_id },
    h("span", { class: "lobby-game" }, avatar(seek.name),
      h("span", {}, playerLink(seek.name),
        seek.rating ? h("span", { class: "rating" }, ` · rating ${seek.rating}`) : null,
        h("br"), h("span", { class: "muted" }, what))),
    h("span", { class: "row" },
      h("button", { type: "button", class: "primary", "aria-label": `Play ${seek.name}`, onclick: (e) => {
        if (!session.signedIn()) { location.hash = "#/account"; return; }
        act(e.currentTarget, slot, () => playSeeker(seek));
      } }, "Play")),
    slot);
}

/** Seek the same game as `seek`'s player, taking only opponents of exactly their rating (where
 * the variant has ratings): the server pairs with this seek, the nearest in rating. */
async function playSeeker(seek) {
  const body = { variant: seek.variant, move_deadline_s: seek.move_deadline_s, rated: seek.rated };
  if (seek.rating !== null && seek.rating !== undefined) body.rating_range = [seek.rating, seek.rating];
  const mineNow = await api.post("/v1/seeks", body);
  if (mineNow.status === "paired") { location.hash = `#/game/${mineNow.game_id}`; return; }
  await api.del(`/v1/seeks/${mineNow.seek_id}`).catch(() => {});
  throw Object.assign(new Error("not paired"),
    { words: `${seek.name} is no longer waiting, or asked for opponents of another rating.` });
}

function gameItem(game, key) {
  const creator = game.seats.find((s) => s.kind !== "open") || game.seats[0];
  const taken = game.seats.filter((s) => s.kind !== "open").length;
  const rating = h("span", { class: "rating" });
  if (VARIANTS[key].rated) {
    api.profile(creator.name).then((p) => {
      const r = p && p.ratings && p.ratings[key];
      if (r) rating.textContent = ` · rating ${r.rating}${r.provisional ? " (provisional)" : ""}`;
    });
  }
  const slot = errorSlot();
  return h("li", { "data-game": game.game_id },
    h("span", { class: "lobby-game" }, avatar(creator.name, { kind: creator.kind }),
      h("span", {}, playerLink(creator.name, creator.kind), rating,
        h("br"), h("span", { class: "muted" }, [
          `${taken} of ${game.seats.length} seats taken`,
          game.move_deadline_s ? timePerMove(game.move_deadline_s) : null,
          game.rated ? "rated" : "unrated",
        ].filter(Boolean).join(" · ")))),
    h("span", { class: "row" },
      h("button", { type: "button", class: "primary", "aria-label": `Join ${creator.name}'s game`, onclick: (e) => {
        if (!session.signedIn()) { location.hash = "#/account"; return; }
        act(e.currentTarget, slot, async () => {
          await api.post(`/v1/games/${game.game_id}/join`, {});
          location.hash = `#/game/${game.game_id}`;
        });
      } }, "Join")),
    slot);
}
