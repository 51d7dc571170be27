// The page's one door to an engine. Everything the page knows about the game (legal
// moves, drops, extra moves, scoring, the AI, analyses, match odds, the record, the
// drawing of the board) comes through an object with the methods below, so that the
// same page runs on `ServerEngine` (the JSON API of `buttonup serve`, docs/http.md) or
// on an engine in the browser (a `LocalEngine` over WebAssembly with the same methods).
//
// Every method returns a Promise of a plain object (JSON data, no classes); a refusal
// (a bad position, an illegal move, a request the match refuses) rejects with an
// `EngineError` whose `message` is the engine's sentence. Players are "r" and "b";
// values are for the side to move unless named by colour ({r: ..., b: ...}).
//
//   levels()                      -> {"1": "random moves", ..., "10": "..."}
//   ratings()                     -> {"1": 1000, ..., "10": ...}: each level's rating
//   opponents()                   -> {NAME: "policy" | "bot"}: the players offered
//                                    besides the levels (none offline)
//   newMatch({human, level, target, starter, seed, players})   -> Match (players 2:
//                                    pass and play, both sides people at one screen)
//   match(id)                     -> Match
//   play(id, move)                -> Match with `played` (the human's move; with two
//                                    players, the move of the side to move)
//   aiMove(id)                    -> Match, with `played` unless the AI chose a starter
//   choose(id, starter)           -> Match (the tie rule's choice, the human's; with
//                                    two players, the chooser's)
//   undo(id)                      -> Match (the human's last move and the replies gone;
//                                    with two players, the battle's last move)
//   hint(id)                      -> Hint for the position on the board (for the
//                                    human, or with two players the side to move)
//   battle(id, number)            -> Battle
//   ply(id, number, ply)          -> Board after the first `ply` moves of the battle
//   review(id, number)            -> Review
//   board(position, moves = [])   -> Board & {root, line: [Ply]}: where `moves` from
//                                    `position` lead, drawn, without a search
//   analyze(position, moves = []) -> Analysis of where `moves` from `position` lead
//   record(id)                    -> the match record, a string (docs/notation.md)
//   importRecord(text, {human, level, players})                 -> Match
//
// Board:    {position, piles, to_move, is_over, legal_moves, svg, slots, scoring?}:
//           `svg` is the SVG text of the board (buttonup.svg), its piles
//           `<g class="pile" data-pile="index" data-slot="slot">`, each pile kept in its
//           slot for the whole battle, with `class="button"` elements bottom first.
// Ply:      {ply, mover, move, label ("3" or "3+" for an extra move), extra_move,
//           drops, lifted_slot, drop_slots, from, position}
// Battle:   {number, start, starter, plies: [Ply], over, scoring?, points: [Point|null]}
//           where a Point, one before the first move and one after each, is
//           {margin: {r, b}, chance: {r, b}}: each colour's margin under perfect play
//           and chance of winning the match under perfect match play.
// Match:    Board & {id, human, players (1 or 2), level, level_name, opponent (a
//           name, or null for the AI at its level), scores: {r, b},
//           target, per_colour,
//           starter, chooser, winner, moves, battle: Battle (the one being played, or
//           the last), battles: [{number, starter, start, moves, labels, position,
//           scoring, ...}], played?: Ply & {battle, ended_battle}}
// Hint:     {position, value, moves: {pile: margin}, extra_moves: {pile: bool}, pv,
//           exact, match_odds: {pile: chance}, match_win_probability}
// Review:   {number, start, moves: [Ply & {best_value, played_value, loss, mistake,
//           best_moves, best_line}]}
// Analysis: Board & {root, line: [Ply], value, moves, extra_moves, pv, pv_line: [Ply],
//           exact}

// The engine the page uses: `globalThis.buttonupEngine` when a page set one (an engine
// object, or a Promise of one, e.g. a LocalEngine still loading its WebAssembly) in a
// module script before app.js; else a ServerEngine over this origin's /api.
export async function chooseEngine() {
  const given = globalThis.buttonupEngine;
  return given ? await given : new ServerEngine();
}

export class EngineError extends Error {
  constructor(message, status = 0) {
    super(message);
    this.name = "EngineError";
    this.status = status;
  }
}

// One request to the server's JSON API (the pages' only way to it, here and in
// online_engine.js): a POST of `body` as JSON, or a GET without one; the response, or an
// EngineError when the server cannot be reached.
export async function send(url, body, headers = {}) {
  try {
    // `globalThis.fetch` looked up at each call (a test may wrap it).
    return await globalThis.fetch(url, {
      method: body === undefined ? "GET" : "POST",
      headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new EngineError("The server cannot be reached: is `buttonup serve` still running?");
  }
}

// What a response says: its JSON (its text if `text`), or an EngineError with the
// server's sentence and status when it refused.
export async function answer(response, text = false) {
  if (response.ok && text) return response.text();
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) throw new EngineError(data.error || `HTTP ${response.status}`, response.status);
  return data;
}

// The engine behind `buttonup serve`: every call is one request to its JSON API.
export class ServerEngine {
  constructor(base = "") {
    this.base = base;
    this.name = "server";
  }

  async request(path, body, { text = false } = {}) {
    return answer(await send(this.base + path, body), text);
  }

  levels() { return this.request("/api/levels"); }
  ratings() { return this.request("/api/ratings"); }
  opponents() { return this.request("/api/opponents"); }
  newMatch(settings) { return this.request("/api/matches", settings); }
  match(id) { return this.request(`/api/matches/${id}`); }
  play(id, move) { return this.request(`/api/matches/${id}/play`, { move }); }
  aiMove(id) { return this.request(`/api/matches/${id}/ai`, {}); }
  choose(id, starter) { return this.request(`/api/matches/${id}/choose`, { starter }); }
  undo(id) { return this.request(`/api/matches/${id}/undo`, {}); }
  hint(id) { return this.request(`/api/matches/${id}/hint`, {}); }
  battle(id, number) { return this.request(`/api/matches/${id}/battles/${number}`); }
  ply(id, number, ply) { return this.request(`/api/matches/${id}/battles/${number}/plies/${ply}`); }
  review(id, number) { return this.request(`/api/matches/${id}/battles/${number}/review`); }
  board(position, moves = []) { return this.request("/api/board", { position, moves }); }
  analyze(position, moves = []) { return this.request("/api/analyze", { position, moves }); }
  record(id) { return this.request(`/api/matches/${id}/record`, undefined, { text: true }); }
  importRecord(record, settings = {}) {
    return this.request("/api/matches/import", { record, ...settings });
  }
}
