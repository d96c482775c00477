// The account screen's notifications: the checkbox "Notifications" (Web Push in this browser:
// the service worker, the browser's permission, a subscription made with the server's VAPID
// key and posted to the server), and the group "Tell me about", which kinds reach the player on
// every browser and device. On iPhones outside the Home Screen it says how to get there first.
import { h, act } from "./dom.js";
import * as api from "./api.js";
import { ios, needsHomeScreenForPush } from "./install.js";

// Web Push in this browser: the service worker shows what the server sends.
const PUSH_KEY = "mineduel.push";
// Safari (iOS 16.4 and later) gives Web Push only to a web app opened from the Home Screen.
const HOME_SCREEN = "On an iPhone or iPad, notifications reach MineDuel only from your Home Screen: tap Share, "
  + "then \u201cAdd to Home Screen\u201d, open MineDuel from there and turn notifications on.";

export function notificationsSetting(playerId, slot, saved) {
  const box = h("input", { type: "checkbox" });
  const hint = h("p", { class: "hint" }, "Allow notifications in this browser: it tells you when it is your turn, "
    + "when time is almost up, about invitations and when a game ends, while no page of the game is open.");
  // On only for the account that turned it on here (a browser can change hands).
  box.checked = localStorage.getItem(PUSH_KEY) === "on" && localStorage.getItem(`${PUSH_KEY}.player`) === playerId;
  // What the browser itself says wins over what this page remembered.
  currentSubscription().then((subscription) => {
    if (!subscription && box.checked) { box.checked = false; localStorage.removeItem(PUSH_KEY); }
  }).catch(() => {});
  box.addEventListener("change", () => act(box, slot, async () => {
    saved.textContent = "";
    if (!box.checked) {
      await stopPush();
      saved.textContent = "Notifications are off in this browser.";
      return;
    }
    try {
      await startPush(playerId);
      saved.textContent = "Notifications are on in this browser.";
    } catch (error) {
      box.checked = false;
      throw error;
    }
  }));
  const homeScreen = needsHomeScreenForPush()
    ? h("p", { class: "hint home-screen", id: "home-screen-hint" }, HOME_SCREEN) : null;
  return h("div", { class: "check-row" }, h("label", { class: "check" }, box, " Notifications"), hint, homeScreen);
}

// Which notifications reach you (settings.notify), on every browser and device of yours.
const KINDS = [
  ["your_turn", "Your turn"],
  ["time_almost_up", "Time almost up"],
  ["invited", "Invitations"],
  ["game_over", "Game over"],
  ["paired", "Quick pairing found a game"],
];

export function notificationKinds(chosen, slot, saved) {
  const boxes = KINDS.map(([key, label]) => {
    const box = h("input", { type: "checkbox", checked: chosen[key] !== false });
    box.addEventListener("change", () => act(box, slot, async () => {
      saved.textContent = "";
      await api.put("/v1/me", { settings: { notify: { [key]: box.checked } } });
      saved.textContent = "Saved.";
    }));
    return h("label", { class: "check" }, box, ` ${label}`);
  });
  return h("fieldset", { class: "kinds" },
    h("legend", {}, "Tell me about"),
    ...boxes.map((b) => h("div", { class: "check-row" }, b)),
    h("p", { class: "hint" }, "For every browser and phone you turned notifications on in."));
}

/** Whether this browser has notifications on (for the account that turned them on). */
export function pushOn() {
  return localStorage.getItem(PUSH_KEY) === "on";
}

function pushError(words) {
  return Object.assign(new Error("push"), { words });
}

async function currentSubscription() {
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) return null;
  const registration = await navigator.serviceWorker.getRegistration();
  return registration ? registration.pushManager.getSubscription() : null;
}

async function startPush(playerId) {
  // Before any permission is asked: Safari outside the Home Screen has no push to give.
  if (needsHomeScreenForPush()) throw pushError(HOME_SCREEN);
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    throw pushError("This browser cannot show notifications.");
  }
  // Safari asks for permission only straight from the tap, before any request is awaited.
  const asked = ios() ? Notification.requestPermission() : null;
  let vapid;
  try {
    vapid = await api.request("GET", "/v1/push/vapid-key", { anonymous: true });
  } catch (error) {
    if (error.status === 404) throw pushError("This server does not send notifications yet.");
    throw error;
  }
  const permission = await (asked || Notification.requestPermission());
  if (permission !== "granted") {
    throw pushError("Notifications are blocked for this site: "
      + "allow them in the browser's site settings, then try again.");
  }
  const registration = await navigator.serviceWorker.register("sw.js");
  await navigator.serviceWorker.ready;
  const key = base64url(vapid.data.public_key);
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
    await subscription.unsubscribe();  // made for another server's key
    subscription = null;
  }
  try {
    subscription = subscription
      || await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  } catch (error) {
    console.warn("push subscription refused", error);
    throw pushError("This browser could not reach its push service: check your connection, or try another browser.");
  }
  const stored = await api.post("/v1/me/push-subscriptions", { kind: "web", ...subscription.toJSON() });
  localStorage.setItem(PUSH_KEY, "on");
  localStorage.setItem(`${PUSH_KEY}.id`, stored.subscription_id);
  localStorage.setItem(`${PUSH_KEY}.player`, playerId);
}

export async function stopPush() {
  const id = localStorage.getItem(`${PUSH_KEY}.id`);
  localStorage.removeItem(PUSH_KEY);
  localStorage.removeItem(`${PUSH_KEY}.id`);
  localStorage.removeItem(`${PUSH_KEY}.player`);
  const subscription = await currentSubscription().catch(() => null);
  if (subscription) await subscription.unsubscribe();
  if (id) {
    try {
      await api.del(`/v1/me/push-subscriptions/${encodeURIComponent(id)}`);
    } catch (error) {
      if (error.status !== 404) throw error;  // already gone: off all the same
    }
  }
}

function sameKey(buffer, key) {
  if (!buffer) return false;
  const given = new Uint8Array(buffer);
  return given.length === key.length && given.every((b, i) => b === key[i]);
}

function base64url(text) {
  const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}
