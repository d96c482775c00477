// MineDuel's web client: plain ES modules, no build step. This module starts it: it reads
// config.json (the local stack serves it; on AWS it is uploaded from the stack's ClientConfig
// output), sets up the API client, Cognito, the session and the live socket, keeps the header
// in step with who is playing, and hands every route to its screen (router.js). The service
// worker, the install button and the offline line start first, before the network is asked
// anything: the app opens from the home screen without it (install.js, offline.js).
import * as api from "./api.js";
import * as cognito from "./cognito.js";
import * as session from "./session.js";
import * as socket from "./socket.js";
import * as router from "./router.js";
import * as install from "./install.js";
import * as offline from "./offline.js";
import { h, fill } from "./dom.js";

const view = document.getElementById("view");
const who = document.getElementById("who");
const notice = document.getElementById("notice");
const history = document.getElementById("nav-history");

function showWho(state) {
  if (!state) { fill(who); return; }
  const href = state.kind === "account" && state.username ? `#/players/${encodeURIComponent(state.username)}` : "#/account";
  fill(who, h("a", { href, class: "who-name" }, state.kind === "account" ? state.name : `${state.name} (guest)`));
}

function showNav(state) {
  history.hidden = !(state && state.kind === "account");
}

let noticeAge = 0; // routes shown since the notice appeared: it stays for the screen it leads to

function say(text) {
  fill(notice, text ? h("span", {}, text) : null);
  notice.hidden = !text;
  noticeAge = 0;
}

function markCurrent(hash) {
  for (const link of document.querySelectorAll("nav.menu a")) {
    const target = link.getAttribute("href");
    const here = target === "#/" ? hash === "#/" || hash === "" || hash.startsWith("#/?") : hash.startsWith(target.replace(/\/mine-duel$/, ""));
    if (here) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}

async function start() {
  install.start(document.getElementById("install"));
  offline.start();
  let config;
  try {
    const answer = await fetch("config.json", { cache: "no-cache" });
    config = await answer.json();
  } catch {
    fill(view, h("h1", {}, "MineDuel cannot start"), h("p", { class: "error-text" }, "The game's settings could not be loaded: reload the page in a moment."));
    return;
  }
  api.configure(config);
  cognito.configure(config);
  session.configure(config);
  socket.configure(config);
  showWho(session.current());
  showNav(session.current());
  session.onChange((state, message) => {
    showWho(state);
    showNav(state);
    if (message) say(message);
  });
  let first = true;
  await router.start(view, (hash) => {
    markCurrent(hash);
    if (!first) {
      noticeAge += 1;
      if (noticeAge > 1) say("");
      view.focus({ preventScroll: true }); // a screen reader starts reading the new screen
    }
    first = false;
  }, () => {
    if (!install.stale()) return true;
    location.reload(); // a new version took over: the next screen comes from it, whole
    return false;
  });
}

start();
