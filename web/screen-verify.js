// #/verify/{id}: whether the finished game checks out against its published seed, and how to
// check it yourself without trusting the server.
import { h, fill } from "./dom.js";
import * as api from "./api.js";

export async function show(view, gameId) {
  document.title = "Verification · MineDuel";
  const doc = await api.get(`/v1/games/${gameId}/verify`);
  const verdict = doc.verdict;
  const ok = verdict.checked && verdict.ok;
  const address = new URL(api.url(`/v1/games/${gameId}/verify`), location.href).href;
  fill(view, h("h1", {}, "Verification"),
    h("section", { class: "card" },
      h("p", { id: "verdict", "data-ok": String(ok), class: ok ? "ok-text" : verdict.checked ? "error-text" : "" }, h("strong", {},
        !verdict.checked ? "Not checked yet: the game is still running, and its seed stays secret until it ends."
          : ok ? "Every move checks out against the published seed." : "Problems found: this game does not check out.")),
      verdict.problems.length ? h("ul", {}, verdict.problems.map((p) => h("li", { class: "error-text" }, p))) : null,
      h("p", {}, "Before the first move the server published a commitment to the field's seed: ", h("code", { class: "wrap" }, doc.commitment)),
      h("p", {}, "The seed, published at the end: ", h("code", { class: "wrap" }, doc.seed || "kept secret until the game ends")),
      h("p", {}, `${doc.moves.length} moves were replayed on the field rebuilt from it. To check it on your own computer, without trusting this server, run `,
        h("code", { class: "wrap" }, `mineduel verify ${address}`), "."),
      h("div", { class: "row" },
        h("a", { class: "button", href: address }, "The verification document"),
        h("a", { class: "button", href: `#/game/${gameId}` }, "Back to the game"),
        doc.status === "finished" ? h("a", { class: "button", href: `#/replay/${gameId}` }, "Replay") : null)));
  return undefined;
}
