// The WebAssembly door of the AI parity suite (tests/doors/test_parity.py): for each level and
// seed, one Bot chooses on every position in turn, exactly, then another within
// `timeLimitMs`; prints one JSON object, "LEVEL:SEED" -> {exact: [...], timed: [...]}.
// Usage: node parity_ai.js PACKAGE POSITIONS.txt LEVELS SEEDS TIME_LIMIT_MS
// (LEVELS and SEEDS comma-separated; a seed is read as a BigInt, all 64 bits of it).
"use strict";

const fs = require("node:fs");
const path = require("node:path");

const [pkg, file, levels, seeds, ms] = process.argv.slice(2);
if (!ms) throw new Error("usage: node parity_ai.js PACKAGE POSITIONS LEVELS SEEDS MS");
const engine = require(path.resolve(pkg));
const positions = fs
  .readFileSync(file, "utf8")
  .split("\n")
  .filter((line) => line && !line.startsWith("#"));

const out = {};
for (const level of levels.split(",").map(Number)) {
  for (const seed of seeds.split(",")) {
    const moves = (options) => {
      const bot = new engine.Bot({ level, seed: BigInt(seed), ...options });
      return positions.map((text) => bot.choose(new engine.Position(text)));
    };
    out[`${level}:${seed}`] = { exact: moves({}), timed: moves({ timeLimitMs: Number(ms) }) };
  }
}
process.stdout.write(JSON.stringify(out) + "\n");
