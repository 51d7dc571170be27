// The new-match form's opponent: the AI at a level, two players on this screen (pass and
// play: both sides move on one board, through the same engine), or a friend online (an
// online match, whose page shows the link to send: online.js).

import { $ } from "./dom.js";
import { opponentOf } from "./levels.js";
import { OnlineEngine, keepInvite } from "./online_engine.js";

// `online`: whether this engine can make online matches (a page served by
// `buttonup serve`; not the offline page).
export function setUpOpponents(online) {
  if (!online) {
    $("opponent").querySelector("option[value=friend]").remove();
    $("mine-link").remove();
  }
  const update = () => {
    const kind = $("opponent").value;
    $("level-group").hidden = kind !== "ai";
    $("colours").hidden = kind === "two";
    $("new").textContent = kind === "friend" ? "Invite a friend" : "Start the match";
  };
  $("opponent").addEventListener("change", update);
  update();
}

// What the form asks: {kind: "ai" | "two" | "friend", settings for the engine}.
export function chosen(params) {
  const kind = $("opponent").value;
  const human = document.querySelector("input[name=colour]:checked").value;
  const target = Math.min(30, Math.max(1, Math.round(Number($("target").value)) || 15));
  const choice = $("level").value;
  const opponent = opponentOf(choice);
  const settings = opponent === null
    ? { human, level: Number(choice), starter: human, target }
    : { human, opponent, starter: human, target };
  if (kind === "two") Object.assign(settings, { players: 2, human: "r", starter: "r" });
  if (params.get("seed")) settings.seed = Number(params.get("seed"));
  return { kind, settings };
}

// An online match with this browser's player in the colour asked, then its page.
export async function inviteFriend({ human, target, seed }) {
  const online = new OnlineEngine();
  const body = { target, host: human, starter: "r" };
  if (seed !== undefined) body.seed = seed;
  const made = await online.create(body);
  keepInvite(made.id, made.invite);
  location.href = made.links.match;
}
