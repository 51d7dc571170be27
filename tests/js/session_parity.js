// The WebAssembly door of the session parity test (tests/doors/test_view_parity.py): plays
// each match of a file as the offline page does, through the core's Session (the person
// Red against the AI at level 9, seed 1, or two people), the person's move the first
// legal one and the tie rule's choice Red, and prints the session's answers after every
// change: its view, the battle shown and its first ply, and at the end the hint, the
// review of the first battle and the record.
// Usage: node session_parity.js PACKAGE MATCHES.json
"use strict";

const fs = require("node:fs");
const path = require("node:path");

const [pkg, file] = process.argv.slice(2);
if (!pkg || !file) throw new Error("usage: node session_parity.js PACKAGE MATCHES.json");
const engine = require(path.resolve(pkg));
const out = [];
for (const { seed, plies, perColour, players } of JSON.parse(fs.readFileSync(file, "utf8"))) {
  const session = new engine.Session(new engine.Match({ seed, target: 5, perColour }), "r", players, 30000);
  const ai = new engine.Bot({ level: 9, seed: 1n });
  session.note();
  out.push(session.view(true, false));
  for (let ply = 0; ply < plies && !session.match.isOver; ply += 1) {
    let played = true;
    let aiTurn = null;
    try {
      aiTurn = session.aiTurn();
    } catch (error) {
      aiTurn = null; // two people, or the person's turn
    }
    if (aiTurn !== null) {
      played = session.aiMove(ai);
    } else if (session.match.chooser !== null) {
      session.choose("r");
      played = false;
    } else {
      session.play(session.match.legalMoves()[0]);
    }
    session.note();
    out.push(session.view(true, played));
    const shown = session.view(false, false).battle.number;
    out.push(session.battleView(shown));
    if (session.battle(shown)[1].length > 0) out.push(session.plyView(shown, 1));
  }
  out.push(session.hint());
  out.push(session.review(1));
  out.push(session.record("buttonup level 9", "parity", "2026.12.06"));
}
process.stdout.write(JSON.stringify(out, (_, v) => (typeof v === "bigint" ? Number(v) : v)) + "\n");
