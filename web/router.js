// Hash routes to screens: each screen is its own module, loaded when first shown. A screen's
// `show(view, ...params)` draws into <main> and may return a cleanup (timers, live follows)
// that runs when the player leaves it.
import { h, fill } from "./dom.js";

const ROUTES = [
  [/^#?\/?(\?.*)?$/, "./screen-home.js"],
  [/^#\/lobby$/, "./screen-lobby.js"],
  [/^#\/game\/([0-9a-f-]{36})$/, "./screen-game.js"],
  [/^#\/replay\/([0-9a-f-]{36})$/, "./screen-replay.js"],
  [/^#\/verify\/([0-9a-f-]{36})$/, "./screen-verify.js"],
  [/^#\/history$/, "./screen-history.js"],
  [/^#\/players\/([^/?#]+)$/, "./screen-profile.js"],
  [/^#\/leaderboard(?:\/([a-z-]+))?$/, "./screen-leaderboard.js"],
  [/^#\/daily$/, "./screen-daily.js"],
  [/^#\/account$/, "./screen-account.js"],
];

let cleanup = null;
let generation = 0;

/** Show the current route, and each one the hash changes to. `leave()` runs first on each
 * change: false keeps the router out of it (the page reloads instead, for a new version). */
export function start(view, afterEach, leave = () => true) {
  window.addEventListener("hashchange", () => { if (leave() !== false) route(view, afterEach); });
  return route(view, afterEach);
}

/** The query part of the hash (#/?invite=Ann): URLSearchParams. */
export function hashQuery() {
  const at = location.hash.indexOf("?");
  return new URLSearchParams(at >= 0 ? location.hash.slice(at + 1) : "");
}

async function route(view, afterEach) {
  if (cleanup) { try { cleanup(); } catch (error) { console.warn(error); } cleanup = null; }
  generation += 1;
  const mine = generation;
  const hash = location.hash || "#/";
  const found = ROUTES.map(([pattern, module]) => [hash.match(pattern), module]).find(([m]) => m);
  afterEach(hash);
  if (!found) {
    document.title = "Not found · MineDuel";
    fill(view, h("h1", {}, "There is nothing here"), h("p", {}, "The link may be mistyped. ", h("a", { href: "#/" }, "Go to the start")));
    return;
  }
  const [match, module] = found;
  fill(view, h("p", { class: "muted" }, "Loading…"));
  try {
    const screen = await import(module);
    if (mine !== generation) return;
    const params = match.slice(1).map((p) => (p === undefined ? p : decodeURIComponent(p)));
    const done = await screen.show(view, ...params);
    if (mine !== generation) { if (typeof done === "function") done(); return; }
    cleanup = typeof done === "function" ? done : null;
  } catch (error) {
    if (mine !== generation) return;
    console.warn(error);
    fill(view, h("h1", {}, "Something went wrong"),
      h("p", { class: "error-text" }, error && error.words ? error.words : "This screen could not be shown: reload the page to try again."));
  }
}
