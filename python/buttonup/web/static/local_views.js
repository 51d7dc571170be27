// The JSON of engine.js's interface made in the browser from the WebAssembly engine, the
// same data that `buttonup serve` answers (python/buttonup/web/views.py, history.py):
// every rule, value and drawing is the engine's (`wasm`, the package of
// scripts/build-wasm.sh); this file only shapes it. Used by local_engine.js.

const OTHER = { r: "b", b: "r" };

// Positions of at most this many buttons get a value on the chart (as the server).
export const CHARTED_BUTTONS = 15;

// `analyze` within `ms`, or an empty Map when it is not done in time.
function valuesWithin(wasm, position, ms) {
  try {
    return wasm.analyze(position, { timeLimitMs: ms });
  } catch (error) {
    if (error.name === "SearchStoppedError") return new Map();
    throw error;
  }
}

const byMove = (map) => Object.fromEntries([...map].map(([move, value]) => [String(move), value]));

// Every move's exact value for the side to move and the best line, when solved within
// the time cap; else the capped search's line and value only (`exact` false).
export function analysis(wasm, position, seconds) {
  if (position.isOver) return { value: null, moves: {}, pv: [], exact: true, extra_moves: {} };
  const values = valuesWithin(wasm, position, (seconds / 2) * 1000);
  const best = wasm.search(position, { timeLimitMs: (seconds / 2) * 1000 });
  const extra = {};
  for (const move of position.legalMoves()) extra[String(move)] = position.play(move).extraMove;
  return {
    value: values.size ? Math.max(...values.values()) : best.value,
    moves: byMove(values),
    pv: best.pv,
    exact: values.size > 0 && best.exact,
    extra_moves: extra,
  };
}

// Each move's loss against perfect play and the best line before it: the core's
// review, a quarter of the cap a position and the cap in all, as the server does.
// `plies`: the battle's, as the core's line view gives them (`lineView`).
export function review(wasm, start, plies, seconds) {
  const moves = plies.map((ply) => ply.move);
  const judged = wasm.review(start, moves, { timeLimitMs: seconds * 250, budgetMs: seconds * 1000 });
  return plies.map((ply, i) => {
    const { best, played, bestMoves, bestLine } = judged[i];
    const loss = best === null || played === null ? null : best - played;
    return {
      ...ply,
      best_value: best,
      played_value: played,
      loss,
      mistake: Boolean(loss),
      best_moves: bestMoves,
      best_line: bestLine,
    };
  });
}

export const byColour = (red = null, black = null) => ({ r: red, b: black });

// Each colour's margin under perfect play (null beyond the charted size or the time).
export function margins(wasm, position, seconds) {
  if (position.isOver) {
    const s = position.scoring();
    return byColour(s.red - s.black, s.black - s.red);
  }
  if (position.piles.join("").length > CHARTED_BUTTONS) return byColour();
  const values = valuesWithin(wasm, position, seconds * 1000);
  if (!values.size) return byColour();
  const best = Math.max(...values.values());
  return { [position.toMove]: best, [OTHER[position.toMove]]: best === 0 ? 0 : -best };
}

// Each colour's chance of winning the match from here under perfect match play.
export function chances(wasm, match) {
  if (match.perColour > wasm.variantLimits().match_odds && match.winner === null) {
    return byColour();
  }
  if (match.winner !== null) return byColour(Number(match.winner === "r"), Number(match.winner === "b"));
  const odds = wasm.winProbability(match);
  return byColour(odds.red, odds.black);
}
