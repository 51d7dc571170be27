// The WebAssembly door of tests/doors/test_view_parity.py's analysis test: plays each match of
// a file (the first legal move each time, the tie rule's choice Red), notes the chart
// after every change, and prints what the offline page would show: the hint and the
// analysis every few plies, each battle's chart and review at the end.
// Usage: node analysis_parity.js PACKAGE MATCHES.json
"use strict";

const fs = require("node:fs");
const path = require("node:path");

const [pkg, file] = process.argv.slice(2);
if (!pkg || !file) throw new Error("usage: node analysis_parity.js PACKAGE MATCHES.json");
const engine = require(path.resolve(pkg));
const LIMIT_MS = 30000; // never reached: every position here is solved at once
const out = [];
for (const { seed, plies, perColour, every } of JSON.parse(fs.readFileSync(file, "utf8"))) {
  const game = new engine.Match({ seed, target: 5, perColour });
  const chart = new engine.Chart();
  chart.note(game, LIMIT_MS);
  for (let ply = 0; ply < plies && !game.isOver; ply += 1) {
    if (game.chooser !== null) game.chooseStarter("r");
    else game.play(game.legalMoves()[0]);
    chart.note(game, LIMIT_MS);
    if (ply % every === 0) {
      out.push(engine.hintView(game, game.toMove, LIMIT_MS));
      out.push(engine.analysisView(game.position, LIMIT_MS));
    }
  }
  const shown = engine.shownBattle(game);
  for (let number = 1; number <= shown; number += 1) {
    out.push(chart.points(game, number));
    const [start, moves] = engine.battleOf(game, number);
    out.push(engine.reviewView(start, moves, LIMIT_MS, LIMIT_MS));
  }
  out.push(chart.points(game, shown + 1));
  const imported = new engine.Chart();
  imported.backfill(game, LIMIT_MS);
  for (let number = 1; number <= shown; number += 1) out.push(imported.points(game, number));
}
process.stdout.write(JSON.stringify(out) + "\n");
