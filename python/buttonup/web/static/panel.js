// The end-of-battle panel: the final tower drawn from the bottom (1) to the top (the
// engine's drawing), each side's sum as the engine scored it, the points won, the
// score, and the way on (the next battle, a review of this one, a new match). It stays
// until the player moves on: the next deal does not hide it.

import { NAMES, h, parseSvg } from "./dom.js";

// The engine's drawing of the final tower (strength 1 at the bottom).
function towerPicture(battle) {
  const picture = parseSvg(battle.tower);
  picture.classList.add("tower-svg");
  picture.removeAttribute("width");
  picture.removeAttribute("height");
  return picture;
}

const sum = (list) => (list.length ? list.join(" + ") : "0");

// Who each side is on the page: {r, b}, each a subject ("You", "The AI", "Red").
export function sideNames(match) {
  if (match.players === 2) return { r: "Red", b: "Black" };
  return { [match.human]: "You", [match.human === "r" ? "b" : "r"]: "The AI" };
}

// "You win" / "The AI wins".
export const wins = (who) => `${who} ${who === "You" ? "win" : "wins"}`;

// Fills `container` for `battle` (a scored battle of the match) in `match`; `actions`
// holds the callbacks: next(), review() (no review button without it), newMatch(),
// `names` (sideNames(match) unless given) and `watching` (a spectator's page).
export function showPanel(container, match, battle, actions) {
  const scoring = battle.scoring;
  const names = actions.names || sideNames(match);
  let result;
  if (!scoring.winner) result = "Equal sums: nobody gains victory points.";
  else {
    const who = wins(names[scoring.winner]);
    // "(Red)" only where the name is not the colour already (pass-and-play).
    const colour = names[scoring.winner] === NAMES[scoring.winner] ? "" : ` (${NAMES[scoring.winner]})`;
    result = `${who} the battle${colour} and ${scoring.points} victory point${scoring.points === 1 ? "" : "s"}.`;
  }
  const buttons = [];
  if (match.winner) {
    buttons.push(h("button", { type: "button", class: "primary", id: "panel-new" }, "New match"));
  } else {
    // A spectator moves nothing on: his button only closes the panel.
    const label = actions.watching ? "Back to the board" : "Next battle";
    buttons.push(h("button", { type: "button", class: "primary", id: "next-battle" }, label));
  }
  if (actions.review) buttons.push(h("button", { type: "button", id: "review-battle" }, "Review this battle"));
  const matchLine = match.winner
    ? `${wins(names[match.winner])} the match!`
    : `Score: Red ${match.scores.r} - Black ${match.scores.b} (first to ${match.target})`;
  container.replaceChildren(
    h("h2", { id: "panel-title" }, `Battle ${battle.number} is over`),
    h("div", { class: "panel-body" },
      battle.tower ? towerPicture(battle) : null,
      h("div", { class: "panel-text" },
        h("p", { id: "sum-red", class: "sum owner-r" }, `Red: ${sum(scoring.red_strengths)} = ${scoring.red}`),
        h("p", { id: "sum-black", class: "sum owner-b" }, `Black: ${sum(scoring.black_strengths)} = ${scoring.black}`),
        h("p", { id: "battle-result" }, result),
        h("p", { id: "panel-score", class: match.winner ? "match-over" : "" }, matchLine),
        h("div", { class: "panel-actions" }, ...buttons))),
  );
  container.hidden = false;
  container.dataset.battle = String(battle.number);
  const next = container.querySelector("#next-battle");
  if (next) next.addEventListener("click", actions.next);
  const fresh = container.querySelector("#panel-new");
  if (fresh) fresh.addEventListener("click", actions.newMatch);
  if (actions.review) container.querySelector("#review-battle").addEventListener("click", actions.review);
}

export function hidePanel(container) {
  container.hidden = true;
  container.replaceChildren();
  delete container.dataset.battle;
}
