// The WebAssembly engine against the Python engines' answers (node --test).
// BUTTONUP_WASM_PKG: the package folder (scripts/build-wasm.sh writes target/wasm-pkg);
// BUTTONUP_WASM_CASES: the answers, written by tests/wasm_cases.py at test time.
// tests/doors/test_wasm.py runs this file with both set.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");

const pkg = process.env.BUTTONUP_WASM_PKG;
const casesFile = process.env.BUTTONUP_WASM_CASES;
if (!pkg || !casesFile) {
  throw new Error("set BUTTONUP_WASM_PKG and BUTTONUP_WASM_CASES (tests/doors/test_wasm.py does)");
}
const engine = require(path.resolve(pkg));
const cases = JSON.parse(fs.readFileSync(casesFile, "utf8"));

/** The error `call` throws, as the Python side names it. */
function thrown(call) {
  try {
    call();
  } catch (error) {
    assert.ok(error instanceof Error, `not an Error: ${error}`);
    return { name: error.name, message: error.message };
  }
  return null;
}

/** The JavaScript error a Python class becomes. */
function jsName(pythonName) {
  return { ValueError: "RangeError", TypeError: "TypeError" }[pythonName] || pythonName;
}

function expectError(actual, expected, what) {
  if (expected === null) {
    assert.equal(actual, null, `${what}: no error expected`);
    return;
  }
  assert.notEqual(actual, null, `${what}: expected ${expected.name}: ${expected.message}`);
  assert.deepEqual(actual, { name: jsName(expected.name), message: expected.message }, what);
}

test(`enough positions (${cases.positions.length}), of several sizes`, () => {
  assert.ok(cases.positions.length >= 2000);
  const buttons = new Set(cases.positions.map((c) => c.piles.join("").length));
  assert.ok(buttons.size >= 6, `buttons: ${[...buttons]}`);
  const piles = new Set(cases.positions.map((c) => c.piles.length));
  assert.ok(piles.size >= 20, `piles: ${[...piles]}`);
});

test("positions: notation, piles, side, legal moves, outcomes, illegal moves", () => {
  for (const c of cases.positions) {
    const p = new engine.Position(c.notation);
    assert.equal(p.toString(), c.notation);
    assert.deepEqual(p.piles, c.piles, c.notation);
    assert.equal(p.toMove, c.toMove, c.notation);
    assert.equal(p.isOver, c.isOver, c.notation);
    assert.deepEqual(p.legalMoves(), c.legalMoves, c.notation);
    for (const [move, expected] of Object.entries(c.outcomes)) {
      const outcome = p.play(Number(move));
      assert.equal(outcome.position.toString(), expected.position, `${c.notation} ${move}`);
      assert.equal(outcome.extraMove, expected.extraMove, `${c.notation} ${move}`);
      assert.deepEqual(outcome.drops, expected.drops, `${c.notation} ${move}`);
      assert.ok(p.isLegal(Number(move)));
    }
    for (const [move, expected] of Object.entries(c.illegal)) {
      expectError(thrown(() => p.play(Number(move))), expected, `${c.notation} play ${move}`);
      assert.equal(p.isLegal(Number(move)), false);
    }
  }
});

test("scoring of final piles, and before the end", () => {
  let scored = 0;
  for (const c of cases.positions) {
    const p = new engine.Position(c.notation);
    if (c.scoring) {
      assert.deepEqual({ ...p.scoring() }, c.scoring, c.notation);
      assert.deepEqual(p.sums(), [c.scoring.red, c.scoring.black]);
      scored += 1;
    } else {
      expectError(thrown(() => p.scoring()), c.scoringError, `${c.notation} scoring`);
    }
  }
  assert.ok(scored >= 100, `${scored} final piles`);
});

test("solved values and each move's value", () => {
  let solved = 0;
  let analyzed = 0;
  for (const c of cases.positions) {
    if (c.solve === undefined) continue;
    const p = new engine.Position(c.notation);
    assert.equal(engine.solve(p), c.solve, `solve ${c.notation}`);
    solved += 1;
    if (c.analyze) {
      const values = engine.analyze(p);
      assert.deepEqual(Object.fromEntries([...values].map(([m, v]) => [String(m), v])), c.analyze);
      analyzed += 1;
    }
  }
  assert.ok(solved >= 1500, `${solved} solved`);
  assert.ok(analyzed >= 300, `${analyzed} analysed`);
});

test("a search without limits is exact: the solved value and a best move", () => {
  const searcher = new engine.Searcher({ ttMb: 1 });
  for (const c of cases.positions.filter((c) => c.analyze && !c.isOver).slice(0, 200)) {
    const result = searcher.search(new engine.Position(c.notation));
    assert.equal(result.exact, true);
    assert.equal(result.value, c.solve, c.notation);
    assert.equal(c.analyze[String(result.bestMove)], c.solve, c.notation);
  }
});

