// Caller objects that throw while the engine reads them: a getter, a Proxy
// trap (get, ownKeys, getPrototypeOf), a revoked Proxy, an options object whose one
// field throws. The entry points that read a caller's object (arrays, options, tags)
// are called 100,000 times in all, one of these each time; each call must throw the caller's
// own error or the engine's TypeError, and the module must then answer normally (the
// throws used to unwind through the WebAssembly frames, leaking its shadow stack until
// every call trapped, and to leave a Match borrowed for good).
// BUTTONUP_WASM_PKG: the package folder; tests/doors/test_wasm_throwing.py runs this file.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");

const e = require(path.resolve(process.env.BUTTONUP_WASM_PKG));
const START = "W/R/B/W/B/R/R/W/B r";
const CALLS = 100_000;

class Boom extends Error {}
const boom = () => { throw new Boom("the caller's own error"); };
const revoked = () => { const { proxy, revoke } = Proxy.revocable([], {}); revoke(); return proxy; };
// Hostile values, each of a kind that throws at another step of a read.
const hostile = [
  () => new Proxy([0, 3], { get: boom }),
  () => new Proxy([0, 3], { getPrototypeOf: boom, get: boom }),
  () => new Proxy({}, { ownKeys: boom, get: boom, getOwnPropertyDescriptor: boom }),
  () => Object.defineProperty([0], "0", { get: boom }),
  () => Object.defineProperty({}, "deals", { get: boom, enumerable: true }),
  () => Object.defineProperty({}, "Event", { get: boom, enumerable: true }),
  // Options objects whose one field throws.
  ...["level", "seed", "timeLimitMs", "budgetMs", "depth", "nodes", "ttMb", "slots", "labels"].map(
    (key) => () => Object.defineProperty({}, key, { get: boom, enumerable: true }),
  ),
  () => ({ slots: new Proxy([0], { get: boom }) }),
  revoked,
];

function expectThrow(call) {
  try {
    call();
  } catch (error) {
    if (error instanceof WebAssembly.RuntimeError) throw error; // a trap: the bug
    return;
  }
}

test("100,000 throwing caller objects leave the module usable", () => {
  const start = new e.Position(START);
  const game = new e.Match({ seed: 1 });
  const searcher = new e.Searcher({ ttMb: 1 });
  const entries = [
    (value) => e.walk(start, value),
    (value) => new e.Match(value),
    (value) => new e.Match({ deals: value }),
    (value) => game.record(value),
    // Every other entry point that reads a caller's options or array.
    (value) => e.drawPosition(start, value),
    (value) => e.analyze(start, value),
    (value) => e.search(start, value),
    (value) => e.bestMove(start, value),
    (value) => e.review(start, value),
    (value) => e.review(start, [3], value),
    (value) => e.winProbability(value),
    // What is made is freed at once: WebAssembly memory is not the garbage collector's.
    (value) => new e.Bot(value).free(),
    (value) => new e.Searcher(value).free(),
    (value) => searcher.search(start, value),
  ];
  for (let i = 0; i < CALLS; i++) {
    const entry = entries[i % entries.length];
    const value = hostile[Math.floor(i / entries.length) % hostile.length]();
    expectThrow(() => entry(value));
  }
  // The module answers as before, and the match was never left borrowed.
  assert.equal(new e.Position(START).toString(), START);
  assert.equal(e.walk(start, [3]).position.toString(), "W/R/B/BW/R/R/W/B b");
  const first = game.legalMoves()[0];
  game.play(first);
  assert.match(game.record({ Event: "after" }), /\[Event "after"\]/);
});

test("a tag getter that plays on the match leaves it usable", () => {
  const game = new e.Match({ seed: 2 });
  const tags = Object.defineProperty({}, "Event", {
    enumerable: true,
    get() { game.play(game.legalMoves()[0]); return "x"; },
  });
  expectThrow(() => game.record(tags));
  game.play(game.legalMoves()[0]); // not "recursive use of an object detected"
  assert.ok(game.record().length > 0);
});
