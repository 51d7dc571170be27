// The page of `buttonup serve`: a match against the AI, its moves and chart, the end of
// each battle, its review, and the analysis board. It draws what the engine says: every
// rule (legal moves, drops, extra moves, scoring, the match) and every drawing of the
// board is the engine's answer, through the one interface of engine.js.

import { $, NAMES, clearError, h, other, reveal, say, showError, sleep } from "./dom.js";
import { chooseEngine } from "./engine.js";
import { Board } from "./board.js";
import { MoveList } from "./moves.js";
import { drawChart } from "./chart.js";
import { hidePanel, showPanel } from "./panel.js";
import { describe } from "./status.js";
import { showReview } from "./review.js";
import { showHint } from "./hint.js";
import { AnalysisBoard } from "./analysis.js";
import { setUpTheme } from "./theme.js";
import { setUpRecords } from "./records.js";
import { setUpKeys } from "./keys.js";
import { setUpLevels } from "./levels.js";
import { chosen, inviteFriend, setUpOpponents } from "./opponents.js";

const params = new URLSearchParams(location.search);
const PAUSE = params.get("speed") === "fast" ? 40 : 420; // between the steps of a move (ms)

const engine = await chooseEngine();
const board = new Board($("board"), "The board");
const analysis = new AnalysisBoard(engine, fail);
const state = {
  match: null, // the engine's latest Match
  version: 0, // bumped whenever the position on the board changes (hints check it)
  generation: 0, // bumped for each match the page takes up (moves in flight check it)
  busy: false, // a move is being made or shown
  notice: "", // the extra move's announcement, kept until the next move
  finished: null, // the Battle just scored, shown until "Next battle"
  past: null, // an earlier Battle picked to look at, or null
  view: null, // null: the live position; else the ply of the battle shown
  losses: new Map(), // battle number -> (ply -> loss), once reviewed
};
const moveList = new MoveList($("moves"), (ply) => showPly(ply));

function fail(error) {
  showError(error.message || String(error));
}

// Pass and play: both sides are people at this screen (no AI call is made).
const two = () => !!state.match && state.match.players === 2;

const mine = () => {
  const m = state.match;
  return m && !m.winner && !m.chooser && !state.finished && (two() || m.to_move === m.human);
};

// The battle in the move list and the chart: the one just scored, else the current one.
const shownBattle = () => state.past || state.finished || state.match.battle;
const liveBattle = () => state.finished || state.match.battle;

// --- drawing the state ------------------------------------------------------------
function render() {
  const m = state.match;
  if (!m) return;
  $("match-card").hidden = $("moves-card").hidden = false;
  const ai = other(m.human);
  $("name-you").textContent = two() ? `${NAMES[m.human]} player` : `You (${NAMES[m.human]})`;
  const who = m.opponent ? m.opponent : `AI level ${m.level}`;
  $("name-ai").textContent = two() ? `${NAMES[ai]} player` : `${who} (${NAMES[ai]})`;
  $("dot-you").className = `dot dot-${m.human}`;
  $("dot-ai").className = `dot dot-${ai}`;
  $("points-you").textContent = `${m.scores[m.human]} pt`;
  $("points-ai").textContent = `${m.scores[ai]} pt`;
  const battle = shownBattle();
  say("score", `Red ${m.scores.r} – Black ${m.scores.b} · first to ${m.target}`);
  const opponent = two() ? "two players on this screen" : `the AI: ${m.level_name}`;
  $("battle-line").textContent = `Battle ${battle.number}, started by ${NAMES[battle.starter]} · ${opponent}`;
  const undoable = m.battle.plies.some((p) => two() || p.mover === m.human);
  $("undo").disabled = state.busy || !undoable || !!state.finished;
  $("hint").disabled = state.busy || !mine();
  $("choice").hidden = !(m.chooser && (two() || m.chooser === m.human)) || !!state.finished;
  $("me-first").textContent = two() ? "Red starts" : "I start";
  $("ai-first").textContent = two() ? "Black starts" : "The AI starts";
  const shown = state.view === null ? battle.plies.length : state.view;
  moveList.render(battle.number, battle.plies, shown, state.losses.get(battle.number));
  const pick = $("battle-pick");
  const count = liveBattle().number;
  if (pick.options.length !== count) {
    pick.replaceChildren(...Array.from({ length: count }, (_, i) => h("option", { value: i + 1 }, `Battle ${i + 1}`)));
  }
  pick.value = String(battle.number);
  $("review-shown").disabled = !battle.over || state.busy;
  drawChart($("chart"), battle.points, m.human, shown, (ply) => showPly(ply));
  if (state.view === null && !state.finished) {
    board.show(m, { onLift: mine() && !state.busy ? lift : null, label: statusText() });
  }
  if (!state.busy) say("status", statusText());
  $("notice").textContent = state.notice;
  $("notice").hidden = !state.notice;
}

