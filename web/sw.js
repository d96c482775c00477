// MineDuel's service worker: shows the notifications the server pushes (Web Push: the browser
// has decrypted them already) and opens the right screen when one is clicked. It caches nothing.
// A payload is {type, game_id, move_count, deadline, title, body, url} (docs/api.md); one
// notification per game is shown at a time (a newer one of the same game replaces it).
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

function notificationOf(data) {
  const gameId = typeof data.game_id === "string" ? data.game_id : "";
  return {
    title: typeof data.title === "string" && data.title ? data.title : "MineDuel",
    options: {
      body: typeof data.body === "string" ? data.body : "",
      tag: gameId ? `game-${gameId}` : "mineduel",
      renotify: true,
      icon: "favicon.ico",
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
