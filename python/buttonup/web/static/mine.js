// "My matches" (/online/mine): the online matches of this browser's player token,
// unfinished and finished, each finished one with its record to download. Opened as
// /online/mine#p=TOKEN (the link on another device), it takes that token for this browser.

import { $, NAMES, clearError, h, say, showError } from "./dom.js";
import { setUpTheme } from "./theme.js";
import { OnlineEngine, adoptToken } from "./online_engine.js";

function stateText(match) {
  if (match.finished) {
    if (!match.winner) return "finished";
    return match.winner === match.seat ? "finished: you won" : "finished: your friend won";
  }
  return match.opponent_joined ? "in play" : "waiting for your friend";
}

function row(match) {
  const score = `Red ${match.scores.r} – Black ${match.scores.b}`;
  const link = (match.links && match.links.match) || `/online/${match.id}`;
  return h("tr", { "data-id": match.id, "data-finished": match.finished ? "true" : "false" },
    h("td", null, h("a", { href: link }, match.id.slice(0, 8))),
    h("td", null, NAMES[match.seat] || "?"),
    h("td", { class: "mono" }, score),
    h("td", null, stateText(match)),
    h("td", null, match.updated ? new Date(match.updated).toLocaleString() : ""),
    h("td", null, match.record
      ? h("a", { href: match.record, download: `buttonup-online-${match.id.slice(0, 8)}.txt`, class: "record" }, "download")
      : ""));
}

async function setUp() {
  setUpTheme($("theme"));
  $("error-close").addEventListener("click", clearError);
  const given = new URLSearchParams(location.hash.slice(1)).get("p");
  if (given) {
    adoptToken(given);
    history.replaceState(null, "", "/online/mine"); // the token out of the address bar
  }
  const server = new OnlineEngine();
  if (!server.issued) {
    say("status", "This browser has played no online match yet: invite a friend from the main page.");
    document.body.dataset.ready = "true";
    return;
  }
  $("own-link").value = new URL(`/online/mine#p=${server.issued}`, location.href).href;
  try {
    const { matches } = await server.mine();
    const rows = matches.map(row);
    $("matches").querySelector("tbody").replaceChildren(...rows);
    $("matches").hidden = !rows.length;
    say("status", rows.length ? `${rows.length} match${rows.length === 1 ? "" : "es"}.` : "No online match yet.");
  } catch (error) {
    showError(error.message || String(error));
    say("status", "Your matches cannot be listed.");
  }
  document.body.dataset.ready = "true";
}

setUp();
