// #/account: sign up (email, password, the emailed code), sign in (with the authenticator's
// code when it is on), and once signed in: username, picture, settings (leaderboards,
// spectators, notifications and which ones), the authenticator app (QR code and secret), moving a guest's
// games to the account, and signing out. Everything here happens in the browser.
import { h, fill, field, errorSlot, showError, act } from "./dom.js";
import * as api from "./api.js";
import * as cognito from "./cognito.js";
import * as session from "./session.js";
import { renderSVG } from "./uqr.js";
import { PASSWORD_RULE, USERNAME_RULE } from "./words.js";
import { avatar } from "./people.js";
import { ios, needsHomeScreenForPush } from "./install.js";

export async function show(view) {
  document.title = "Account · MineDuel";
  if (session.signedIn()) return signedIn(view);
  return signInScreen(view);
}

// ------------------------------------------------------------------ not signed in
function signInScreen(view) {
  const email = h("input", { type: "email", autocomplete: "username", required: true, spellcheck: "false" });
  const password = h("input", { type: "password", autocomplete: "current-password", required: true, minlength: 12 });
  const emailField = field("Email", email);
  const passwordField = field("Password", password, PASSWORD_RULE);
  const formError = errorSlot();
  const signInButton = h("button", { type: "submit", class: "primary" }, "Sign in");
  const signUpButton = h("button", { type: "button" }, "Sign up");
  const step = h("div", { class: "step" });
  const guestNote = session.current() ? h("p", { class: "muted" }, `You play as ${session.current().name}. Sign up or sign in to play people, keep a record and be ranked; your guest games can come with you.`) : null;

  function checked({ forSignUp = false } = {}) {
    showError(emailField, "");
    showError(passwordField, "");
    showError(formError, "");
    const address = email.value.trim().toLowerCase();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address)) {
      showError(emailField, "Enter your email address, like ann@example.com.");
      email.focus();
      return null;
    }
    const secret = password.value;
    if (forSignUp && !(secret.length >= 12 && /[a-z]/.test(secret) && /[A-Z]/.test(secret) && /[0-9]/.test(secret))) {
      showError(passwordField, `Choose a stronger password. ${PASSWORD_RULE}`);
      password.focus();
      return null;
    }
    if (!secret) {
      showError(passwordField, "Enter your password.");
      password.focus();
      return null;
    }
    return { address, secret };
  }

  const form = h("form", { class: "card", novalidate: true, onsubmit: (event) => {
    event.preventDefault();
    const input = checked();
    if (input) act(signInButton, formError, () => startSignIn(input.address, input.secret));
  } },
    h("h2", { id: "sign-in-heading" }, "Sign in or sign up"),
    emailField, passwordField,
    h("div", { class: "row" }, signInButton, signUpButton),
    formError);

  signUpButton.addEventListener("click", () => {
    const input = checked({ forSignUp: true });
    if (!input) return;
    act(signUpButton, formError, async () => {
      const answer = await cognito.signUp(input.address, input.secret);
      if (answer.confirmed) await startSignIn(input.address, input.secret, { claim: true });
      else confirmStep(input.address, input.secret, answer.destination);
    });
  });

  function lockForm() {
    email.readOnly = true;
    password.readOnly = true;
    signInButton.hidden = true;
    signUpButton.hidden = true;
  }

  function confirmStep(address, secret, destination) {
    lockForm();
    const code = h("input", { type: "text", inputmode: "numeric", autocomplete: "one-time-code", maxlength: 6 });
    const codeField = field("Confirmation code", code, `We sent a 6-digit code to ${destination}.`);
    const confirm = h("button", { type: "submit", class: "primary" }, "Confirm");
    const again = h("button", { type: "button", onclick: (e) => act(e.currentTarget, codeField, async () => {
      await cognito.resendCode(address);
      showError(codeField, "");
      again.textContent = "A new code is on its way";
    }) }, "Send a new code");
    fill(step, h("form", { class: "card", novalidate: true, onsubmit: (event) => {
      event.preventDefault();
      const value = code.value.trim();
      if (!/^\d{6}$/.test(value)) { showError(codeField, "Enter the 6 digits of the code we sent you."); code.focus(); return; }
      act(confirm, codeField, async () => {
        await cognito.confirmSignUp(address, value);
        await startSignIn(address, secret, { claim: true });
      });
    } }, h("h2", { id: "confirm-heading" }, "Confirm your email"), codeField, h("div", { class: "row" }, confirm, again)));
    code.focus();
  }

  function codeStep(address, secret, challengeSession, claim) {
    lockForm();
    const code = h("input", { type: "text", inputmode: "numeric", autocomplete: "one-time-code", maxlength: 6 });
    const codeField = field("Authenticator code", code, "The 6 digits your authenticator app shows for MineDuel.");
    const go = h("button", { type: "submit", class: "primary" }, "Sign in");
    let pending = challengeSession;
    fill(step, h("form", { class: "card", novalidate: true, onsubmit: (event) => {
      event.preventDefault();
      const value = code.value.trim();
      if (!/^\d{6}$/.test(value)) { showError(codeField, "Enter the 6 digits your app shows."); code.focus(); return; }
      act(go, codeField, async () => {
        try {
          const tokens = await cognito.answerCode(address, pending, value);
          await finish(tokens, address, claim);
        } catch (error) {
          // A wrong code ends Cognito's sign-in session: start a new one for the next try.
          const again = await cognito.signIn(address, secret).catch(() => null);
          if (again && again.session) pending = again.session;
          code.value = "";
          throw error;
        }
      });
    } }, h("h2", { id: "code-heading" }, "Your authenticator's code"), codeField, h("div", { class: "row" }, go)));
    code.focus();
  }

  async function startSignIn(address, secret, { claim = false } = {}) {
    let answer;
    try {
      answer = await cognito.signIn(address, secret);
    } catch (error) {
      if (error.type === "UserNotConfirmedException") { confirmStep(address, secret, address); return; }
      throw error;
    }
    if (answer.tokens) { await finish(answer.tokens, address, claim); return; }
    if (answer.challenge === "SOFTWARE_TOKEN_MFA") { codeStep(address, secret, answer.session, claim); return; }
    throw Object.assign(new Error(answer.challenge), { words: "This account needs a sign-in step this app does not offer yet: use the authenticator app, or ask for help." });
  }

  async function finish(tokens, address, claim) {
    const profile = await meWith(tokens.access_token);
    session.signedInAs(tokens, profile, address);
    if (claim) await claimGuest().catch(() => {});
    await show(view);
  }

  fill(view, h("h1", {}, "Account"), guestNote, form, step);
  return undefined;
}

