// An engine in the browser: engine.js's interface answered by the WebAssembly build of
// the core (docs/wasm.md), with no request to any server. The matches live in the page,
// each the core's session of it (Session: its changes, views, chart, hint, review and
// record), so that their JSON is `buttonup serve`'s (python/buttonup/web/match_routes.py).
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

// One match of the page: the core's session of it (the match, who sits at its screen,
// the chart; the server keeps the same) and the AI facing the person.
class Entry {
  constructor(wasm, match, human, level, seed, searchSeconds, players = 1) {
    this.session = new wasm.Session(match, human, players, searchSeconds * 1000);
    this.level = level;
    this.ai = new wasm.Bot({ level, seed });
  }

  // Battle `number`'s start and moves (or its first `ply`), the core's; a battle the
  // match does not have, or more moves than it has, is the 404 in the core's words.
  battle(number, ply = undefined) {
    try {
      return this.session.battle(number, ply);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      throw new EngineError(error.message, 404);
    }
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
    this.entry(id).session.note();
    return this.matchJson(id, played);
  }

  // The match's whole state: the session's view (the server's JSON: the chart's points
  // of the battle shown, the sides) and what the page adds (the id, the level).
  matchJson(id, played = false) {
    const entry = this.entry(id);
    const data = entry.session.view(true, played);
    return Object.assign(data, {
      id,
      level: entry.level,
      level_name: this.wasm.levels()[String(entry.level)],
    });
  }

  // --- engine.js's interface ------------------------------------------------------
  async levels() { return this.wasm.levels(); }
  async ratings() { return this.wasm.ratings(); }
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
      this.entry(id).session.play(move);
      return this.noted(id, true);
    });
  }

  async aiMove(id) {
    return engineCall(() => {
      const { session, ai } = this.entry(id);
      return this.noted(id, session.aiMove(ai));
    });
  }

  async choose(id, starter) {
    return engineCall(() => {
      this.entry(id).session.choose(starter);
      return this.noted(id);
    });
  }

  async undo(id) {
    return engineCall(() => {
      this.entry(id).session.undo();
      return this.noted(id);
    });
  }

  async hint(id) { return engineCall(() => this.entry(id).session.hint()); }

  async battle(id, number) {
    return engineCall(() => {
      const entry = this.entry(id);
      entry.battle(number); // the 404, naming the battles there are
      return entry.session.battleView(number);
    });
  }

  async ply(id, number, ply) {
    return engineCall(() => {
      const entry = this.entry(id);
      entry.battle(number, ply); // the 404, in the core's words
      return entry.session.plyView(number, ply);
    });
  }

  async review(id, number) {
    return engineCall(() => {
      const entry = this.entry(id);
      entry.battle(number); // the 404, naming the battles there are
      return entry.session.review(number);
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
      const date = new Date().toISOString().slice(0, 10);
      return entry.session.record(`buttonup level ${entry.level}`, "buttonup in the browser", date);
    });
  }

  async importRecord(record, { human = "r", level = 5, players = 1 } = {}) {
    return engineCall(() => {
      const match = this.wasm.Match.fromRecord(record);
      const id = this.add(match, human, level, null, players === 2 ? 2 : 1);
      this.entry(id).session.backfill();
      return this.matchJson(id);
    });
  }
}
