// #/players/{username}: a player's profile: picture, name, wins, losses and draws, win rate,
// average and best mines, the six-month trend as a chart, ratings per variant, recent games;
// for the player themself (and nobody else), their fair-play status.
import { h, fill, errorSlot, act, percent, when } from "./dom.js";
import * as api from "./api.js";
import * as session from "./session.js";
import { avatar } from "./people.js";
import { trendChart } from "./chart.js";
import { variantName } from "./variants.js";
import { finishedItem } from "./gamelist.js";
import { FAIR_PLAY_STATUS } from "./words.js";

export async function show(view, username) {
  document.title = `${username} · MineDuel`;
  let profile;
  try {
    profile = await api.get(`/v1/players/${encodeURIComponent(username)}`);
  } catch (error) {
    if (error.status !== 404) throw error;
    fill(view, h("h1", {}, "No such player"), h("p", {}, `Nobody has the username ${username}: check the spelling.`));
    return undefined;
  }
  const stats = profile.stats;
  const you = session.current();
  const itsMe = you && you.player_id === profile.player_id;
  const ratings = Object.entries(profile.ratings || {});
  const facts = [
    ["Games", stats.games], ["Wins", stats.wins], ["Losses", stats.losses], ["Draws", stats.draws],
    ["Win rate", percent(stats.win_rate)], ["Mines in all", stats.mines_total],
    ["Mines a game", stats.mines_avg.toFixed(1)], ["Best game", `${stats.mines_best} mines`],
    ["Streak", `${stats.streak} (best ${stats.best_streak})`],
  ];
  const list = h("ul", { class: "list", "aria-label": "Recent games" });
  const slot = errorSlot();
  const more = h("button", { type: "button", hidden: true }, "Older games");
  let cursor = null;
  async function page() {
    const data = await api.get(`/v1/players/${encodeURIComponent(username)}/games?limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    if (!cursor && !data.games.length) list.append(h("li", { class: "muted" }, "No finished games yet."));
    for (const game of data.games) {
      const seat = game.seats.find((s) => s.player_id === profile.player_id);
      list.append(finishedItem(game, seat ? seat.seat : null));
    }
    cursor = data.next;
    more.hidden = !cursor;
  }
  more.addEventListener("click", () => act(more, slot, page));
  const name = profile.username || profile.name;
  fill(view,
    h("div", { class: "profile-head" }, avatar(name, { url: profile.avatar_url, size: "large" }),
      h("div", {}, h("h1", {}, name), h("p", { class: "muted" }, `Playing since ${when(profile.created_at)}`),
        itsMe ? h("a", { href: "#/account" }, "Change your name, picture or settings")
          : profile.username ? h("a", { class: "button", href: `#/?invite=${encodeURIComponent(profile.username)}` }, `Invite ${profile.username} to a game`) : null)),
    h("section", { class: "card", "aria-labelledby": "record-heading" },
      h("h2", { id: "record-heading" }, "Record"),
      h("dl", { class: "stats" }, facts.map(([k, v]) => h("div", {}, h("dt", {}, k), h("dd", {}, String(v)))))),
    h("section", { class: "card", "aria-labelledby": "trend-heading" },
      h("h2", { id: "trend-heading" }, "The last six months"),
      trendChart(stats.months),
      h("p", { class: "legend muted" }, h("span", { class: "key games" }), " games ", h("span", { class: "key wins" }), " won ", h("span", { class: "key rate" }), " win rate")),
    h("section", { class: "card", "aria-labelledby": "ratings-heading" },
      h("h2", { id: "ratings-heading" }, "Ratings"),
      ratings.length ? h("ul", { class: "plain" }, ratings.map(([variant, r]) => h("li", {},
        h("strong", {}, variantName(variant)), `: ${r.rating}`, r.provisional ? " (provisional)" : "", ` after ${r.games} rated ${r.games === 1 ? "game" : "games"} `,
        h("a", { href: `#/leaderboard/${variant}` }, "See the ranking"))))
        : h("p", { class: "muted" }, "No rated games yet.")),
    itsMe ? fairPlay(username) : null,
    h("section", { class: "card", "aria-labelledby": "recent-heading" },
      h("h2", { id: "recent-heading" }, "Recent games"), list, more, slot));
  await page();
  return undefined;
}

/** The player's own fair-play status (only they and moderators may read it). */
function fairPlay(username) {
  const body = h("div", {}, h("p", { class: "muted" }, "Loading…"));
  const box = h("section", { class: "card", "aria-labelledby": "fair-play-heading" },
    h("h2", { id: "fair-play-heading" }, "Fair play"), body);
  api.get(`/v1/players/${encodeURIComponent(username)}/fair-play`).then((record) => {
    const facts = [["Rated games screened", record.games_screened]];
    if (record.accuracy !== null) {
      facts.push(["Likeliest square", percent(record.accuracy)], ["Engine's choice", percent(record.engine_match)]);
    }
    fill(body,
      h("p", { class: `fair-play ${record.status}` }, FAIR_PLAY_STATUS[record.status] || record.status),
      h("dl", { class: "stats", "aria-label": "Fair-play figures" }, facts.map(([k, v]) => h("div", {}, h("dt", {}, k), h("dd", {}, String(v))))),
      h("p", { class: "muted" }, `Over your last ${record.window_size} rated games we compare how often you tapped the square the exact engine would have with how often people do. Only you see this.`));
  }, (error) => fill(body, h("p", { class: "error-text" }, error.words)));
  return box;
}