/** GET /v1/me with a token that is not the session's yet. */
async function meWith(token) {
  const answer = await fetch(api.url("/v1/me"), { headers: { authorization: `Bearer ${token}`, accept: "application/json" } });
  if (!answer.ok) throw Object.assign(new Error("me"), { words: "Signed in, but your profile could not be read: try again." });
  return answer.json();
}

/** Move the guest's games (played in this browser before signing in) to the account. */
async function claimGuest() {
  const you = session.current();
  if (!you || !you.previous_guest) return 0;
  try {
    const answer = await api.post("/v1/me/claim", { guest_token: you.previous_guest.token });
    session.update({ previous_guest: null });
    return answer.claimed_games;
  } catch (error) {
    if (["claim-conflict", "guest-token-invalid", "not-a-guest-token"].includes(error.code) || error.status === 401 || error.status === 422) {
      session.update({ previous_guest: null });
    }
    throw error;
  }
}

// ------------------------------------------------------------------ signed in
async function signedIn(view) {
  const me = await api.get("/v1/me");
  const you = session.current();
  session.update({ username: me.username, name: me.username || you.email, avatar_url: me.avatar_url, player_id: me.player_id });
  const settings = me.settings || {};

  // Username
  const username = h("input", { type: "text", value: me.username || "", autocomplete: "nickname", spellcheck: "false", maxlength: 20 });
  const usernameField = field("Username", username, `What other players see and invite you by: ${USERNAME_RULE}`);
  const save = h("button", { type: "submit", class: "primary" }, "Save");
  const saved = h("p", { class: "ok-text", role: "status" });
  const prompt = me.username ? null : h("p", {}, "Choose a username so that other players can find and invite you.");
  const usernameForm = h("form", { class: "card", novalidate: true, onsubmit: (event) => {
    event.preventDefault();
    const value = username.value.trim();
    saved.textContent = "";
    if (!/^[A-Za-z0-9_-]{3,20}$/.test(value)) { showError(usernameField, `A username is ${USERNAME_RULE}`); username.focus(); return; }
    act(save, usernameField, async () => {
      const profile = await api.put("/v1/me", { username: value });
      session.update({ username: profile.username, name: profile.username });
      saved.textContent = "Saved.";
      if (prompt) prompt.remove();
      fill(profileLink, h("a", { href: `#/players/${encodeURIComponent(profile.username)}` }, "Your profile"));
    });
  } },
    h("h2", { id: "username-heading" }, "Username"),
    prompt,
    usernameField, h("div", { class: "row" }, save), saved);
  const profileLink = h("p", {}, me.username ? h("a", { href: `#/players/${encodeURIComponent(me.username)}` }, "Your profile") : null);

  // Picture
  const picture = h("input", { type: "file", accept: "image/png,image/jpeg,image/webp" });
  const pictureField = field("Picture", picture, "PNG, JPEG or WebP, up to 256 KB, at least 16 pixels a side.");
  const currentPicture = h("span", { class: "current-avatar" }, avatar(me.username || "?", { url: me.avatar_url, size: "large" }));
  const upload = h("button", { type: "button", onclick: (e) => {
    const file = picture.files[0];
    showError(pictureField, "");
    if (!file) { showError(pictureField, "Choose a picture first."); picture.focus(); return; }
    if (file.size > 256 * 1024) { showError(pictureField, "That picture is too big: use one under 256 KB."); return; }
    act(e.currentTarget, pictureField, async () => {
      const type = ["image/png", "image/jpeg", "image/webp"].includes(file.type) ? file.type : "image/png";
      const form = await api.post("/v1/me/avatar", { content_type: type });
      const body = new FormData();
      for (const [key, value] of Object.entries(form.upload.fields)) body.append(key, value);
      body.append("file", file);
      let sent;
      try { sent = await fetch(form.upload.url, { method: "POST", body }); } catch { sent = null; }
      if (!sent || !sent.ok) throw Object.assign(new Error("upload"), { words: "The picture could not be uploaded: try again, or use a smaller one." });
      const profile = await api.put("/v1/me/avatar");
      api.forgetProfile(profile.username);
      session.update({ avatar_url: profile.avatar_url });
      fill(currentPicture, avatar(profile.username || "?", { url: profile.avatar_url, size: "large" }));
      picture.value = "";
    });
  } }, "Upload picture");
  const pictureBox = h("section", { class: "card" },
    h("h2", { id: "picture-heading" }, "Picture"), h("div", { class: "row" }, currentPicture), pictureField, h("div", { class: "row" }, upload));

  // Settings
  const settingsError = errorSlot();
  const settingsSaved = h("p", { class: "ok-text", role: "status" });
  function setting(label, key, hint) {
    const box = h("input", { type: "checkbox", checked: Boolean(settings[key]) });
    box.addEventListener("change", () => act(box, settingsError, async () => {
      settingsSaved.textContent = "";
      await api.put("/v1/me", { settings: { [key]: box.checked } });
      settingsSaved.textContent = "Saved.";
    }));
    return h("div", { class: "check-row" }, h("label", { class: "check" }, box, ` ${label}`), hint ? h("p", { class: "hint" }, hint) : null);
  }
  const notifications = notificationsSetting(me.player_id, settingsError, settingsSaved);
  const kinds = notificationKinds(settings.notify || {}, settingsError, settingsSaved);
  const settingsBox = h("section", { class: "card" },
    h("h2", { id: "settings-heading" }, "Settings"),
    setting("Show me on leaderboards", "leaderboard", "Your rating and rank are public on the leaderboard."),
    setting("Allow spectators", "spectators", "Anybody may watch your games live."),
    notifications, kinds, settingsError, settingsSaved);

  // Authenticator
  const authBox = h("section", { class: "card" });
  drawAuthenticator(authBox);

  // Guest games
  const claimBox = claimSection();

  const signOutError = errorSlot();
  const signOut = h("button", { type: "button", onclick: (e) => act(e.currentTarget, signOutError, async () => {
    // This browser stops telling this account's news: whoever uses it next must not see them.
    if (localStorage.getItem(PUSH_KEY) === "on") await stopPush().catch((error) => console.warn("push not stopped", error));
    await session.signOut();
    location.hash = "#/";
  }) }, "Sign out");

  fill(view,
    h("h1", {}, "Your account"),
    h("p", {}, `Signed in as ${me.username || you.email}`, me.username ? ` (${you.email})` : "", "."),
    profileLink,
    claimBox,
    usernameForm,
    pictureBox,
    settingsBox,
    authBox,
    h("section", { class: "card" }, h("h2", {}, "Signing out"), h("p", { class: "muted" }, "Signs this browser out; your games and record stay."), signOut, signOutError));
  return undefined;
}

