// The page of one online match (/online/{id}): two people, each in his own browser, or a
// spectator. The server holds the match; this page shows each State it answers or sends
// on the match's event stream, lets the player whose turn it is lift a pile (no other
// click does anything), asks the tie rule's choice of the player it belongs to only, and
// draws every position with the page's board, move list and end-of-battle panel.
//   /online/{id}#join=CODE  the invite link: takes the free seat, then the match link
//   /online/{id}            a seated browser plays, any other watches
//   /online/{id}?watch      read-only, even in a seated player's browser
import { $, NAMES, clearError, other, say, showError } from "./dom.js";
import { Board } from "./board.js";
import { MoveList } from "./moves.js";
import { hidePanel, showPanel, wins } from "./panel.js";
import { setUpTheme } from "./theme.js";
import { saveText } from "./records.js";
import { OnlineEngine, keptInvite } from "./online_engine.js";

const params = new URLSearchParams(location.search);
const PAUSE = params.get("speed") === "fast" ? 40 : 300; // between the steps of a sowing (ms)
const id = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const watching = params.has("watch");

const server = new OnlineEngine();
const board = new Board($("board"), "The board");
const state = {
  match: null, // the server's latest State
  seat: null, // "r" | "b" for a player of this match in this browser, null to watch
  sending: false, // a move or a choice is on its way to the server
  animating: false, // a move is being shown
  get busy() { return this.sending || this.animating; },
  notice: "", // the extra move's announcement, kept until the next move
  finished: null, // the scored battle shown in the panel until "Next battle"
  view: null, // null: the live position; else the ply of the battle shown
  linked: false, // the event stream is open
  refused: 0, // moves the server refused (a test reads it)
  clockAt: 0, // when the latest State came (performance.now()): its clock counts from then
};
const moveList = new MoveList($("moves"), (ply) => showPly(ply));
let queue = Promise.resolve(); // States are taken one after the other, in order

const fail = (error) => showError(error.message || String(error));
const seated = () => !!state.seat && !watching;
const names = () => (seated()
  ? { [state.seat]: "You", [other(state.seat)]: "Your friend" }
  : { r: "Red", b: "Black" });

// The player of this browser may act now (lift a pile): everything else is refused here
// before the server would refuse it.
const mine = () => {
  const m = state.match;
  return !!m && seated() && m.begun && !m.ended && !m.winner && !m.chooser && !state.finished
    && !state.busy && m.to_move === state.seat;
};

// --- drawing the state ------------------------------------------------------------
function render() {
  const m = state.match;
  if (!m) return;
  const me = seated() ? state.seat : "r";
  const them = other(me);
  const who = names();
  $("match-card").hidden = $("moves-card").hidden = false;
  $("name-you").textContent = `${seated() ? "You" : "Red player"} (${NAMES[me]})`;
  $("name-them").textContent = `${seated() ? "Your friend" : "Black player"} (${NAMES[them]})`;
  $("dot-you").className = `dot dot-${me}`;
  $("dot-them").className = `dot dot-${them}`;
  $("points-you").textContent = `${m.scores[me]} pt`;
  $("points-them").textContent = `${m.scores[them]} pt`;
  const seatText = (side) => {
    const seat = (m.seats || {})[side] || {};
    if (!seat.taken) return " · not joined yet";
    return seat.online ? " · here" : " · away";
  };
  $("link-you").textContent = seatText(me);
  $("link-them").textContent = seatText(them);
  say("score", `Red ${m.scores.r} – Black ${m.scores.b} · first to ${m.target}`);
  const battle = state.finished || m.battle;
  $("battle-line").textContent = battle ? `Battle ${battle.number}, started by ${NAMES[battle.starter]}` : "";
  tick();
  $("role").textContent = seated()
    ? `You play ${NAMES[state.seat]}.${state.linked ? "" : " Reconnecting…"}`
    : `You are watching (read-only).${state.linked ? "" : " Reconnecting…"}`;
  $("resign").hidden = !seated() || !m.begun || !!m.winner || !!m.ended;
  $("choice").hidden = !(seated() && m.chooser === state.seat) || !!state.finished;
  $("me-first").textContent = "I start";
  $("them-first").textContent = "My friend starts";
  const invite = seated() ? keptInvite(id) : null;
  $("invite-card").hidden = !(invite && !m.begun);
  if (invite) {
    $("invite-link").value = new URL(`/online/${id}#join=${invite}`, location.href).href;
    $("watch-link").value = new URL(`/online/${id}?watch`, location.href).href;
  }
  $("watch-here").href = `/online/${id}?watch`;
  if (battle) {
    const shown = state.view === null ? battle.plies.length : state.view;
    moveList.render(battle.number, battle.plies, shown);
  } else moveList.clear();
  if (state.view === null && !state.finished && !state.busy) {
    board.show(m, { onLift: mine() ? lift : null, label: statusText(who) });
  }
  if (!state.busy) say("status", statusText(who));
  $("notice").textContent = state.notice;
  $("notice").hidden = !state.notice;
  document.body.dataset.version = String(m.version);
}

