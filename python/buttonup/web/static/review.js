// The review of a finished battle: each move's loss against perfect play (the engine's
// exact margins for the mover), mistakes marked, and for each move the best line from
// the position before it, to play through on the analysis board.

import { NAMES, h } from "./dom.js";

// Fills `container` with `review` (an engine Review); `side` is the human's colour;
// `onShow(ply)` shows the position after a move, `onLine(position)` opens the position
// before a move on the analysis board, its best line to step through.
export function showReview(container, review, side, { onShow, onLine }) {
  const mine = review.moves.filter((m) => m.mover === side);
  const lost = mine.reduce((total, m) => total + (m.loss || 0), 0);
  const mistakes = mine.filter((m) => m.mistake).length;
  const rows = review.moves.map((m) => {
    const best = m.best_moves.join(", ");
    const verdict = m.loss === null ? "not solved" : m.mistake ? `mistake: loses ${m.loss}` : "best";
    return h("tr", { class: m.mistake ? "mistake" : "", "data-ply": m.ply },
      h("td", null, h("button", { type: "button", class: "link", "aria-label": `Show the position after move ${m.ply}` }, String(m.ply))),
      h("td", null, h("span", { class: `dot dot-${m.mover}`, "aria-hidden": "true" }), m.mover === side ? " you" : " AI"),
      h("td", { class: "mono" }, m.label),
      h("td", null, verdict),
      h("td", { class: "mono" }, m.mistake ? best : ""),
      h("td", null, h("button", {
        type: "button", class: "small line",
        "aria-label": `Play the best line from before move ${m.ply} on the analysis board`,
      }, "best line")),
    );
  });
  container.replaceChildren(
    h("h2", null, `Review of battle ${review.number}`),
    h("p", { id: "review-summary" },
      mistakes
        ? `Your moves lost ${lost} point${lost === 1 ? "" : "s"} of margin against perfect play, in ${mistakes} mistake${mistakes === 1 ? "" : "s"}.`
        : "Every move of yours was a best move."),
    h("table", { id: "review-table", class: "table" },
      h("thead", null, h("tr", null, ...["move", "by", "played", "verdict", "best", ""].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", null, ...rows)),
    h("p", { class: "muted" },
      `A move's loss is the margin it gives away against the best move (margin: the mover's final sum minus the other's, both playing perfectly afterwards); ${NAMES[side]} is you.`),
  );
  container.hidden = false;
  for (const row of container.querySelectorAll("tbody tr")) {
    const ply = Number(row.dataset.ply);
    const move = review.moves[ply - 1];
    row.querySelector("button.link").addEventListener("click", () => onShow(ply));
    row.querySelector("button.line").addEventListener("click", () => onLine(move.from));
  }
}

// The verdict of each move of a review, for the move list: ply -> loss.
export function losses(review) {
  return new Map(review.moves.map((m) => [m.ply, m.loss]));
}
