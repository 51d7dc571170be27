// An engine in the browser: engine.js's interface answered by the WebAssembly build of
// the core (docs/wasm.md), with no request to any server. The matches live in the page;
// their JSON is the same as `buttonup serve`'s (python/buttonup/web/match_routes.py): the
// core's views, analysis and chart (matchView, hintView, Chart, ...), shaped once there.
//
// A page uses it by setting, in a module script before app.js:
//   globalThis.buttonupEngine = LocalEngine.load("./wasm/buttonup_wasm.js");
// (what `buttonup export-site` writes).

import { EngineError } from "./engine.js";

// Runs `work`, turning the engine's errors into EngineErrors with its message (status
// 400, as the server answers a refusal).
function engineCall(work) {
  try {
    return work();
  } catch (error) {
    if (error instanceof EngineError) throw error;
    throw new EngineError(error && error.message ? error.message : String(error), 400);
  }
}

// One match of the page, as the server's Entry (python/buttonup/web/service.py).
class Entry {
  constructor(wasm, match, human, level, seed, searchSeconds, players = 1) {
    this.wasm = wasm;
    this.match = match;
    this.human = human;
    this.players = players; // 2: pass and play, both sides people at one screen
    this.level = level;
    // Who sits at the screen: the turn rules and their refusals (the core's).
    this.seats = new wasm.Seats(human, players);
    // The server's AI: a move searched within a second at most.
    this.ai = new wasm.Bot({ level, seed, timeLimitMs: Math.min(1, searchSeconds) * 1000 });
    this.points = new wasm.Chart(); // the chart's points, the core's (as the server's)
  }

  // The battle being played, or the last one once the match is over or while the tie
  // rule's choice is due (no battle is dealt then).
  get battleNumber() {
    return this.wasm.shownBattle(this.match);
  }

  // Battle `number`'s start and moves (or its first `ply`), the core's; a battle the
  // match does not have, or more moves than it has, is the 404 in the core's words.
  battle(number, ply = undefined) {
    try {
      return this.wasm.battleOf(this.match, number, ply);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      throw new EngineError(error.message, 404);
    }
  }

  // The chart's point after a change, each margin solved within `seconds`.
  note(seconds) {
    this.points.note(this.match, seconds * 1000);
  }

  // What note would have recorded, for a match read from a record.
  backfill(seconds) {
    this.points.backfill(this.match, seconds * 1000);
  }

  chart(number) {
    this.battle(number); // the 404 for a battle the match does not have
    return this.points.points(this.match, number);
  }
}

export class LocalEngine {
  // Loads the WebAssembly package (its ES module's URL) and makes the engine.
  static async load(moduleUrl, options = {}) {
    const wasm = await import(moduleUrl);
    await wasm.default();
    return new LocalEngine(wasm, options);
  }

  constructor(wasm, { searchSeconds = 2 } = {}) {
    this.wasm = wasm;
    this.name = "local";
    this.searchSeconds = searchSeconds;
    this.entries = new Map();
    this.counter = 0;
  }

  entry(id) {
    const entry = this.entries.get(id);
    if (!entry) throw new EngineError(`no match '${String(id).slice(0, 64)}' (matches are kept while the page is open)`, 404);
    return entry;
  }

  add(match, human, level, seed, players = 1) {
    this.counter += 1;
    const id = `local-${this.counter}`;
    this.entries.set(id, new Entry(this.wasm, match, human, level, seed, this.searchSeconds, players));
    return id;
  }

  noted(id, played = false) {
    const entry = this.entry(id);
    entry.note(this.searchSeconds / 2);
    return this.matchJson(id, played);
  }

  // A battle of the match: the core's view (the server's JSON), with the chart's points.
  battleJson(entry, number) {
    const data = this.wasm.battleView(entry.match, number);
    if (data === null) entry.battle(number); // throws the 404, naming the battles there are
    data.points = entry.chart(number);
    return data;
  }

