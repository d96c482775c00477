// #/account: sign up (email, password, the emailed code), sign in (with the authenticator's
// code when it is on), and once signed in: username, picture, settings (leaderboards,
// spectators, notifications and which ones), the authenticator app (QR code and secret), moving
// a guest's games to the account, and signing out. Everything here happens in the browser.
// Signed out, the screen is account-sign-in.js; signed in, it composes the cards below with the
// notifications (account-push.js) and the authenticator app (account-authenticator.js).
import { h, fill, field, errorSlot, showError, act } from "./dom.js";
import * as api from "./api.js";
import * as session from "./session.js";
import { USERNAME_RULE } from "./words.js";
import { avatar } from "./people.js";
import { signInScreen, claimGuest } from "./account-sign-in.js";
import { notificationsSetting, notificationKinds, pushOn, stopPush } from "./account-push.js";
import { drawAuthenticator } from "./account-authenticator.js";

export async function show(view) {
  document.title = "Account · MineDuel";
  if (session.signedIn()) return signedIn(view);
  signInScreen(view, () => show(view));
  return undefined;
}

async function signedIn(view) {
  const me = await api.get("/v1/me");
  const you = session.current();
  session.update({
    username: me.username, name: me.username || you.email, avatar_url: me.avatar_url, player_id: me.player_id,
  });
  const profileLink = h("p", {}, me.username ? yourProfile(me.username) : null);
  const authBox = h("section", { class: "card" });
  drawAuthenticator(authBox);
  fill(view,
    h("h1", {}, "Your account"),
    h("p", {}, `Signed in as ${me.username || you.email}`, me.username ? ` (${you.email})` : "", "."),
    profileLink,
    claimSection(),
    usernameCard(me, profileLink),
    pictureCard(me),
    settingsCard(me),
    authBox,
    signOutCard());
  return undefined;
}

function yourProfile(username) {
  return h("a", { href: `#/players/${encodeURIComponent(username)}` }, "Your profile");
}

/** "Username" and "Save"; a saved name becomes the link "Your profile" in `profileLink`. */
function usernameCard(me, profileLink) {
  const username = h("input", {
    type: "text", value: me.username || "", autocomplete: "nickname", spellcheck: "false", maxlength: 20,
  });
  const usernameField = field("Username", username, `What other players see and invite you by: ${USERNAME_RULE}`);
  const save = h("button", { type: "submit", class: "primary" }, "Save");
  const saved = h("p", { class: "ok-text", role: "status" });
  const prompt = me.username ? null : h("p", {}, "Choose a username so that other players can find and invite you.");
  return h("form", { class: "card", novalidate: true, onsubmit: (event) => {
    event.preventDefault();
    const value = username.value.trim();
    saved.textContent = "";
    if (!/^[A-Za-z0-9_-]{3,20}$/.test(value)) {
      showError(usernameField, `A username is ${USERNAME_RULE}`);
      username.focus();
      return;
    }
    act(save, usernameField, async () => {
      const profile = await api.put("/v1/me", { username: value });
      session.update({ username: profile.username, name: profile.username });
      saved.textContent = "Saved.";
      if (prompt) prompt.remove();
      fill(profileLink, yourProfile(profile.username));
    });
  } },
    h("h2", { id: "username-heading" }, "Username"),
    prompt,
    usernameField, h("div", { class: "row" }, save), saved);
}

/** "Picture" and "Upload picture": the file goes straight to storage through a signed form. */
function pictureCard(me) {
  const picture = h("input", { type: "file", accept: "image/png,image/jpeg,image/webp" });
  const pictureField = field("Picture", picture, "PNG, JPEG or WebP, up to 256 KB, at least 16 pixels a side.");
  const currentPicture = h("span", { class: "current-avatar" },
    avatar(me.username || "?", { url: me.avatar_url, size: "large" }));
  const upload = h("button", { type: "button", onclick: (e) => {
    const file = picture.files[0];
    showError(pictureField, "");
    if (!file) { showError(pictureField, "Choose a picture first."); picture.focus(); return; }
    if (file.size > 256 * 1024) { showError(pictureField, "That picture is too big: use one under 256 KB."); return; }
    act(e.currentTarget, pictureField, async () => {
      const profile = await uploadPicture(file);
      fill(currentPicture, avatar(profile.username || "?", { url: profile.avatar_url, size: "large" }));
      picture.value = "";
    });
  } }, "Upload picture");
  return h("section", { class: "card" },
    h("h2", { id: "picture-heading" }, "Picture"), h("div", { class: "row" }, currentPicture), pictureField,
    h("div", { class: "row" }, upload));
}

