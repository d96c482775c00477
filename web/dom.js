// Small helpers every screen uses: building elements, showing an error next to what caused it,
// and the times and counts people read.
import { serverNow } from "./clock.js";

/** An element: h("button", {class: "primary", onclick}, "Play"). Attributes that are
 * null/undefined/false are left out; true gives an empty attribute. */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace an element's children. */
export function fill(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

let uid = 0;
/** A unique id for label/aria wiring. */
export function nextId(prefix = "id") {
  uid += 1;
  return `${prefix}-${uid}`;
}

/** A labelled control: <label for>Name</label><control>, plus a slot for its error message. */
export function field(label, control, hint) {
  const id = control.id || nextId("f");
  control.id = id;
  const error = h("p", { class: "field-error", id: `${id}-error`, hidden: true });
  const hintNode = hint ? h("p", { class: "hint", id: `${id}-hint` }, hint) : null;
  control.setAttribute("aria-describedby", [hintNode && hintNode.id, error.id].filter(Boolean).join(" "));
  const wrap = h("div", { class: "field" }, h("label", { for: id }, label), control, hintNode, error);
  wrap.control = control;
  wrap.error = error;
  return wrap;
}

/** Show (or, with no message, clear) the error that belongs to a field or an action. */
export function showError(slot, message) {
  if (!slot) return;
  const target = slot.error || slot;
  target.textContent = message || "";
  target.hidden = !message;
  const control = slot.control;
  if (control) {
    if (message) control.setAttribute("aria-invalid", "true");
    else control.removeAttribute("aria-invalid");
  }
}

/** A field for a 6-digit code (an email's confirmation code, an authenticator's): what phones
 * fill in from the message or the app. Returns the input and its field. */
export function codeInput(label, hint) {
  const code = h("input", { type: "text", inputmode: "numeric", autocomplete: "one-time-code", maxlength: 6 });
  return { code, codeField: field(label, code, hint) };
}

/** The code typed into `codeInput`'s input when it is 6 digits; otherwise null, with `words`
 * shown on the field and the focus back in it. */
export function sixDigits(code, codeField, words) {
  const value = code.value.trim();
  if (/^\d{6}$/.test(value)) return value;
  showError(codeField, words);
  code.focus();
  return null;
}

/** An error line placed right after an action's buttons (role=alert so it is read out). */
export function errorSlot() {
  return h("p", { class: "field-error", role: "alert", hidden: true });
}

/** Run an async action from a button: the button is busy meanwhile, and a refusal shows in
 * `slot` (in words), never as an exception. */
export async function act(button, slot, work) {
  showError(slot, "");
  if (button) button.disabled = true;
  try {
    return await work();
  } catch (error) {
    showError(slot, error && error.words ? error.words : "That did not work: check your connection and try again.");
    if (!(error && error.words)) console.warn(error);
    return undefined;
  } finally {
    if (button && button.isConnected) button.disabled = false;
  }
}

export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

/** "4:59", "23:59:12", "2 days 3 hours" until `deadline` (by the server's clock, clock.js);
 * "no time left" once past. */
export function timeLeft(deadline, now = serverNow()) {
  const ms = Date.parse(deadline) - now;
  if (!(ms > 0)) return "no time left";
  const s = Math.floor(ms / 1000);
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const seconds = s % 60;
  if (days >= 1) return `${plural(days, "day")} ${plural(hours, "hour")}`;
  const mm = String(minutes).padStart(hours ? 2 : 1, "0");
  const ss = String(seconds).padStart(2, "0");
  return hours ? `${hours}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** A moment as people read it: "today 14:05", "3 Dec 14:05", "3 Dec 2025". */
export function when(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  const now = new Date();
  const time = date.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
  if (date.toDateString() === now.toDateString()) return `today ${time}`;
  const sameYear = date.getFullYear() === now.getFullYear();
  const day = date.toLocaleDateString(undefined, { day: "numeric", month: "short", year: sameYear ? undefined : "numeric" });
  return sameYear ? `${day} ${time}` : day;
}

export function percent(fraction, digits = 0) {
  return `${(fraction * 100).toFixed(digits)}%`;
}

/** Is this a touch-first device (no hover, coarse pointer)? */
export function touchFirst() {
  return window.matchMedia("(hover: none) and (pointer: coarse)").matches;
}
