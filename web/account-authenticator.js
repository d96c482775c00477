// The account screen's authenticator app: "Set up an authenticator app" shows the secret as
// text and as a QR code of its otpauth:// URI; the app's first code ("Turn on") turns it on.
import { h, fill, errorSlot, act, codeInput, sixDigits } from "./dom.js";
import * as cognito from "./cognito.js";
import * as session from "./session.js";
import { renderSVG } from "./uqr.js";

/** The authenticator's card into `box`: on or off, and the button that sets one up. */
export async function drawAuthenticator(box) {
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
    h("p", { class: on ? "ok-text" : "muted" }, on ? "On: signing in asks for your app's code."
      : "Off: add an app (such as any TOTP authenticator) so that a password alone cannot sign in."),
    h("div", { class: "row" }, start), slot);

  function setup(secret) {
    const label = encodeURIComponent(`MineDuel:${you.email}`);
    const uri = `otpauth://totp/${label}?secret=${encodeURIComponent(secret)}&issuer=MineDuel`;
    const svg = renderSVG(uri, { pixelSize: 6 });
    const qr = h("img", {
      class: "qr", src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`,
      alt: "QR code of your authenticator secret", width: 220, height: 220,
    });
    const { code, codeField } = codeInput("Authenticator code",
      "The 6 digits the app shows now, to check that it works.");
    const turnOn = h("button", { type: "submit", class: "primary" }, "Turn on");
    fill(box, h("h2", { id: "auth-heading" }, "Authenticator app"),
      h("p", {}, "Scan the QR code with your authenticator app, or type the secret into it."),
      qr,
      h("p", {}, "Secret: ", h("code", { class: "secret", id: "totp-secret" }, secret)),
      h("form", { novalidate: true, onsubmit: (event) => {
        event.preventDefault();
        const value = sixDigits(code, codeField, "Enter the 6 digits your app shows.");
        if (value === null) return;
        act(turnOn, codeField, async () => {
          await cognito.turnOnAuthenticator(await session.token(), value);
          fill(box, h("h2", { id: "auth-heading" }, "Authenticator app"),
            h("p", { class: "ok-text", role: "status" }, "On: signing in now asks for your app's code as well."));
        });
      } }, codeField, h("div", { class: "row" }, turnOn)));
    code.focus();
  }
}
