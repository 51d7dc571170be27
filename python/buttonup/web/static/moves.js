// The move list of a battle, in the record's notation (the pile lifted, `+` for an
// extra move), one line a turn (a turn is a player's moves in a row: an extra move
// keeps the turn). Each move is a button that shows the position after it; the
// position shown is highlighted. The arrows step through the battle.

import { $, NAMES, h } from "./dom.js";

export class MoveList {
  // `onSelect(ply)`: show the position after `ply` moves (0: the start).
  constructor(container, onSelect) {
    this.container = container;
    this.onSelect = onSelect;
    this.plies = [];
    this.shown = 0;
    $("nav-first").addEventListener("click", () => this.go(0));
    $("nav-prev").addEventListener("click", () => this.go(this.shown - 1));
    $("nav-next").addEventListener("click", () => this.go(this.shown + 1));
    $("nav-last").addEventListener("click", () => this.go(this.plies.length));
  }

  go(ply) {
    if (ply < 0 || ply > this.plies.length || ply === this.shown) return;
    this.onSelect(ply);
  }

  // The battle's `plies` (engine Plies), the position after `shown` of them on the
  // board; `losses` (ply -> loss against perfect play), once the battle is reviewed.
  render(number, plies, shown, losses = null) {
    this.plies = plies;
    this.shown = shown;
    const turns = [];
    for (const ply of plies) {
      const last = turns[turns.length - 1];
      if (last && last.mover === ply.mover) last.plies.push(ply);
      else turns.push({ mover: ply.mover, plies: [ply] });
    }
    const start = h("li", { class: "turn start" },
      h("button", { type: "button", class: "move", "data-ply": 0, "aria-current": shown === 0 ? "true" : null,
        "aria-label": `Battle ${number}: the start` }, "start"));
    const items = turns.map((turn, index) => h("li", { class: `turn by-${turn.mover}` },
      h("span", { class: "turn-number" }, `${index + 1}.`),
      h("span", { class: `dot dot-${turn.mover}`, "aria-hidden": "true" }),
      ...turn.plies.map((ply) => h("button", {
        type: "button",
        class: `move${ply.extra_move ? " extra" : ""}${losses && losses.get(ply.ply) ? " mistake" : ""}`,
        "data-ply": ply.ply,
        "aria-current": ply.ply === shown ? "true" : null,
        "aria-label": `Move ${ply.ply}: ${NAMES[ply.mover]} lifts pile ${ply.move}${ply.extra_move ? ", extra move" : ""}${
          losses && losses.get(ply.ply) ? `, a mistake losing ${losses.get(ply.ply)}` : ""}`,
      }, ply.label, losses && losses.get(ply.ply) ? "?" : ""))));
    this.container.replaceChildren(h("ol", { class: "moves-list" }, start, ...items));
    for (const button of this.container.querySelectorAll("button.move")) {
      button.addEventListener("click", () => this.go(Number(button.dataset.ply)));
    }
    const current = this.container.querySelector("[aria-current=true]");
    if (current) this.container.scrollTop = Math.max(0, current.offsetTop - this.container.clientHeight / 2);
    $("nav-first").disabled = $("nav-prev").disabled = shown === 0;
    $("nav-next").disabled = $("nav-last").disabled = shown === plies.length;
  }

  clear() {
    this.plies = [];
    this.container.replaceChildren(h("p", { class: "muted" }, "No moves yet."));
    for (const id of ["nav-first", "nav-prev", "nav-next", "nav-last"]) $(id).disabled = true;
  }
}
