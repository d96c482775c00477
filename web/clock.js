// The server's clock, as this device can know it. Deadlines, expiry times and "now" on the
// server are the server's times; a phone whose clock is a few minutes off would count a move's
// time down wrongly, offer "Claim the time-out" the server then refuses, or hide it when it is
// due. Every API answer carries the server's time in its Date header (whole seconds), stamped
// between the moment the request left and the moment the answer arrived, so each one bounds
// the difference between the two clocks; the bounds of all answers together narrow it. A
// device whose clock fits every bound is taken as right (no correction: a second's rounding
// would only make the countdown jitter); one that fits none is corrected by the least that
// fits them all.

// What was learned is kept in localStorage, so a page opened offline (from the home screen)
// still counts down by the server's clock; the first answer that contradicts it starts afresh.
const KEY = "mineduel.clock";
let low = -Infinity; // server time - device time, in ms: at least this...
let high = Infinity; // ...and at most this
restore();

function restore() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY));
    if (kept && Number.isFinite(kept.low) && Number.isFinite(kept.high) && kept.low <= kept.high) {
      low = kept.low;
      high = kept.high;
    }
  } catch { /* nothing kept */ }
}

function keep() {
  try { localStorage.setItem(KEY, JSON.stringify({ low, high })); } catch { /* storage refused */ }
}

/** Learn from one answer: its Date header, and when (device time) the request left and the
 * answer came. An answer that contradicts what was known (the server's clock moved, or this
 * device's did) starts the estimate afresh from it. */
export function heard(date, sent, received) {
  const server = Date.parse(date || "");
  if (Number.isNaN(server) || !(received >= sent)) return;
  const least = server - received; // stamped at the latest when the answer arrived
  const most = server + 999 - sent; // and its second began at the earliest when it left
  if (least > high || most < low) {
    low = least;
    high = most;
  } else {
    low = Math.max(low, least);
    high = Math.min(high, most);
  }
  keep();
}

/** How far the server's clock is ahead of this device's, in ms (0 when nothing says it is off). */
export function offset() {
  return Math.min(Math.max(0, low), high);
}

/** The server's time now, in ms since the epoch (what deadlines are compared with). */
export function serverNow() {
  return Date.now() + offset();
}

/** Forget what was learned (a test, or a page that knows the clocks changed). */
export function forget() {
  low = -Infinity;
  high = Infinity;
  try { localStorage.removeItem(KEY); } catch { /* storage refused */ }
}
