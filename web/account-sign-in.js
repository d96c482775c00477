// The account screen signed out: "Email" and "Password", "Sign in" or "Sign up"; then the
// emailed "Confirmation code" (with "Send a new code"), or the "Authenticator code" when the
// account has an authenticator app. Signing up from a guest session brings the guest's games.
import { h, fill, field, errorSlot, showError, act, codeInput, sixDigits } from "./dom.js";
import * as api from "./api.js";
import * as cognito from "./cognito.js";
import * as session from "./session.js";
import { PASSWORD_RULE } from "./words.js";

/** The sign-in form into `view`; `signedIn()` shows the screen again once signed in. */
export function signInScreen(view, signedIn) {
  const f = signInForm(signedIn);
  const you = session.current();
  const guestNote = you ? h("p", { class: "muted" }, `You play as ${you.name}. Sign up or sign in to play people, `
    + "keep a record and be ranked; your guest games can come with you.") : null;
  fill(view, h("h1", {}, "Account"), guestNote, f.form, f.step);
}

function signInForm(signedIn) {
  const f = {
    signedIn,
    email: h("input", { type: "email", autocomplete: "username", required: true, spellcheck: "false" }),
    password: h("input", { type: "password", autocomplete: "current-password", required: true, minlength: 12 }),
    formError: errorSlot(),
    signInButton: h("button", { type: "submit", class: "primary" }, "Sign in"),
    signUpButton: h("button", { type: "button" }, "Sign up"),
    step: h("div", { class: "step" }),
  };
  f.emailField = field("Email", f.email);
  f.passwordField = field("Password", f.password, PASSWORD_RULE);
  f.form = h("form", { class: "card", novalidate: true, onsubmit: (event) => {
    event.preventDefault();
    const input = checked(f);
    if (input) act(f.signInButton, f.formError, () => startSignIn(f, input.address, input.secret));
  } },
    h("h2", { id: "sign-in-heading" }, "Sign in or sign up"),
    f.emailField, f.passwordField,
    h("div", { class: "row" }, f.signInButton, f.signUpButton),
    f.formError);
  f.signUpButton.addEventListener("click", () => {
    const input = checked(f, { forSignUp: true });
    if (!input) return;
    act(f.signUpButton, f.formError, async () => {
      const answer = await cognito.signUp(input.address, input.secret);
      if (answer.confirmed) await startSignIn(f, input.address, input.secret, { claim: true });
      else confirmStep(f, input.address, input.secret, answer.destination);
    });
  });
  return f;
}

/** The email and password as typed, or null with the reason shown next to the field. */
function checked(f, { forSignUp = false } = {}) {
  showError(f.emailField, "");
  showError(f.passwordField, "");
  showError(f.formError, "");
  const address = f.email.value.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address)) {
    showError(f.emailField, "Enter your email address, like ann@example.com.");
    f.email.focus();
    return null;
  }
  const secret = f.password.value;
  if (forSignUp && !(secret.length >= 12 && /[a-z]/.test(secret) && /[A-Z]/.test(secret) && /[0-9]/.test(secret))) {
    showError(f.passwordField, `Choose a stronger password. ${PASSWORD_RULE}`);
    f.password.focus();
    return null;
  }
  if (!secret) {
    showError(f.passwordField, "Enter your password.");
    f.password.focus();
    return null;
  }
  return { address, secret };
}

function lockForm(f) {
  f.email.readOnly = true;
  f.password.readOnly = true;
  f.signInButton.hidden = true;
  f.signUpButton.hidden = true;
}

/** A 6-digit code input and its field. */
function confirmStep(f, address, secret, destination) {
  lockForm(f);
  const { code, codeField } = codeInput("Confirmation code", `We sent a 6-digit code to ${destination}.`);
  const confirm = h("button", { type: "submit", class: "primary" }, "Confirm");
  const again = h("button", { type: "button", onclick: (e) => act(e.currentTarget, codeField, async () => {
    await cognito.resendCode(address);
    showError(codeField, "");
    again.textContent = "A new code is on its way";
  }) }, "Send a new code");
  fill(f.step, h("form", { class: "card", novalidate: true, onsubmit: (event) => {
    event.preventDefault();
    const value = sixDigits(code, codeField, "Enter the 6 digits of the code we sent you.");
    if (value === null) return;
    act(confirm, codeField, async () => {
      await cognito.confirmSignUp(address, value);
      await startSignIn(f, address, secret, { claim: true });
    });
  } }, h("h2", { id: "confirm-heading" }, "Confirm your email"), codeField,
    h("div", { class: "row" }, confirm, again)));
  code.focus();
}

function codeStep(f, address, secret, challengeSession, claim) {
  lockForm(f);
  const { code, codeField } = codeInput("Authenticator code",
    "The 6 digits your authenticator app shows for MineDuel.");
  const go = h("button", { type: "submit", class: "primary" }, "Sign in");
  let pending = challengeSession;
  fill(f.step, h("form", { class: "card", novalidate: true, onsubmit: (event) => {
    event.preventDefault();
    const value = sixDigits(code, codeField, "Enter the 6 digits your app shows.");
    if (value === null) return;
    act(go, codeField, async () => {
      try {
        const tokens = await cognito.answerCode(address, pending, value);
        await finish(f, tokens, address, claim);
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

async function startSignIn(f, address, secret, { claim = false } = {}) {
  let answer;
  try {
    answer = await cognito.signIn(address, secret);
  } catch (error) {
    if (error.type === "UserNotConfirmedException") { confirmStep(f, address, secret, address); return; }
    throw error;
  }
  if (answer.tokens) { await finish(f, answer.tokens, address, claim); return; }
  if (answer.challenge === "SOFTWARE_TOKEN_MFA") { codeStep(f, address, secret, answer.session, claim); return; }
  throw Object.assign(new Error(answer.challenge), {
    words: "This account needs a sign-in step this app does not offer yet: use the authenticator app, or ask for help.",
  });
}

async function finish(f, tokens, address, claim) {
  const profile = await meWith(tokens.access_token);
  session.signedInAs(tokens, profile, address);
  if (claim) await claimGuest().catch(() => {});
  await f.signedIn();
}

/** GET /v1/me with a token that is not the session's yet. */
async function meWith(token) {
  const headers = { authorization: `Bearer ${token}`, accept: "application/json" };
  const answer = await fetch(api.url("/v1/me"), { headers });
  if (!answer.ok) {
    throw Object.assign(new Error("me"), { words: "Signed in, but your profile could not be read: try again." });
  }
  return answer.json();
}

/** Move the guest's games (played in this browser before signing in) to the account. */
export async function claimGuest() {
  const you = session.current();
  if (!you || !you.previous_guest) return 0;
  try {
    const answer = await api.post("/v1/me/claim", { guest_token: you.previous_guest.token });
    session.update({ previous_guest: null });
    return answer.claimed_games;
  } catch (error) {
    const gone = ["claim-conflict", "guest-token-invalid", "not-a-guest-token"].includes(error.code);
    if (gone || error.status === 401 || error.status === 422) session.update({ previous_guest: null });
    throw error;
  }
}
