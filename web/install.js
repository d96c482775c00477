// The app on a phone's home screen. This module registers the service worker (sw.js: the app
// shell, so the app opens offline, and push), offers the browser's own "Install" where the
// browser supports it (Chromium's beforeinstallprompt: the button "Install the app" in the
// header), and tells whether this is iOS Safari outside the home screen, where Web Push does
// not exist: Safari (16.4 and later) gives push only to a web app added to the home screen, so
// the account screen shows how to add it before it asks for permission.
//
// A new deploy installs a new service worker, which takes over at once with the new files; a
// page already open keeps running the old modules, so it reloads itself the next time its
// player goes to another screen (never in the middle of one: an armed move stays armed).

let deferred = null; // the browser's install prompt, kept until the player asks for it
let asked = false; // the player has had the prompt on this page: the button does not come back
let updated = false;

export function start(button) {
  if ("serviceWorker" in navigator) {
    // The first worker taking over a page it did not serve (the first visit) changes nothing;
    // any later one is a new version.
    let controlled = Boolean(navigator.serviceWorker.controller);
    navigator.serviceWorker.addEventListener("controllerchange", () => {
      if (controlled) updated = true;
      controlled = true;
    });
    // Once the page has loaded: caching the shell's files must not slow the first screen down.
    const register = () => navigator.serviceWorker.register("sw.js").catch((error) => console.warn("service worker", error));
    if (document.readyState === "complete") register();
    else window.addEventListener("load", register, { once: true });
  }
  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault(); // offered by our button, when the player wants it
    deferred = event;
    // Chromium offers a new prompt soon after one is dismissed; a player who said no just now
    // is not asked again until the app is opened again.
    button.hidden = asked || installed();
  });
  window.addEventListener("appinstalled", () => { deferred = null; button.hidden = true; });
  button.addEventListener("click", async () => {
    if (!deferred) return;
    const prompt = deferred;
    deferred = null;
    asked = true;
    button.hidden = true;
    await prompt.prompt(); // a prompt is shown once; the browser offers a new one later
  });
}

/** A newer version of the app has taken over since this page loaded. */
export function stale() {
  return updated;
}

/** Opened from the home screen (or as an installed app), not in a browser tab. */
export function installed() {
  return window.matchMedia("(display-mode: standalone)").matches || navigator.standalone === true;
}

/** iOS or iPadOS (an iPad says it is a Mac, but has a touch screen). */
export function ios() {
  const ua = navigator.userAgent || "";
  return /iPhone|iPad|iPod/.test(ua) || (/Macintosh/.test(ua) && navigator.maxTouchPoints > 1);
}

/** Web Push needs this app on the home screen first: iOS, opened in the browser. */
export function needsHomeScreenForPush() {
  return ios() && !installed();
}
