// #/history: the signed-in player's finished games, newest first, a page at a time; each
// opens its replay.
import { h, fill, errorSlot, act } from "./dom.js";
import * as api from "./api.js";
import * as session from "./session.js";
import { finishedItem } from "./gamelist.js";

const PAGE = 10;

export async function show(view) {
  document.title = "History · MineDuel";
  if (!session.signedIn()) {
    fill(view, h("h1", {}, "History"), h("p", {}, "Your finished games are kept with your account: ", h("a", { href: "#/account" }, "sign in or sign up"), "."));
    return undefined;
  }
  const list = h("ul", { class: "list", "aria-label": "Finished games" });
  const slot = errorSlot();
  const more = h("button", { type: "button", hidden: true }, "Older games");
  let cursor = null;
  async function page() {
    const data = await api.get(`/v1/me/games?status=finished&limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    if (!cursor && !data.games.length) list.append(h("li", { class: "muted" }, "No finished games yet: ", h("a", { href: "#/" }, "play one"), "."));
    for (const game of data.games) list.append(finishedItem(game, game.my_seat));
    cursor = data.next;
    more.hidden = !cursor;
  }
  more.addEventListener("click", () => act(more, slot, page));
  fill(view, h("h1", {}, "History"), h("p", { class: "muted" }, "Your finished games, newest first."), list, more, slot);
  await page();
  return undefined;
}