  // The match's whole state: the core's view (the server's JSON), with the chart's
  // points of the battle shown and what the page adds (the id, the sides, the level).
  matchJson(id, played = false) {
    const entry = this.entry(id);
    const data = this.wasm.matchView(entry.match, true, played);
    data.battle.points = entry.chart(data.battle.number);
    return Object.assign(data, {
      id,
      human: entry.human,
      players: entry.players,
      level: entry.level,
      level_name: this.wasm.levels()[String(entry.level)],
    });
  }

  // --- engine.js's interface ------------------------------------------------------
  async levels() { return this.wasm.levels(); }
  // The offline page offers the levels only: a server's players live on the server.
  async opponents() { return {}; }

  async newMatch({ human = "r", level = 5, target = 15, starter = "r", seed = null, players = 1 } = {}) {
    return engineCall(() => {
      const match = new this.wasm.Match({ starter, target, seed });
      return this.noted(this.add(match, human, level, seed, players === 2 ? 2 : 1));
    });
  }

  async match(id) { return engineCall(() => this.matchJson(id)); }

  async play(id, move) {
    return engineCall(() => {
      const { match, seats } = this.entry(id);
      seats.play(match, move);
      return this.noted(id, true);
    });
  }

  async aiMove(id) {
    return engineCall(() => {
      const entry = this.entry(id);
      const { match } = entry;
      if (entry.seats.aiTurn(match) === "chooseStarter") {
        match.chooseStarter(entry.ai.chooseStarter(match));
        return this.noted(id);
      }
      match.play(entry.ai.chooseInMatch(match));
      return this.noted(id, true);
    });
  }

  async choose(id, starter) {
    return engineCall(() => {
      const { match, seats } = this.entry(id);
      seats.choose(match, starter);
      return this.noted(id);
    });
  }

  async undo(id) {
    return engineCall(() => {
      const { match, seats } = this.entry(id);
      seats.undo(match);
      return this.noted(id);
    });
  }

  async hint(id) {
    return engineCall(() => {
      const entry = this.entry(id);
      const { match } = entry;
      return this.wasm.hintView(match, entry.seats.acts(match), this.searchSeconds * 1000);
    });
  }

  async battle(id, number) { return engineCall(() => this.battleJson(this.entry(id), number)); }

  async ply(id, number, ply) {
    return engineCall(() => {
      const [start, moves] = this.entry(id).battle(number, ply);
      const { line, ...drawn } = this.wasm.lineView(start, moves);
      return { ...drawn, battle: number, ply };
    });
  }

  async review(id, number) {
    return engineCall(() => {
      const [start, moves] = this.entry(id).battle(number);
      // A look at one position has a quarter of the cap, the whole review the cap.
      const ms = this.searchSeconds * 1000;
      return { number, start: start.toString(), moves: this.wasm.reviewView(start, moves, ms / 4, ms) };
    });
  }

  async board(position, moves = []) {
    return engineCall(() => {
      const root = new this.wasm.Position(position);
      return { ...this.wasm.lineView(root, moves), root: root.toString() };
    });
  }

  async analyze(position, moves = []) {
    return engineCall(() => {
      const root = new this.wasm.Position(position);
      const drawn = this.wasm.lineView(root, moves);
      const at = new this.wasm.Position(drawn.position);
      const data = this.wasm.analysisView(at, this.searchSeconds * 1000);
      return {
        ...drawn,
        ...data,
        root: root.toString(),
        pv_line: this.wasm.lineView(at, data.pv).line,
      };
    });
  }

  async record(id) {
    return engineCall(() => {
      const entry = this.entry(id);
      const [red, black] = entry.seats.names(`buttonup level ${entry.level}`);
      const date = new Date().toISOString().slice(0, 10);
      return entry.match.record({ Event: "buttonup in the browser", Date: date, Red: red, Black: black });
    });
  }

  async importRecord(record, { human = "r", level = 5, players = 1 } = {}) {
    return engineCall(() => {
      const match = this.wasm.Match.fromRecord(record);
      const id = this.add(match, human, level, null, players === 2 ? 2 : 1);
      this.entry(id).backfill(this.searchSeconds / 2);
      return this.matchJson(id);
    });
  }
}
