// MineDuel's service worker. It keeps the app shell, so the client opens without the network
// (on a phone's home screen, on a train), and shows the notifications the server pushes.
//
// The shell is the web client's own files, listed below with a version made from their bytes
// (`make web-shell` writes both; a test fails when they no longer match web/). A deploy that
// changes any file changes this script, so the browser installs the new worker, which caches
// the new files in a cache of their own and, once active, deletes the old one: the files of
// one page always come from one deploy. Only those files (and config.json, the client's
// settings) are ever cached: never an API answer, which may hold what only one player may see;
// the last state of a player's games is kept by the page itself (saved.js), for that player.
// Push: a payload is {type, game_id, move_count, deadline, title, body, url} (docs/api.md); one
// notification per game is shown at a time (a newer one of the same game replaces it).

// shell:start (written by `make web-shell`)
const VERSION = "46627473f70962f4";
const SHELL = [
  "account-authenticator.js",
  "account-push.js",
  "account-sign-in.js",
  "api.js",
  "app.js",
  "apple-touch-icon.png",
  "board.js",
  "chart.js",
  "clock.js",
  "cognito.js",
  "dom.js",
  "favicon.ico",
  "game-clock.js",
  "game-controls.js",
  "game-end.js",
  "game-seats.js",
  "gamelist.js",
  "icon-192.png",
  "icon-512.png",
  "icon-maskable-192.png",
  "icon-maskable-512.png",
  "index.html",
  "install.js",
  "manifest.webmanifest",
  "moves.js",
  "offline.js",
  "people.js",
  "router.js",
  "saved.js",
  "screen-account.js",
  "screen-daily.js",
  "screen-game.js",
  "screen-history.js",
  "screen-home.js",
  "screen-leaderboard.js",
  "screen-lobby.js",
  "screen-profile.js",
  "screen-replay.js",
  "screen-verify.js",
  "session.js",
  "socket.js",
  "style.css",
  "uqr.js",
  "variants.js",
  "words.js",
];
// shell:end

const PREFIX = "mineduel-shell-";
const SHELL_CACHE = `${PREFIX}${VERSION}`;
const CONFIG_CACHE = "mineduel-config";
const CONFIG = "config.json";

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(SHELL_CACHE);
    // From the server, not the HTTP cache: a file cached under the old version must not be
    // taken into the new one.
    await cache.addAll(SHELL.map((file) => new Request(file, { cache: "reload" })));
    try { // the settings too, so that the very next start can be offline
      await (await caches.open(CONFIG_CACHE)).add(new Request(CONFIG, { cache: "reload" }));
    } catch { /* kept on the next start that reaches the server */ }
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== SHELL_CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

/** The shell file a request asks for ("index.html" for the app's own page), or null. */
function shellFile(request) {
  if (request.method !== "GET") return null;
  const url = new URL(request.url);
  const scope = new URL(self.registration.scope);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return null;
  const file = url.pathname.slice(scope.pathname.length);
  if (request.mode === "navigate") return file === "" || file === "index.html" ? "index.html" : null;
  if (file === CONFIG) return CONFIG;
  return SHELL.includes(file) ? file : null;
}

self.addEventListener("fetch", (event) => {
  const file = shellFile(event.request);
  if (file === null) return; // the API, the share page and the rest: the network, untouched
  event.respondWith(file === CONFIG ? configFirstFromNetwork(event.request) : fromShell(file, event.request));
});

/** A shell file from this version's cache (at once, even on a bad connection), or the network
 * when the cache has lost it. */
async function fromShell(file, request) {
  const cache = await caches.open(SHELL_CACHE);
  const kept = await cache.match(new URL(file, self.registration.scope).href);
  return kept || fetch(request);
}

/** config.json from the network when it answers (a deploy may change it), else the last copy. */
async function configFirstFromNetwork(request) {
  const cache = await caches.open(CONFIG_CACHE);
  try {
    const answer = await fetch(request);
    if (answer.ok) await cache.put(CONFIG, answer.clone());
    return answer;
  } catch (error) {
    const kept = await cache.match(CONFIG);
    if (kept) return kept;
    throw error;
  }
}

function notificationOf(data) {
  const gameId = typeof data.game_id === "string" ? data.game_id : "";
  return {
    title: typeof data.title === "string" && data.title ? data.title : "MineDuel",
    options: {
      body: typeof data.body === "string" ? data.body : "",
      tag: gameId ? `game-${gameId}` : "mineduel",
      renotify: true,
      icon: "icon-192.png",
      timestamp: Date.now(),
      data: { url: linkOf(data, gameId), type: data.type || "", game_id: gameId },
    },
  };
}

// Only links into this web client are followed; anything else opens the game (or the start).
function linkOf(data, gameId) {
  const fallback = gameId ? `./#/game/${gameId}` : "./";
  try {
    const url = new URL(data.url || fallback, self.registration.scope);
    return url.href.startsWith(self.registration.scope) ? url.href : new URL(fallback, self.registration.scope).href;
  } catch {
    return new URL(fallback, self.registration.scope).href;
  }
}

self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch { data = {}; }
  const shown = notificationOf(data);
  event.waitUntil(self.registration.showNotification(shown.title, shown.options));
});

async function open(url) {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const mine = windows.find((w) => w.url.startsWith(self.registration.scope));
  if (mine) {
    const moved = await mine.navigate(url).catch(() => null);
    return (moved || mine).focus();
  }
  return self.clients.openWindow(url);
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(open(event.notification.data && event.notification.data.url ? event.notification.data.url : self.registration.scope));
});