test("a review judges each move by the Python engine's values, within its budget", () => {
  const judgedCases = cases.positions.filter((c) => c.analyze && !c.isOver).slice(0, 100);
  for (const c of judgedCases) {
    const move = c.legalMoves[c.legalMoves.length - 1];
    const [judged] = engine.review(new engine.Position(c.notation), [move], { timeLimitMs: 1000 });
    assert.equal(judged.best, c.solve, c.notation);
    assert.equal(judged.played, c.analyze[String(move)], c.notation);
    const best = Object.keys(c.analyze).filter((m) => c.analyze[m] === c.solve).map(Number);
    assert.deepEqual(judged.bestMoves, best.sort((a, b) => a - b), c.notation);
    assert.ok(best.includes(judged.bestLine[0]), c.notation);
  }
  // A whole battle: one answer a move, each the values of the position before it.
  let position = new engine.Position(judgedCases[0].notation);
  const start = position;
  const moves = [];
  while (!position.isOver) {
    const move = position.legalMoves()[0];
    moves.push(move);
    position = position.play(move).position;
  }
  const judged = engine.review(start, moves);
  assert.equal(judged.length, moves.length);
  position = start;
  moves.forEach((move, i) => {
    const values = engine.analyze(position);
    assert.equal(judged[i].best, Math.max(...values.values()));
    assert.equal(judged[i].played, values.get(move));
    position = position.play(move).position;
  });
  // No budget: nothing judged; an illegal move and bad options are refused.
  assert.deepEqual(engine.review(start, moves.slice(0, 1), { budgetMs: 0 }), [
    { best: null, played: null, bestMoves: [], bestLine: [] },
  ]);
  assert.equal(thrown(() => engine.review(start, [99])).name, "IllegalMoveError");
  assert.equal(thrown(() => engine.review(start, [0], { budgetMs: -1 })).name, "RangeError");
  assert.equal(thrown(() => engine.review(start, "0")).name, "TypeError");
});

test("the AI: level 9 plays a best move, level 1 a legal one", () => {
  for (const c of cases.positions.filter((c) => c.analyze && !c.isOver).slice(0, 200)) {
    const p = new engine.Position(c.notation);
    const best = engine.bestMove(p, { level: 9, seed: 7 });
    assert.equal(c.analyze[String(best)], c.solve, `${c.notation}: ${best}`);
    assert.ok(c.legalMoves.includes(engine.bestMove(p, { level: 1, seed: 7 })));
    const timed = engine.bestMove(p, { level: 9, timeLimitMs: 50 });
    assert.ok(c.legalMoves.includes(timed));
  }
  assert.equal(engine.bestMove(new engine.Position("BWR r")), null);
  expectError(
    thrown(() => engine.bestMove(new engine.Position("W/R r"), { level: 11 })),
    { name: "ValueError", message: "level must be an int from 1 to 10, not 11" },
    "level 11",
  );
});

test("shuffled starts: the same seed gives the Python engine's start", () => {
  for (const s of cases.starts) {
    const start = engine.Position.random(BigInt(s.seed), s.perColour, s.toMove);
    assert.equal(start.toString(), s.notation, `seed ${s.seed}`);
  }
});

test("notation errors: the same class and message as Python's", () => {
  for (const c of cases.notationErrors) {
    expectError(thrown(() => new engine.Position(c.notation)), c.error, JSON.stringify(c.notation));
  }
  for (const c of cases.orderErrors) {
    expectError(thrown(() => engine.Position.start(c.order)), c.error, JSON.stringify(c.order));
  }
});

test("wrong types are TypeErrors, not crashes", () => {
  const p = new engine.Position("W/R/B r");
  for (const call of [
    () => new engine.Position(3),
    () => new engine.Position(undefined),
    () => p.play("0"),
    () => p.play(0.5),
    () => p.play(null),
    () => engine.Position.start("WRB", "x"),
    () => engine.analyze(p, 5),
    () => engine.search(p, { depth: "deep" }),
    () => new engine.Match({ deals: "WRB" }),
    () => engine.winProbability(7),
    // Texts read by the glue unchecked once read memory out of bounds.
    () => new engine.Seats("r").names(5),
    () => new engine.Session(new engine.Match(), "r", 1, 5).record({}, "event", "date"),
    // Numbers once taken as JavaScript coerces them: a date is 1.7e12 battles.
    () => engine.randomPlayouts(new Date()),
    () => engine.randomPlayouts("3"),
    () => engine.analysisView(p, new Date()),
    () => engine.reviewView(p, [0], "5", 10),
    () => new engine.Session(new engine.Match(), "r", 1, [5]),
  ]) {
    const error = thrown(call);
    assert.notEqual(error, null, String(call));
    assert.ok(["TypeError", "RangeError"].includes(error.name), `${call}: ${error.name}`);
  }
  // The module still answers after every refusal.
  assert.deepEqual(p.legalMoves(), [0]);
  assert.equal(p.play(0).position.toString(), "RW/B b"); // as the reference plays it
});

