// The analysis board: any position in notation, drawn as the game's board, with every
// move's value for the side to move, the moves that give an extra move (`+`), and the
// best line. Moves are played by clicking a pile (or a row of the table); the best line
// can be stepped through; every pile keeps its place from the position entered.

import { $, NAMES, h, signed } from "./dom.js";
import { Board } from "./board.js";

export class AnalysisBoard {
  constructor(engine, onError) {
    this.engine = engine;
    this.onError = onError;
    this.board = new Board($("analysis-board"), "Analysis board");
    this.root = null;
    this.moves = [];
    this.data = null;
    this.seq = 0;
    $("analyze-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.load($("analyze-input").value.trim());
    });
    $("an-back").addEventListener("click", () => this.goto(this.moves.slice(0, -1)));
    $("an-root").addEventListener("click", () => this.goto([]));
    $("an-step").addEventListener("click", () => this.step());
  }

  // Analyses `position` (moves from it: `moves`); resolves when shown.
  async load(position, moves = []) {
    $("analyze-input").value = position;
    this.root = position;
    return this.goto(moves);
  }

  // Shows where `moves` from the root lead: the board at once, then its values.
  async goto(moves) {
    if (this.root === null) return;
    const seq = ++this.seq;
    try {
      const drawn = await this.engine.board(this.root, moves);
      if (seq !== this.seq) return; // a later request was made meanwhile
      this.moves = moves;
      this.board.show(drawn, { label: drawn.position });
      $("analysis-out").replaceChildren(h("p", { class: "muted" }, "Solving…"));
      const data = await this.engine.analyze(this.root, moves);
      if (seq !== this.seq) return;
      this.data = data;
      this.render();
    } catch (error) {
      if (seq === this.seq) this.onError(error);
    }
  }

  // Only draws `position` (the layout tests load many positions this way).
  async draw(position) {
    const seq = ++this.seq;
    const drawn = await this.engine.board(position, []);
    if (seq === this.seq) {
      this.root = position;
      this.moves = [];
      $("analyze-input").value = position;
      this.board.show(drawn, { label: drawn.position });
      $("analysis-out").replaceChildren(h("p", { class: "muted" }, "Drawn only: press Analyze for its values."));
    }
    return drawn;
  }

  // Plays the next move of the best line shown.
  step() {
    if (this.data && this.data.pv.length) this.goto([...this.moves, this.data.pv[0]]);
  }

  render() {
    const data = this.data;
    this.board.show(data, {
      onLift: data.is_over ? null : (pile) => this.goto([...this.moves, pile]),
      label: data.position,
    });
    $("an-back").disabled = $("an-root").disabled = !this.moves.length;
    $("an-step").disabled = data.is_over || !data.pv.length;
    const line = data.line.map((ply) => h("span", { class: `mono by-${ply.mover}` }, ply.label));
    const parts = [
      h("p", { id: "analysis-line", class: "line-so-far" },
        this.moves.length ? ["Moves played: ", ...line.flatMap((part) => [part, " "])] : "The position entered."),
    ];
    if (data.is_over) {
      parts.push(h("p", { id: "analysis-value" },
        `The battle is over: Red ${data.scoring.red}, Black ${data.scoring.black}.`));
      $("analysis-out").replaceChildren(...parts);
      return;
    }
    const rows = Object.entries(data.moves)
      .sort((a, b) => b[1] - a[1])
      .map(([move, value]) => {
        const row = h("tr", { "data-move": move, class: value === data.value ? "best" : "" },
          h("td", null, h("button", { type: "button", class: "link", "aria-label": `Play pile ${move}` }, move)),
          h("td", { class: "mono" }, signed(value)),
          h("td", null, data.extra_moves[move] ? "+ extra move" : ""));
        row.querySelector("button").addEventListener("click", () => this.goto([...this.moves, Number(move)]));
        return row;
      });
    const pv = data.pv_line.map((ply, i) => h("span", { class: `pv-move mono by-${ply.mover}${i === 0 ? " next" : ""}` }, ply.label));
    parts.push(
      h("p", { id: "analysis-value" },
        `${NAMES[data.to_move]} to move: value ${signed(data.value)}${data.exact ? " (exact)" : " (estimate)"}`),
      h("table", { id: "analysis-table", class: "table" },
        h("thead", null, h("tr", null, ...["pile", "value", "extra move"].map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", null, ...rows)),
      h("p", { id: "analysis-pv" }, "Best line: ", ...pv.flatMap((part) => [part, " "])),
    );
    $("analysis-out").replaceChildren(...parts);
  }
}