function claimSection() {
  const you = session.current();
  if (!you.previous_guest) return null;
  const slot = errorSlot();
  const box = h("section", { class: "card" },
    h("h2", { id: "claim-heading" }, "Your guest games"),
    h("p", {}, `You played as ${you.previous_guest.name} in this browser. Move those games, with their record, to this account?`),
    h("div", { class: "row" },
      h("button", { type: "button", class: "primary", onclick: (e) => act(e.currentTarget, slot, async () => {
        const n = await claimGuest();
        fill(box, h("h2", {}, "Your guest games"), h("p", { role: "status" }, n === 1 ? "Moved 1 game to your account." : `Moved ${n} games to your account.`));
      }) }, "Move my guest games"),
      h("button", { type: "button", onclick: () => { session.update({ previous_guest: null }); box.remove(); } }, "Not now")),
    slot);
  return box;
}

async function drawAuthenticator(box) {
  const you = session.current();
  const slot = errorSlot();
  let on = false;
  try { on = await cognito.authenticatorOn(you.token); } catch { on = false; }
  const start = h("button", { type: "button", onclick: (e) => act(e.currentTarget, slot, async () => {
    const token = await session.token();
    const secret = await cognito.newAuthenticatorSecret(token);
    setup(secret);
  }) }, on ? "Replace the authenticator app" : "Set up an authenticator app");
  fill(box, h("h2", { id: "auth-heading" }, "Authenticator app"),
    h("p", { class: on ? "ok-text" : "muted" }, on ? "On: signing in asks for your app's code." : "Off: add an app (such as any TOTP authenticator) so that a password alone cannot sign in."),
    h("div", { class: "row" }, start), slot);

  function setup(secret) {
    const label = encodeURIComponent(`MineDuel:${you.email}`);
    const uri = `otpauth://totp/${label}?secret=${encodeURIComponent(secret)}&issuer=MineDuel`;
    const svg = renderSVG(uri, { pixelSize: 6 });
    const qr = h("img", { class: "qr", src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`, alt: "QR code of your authenticator secret", width: 220, height: 220 });
    const code = h("input", { type: "text", inputmode: "numeric", autocomplete: "one-time-code", maxlength: 6 });
    const codeField = field("Authenticator code", code, "The 6 digits the app shows now, to check that it works.");
    const turnOn = h("button", { type: "submit", class: "primary" }, "Turn on");
    fill(box, h("h2", { id: "auth-heading" }, "Authenticator app"),
      h("p", {}, "Scan the QR code with your authenticator app, or type the secret into it."),
      qr,
      h("p", {}, "Secret: ", h("code", { class: "secret", id: "totp-secret" }, secret)),
      h("form", { novalidate: true, onsubmit: (event) => {
        event.preventDefault();
        const value = code.value.trim();
        if (!/^\d{6}$/.test(value)) { showError(codeField, "Enter the 6 digits your app shows."); code.focus(); return; }
        act(turnOn, codeField, async () => {
          await cognito.turnOnAuthenticator(await session.token(), value);
          fill(box, h("h2", { id: "auth-heading" }, "Authenticator app"), h("p", { class: "ok-text", role: "status" }, "On: signing in now asks for your app's code as well."));
        });
      } }, codeField, h("div", { class: "row" }, turnOn)));
    code.focus();
  }
}

// Web Push in this browser: the service worker shows what the server sends.
const PUSH_KEY = "mineduel.push";
// Safari (iOS 16.4 and later) gives Web Push only to a web app opened from the Home Screen.
const HOME_SCREEN = "On an iPhone or iPad, notifications reach MineDuel only from your Home Screen: tap Share, then \u201cAdd to Home Screen\u201d, open MineDuel from there and turn notifications on.";

function notificationsSetting(playerId, slot, saved) {
  const box = h("input", { type: "checkbox" });
  const hint = h("p", { class: "hint" }, "Allow notifications in this browser: it tells you when it is your turn, when time is almost up, about invitations and when a game ends, while no page of the game is open.");
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
  const homeScreen = needsHomeScreenForPush() ? h("p", { class: "hint home-screen", id: "home-screen-hint" }, HOME_SCREEN) : null;
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

function notificationKinds(chosen, slot, saved) {
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
  if (permission !== "granted") throw pushError("Notifications are blocked for this site: allow them in the browser's site settings, then try again.");
  const registration = await navigator.serviceWorker.register("sw.js");
  await navigator.serviceWorker.ready;
  const key = base64url(vapid.data.public_key);
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
    await subscription.unsubscribe();  // made for another server's key
    subscription = null;
  }
  try {
    subscription = subscription || await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  } catch (error) {
    console.warn("push subscription refused", error);
    throw pushError("This browser could not reach its push service: check your connection, or try another browser.");
  }
  const stored = await api.post("/v1/me/push-subscriptions", { kind: "web", ...subscription.toJSON() });
  localStorage.setItem(PUSH_KEY, "on");
  localStorage.setItem(`${PUSH_KEY}.id`, stored.subscription_id);
  localStorage.setItem(`${PUSH_KEY}.player`, playerId);
}

async function stopPush() {
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