const statusText = () => describe({ state, mine, two, shownBattle });

// The position after `ply` moves of the battle in the list (the last one: live again).
async function showPly(ply) {
  const battle = shownBattle();
  if (state.busy || ply < 0 || ply > battle.plies.length) return;
  if (ply === battle.plies.length && !state.finished && !state.past) {
    state.view = null;
    render();
    return;
  }
  const asked = state.version;
  let data;
  try {
    data = await engine.ply(state.match.id, battle.number, ply);
  } catch (error) {
    fail(error);
    return;
  }
  if (asked !== state.version) return; // the game moved on meanwhile
  state.view = ply === battle.plies.length && state.finished && !state.past ? null : ply;
  board.show(data, { label: `battle ${battle.number}, after ${ply} moves` });
  render();
}

// --- moves --------------------------------------------------------------------------
function setMatch(data) {
  state.match = data;
  state.version += 1;
  state.view = null;
}

// Shows the move `data.played` (the answer of play or aiMove), then its outcome.
// A move or an answer for a match the page has left (a new match, a record loaded).
class Superseded extends Error {}
const stillOn = (generation) => {
  if (generation !== state.generation) throw new Superseded();
};

async function showMove(data, generation) {
  const played = data.played;
  state.notice = "";
  state.view = null;
  state.past = null;
  $("notice").hidden = true;
  let after = data;
  if (played.ended_battle) after = await engine.ply(data.id, played.battle, played.ply);
  stillOn(generation);
  await board.sow(played, after, PAUSE, (text) => {
    stillOn(generation);
    say("status", text);
  });
  setMatch(data);
  if (played.ended_battle) {
    const finished = await engine.battle(data.id, played.battle);
    stillOn(generation);
    state.finished = finished;
    board.show(after, { label: `the final tower of battle ${played.battle}` });
    const scored = data.battles[played.battle - 1];
    showPanel($("battle-panel"), data, scored, { next: nextBattle, review: reviewBattle, newMatch: focusSetup });
    $("battle-panel").scrollIntoView({ block: "nearest" });
  } else if (played.extra_move) {
    const who = two() ? `${NAMES[played.mover]} moves` : played.mover === data.human ? "You move" : "The AI moves";
    state.notice = `Extra move: the last button landed on its own colour. ${who} again.`;
  }
}

async function lift(pile) {
  if (state.busy || !mine()) return;
  state.busy = true;
  state.version += 1; // a hint asked before this move is for a position that is gone
  $("hint-out").replaceChildren();
  say("status", `You lift pile ${pile}…`);
  board.show(state.match); // nothing more to click while the move is made
  const generation = state.generation;
  try {
    const data = await engine.play(state.match.id, pile);
    stillOn(generation);
    clearError();
    await showMove(data, generation);
  } catch (error) {
    if (error instanceof Superseded) return;
    fail(error);
  } finally {
    if (generation === state.generation) {
      state.busy = false;
      render();
    }
  }
  await aiIfDue();
}

async function aiIfDue() {
  const m = state.match;
  if (!m || m.winner || state.finished || state.busy) return;
  if (two()) {
    if (mine()) board.focus();
    return;
  }
  const ai = other(m.human);
  if (!(m.chooser === ai || (!m.chooser && m.to_move === ai))) {
    if (mine()) board.focus();
    return;
  }
  state.busy = true;
  render();
  say("status", m.chooser === ai ? "The AI chooses who starts…" : "The AI is thinking…");
  const generation = state.generation;
  try {
    await sleep(PAUSE);
    stillOn(generation);
    const data = await engine.aiMove(m.id);
    stillOn(generation);
    if (data.played) await showMove(data, generation);
    else setMatch(data);
  } catch (error) {
    if (!(error instanceof Superseded)) fail(error);
    return;
  } finally {
    if (generation === state.generation) {
      state.busy = false;
      render();
    }
  }
  await aiIfDue();
}

function nextBattle() {
  state.finished = null;
  state.past = null;
  state.view = null;
  hidePanel($("battle-panel"));
  $("review").hidden = true;
  state.version += 1;
  render();
  aiIfDue();
}

// Another battle in the move list and the chart (the current one: live again).
async function pickBattle(number) {
  if (state.busy) return;
  if (number === liveBattle().number) {
    state.past = null;
    showPly(liveBattle().plies.length);
    return;
  }
  const asked = state.version;
  try {
    const battle = await engine.battle(state.match.id, number);
    if (asked !== state.version) return;
    state.past = battle;
    await showPly(battle.plies.length);
  } catch (error) {
    fail(error);
  }
}

