// Players as the screens show them: avatars (a picture, or the name's first letter), links to
// profiles, and the names of seats.
import { h } from "./dom.js";
import * as api from "./api.js";

/** An avatar for `name`: the profile picture when the player has one, else a letter. */
export function avatar(name, { kind = "account", url = null, size = "small" } = {}) {
  const letter = (name || "?").slice(0, 1).toUpperCase();
  const node = h("span", { class: `avatar ${size}`, "aria-hidden": "true" }, letter);
  const put = (src) => {
    if (!src) return;
    node.replaceChildren(h("img", { src: api.url(src), alt: "", width: 40, height: 40, loading: "lazy" }));
  };
  if (url) put(url);
  else if (kind === "account") api.profile(name).then((p) => p && put(p.avatar_url));
  return node;
}

/** A player's name, linking to their profile when they have one. */
export function playerLink(name, kind = "account") {
  if (kind === "account" && /^[A-Za-z0-9_-]{3,20}$/.test(name || "")) {
    return h("a", { href: `#/players/${encodeURIComponent(name)}` }, name);
  }
  return h("span", {}, name);
}

/** "Ann vs Bob", "Ann, Bob and Cy" for a game's seats. */
export function seatNames(seats) {
  const names = seats.map((s) => (s.kind === "open" ? "an open seat" : s.name));
  if (names.length === 2) return `${names[0]} vs ${names[1]}`;
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}
