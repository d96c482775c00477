// #/leaderboard/{variant}: the top players by rating, the caller's own rank, and the way to
// opt in (leaderboards show only players who chose to be shown).
import { h, fill, errorSlot, act, when } from "./dom.js";
import * as api from "./api.js";
import * as session from "./session.js";
import { VARIANTS, variantName } from "./variants.js";

export async function show(view, variant = "mine-duel") {
  document.title = `Leaderboard: ${variantName(variant)} · MineDuel`;
  const tabs = h("p", { class: "row tabs" }, Object.entries(VARIANTS).filter(([, v]) => v.rated).map(([key, v]) =>
    h("a", { href: `#/leaderboard/${key}`, "aria-current": key === variant ? "page" : null }, v.name)));
  if (!VARIANTS[variant] || !VARIANTS[variant].rated) {
    fill(view, h("h1", {}, "Leaderboard"), tabs,
      h("p", {}, `${variantName(variant)} games are not rated, so this variant has no leaderboard.`));
    return undefined;
  }
  const data = await api.get(`/v1/leaderboards/${encodeURIComponent(variant)}`);
  const body = h("tbody");
  const slot = errorSlot();
  const more = h("button", { type: "button", hidden: !data.next }, "More players");
  let cursor = data.next;
  const isMe = (e) => session.current() && session.current().username === e.username;
  const rows = (entries) => entries.map((e) => h("tr", { class: isMe(e) ? "me" : "" },
    h("td", {}, String(e.rank)),
    h("td", {}, h("a", { href: `#/players/${encodeURIComponent(e.username)}` }, e.username)),
    h("td", {}, String(e.rating)), h("td", {}, String(e.games))));
  body.append(...rows(data.entries));
  more.addEventListener("click", () => act(more, slot, async () => {
    const next = await api.get(`/v1/leaderboards/${encodeURIComponent(variant)}?cursor=${encodeURIComponent(cursor)}`);
    body.append(...rows(next.entries));
    cursor = next.next;
    more.hidden = !cursor;
  }));
  let mine;
  if (!session.signedIn()) mine = h("p", {}, h("a", { href: "#/account" }, "Sign in"), " to see your own rank.");
  else if (data.me) {
    mine = h("p", { class: "my-rank" }, h("strong", {}, `Your rank: ${data.me.rank}`),
      ` with a rating of ${data.me.rating}.`);
  } else {
    mine = h("p", { class: "my-rank" }, "You are not on this leaderboard yet. It lists players who turned on ",
      h("a", { href: "#/account" }, "Show me on leaderboards"), " in their account, once they have played 10 rated "
      + "games (their rating is no longer provisional) and have played a rated game in the last 30 days.");
  }
  fill(view, h("h1", {}, `Leaderboard: ${variantName(variant)}`), tabs, mine,
    data.entries.length
      ? h("table", { class: "board-table" },
        h("caption", { class: "muted" }, data.updated_at ? `Updated ${when(data.updated_at)}` : "Top players"),
        h("thead", {}, h("tr", {}, ["Rank", "Player", "Rating", "Games"].map((t) => h("th", { scope: "col" }, t)))),
        body)
      : h("p", { class: "muted" }, "Nobody is ranked yet: rated games put players here."),
    more, slot);
  return undefined;
}
