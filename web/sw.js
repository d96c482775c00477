// MineDuel's service worker: shows the notifications the server pushes (Web Push) and opens
// the game when one is clicked. It caches nothing.
self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch { data = {}; }
  const title = data.title || "MineDuel";
  event.waitUntil(self.registration.showNotification(title, {
    body: data.body || "",
    tag: data.game_id || "mineduel",
    data: { url: data.url || (data.game_id ? `./#/game/${data.game_id}` : "./") },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data.url, self.registration.scope).href;
  event.waitUntil(self.clients.matchAll({ type: "window" }).then((windows) => {
    const open = windows.find((w) => w.url.startsWith(self.registration.scope));
    if (open) return open.navigate(url).then((w) => w && w.focus());
    return self.clients.openWindow(url);
  }));
});
