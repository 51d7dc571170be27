// The board: the engine's SVG drawing of a position, made playable. The page attaches
// its handlers to the drawing's piles (`.pile[data-pile][data-slot]`): the liftable ones
// are focusable buttons (click, Enter or Space; the arrow keys go round them), and the
// sowing of a move is shown button by button on the drawing of the position after it.

import { NAMES, parseSvg, sleep } from "./dom.js";

export class Board {
  // `container`: the element holding the drawing; `name`: what a screen reader calls it.
  constructor(container, name) {
    this.container = container;
    this.name = name;
    this.data = null;
    this.onLift = null;
    container.addEventListener("keydown", (event) => this.key(event));
  }

  // Shows `data` (a Board of the engine: svg, piles, legal_moves), its legal piles
  // playable when `onLift` is given; `label` is said of the position.
  show(data, { onLift = null, label = "" } = {}) {
    this.data = data;
    this.onLift = onLift;
    const svg = parseSvg(data.svg);
    svg.classList.add("board-svg");
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-label", `${this.name}${label ? `: ${label}` : ""}`);
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.dataset.position = data.position;
    this.container.dataset.position = data.position;
    this.container.replaceChildren(svg);
    this.svg = svg;
    const legal = onLift ? data.legal_moves : [];
    for (const pile of this.piles()) {
      const index = Number(pile.dataset.pile);
      const text = data.piles[index] || "";
      const colours = [...text].map((b) => ({ R: "red", B: "black", W: "white" })[b]).join(", ");
      pile.classList.toggle("playable", legal.includes(index));
      if (legal.includes(index)) {
        pile.setAttribute("tabindex", "0");
        pile.setAttribute("role", "button");
        pile.setAttribute("aria-label", `Lift pile ${index}: ${colours}, bottom first`);
        pile.addEventListener("click", () => this.lift(index));
      } else {
        pile.setAttribute("role", "img");
        pile.setAttribute("aria-label", `Pile ${index}: ${colours}, bottom first`);
      }
    }
  }

  piles() {
    return this.svg ? [...this.svg.querySelectorAll(".pile")] : [];
  }

  pile(slot) {
    return this.svg ? this.svg.querySelector(`.pile[data-slot="${slot}"]`) : null;
  }

  playable() {
    return this.piles().filter((pile) => pile.classList.contains("playable"));
  }

  lift(index) {
    if (this.onLift) this.onLift(index);
  }

  // Focus on the liftable pile `index` (or the first one).
  focus(index) {
    const piles = this.playable();
    if (!piles.length) return;
    const pile = piles.find((p) => Number(p.dataset.pile) === index) || piles[0];
    pile.focus({ preventScroll: true });
  }

  key(event) {
    const piles = this.playable();
    const at = piles.indexOf(document.activeElement);
    if (at < 0) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      this.lift(Number(piles[at].dataset.pile));
    } else if (["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"].includes(event.key)) {
      event.preventDefault();
      const step = event.key === "ArrowRight" || event.key === "ArrowDown" ? 1 : piles.length - 1;
      piles[(at + step) % piles.length].focus({ preventScroll: true });
    }
  }

  // The sowing of `played` (a Ply), ending on `after` (the Board after it): the lifted
  // pile fades, then each button appears on the pile the engine said it lands on.
  // `tell(text)` keeps the status line true at each step.
  async sow(played, after, pause, tell) {
    const who = NAMES[played.mover];
    const count = played.drops.length;
    tell(`${who} lifts pile ${played.move} (${count} button${count === 1 ? "" : "s"})…`);
    const lifted = this.pile(played.lifted_slot);
    if (lifted) lifted.classList.add("lifting");
    for (const pile of this.piles()) pile.classList.remove("playable");
    await sleep(pause);
    tell(`${who} sows pile ${played.move}…`);
    this.show(after);
    const waiting = new Map();
    for (const slot of played.drop_slots) waiting.set(slot, (waiting.get(slot) || 0) + 1);
    const hidden = new Map();
    for (const [slot, n] of waiting) {
      const pile = this.pile(slot);
      const buttons = pile ? [...pile.querySelectorAll(".button")] : [];
      const last = buttons.slice(Math.max(0, buttons.length - n));
      for (const button of last) button.classList.add("unsown");
      hidden.set(slot, last);
    }
    for (let j = 0; j < played.drop_slots.length; j++) {
      const button = (hidden.get(played.drop_slots[j]) || []).shift();
      if (button) {
        button.classList.remove("unsown");
        button.classList.add("sown");
      }
      tell(`${who} sows pile ${played.move}: button ${j + 1} of ${count}…`);
      await sleep(pause);
    }
  }
}
