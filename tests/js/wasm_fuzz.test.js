// Random arguments at every function, class and method of the WebAssembly package:
// numbers at and past every limit, NaN, BigInt, symbols, bad notation,
// option objects with bad fields. Each call answers or throws an Error; none may be a
// Rust panic (a WebAssembly.RuntimeError, "unreachable"), and the module works after.
// BUTTONUP_WASM_PKG: the package folder; tests/doors/test_wasm_no_panics.py runs this file.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");

const pkg = process.env.BUTTONUP_WASM_PKG;
if (!pkg) {
  throw new Error("set BUTTONUP_WASM_PKG (tests/doors/test_wasm_no_panics.py does)");
}
const e = require(path.resolve(pkg));
let seed = 1;
function rnd(n) { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; }
const START = "W/R/B/W/B/R/R/W/B r";
const pool = () => [undefined, null, true, 0, -1, 1, 2, 3, 9, 10, 11, 33, 64, 2**31, 2**32, 2**53, -(2**53), 1e300, -1e300, NaN, Infinity, -Infinity, 0.5, -0.0,
  "", "r", "b", "x", START, "RWBBWW/BRR r", "W/R/X r", "\ud800", "W".repeat(40) + " r",
  [], [0], [99], [-1, 2**40], [NaN], ["a"], {}, { depth: 2**40 }, { nodes: -1 }, { timeLimitMs: -5 }, { timeLimitMs: NaN }, { timeLimitMs: 1e308 },
  { size: NaN }, { size: -1 }, { slots: [63, 64] }, { slotCount: 0 }, { slotCount: 2**40 }, { highlight: [1e10] }, { lastMove: { slot: 99, drops: [-1] } },
  { target: 0 }, { target: 2**40 }, { perColour: 11 }, { perColour: -1 }, { perColour: 2.5 }, { seed: -1 }, { seed: 2**64 }, { seed: NaN }, { level: 0 }, { level: 11 }, { level: NaN }, { starter: "q" }, { tags: { "bad tag": "x" } }, { threads: 0 },
  BigInt(2) ** BigInt(70), -BigInt(1), Symbol("s"), () => 1,
  new e.Position(START), "[Target \"99999999999999999999\"]\n\n*\n"];
let P = pool();
function arg() { return P[rnd(P.length)]; }
function args() { const n = rnd(4); const a = []; for (let i = 0; i < n; i++) a.push(arg()); return a; }
const bad = [];
function tryCall(name, f) {
  try { f(); } catch (err) {
    if (err instanceof WebAssembly.RuntimeError || !(err instanceof Error) || /unreachable|panicked|recursive use/i.test(String(err.message))) {
      bad.push(`${name}: ${err && err.constructor && err.constructor.name}: ${err && err.message}`);
      return true;
    }
  }
  return false;
}
const fns = Object.keys(e).filter(k => typeof e[k] === "function" && !/^[A-Z]/.test(k));
const classes = ["Position", "Match", "Bot", "Searcher", "Seats", "Session"];
function fuzz(rounds) {
for (let round = 0; round < rounds; round++) {
  for (const name of fns) {
    const a = args();
    if (tryCall(`${name}(${a.map(String).join(", ").slice(0, 200)})`, () => e[name](...a))) { }
  }
  for (const c of classes) {
    const a = args();
    tryCall(`new ${c}(${a.map(String).join(", ").slice(0, 200)})`, () => new e[c](...a));
    for (const s of Object.getOwnPropertyNames(e[c]).filter(k => typeof e[c][k] === "function" && !k.startsWith("__"))) {
      const b = args(); tryCall(`${c}.${s}(${b.map(String).join(", ").slice(0,200)})`, () => e[c][s](...b));
    }
    let obj;
    const made = {
      Position: () => new e.Position(START),
      Seats: () => new e.Seats("r"),
      // A short cap: its searches (the chart, a hint, a review) end at once.
      Session: () => new e.Session(new e.Match(), "r", 2, 5),
    };
    try { obj = made[c] ? made[c]() : new e[c](); } catch (err) { continue; }
    for (const m of Object.getOwnPropertyNames(e[c].prototype).filter(k => k !== "constructor" && k !== "free" && !k.startsWith("__"))) {
      const desc = Object.getOwnPropertyDescriptor(e[c].prototype, m);
      if (typeof desc.value !== "function") { tryCall(`${c}#${m}`, () => obj[m]); continue; }
      const b = args(); tryCall(`${c}#${m}(${b.map(String).join(", ").slice(0,200)})`, () => obj[m](...b));
    }
  }
  if (bad.length > 20) break;
}
}

test("no argument makes the package panic, and it works after", () => {
  fuzz(150);
  assert.deepEqual(bad, []);
  assert.ok(fns.length >= 10, fns.join(" "));
  const start = new e.Position(START);
  // The piles holding a white button (rule 2).
  assert.deepEqual(start.legalMoves(), [0, 3, 7]);
  assert.equal(typeof e.solve(start), "number");
});
