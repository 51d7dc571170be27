// Type-checked against the package's declarations by tests/doors/test_wasm.py (`tsc --noEmit
// --strict`): the API as a TypeScript program uses it, and a misuse that must not pass.
import * as bu from "./buttonup_wasm";

const start: bu.Position = new bu.Position("W/R/B/W/B/R/R/W/B r");
const moves: number[] = start.legalMoves();
const outcome: bu.MoveOutcome = start.play(moves[0]);
const extra: boolean = outcome.extraMove;
const shuffled: bu.Position = bu.Position.random(1n, 4, "b");
const value: number = bu.solve(start);
const values: Map<number, number> = bu.analyze(start, { timeLimitMs: 10 });
const best: number | null = bu.bestMove(start, { level: 5 });
const result: bu.SearchResult = bu.search(start, { depth: 3 });
const judged: bu.MoveReview[] = bu.review(start, [moves[0]], { timeLimitMs: 10, budgetMs: 40 });
const lost: number | null = judged[0].best === null || judged[0].played === null ? null : judged[0].best - judged[0].played;
const searcher = new bu.Searcher({ ttMb: 1 });
const game = new bu.Match({ seed: 1, target: 5 });
const bot = new bu.Bot({ level: 10 });
const reply: number | null = bot.chooseInMatch(game);
const chances: bu.Chances = bu.winProbability(game);
const board: bu.Board = bu.walk(start, [3]);
const scores: [number, number] = game.scores;
const side: "r" | "b" = game.toMove;
const record: string = game.record({ Event: "a test" });
const again: bu.Match = bu.Match.fromRecord(record);
const summary: bu.PlayoutSummary = bu.randomPlayouts(10, 1);
const scoring: bu.Scoring = bu.walk(start, [3, 0, 0, 1, 3, 3, 2, 0]).position.scoring();
// @ts-expect-error: a move is a number
start.play("3");
console.log(extra, shuffled, value, values, best, result, searcher, reply, chances, board);
console.log(scores, side, again, summary, scoring, lost);
