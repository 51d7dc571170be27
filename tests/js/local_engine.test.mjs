// The page's LocalEngine (python/buttonup/web/static/local_engine.js) on the WebAssembly
// engine in Node: a whole match against every level, with hints, undo, the analysis
// board's calls, a review and a record taken back in. Each match's record is written to
// BUTTONUP_LOCAL_RECORDS for tests/doors/test_wasm.py to read with the Python library.
// BUTTONUP_WASM_PKG: the package (Node's build); BUTTONUP_LOCAL_ENGINE: a folder with
// the page's engine modules (copied there with a package.json making them modules).
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);
const wasm = require(path.resolve(process.env.BUTTONUP_WASM_PKG));
const folder = path.resolve(process.env.BUTTONUP_LOCAL_ENGINE);
const { LocalEngine } = await import(pathToFileURL(path.join(folder, "local_engine.js")).href);
const { EngineError } = await import(pathToFileURL(path.join(folder, "engine.js")).href);
const records = [];

// Plays the match `id` to its end: the human's moves are his first legal pile, the AI's
// the engine's; the tie rule's choice, when the human's, is to start himself.
async function playOut(engine, data) {
  let steps = 0;
  while (!data.winner) {
    assert.ok((steps += 1) < 2000, "the match never ends");
    if (data.chooser === data.human) data = await engine.choose(data.id, data.human);
    else if (data.chooser === null && data.to_move === data.human) {
      data = await engine.play(data.id, data.legal_moves[0]);
      assert.equal(data.played.mover, data.human);
    } else data = await engine.aiMove(data.id);
  }
  return data;
}

test("a whole match against every level, with hint, undo and review", async () => {
  const engine = new LocalEngine(wasm, { searchSeconds: 0.5 });
  assert.equal(Object.keys(await engine.levels()).length, 10);
  for (let level = 1; level <= 10; level += 1) {
    let data = await engine.newMatch({ human: level % 2 ? "r" : "b", level, target: 5, starter: "r", seed: level });
    assert.equal(data.level, level);
    assert.ok(data.svg.startsWith("<svg"));
    while (data.to_move !== data.human) data = await engine.aiMove(data.id);
    const before = data.position;
    const hint = await engine.hint(data.id);
    assert.equal(hint.position, before);
    assert.deepEqual(Object.keys(hint.moves).map(Number).sort((a, b) => a - b), data.legal_moves);
    assert.ok(hint.exact);
    assert.ok(hint.match_win_probability >= 0 && hint.match_win_probability <= 1);
    data = await engine.play(data.id, data.legal_moves[0]);
    data = await engine.undo(data.id);
    assert.equal(data.position, before);
    data = await playOut(engine, data);
    const done = data.battles[data.battles.length - 1];
    const review = await engine.review(data.id, done.number);
    assert.equal(review.moves.length, done.moves.length);
    for (const move of review.moves) assert.ok(move.loss === null || move.loss >= 0);
    const text = await engine.record(data.id);
    const [red, black] = level % 2 ? ["You", `buttonup level ${level}`] : [`buttonup level ${level}`, "You"];
    assert.ok(text.includes(`[Red "${red}"]`) && text.includes(`[Black "${black}"]`), text);
    const again = await engine.importRecord(text, { human: data.human, level });
    assert.deepEqual(again.scores, data.scores);
    assert.equal(again.winner, data.winner);
    records.push({ level, record: text, scores: data.scores, winner: data.winner, target: data.target });
  }
  fs.writeFileSync(process.env.BUTTONUP_LOCAL_RECORDS, JSON.stringify(records));
});

test("the analysis board's calls, and refusals as EngineErrors with the engine's words", async () => {
  const engine = new LocalEngine(wasm, { searchSeconds: 0.5 });
  const start = "W/R/B/W/B/R/R/W/B r";
  const board = await engine.board(start, [3]);
  assert.equal(board.root, start);
  assert.equal(board.line.length, 1);
  const analysis = await engine.analyze(start);
  assert.equal(analysis.value, wasm.solve(new wasm.Position(start)));
  assert.equal(analysis.exact, true);
  assert.equal(analysis.pv_line.length, analysis.pv.length);
  await assert.rejects(engine.analyze("W/R/X r"), (error) => error instanceof EngineError
    && error.message === "unknown button 'X' at index 4: expected 'R', 'B', 'W' or '/'");
  const data = await engine.newMatch({ seed: 3 });
  await assert.rejects(engine.play(data.id, 99), (error) => error instanceof EngineError
    && error.message === "there is no pile 99: the piles are numbered 0 to 8");
  await assert.rejects(engine.aiMove(data.id), (error) => error.message === "it is not the AI's turn");
  // Nothing played yet: the match's own words (the core's Seats, as the server's).
  await assert.rejects(engine.undo(data.id), (error) => error.message
    === "there is no move of the current battle to take back");
  await assert.rejects(engine.match("nope"), (error) => error.status === 404);
  // A battle or a ply the match does not have: the 404 in the core's words (the server's).
  await assert.rejects(engine.battle(data.id, 7), (error) => error.status === 404
    && error.message === "no battle 7 in this match (it has 1)");
  await assert.rejects(engine.ply(data.id, 1, 3), (error) => error.status === 404
    && error.message === "battle 1 has 0 moves, not 3");
  assert.equal((await engine.ply(data.id, 1, 0)).ply, 0);
});
