// The WebAssembly door of the error parity suite (tests/doors/test_parity_errors.py): runs
// each scenario of a file (those of tests/data/parity_errors.json it can express) through the package and prints one JSON transcript,
// a line per scenario: its id, and the error's `name` and `message` (or `ok` and what
// the call answered). Usage: node parity_errors.js PACKAGE SCENARIOS.json
"use strict";

const fs = require("node:fs");
const path = require("node:path");

const [pkg, file] = process.argv.slice(2);
if (!pkg || !file) throw new Error("usage: node parity_errors.js PACKAGE SCENARIOS.json");
const engine = require(path.resolve(pkg));
const { scenarios } = JSON.parse(fs.readFileSync(file, "utf8"));

const match = (s) => new engine.Match({ seed: s.seed });
const operations = {
  position: (s) => new engine.Position(s.position).notation,
  play: (s) => new engine.Position(s.position).play(s.move).position.notation,
  scoring: (s) => new engine.Position(s.position).scoring().points,
  bestmove: (s) => engine.bestMove(new engine.Position(s.position), { level: 5 }),
  choose: (s) => new engine.Bot({ level: 5, seed: 0 }).choose(new engine.Position(s.position)),
  record: (s) => engine.Match.fromRecord(s.record).target,
  choose_starter: (s) => match(s).chooseStarter(s.starter) ?? null,
  undo: (s) => match(s).undo(),
  match_play: (s) => match(s).play(s.move).position.notation,
  deal: (s) => new engine.Match({ deals: s.deals }).position.notation,
  seats: (s) => {
    // A page's match (the core's Seats), as tests/doors/test_parity_errors.py's seats_call.
    const game = match(s);
    const seats = new engine.Seats(s.human, s.players);
    if (s.ai_first) while (game.toMove === seats.ai) game.play(game.legalMoves()[0]);
    if (s.action === "play") return seats.play(game, game.legalMoves()[0]).position.notation;
    if (s.action === "ai") return seats.aiTurn(game);
    return seats.undo(game);
  },
};

const lines = [];
for (const scenario of scenarios) {
  const operation = operations[scenario.op];
  if (!operation) throw new Error(`no operation '${scenario.op}' in the wasm driver`);
  try {
    lines.push({ id: scenario.id, ok: operation(scenario) });
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    lines.push({ id: scenario.id, name: error.name, message: error.message });
  }
}
process.stdout.write(JSON.stringify(lines) + "\n");