test("matches: the same shuffles, scores, choices and winners as the reference", () => {
  for (const c of cases.matches) {
    const game = new engine.Match({ ...c.options, seed: c.seed });
    for (const step of c.steps) {
      if (step.choose !== undefined) {
        game.chooseStarter(step.choose);
      } else {
        const outcome = game.play(step.play);
        assert.equal(outcome.extraMove, step.extraMove);
        assert.equal(outcome.position.toString(), step.after);
      }
      assert.equal(game.position.toString(), step.position, `match ${c.seed}`);
      assert.equal(game.battleStart.toString(), step.battleStart, `match ${c.seed}`);
      assert.deepEqual(game.scores, step.scores);
      assert.equal(game.chooser, step.chooser);
      assert.equal(game.winner, step.winner);
      assert.equal(game.battles.length, step.battles);
    }
    assert.equal(game.isOver, true);
    expectError(
      thrown(() => game.play(0)),
      { name: "IllegalMoveError", message: `the match is over: ${game.winner === "r" ? "Red" : "Black"} won` },
      "a move after the match",
    );
  }
});

test("match errors", () => {
  for (const c of cases.matchErrors) {
    const made = () => new engine.Match(c.options);
    if (c.undo) {
      expectError(thrown(() => made().undo()), c.error, "undo");
    } else if (c.choose) {
      expectError(thrown(() => made().chooseStarter(c.choose)), c.error, "choose");
    } else {
      expectError(thrown(made), c.error, JSON.stringify(c.options));
    }
  }
});

test("undo takes a move back", () => {
  const game = new engine.Match({ seed: 3 });
  const before = game.position.toString();
  const move = game.legalMoves()[0];
  game.play(move);
  assert.equal(game.undo(), move);
  assert.equal(game.position.toString(), before);
});

test("match odds of standings, and of a match as it stands", () => {
  for (const c of cases.odds) {
    const chances = engine.winProbability(c.standing);
    assert.ok(Math.abs(chances.red - c.red) < 1e-12, JSON.stringify(c));
    assert.ok(Math.abs(chances.red + chances.black - 1) < 1e-12);
  }
  const game = new engine.Match({ seed: 11 });
  const chances = engine.winProbability(game);
  const moves = engine.matchAnalyze(game);
  assert.deepEqual([...moves.keys()], game.legalMoves());
  const best = Math.max(...moves.values());
  assert.ok(Math.abs(best - (game.toMove === "r" ? chances.red : chances.black)) < 1e-12);
});

test("the variants' limits are the Python engine's", () => {
  assert.deepEqual({ ...engine.variantLimits() }, cases.variantLimits);
});

test("the levels' ratings are the Python engine's", () => {
  assert.deepEqual({ ...engine.ratings() }, cases.ratings);
});

test("random playouts: the reference's games from the same seed", () => {
  for (const c of cases.playouts) {
    const summary = engine.randomPlayouts(c.summary.battles, c.seed, c.perColour);
    assert.deepEqual({ ...summary }, c.summary, `seed ${c.seed}, ${c.perColour} of each colour`);
  }
});

test("no argument makes it trap: every refusal is a thrown Error, and it goes on", () => {
  const odd = [undefined, null, true, -1, 0.5, 2 ** 53, 1e300, NaN, -0, "", "x", "W/R/B r", 3n,
    -3n, 2n ** 70n, [], [1, "a"], [0, 0, 0], {}, { level: 99 }, { ttMb: 1e9 }, { seed: -1 },
    { timeLimitMs: -5 }, { perColour: 40 }, { target: "15" }, { deals: ["WRB"] }, () => 1];
  const p = new engine.Position("W/R/B/W/B/R/R/W/B r");
  const m = new engine.Match({ seed: 2 });
  const calls = [
    (a) => new engine.Position(a), (a) => engine.Position.start(a), (a) => engine.Position.random(a),
    (a) => engine.Position.random(1, a), (a) => engine.Position.random(1, 3, a), (a) => p.play(a),
    (a) => p.isLegal(a), (a) => engine.analyze(p, a), (a) => engine.search(p, a),
    (a) => engine.bestMove(p, a), (a) => new engine.Bot(a), (a) => new engine.Searcher(a),
    (a) => new engine.Match(a), (a) => m.play(a), (a) => m.chooseStarter(a), (a) => m.record(a),
    (a) => engine.Match.fromRecord(a), (a) => engine.winProbability(a), (a) => engine.walk(p, a),
    (a) => engine.drawPosition(p, a), (a) => engine.drawPosition(p, { size: a }),
    (a) => engine.drawPosition(p, { slots: a }), (a) => engine.drawPosition(p, { highlight: a }),
    (a) => engine.randomPlayouts(3, a), (a) => engine.randomPlayouts(3, 1, a),
  ];
  for (const call of calls) {
    for (const a of odd) {
      try {
        call(a);
      } catch (error) {
        assert.ok(error instanceof Error, `${call} ${String(a)}: ${error}`);
        assert.notEqual(error.constructor.name, "RuntimeError", `${call} ${String(a)}: ${error.message}`);
      }
    }
  }
  assert.deepEqual(p.legalMoves(), [0, 3, 7]); // the module still answers
});