async function reviewBattle() {
  const shown = shownBattle();
  const battle = shown.over ? shown : state.finished || state.match.battles[state.match.battles.length - 1];
  if (!battle) return;
  try {
    const review = await engine.review(state.match.id, battle.number);
    state.losses.set(battle.number, new Map(review.moves.map((m) => [m.ply, m.loss])));
    render();
    showReview($("review"), review, state.match.human, {
      onShow: (ply) => showPly(ply),
      onLine: (position) => {
        analysis.load(position, []);
        reveal($("analysis"));
      },
    });
    reveal($("review"), { block: "nearest" });
  } catch (error) {
    fail(error);
  }
}

function focusSetup() {
  $("setup").hidden = false;
  $("level").focus();
  reveal($("setup"));
}

async function newMatch(event) {
  event.preventDefault();
  const { kind, settings } = chosen(params);
  try {
    if (kind === "friend") {
      await inviteFriend(settings);
      return;
    }
    const data = await engine.newMatch(settings);
    if (kind === "two" && data.players !== 2) throw new Error("This engine has no pass and play (two players on one screen).");
    clearError();
    startWith(data);
  } catch (error) {
    fail(error);
  }
}

function startWith(data) {
  state.generation += 1; // whatever the page was doing for the match it leaves is dropped
  state.busy = false;
  $("setup").hidden = true;
  window.scrollTo({ top: 0 });
  state.finished = null;
  state.notice = "";
  hidePanel($("battle-panel"));
  $("review").hidden = true;
  $("hint-out").replaceChildren();
  state.losses = new Map();
  state.past = null;
  setMatch(data);
  render();
  aiIfDue();
}

// --- hint, undo, the tie rule --------------------------------------------------------
async function hint() {
  const m = state.match;
  if (!mine() || state.busy) return;
  const asked = state.version;
  $("hint-out").replaceChildren(h("p", { class: "muted" }, "Thinking…"));
  let data;
  try {
    data = await engine.hint(m.id);
  } catch (error) {
    if (asked === state.version) $("hint-out").replaceChildren();
    fail(error);
    return;
  }
  // An answer for a position that is gone is dropped.
  if (asked !== state.version || data.position !== state.match.position) return;
  showHint($("hint-out"), data, lift, two() ? `${NAMES[m.to_move]}'s` : "Your");
  for (const pile of board.piles()) {
    pile.classList.toggle("hinted", data.moves[pile.dataset.pile] === data.value);
  }
}

async function undo() {
  const m = state.match;
  if (!m || state.busy || state.finished) return;
  try {
    const data = await engine.undo(m.id);
    clearError();
    setMatch(data);
    state.notice = "";
    $("hint-out").replaceChildren();
    render();
    say("status", `Took back ${two() ? "the" : "your"} last move. ${statusText()}`);
    board.focus();
  } catch (error) {
    fail(error);
  }
}

async function choose(starter) {
  try {
    setMatch(await engine.choose(state.match.id, starter));
    render();
    await aiIfDue();
  } catch (error) {
    fail(error);
  }
}

// --- setting up -----------------------------------------------------------------------
async function setUp() {
  setUpTheme($("theme"));
  setUpKeys({ state, mine, lift, hint, undo, showPly, liveBattle, shownBattle });
  $("error-close").addEventListener("click", clearError);
  $("setup").addEventListener("submit", newMatch);
  $("hint").addEventListener("click", hint);
  $("undo").addEventListener("click", undo);
  $("show-setup").addEventListener("click", focusSetup);
  $("battle-pick").addEventListener("change", () => pickBattle(Number($("battle-pick").value)));
  $("review-shown").addEventListener("click", reviewBattle);
  $("me-first").addEventListener("click", () => choose(two() ? "r" : state.match.human));
  $("ai-first").addEventListener("click", () => choose(two() ? "b" : other(state.match.human)));
  setUpOpponents(engine.name === "server");
  setUpRecords(engine, () => state.match, (data) => startWith(data), fail);
  moveList.clear();
  await setUpLevels(engine, $("level"), $("level-desc"), fail);
  try { // before a match, the board shows a start (nothing to click yet)
    if (!state.match) board.show(await engine.board("W/R/B/W/B/R/R/W/B r"), { label: "a start, before the match" });
  } catch (error) {
    fail(error);
  }
  const hash = new URLSearchParams(location.hash.slice(1));
  await analysis.load(hash.get("analyze") || $("analyze-input").value,
    (hash.get("moves") || "").split(",").filter(Boolean).map(Number));
  document.body.dataset.ready = "true";
}

window.buttonup = { engine, state, analysis, board };
setUp();
