// The WebAssembly door of tests/doors/test_view_parity.py: plays each match of a file (a seed
// and a count of plies, each the first legal move, the tie rule's choice Red) and prints
// the core's view of it after every change, as the offline page gets it (`matchView`).
// Usage: node view_parity.js PACKAGE MATCHES.json
"use strict";

const fs = require("node:fs");
const path = require("node:path");

const [pkg, file] = process.argv.slice(2);
if (!pkg || !file) throw new Error("usage: node view_parity.js PACKAGE MATCHES.json");
const engine = require(path.resolve(pkg));
const views = [];
for (const { seed, plies, perColour } of JSON.parse(fs.readFileSync(file, "utf8"))) {
  const game = new engine.Match({ seed, target: 5, perColour });
  views.push(engine.matchView(game, true, false));
  for (let ply = 0; ply < plies && !game.isOver; ply += 1) {
    if (game.chooser !== null) {
      game.chooseStarter("r");
      views.push(engine.matchView(game, true, false));
    } else {
      game.play(game.legalMoves()[0]);
      views.push(engine.matchView(game, true, true));
    }
    const shown = engine.shownBattle(game);
    views.push(engine.battleView(game, shown));
  }
}
process.stdout.write(JSON.stringify(views) + "\n");
