// A hint: for the position on the board, every move's value for the player (his
// margin under perfect play), the moves that give an extra move, his chance of winning
// the match after each, and from here; a click on a pile's number lifts it.

import { h, percent, signed } from "./dom.js";

// `who` names the player to move in the texts: "Your" against the AI, "Red's" on one screen.
export function showHint(container, data, lift, who = "Your") {
  const rows = Object.entries(data.moves)
    .sort((a, b) => b[1] - a[1])
    .map(([move, value]) => h("tr", { class: value === data.value ? "best" : "" },
      h("td", null, h("button", { type: "button", class: "link", "aria-label": `Lift pile ${move}` }, move)),
      h("td", { class: "mono" }, signed(value)),
      h("td", null, data.extra_moves[move] ? "+" : ""),
      h("td", { class: "mono" }, move in data.match_odds ? percent(data.match_odds[move]) : "")));
  const table = h("table", { id: "hint-table", class: "table", "data-position": data.position },
    h("thead", null, h("tr", null, ...["pile", `${who.toLowerCase()} margin`, "extra", "match chance"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", null, ...rows));
  for (const button of table.querySelectorAll("button")) button.addEventListener("click", () => lift(Number(button.textContent)));
  const parts = [table];
  if (data.match_win_probability !== null) {
    parts.push(h("p", { id: "hint-odds" }, `${who} chance of winning the match from here: ${percent(data.match_win_probability)}`));
  }
  container.replaceChildren(...parts);
}