// The clocks, counted down here from the latest State's `left` for the running side
// (display only: the server decides when time has run out).
function clockLeft(side) {
  const clock = state.match && state.match.clock;
  if (!clock) return null;
  const spent = clock.running === side ? (performance.now() - state.clockAt) / 1000 : 0;
  return Math.max(0, clock.left[side] - spent);
}

function formatSeconds(seconds) {
  const whole = Math.ceil(seconds);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = String(whole % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

function tick() {
  const m = state.match;
  const line = $("clock");
  line.hidden = !(m && m.clock);
  if (!m || !m.clock) return;
  const kind = m.clock.per_move ? `${formatSeconds(m.clock.per_move)} a move` : `${formatSeconds(m.clock.per_match)} each`;
  const side = (letter) => `${NAMES[letter]} ${formatSeconds(clockLeft(letter))}${m.clock.running === letter ? " ▾" : ""}`;
  line.textContent = `Clock (${kind}): ${side("r")} · ${side("b")}`;
  line.dataset.running = m.clock.running || "";
}
setInterval(tick, 250);

function statusText(who) {
  const m = state.match;
  if (state.view !== null) {
    return `Showing the position after ${state.view} move${state.view === 1 ? "" : "s"}. ▶ or → steps on; Esc goes back to the game.`;
  }
  if (m.winner) {
    const how = m.ended === "resigned" ? `${NAMES[other(m.winner)]} resigned: ` : m.ended === "time" ? `${NAMES[other(m.winner)]}'s time ran out: ` : "";
    return `${how}${wins(who[m.winner])} the match!`;
  }
  if (!m.begun) {
    return seated() ? "Waiting for your friend to open the invite link…" : "Waiting for the second player to join.";
  }
  if (state.finished) {
    const { winner, points } = state.finished.scoring;
    const result = winner ? `${wins(who[winner])} ${points} point${points === 1 ? "" : "s"}` : "equal sums";
    return `Battle ${state.finished.number} is over: ${result}.${seated() ? " Next battle when you are ready." : ""}`;
  }
  if (m.chooser) {
    if (seated() && m.chooser === state.seat) return "You lost the last battle with a winner: choose who starts.";
    return `${who[m.chooser] === "Your friend" ? "Your friend" : NAMES[m.chooser]} chooses who starts the next battle…`;
  }
  const last = m.battle && m.battle.plies[m.battle.plies.length - 1];
  const before = last ? `${NAMES[last.mover]} lifted pile ${last.move}${last.extra_move ? " and moves again" : ""}. ` : "";
  if (seated() && m.to_move === state.seat) return `${before}Your move (${NAMES[state.seat]}): lift a marked pile.`;
  if (seated()) return `${before}Your friend's move (${NAMES[m.to_move]})…`;
  return `${before}${NAMES[m.to_move]} to move.`;
}

// --- taking the server's States ---------------------------------------------------------
// Every State (an answer, or an event) goes through here, in order; one older than
// the one shown, or the same, is dropped.
function take(data) {
  queue = queue.then(() => show(data)).catch(fail);
  return queue;
}

async function show(data) {
  const m = state.match;
  if (m && data.version === m.version && data.seats) {
    m.seats = data.seats; // who is here changed (a `presence` event)
    render();
    return;
  }
  if (m && data.version <= m.version) return;
  const played = await movePlayed(m, data);
  if (played && !state.finished && state.view === null) {
    state.animating = true;
    state.notice = "";
    $("notice").hidden = true;
    let after = data;
    if (played.ended_battle) after = await server.ply(id, played.battle, played.ply).catch(() => null);
    if (after) await board.sow(played, after, PAUSE, (text) => say("status", text));
    state.animating = false;
  }
  state.match = data;
  state.clockAt = performance.now();
  state.view = null;
  const scored = m && data.battles.length > m.battles.length ? data.battles[data.battles.length - 1] : null;
  if (scored) {
    state.finished = { ...scored, ...await scoredBattle(scored.number, data) };
    showPanel($("battle-panel"), data, state.finished, { next: nextBattle, newMatch: () => { location.href = "/"; }, names: names(), watching: !seated() });
  } else if (played && played.extra_move && !data.winner) {
    state.notice = `Extra move: the last button landed on its own colour. ${NAMES[played.mover]} moves again.`;
  }
  render();
  if (mine()) board.focus();
}

// The move that led from `m` to `data` (the answer's `played`; for an event, the last
// ply of the battle when exactly one move was made), or null.
async function movePlayed(m, data) {
  if (data.played) return data.played;
  if (!m || !m.battle || !data.battle || data.version !== m.version + 1) return null;
  const count = m.battle.plies.length + 1;
  if (data.battles.length === m.battles.length && data.battle.number === m.battle.number
    && data.battle.plies.length === count) {
    return { ...data.battle.plies[count - 1], battle: m.battle.number, ended_battle: false };
  }
  if (data.battles.length === m.battles.length + 1 && data.battles.length === m.battle.number) {
    const battle = await server.battle(id, m.battle.number).catch(() => null);
    if (battle && battle.plies.length === count) {
      return { ...battle.plies[count - 1], battle: m.battle.number, ended_battle: true };
    }
  }
  return null;
}

// A scored battle's plies and tower (the state lists scored battles without towers).
async function scoredBattle(number, data) {
  const read = await server.battle(id, number).catch(() => null);
  if (read) return { plies: read.plies, tower: read.tower };
  return { plies: data.battle && data.battle.number === number ? data.battle.plies : [], tower: null };
}

function nextBattle() {
  state.finished = null;
  hidePanel($("battle-panel"));
  render();
  if (mine()) board.focus();
}

// The position after `ply` moves of the battle shown (its last: live again).
async function showPly(ply) {
  const battle = state.finished || state.match.battle;
  if (state.busy || !battle || ply < 0 || ply > battle.plies.length) return;
  if (ply === battle.plies.length && !state.finished) {
    state.view = null;
    render();
    return;
  }
  try {
    const data = await server.ply(id, battle.number, ply);
    state.view = ply === battle.plies.length ? null : ply;
    board.show(data, { label: `after ${ply} moves` });
    render();
  } catch (error) {
    fail(error);
  }
}

// --- acting -----------------------------------------------------------------------------
// A refusal (403 not your seat, 409 out of turn or stale) leaves the board as the server
// says: the banner tells why, and the match is read again.
async function refused(error) {
  state.refused += 1;
  fail(error);
  try {
    const data = await server.state(id);
    state.match = null; // whatever the server says now is shown
    await take(data);
  } catch (again) {
    fail(again);
  }
}

async function lift(pile) {
  if (mine()) await send(pile);
}

// The move sent as it is (lift() sends only the player's own legal moves: a test calls
// this to see the server refuse one, `window.buttonup.send`).
async function send(pile) {
  const version = state.match.version;
  state.sending = true;
  say("status", `You lift pile ${pile}…`);
  board.show(state.match); // nothing more to click while the move is sent
  let data;
  try {
    data = await server.play(id, pile, version);
  } catch (error) {
    state.sending = false;
    await refused(error);
    return;
  }
  state.sending = false;
  clearError();
  await take(data);
  render(); // (the event may have brought the move first, while this was being sent)
}

async function choose(starter) {
  const m = state.match;
  if (!seated() || m.chooser !== state.seat) return;
  try {
    const data = await server.choose(id, starter, m.version);
    clearError();
    await take(data);
  } catch (error) {
    await refused(error);
  }
}

let resignAsked = false;
async function resign() {
  if (!resignAsked) {
    resignAsked = true;
    $("resign").textContent = "Resign: click again to confirm";
    setTimeout(() => {
      resignAsked = false;
      $("resign").textContent = "Resign";
    }, 4000);
    return;
  }
  try {
    await take(await server.resign(id, state.match.version));
  } catch (error) {
    await refused(error);
  }
}

async function copy(input) {
  input.select();
  try {
    await navigator.clipboard.writeText(input.value);
    say("status", "Copied.");
  } catch (error) {
    document.execCommand("copy"); // an older browser, or no permission: the selection
  }
}

// --- setting up -------------------------------------------------------------------------
async function enter() {
  const join = new URLSearchParams(location.hash.slice(1)).get("join");
  if (join && !watching) {
    try {
      const joined = await server.join(id, join, params.get("seed"));
      state.seat = joined.seat;
      history.replaceState(null, "", `/online/${id}${location.search}`); // the match link
      return joined.state;
    } catch (error) {
      fail(error); // a seat taken by someone else: this browser watches
    }
  }
  const data = watching || !server.issued ? await server.request(`/api/online/${id}`, undefined, { auth: false })
    : await server.state(id);
  if (!watching && data.you) {
    state.seat = data.you;
    clearError(); // the invite link opened by its host: his own seat all the same
  }
  return data;
}

async function setUp() {
  setUpTheme($("theme"));
  $("error-close").addEventListener("click", clearError);
  $("me-first").addEventListener("click", () => choose(state.seat));
  $("them-first").addEventListener("click", () => choose(other(state.seat)));
  $("resign").addEventListener("click", resign);
  $("copy-invite").addEventListener("click", () => copy($("invite-link")));
  $("copy-watch").addEventListener("click", () => copy($("watch-link")));
  $("download").addEventListener("click", async () => {
    try {
      saveText(await server.record(id), `buttonup-online-${id.slice(0, 8)}.txt`);
    } catch (error) {
      fail(error);
    }
  });
  document.addEventListener("keydown", (event) => {
    if (["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName) || !state.match) return;
    if (/^[0-9]$/.test(event.key) && mine() && state.view === null && state.match.legal_moves.includes(Number(event.key))) {
      lift(Number(event.key));
    } else if (event.key === "Escape" && state.view !== null) showPly((state.finished || state.match.battle).plies.length);
  });
  moveList.clear();
  let entered;
  try {
    await take((entered = await enter()));
  } catch (error) {
    fail(error);
    say("status", "This match cannot be shown.");
    return;
  }
  server.watch(id, state.seat && !watching ? state.seat : "", (data) => take(data), (open) => {
    const was = state.linked;
    state.linked = open;
    if (open && !was && state.match) {
      // back after a cut: the server's current state (events may have been missed)
      server.request(`/api/online/${id}`, undefined, { auth: false }).then(take, fail);
    }
    render();
  }, state.seat && !watching ? entered.stream_key : null); // his own stream: he is online
  document.body.dataset.ready = "true";
}

window.buttonup = { server, state, board, take, send };
setUp();
