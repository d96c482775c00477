// #/daily: today's daily duel (the same field for everyone, against the hard bot): play it or
// open your game, today's table so far, and yesterday's results.
import { h, fill, errorSlot, act, timeLeft, when } from "./dom.js";
import * as api from "./api.js";
import * as session from "./session.js";

export async function show(view) {
  document.title = "Daily duel · MineDuel";
  const today = await api.get("/v1/daily");
  const slot = errorSlot();
  let action;
  if (today.game) {
    const over = today.game.status === "finished";
    action = h("p", {}, over ? "You have played today's duel. " : "Your duel of the day is running. ",
      h("a", { class: "button primary", href: `#/game/${today.game.game_id}` },
        over ? "See your game" : "Go on with your game"));
  } else {
    const play = async () => {
      await session.ensurePlayer();
      const game = await api.post("/v1/daily/play", {});
      location.hash = `#/game/${game.game_id}`;
    };
    action = h("div", {},
      h("button", { type: "button", class: "primary", onclick: (e) => act(e.currentTarget, slot, play) },
        "Play today's duel"),
      slot);
  }
  const todayBox = h("section", { class: "card", "aria-labelledby": "today-table" },
    h("h2", { id: "today-table" }, "Today's table"));
  const yesterdayBox = h("section", { class: "card", "aria-labelledby": "yesterday-table" },
    h("h2", { id: "yesterday-table" }, "Yesterday's results"));
  const note = (box, words) => fill(box, box.firstChild, h("p", { class: "muted" }, words));
  fill(view,
    h("h1", {}, `Daily duel, ${today.date}`),
    h("p", {}, "One field a day, the same for everyone, against the hard bot: one attempt each. "
      + "Accounts are ranked by mines found, then by fewer safe taps."),
    h("p", { class: "muted" }, `Closes in ${timeLeft(today.closes_at)}.`,
      session.signedIn() ? "" : " Guests may play; only accounts are ranked."),
    action, todayBox, yesterdayBox);
  await Promise.all([
    today.commitment ? table(todayBox, today.date) : note(todayBox, "Today's duel is being prepared: "
      + "its commitment is published before anyone plays. Come back in a few minutes."),
    today.yesterday ? table(yesterdayBox, today.yesterday.date)
      : note(yesterdayBox, "There was no daily duel yesterday."),
  ]);
  return undefined;
}

async function table(box, date) {
  const heading = box.firstChild;
  try {
    const data = await api.get(`/v1/daily/${date}/table`);
    const rows = data.entries.map((e) => h("tr", {},
      h("td", {}, String(e.rank)), h("td", {}, e.name), h("td", {}, String(e.mines)), h("td", {}, String(e.safe_taps)),
      h("td", {}, e.game_id
        ? h("a", { href: `#/replay/${e.game_id}`, "aria-label": `Replay of ${e.name}'s duel` }, "Replay") : "")));
    const updated = data.updated_at ? `; updated ${when(data.updated_at)}` : "";
    const heads = ["Rank", "Player", "Mines", "Safe taps", "Game"].map((t) => h("th", { scope: "col" }, t));
    fill(box, heading,
      h("p", { class: "muted" },
        `${data.players} ${data.players === 1 ? "player" : "players"}, ${data.ranked} ranked${updated}.`),
      rows.length ? h("table", { class: "board-table" }, h("thead", {}, h("tr", {}, heads)), h("tbody", {}, rows))
        : h("p", { class: "muted" }, "No ranked player has finished yet."));
  } catch (error) {
    fill(box, heading, h("p", { class: "error-text" }, error.words));
  }
}