/** Upload `file` as the player's picture; the profile that shows it. */
async function uploadPicture(file) {
  const type = ["image/png", "image/jpeg", "image/webp"].includes(file.type) ? file.type : "image/png";
  const form = await api.post("/v1/me/avatar", { content_type: type });
  const body = new FormData();
  for (const [key, value] of Object.entries(form.upload.fields)) body.append(key, value);
  body.append("file", file);
  let sent;
  try { sent = await fetch(form.upload.url, { method: "POST", body }); } catch { sent = null; }
  if (!sent || !sent.ok) {
    const words = "The picture could not be uploaded: try again, or use a smaller one.";
    throw Object.assign(new Error("upload"), { words });
  }
  const profile = await api.put("/v1/me/avatar");
  api.forgetProfile(profile.username);
  session.update({ avatar_url: profile.avatar_url });
  return profile;
}

/** "Show me on leaderboards", "Allow spectators", "Notifications" and "Tell me about". */
function settingsCard(me) {
  const settings = me.settings || {};
  const settingsError = errorSlot();
  const settingsSaved = h("p", { class: "ok-text", role: "status" });
  const setting = (label, key, hint) => {
    const box = h("input", { type: "checkbox", checked: Boolean(settings[key]) });
    box.addEventListener("change", () => act(box, settingsError, async () => {
      settingsSaved.textContent = "";
      await api.put("/v1/me", { settings: { [key]: box.checked } });
      settingsSaved.textContent = "Saved.";
    }));
    return h("div", { class: "check-row" }, h("label", { class: "check" }, box, ` ${label}`),
      hint ? h("p", { class: "hint" }, hint) : null);
  };
  return h("section", { class: "card" },
    h("h2", { id: "settings-heading" }, "Settings"),
    setting("Show me on leaderboards", "leaderboard", "Your rating and rank are public on the leaderboard."),
    setting("Allow spectators", "spectators", "Anybody may watch your games live."),
    notificationsSetting(me.player_id, settingsError, settingsSaved),
    notificationKinds(settings.notify || {}, settingsError, settingsSaved),
    settingsError, settingsSaved);
}

function signOutCard() {
  const signOutError = errorSlot();
  const signOut = h("button", { type: "button", onclick: (e) => act(e.currentTarget, signOutError, async () => {
    // This browser stops telling this account's news: whoever uses it next must not see them.
    if (pushOn()) await stopPush().catch((error) => console.warn("push not stopped", error));
    await session.signOut();
    location.hash = "#/";
  }) }, "Sign out");
  return h("section", { class: "card" }, h("h2", {}, "Signing out"),
    h("p", { class: "muted" }, "Signs this browser out; your games and record stay."), signOut, signOutError);
}

/** "Move my guest games" (or "Not now"), when this browser played as a guest first. */
function claimSection() {
  const you = session.current();
  if (!you.previous_guest) return null;
  const slot = errorSlot();
  const box = h("section", { class: "card" },
    h("h2", { id: "claim-heading" }, "Your guest games"),
    h("p", {}, `You played as ${you.previous_guest.name} in this browser. `
      + "Move those games, with their record, to this account?"),
    h("div", { class: "row" },
      h("button", { type: "button", class: "primary", onclick: (e) => act(e.currentTarget, slot, async () => {
        const n = await claimGuest();
        fill(box, h("h2", {}, "Your guest games"),
          h("p", { role: "status" }, n === 1 ? "Moved 1 game to your account." : `Moved ${n} games to your account.`));
      }) }, "Move my guest games"),
      h("button", { type: "button", onclick: () => { session.update({ previous_guest: null }); box.remove(); } },
        "Not now")),
    slot);
  return box;
}
