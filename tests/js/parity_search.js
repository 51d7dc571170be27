// The WebAssembly door of the search parity suite (tests/doors/test_parity.py): one search of
// each position within the limits, through the module's `search`; prints a JSON list of
// [bestMove, value, exact, depth, nodes, threads], one a position.
// Usage: node parity_search.js PACKAGE POSITIONS.txt DEPTH NODES TIME_LIMIT_MS (0: none)
"use strict";

const fs = require("node:fs");
const path = require("node:path");

const [pkg, file, depth, nodes, ms] = process.argv.slice(2);
if (!ms) throw new Error("usage: node parity_search.js PACKAGE POSITIONS DEPTH NODES MS");
const engine = require(path.resolve(pkg));
const limits = {};
if (Number(depth)) limits.depth = Number(depth);
if (Number(nodes)) limits.nodes = Number(nodes);
if (Number(ms)) limits.timeLimitMs = Number(ms);
const found = fs
  .readFileSync(file, "utf8")
  .split("\n")
  .filter((line) => line && !line.startsWith("#"))
  .map((text) => {
    const r = engine.search(new engine.Position(text), limits);
    return [r.bestMove, r.value, r.exact, r.depth, r.nodes, r.threads];
  });
process.stdout.write(JSON.stringify(found) + "\n");
