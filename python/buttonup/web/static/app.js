// The page of `buttonup serve`. It draws what the server says: every rule (legal
// moves, drops, extra moves, scoring, the match) is the engine's answer.

const $ = (id) => document.getElementById(id);
const NAMES = { r: "Red", b: "Black" };
const PAUSE = 450; // before the AI answers, and between dropped buttons (ms)
let match = null;
let busy = false;
let focused = 0;

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

async function api(path, body) {
  let response;
  try {
    response = await fetch(path, {
      method: body === undefined ? "GET" : "POST",
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    showError("The server cannot be reached: is `buttonup serve` still running?");
    throw error;
  }
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) {
    showError(data.error || `HTTP ${response.status}`);
    throw new Error(data.error);
  }
  $("error").hidden = true;
  return data;
}

function showError(message) {
  $("error").textContent = message;
  $("error").hidden = false;
}

// --- drawing ------------------------------------------------------------------------
function draw(svg, piles, legal, onLift) {
  svg.replaceChildren();
  const n = piles.length;
  const radius = n > 1 ? 120 : 0;
  piles.forEach((pile, index) => {
    const angle = -Math.PI / 2 + (2 * Math.PI * index) / Math.max(n, 1);
    const x = radius * Math.cos(angle);
    const y = radius * Math.sin(angle);
    const group = node("g", { class: "pile", "data-pile": index });
    const height = Math.max(pile.length, 1);
    group.append(node("rect", { class: "hit", x: x - 14, y: y - 8 - 12 * height, width: 28, height: 12 * height + 24, rx: 6 }));
    [...pile].forEach((button, level) => {
      group.append(node("circle", { class: `button-${button}`, cx: x, cy: y - 12 * level, r: 9, "stroke-width": 1.5 }));
    });
    const label = node("text", { class: "label", x, y: y + 22 });
    label.textContent = String(index);
    group.append(label);
    if (legal.includes(index) && onLift) {
      group.classList.add("legal");
      group.setAttribute("tabindex", "0");
      group.setAttribute("role", "button");
      group.setAttribute("aria-label", `Lift pile ${index} (${pile}, bottom first)`);
      group.addEventListener("click", () => onLift(index));
      group.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") onLift(index);
      });
    } else {
      group.setAttribute("aria-label", `Pile ${index}: ${pile}`);
    }
    svg.append(group);
  });
}

function node(name, attributes) {
  const element = document.createElementNS("http://www.w3.org/2000/svg", name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  return element;
}

// The sowing, button by button: the engine says which pile receives each button.
async function animate(played) {
  const piles = played.from.split(" ")[0].split("/");
  const lifted = piles[played.move];
  piles[played.move] = "";
  draw($("board"), piles, []);
  for (let j = 0; j < played.drops.length; j++) {
    await sleep(PAUSE / 2);
    piles[played.drops[j]] += lifted[j];
    draw($("board"), piles, []);
  }
  await sleep(PAUSE / 2);
}

function render() {
  const human = match.human;
  const mine = !match.winner && !match.chooser && match.to_move === human;
  draw($("board"), match.piles, mine && !busy ? match.legal_moves : [], mine ? lift : null);
  $("score").textContent =
    `Red ${match.scores.r} - Black ${match.scores.b} (first to ${match.target}) · ` +
    `battle ${match.battles.length + (match.winner ? 0 : 1)}, started by ${NAMES[match.starter]}`;
  $("choice").hidden = !(match.chooser === human);
  if (match.winner) {
    $("status").textContent = match.winner === human ? "You win the match!" : "The AI wins the match.";
  } else if (match.chooser === human) {
    $("status").textContent = "You lost the last decided battle: choose who starts.";
  } else if (mine) {
    $("status").textContent = `Your move (${NAMES[human]}): lift a marked pile.`;
  } else {
    $("status").textContent = "The AI is thinking…";
  }
  if (mine) {
    const legal = [...$("board").querySelectorAll(".pile.legal")];
    if (legal.length) legal[Math.min(focused, legal.length - 1)].focus();
  }
}

// Elements built from server data as text, never as markup: h("p", {id: "x"}, "text", child).
function h(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) element.setAttribute(name, value);
  element.append(...children.map((child) => (child instanceof Node ? child : String(child))));
  return element;
}

function table(attributes, headers, rows) {
  return h("table", attributes, h("tr", null, ...headers.map((text) => h("th", null, text))),
    ...rows.map((cells) => h("tr", null, ...cells.map((text) => h("td", null, text)))));
}

const signed = (value) => `${value > 0 ? "+" : ""}${value}`;

function showScoring(battle) {
  const out = $("scoring");
  if (!battle) {
    out.replaceChildren();
    return;
  }
  const s = battle.scoring;
  const rows = [...s.tower].map((b, i) => [i + 1, b]).reverse();
  const sum = (list) => (list.length ? list.join(" + ") : "0");
  const result = s.winner ? `${NAMES[s.winner]} gains ${s.points} victory point${s.points > 1 ? "s" : ""}` : "Equal sums: nobody gains victory points";
  out.replaceChildren(
    h("h3", null, `Battle ${battle.number}: the final pile`),
    table({ "aria-label": "Final pile, strength and button" }, ["strength", "button"], rows),
    h("p", { id: "sum-red" }, `Red: ${sum(s.red_strengths)} = ${s.red}`),
    h("p", { id: "sum-black" }, `Black: ${sum(s.black_strengths)} = ${s.black}`),
    h("p", { id: "battle-result" }, result),
  );
}

// --- playing ------------------------------------------------------------------------
async function update(data) {
  const battles = match ? match.battles.length : 0;
  if (data.played) await animate(data.played);
  match = data;
  if (data.battles.length > battles) showScoring(data.battles[data.battles.length - 1]);
  render();
  if (data.played && data.played.extra_move && data.battles.length === battles) {
    const who = data.to_move === data.human ? "you move" : "the AI moves";
    $("status").textContent = `Extra move: the last button landed on its own colour, ${who} again. ` + $("status").textContent;
  }
  if (data.played && data.played.extra_move && data.battles.length === battles) await sleep(PAUSE);
  await aiIfDue();
}

async function aiIfDue() {
  if (!match || match.winner) return;
  const ai = match.human === "r" ? "b" : "r";
  if (match.chooser === ai || (!match.chooser && match.to_move === ai)) {
    busy = true;
    render();
    await sleep(PAUSE);
    try {
      const data = await api(`/api/matches/${match.id}/ai`, {});
      busy = false;
      await update(data);
    } finally {
      busy = false;
    }
  }
}

async function lift(pile) {
  if (busy || !match) return;
  busy = true;
  $("hint-out").replaceChildren();
  try {
    const data = await api(`/api/matches/${match.id}/play`, { move: pile });
    busy = false;
    await update(data);
  } finally {
    busy = false;
    if (match) render();
  }
}

async function newMatch(event) {
  event.preventDefault();
  const human = $("colour").value;
  match = null;
  showScoring(null);
  $("hint-out").replaceChildren();
  const data = await api("/api/matches", { human, level: Number($("level").value), starter: human });
  await update(data);
}

async function hint() {
  if (!match) return;
  const data = await api(`/api/matches/${match.id}/hint`, {});
  const rows = Object.entries(data.moves)
    .sort((a, b) => b[1] - a[1])
    .map(([move, value]) => [move, signed(value)]);
  const parts = [table({ id: "hint-table" }, ["pile", "your margin"], rows)];
  if (data.match_win_probability !== null) {
    const percent = (100 * data.match_win_probability).toFixed(1);
    parts.push(h("p", { id: "hint-odds" }, `Your chance of winning the match from here: ${percent}%`));
  }
  $("hint-out").replaceChildren(...parts);
}

async function undo() {
  if (!match || busy) return;
  match = await api(`/api/matches/${match.id}/undo`, {});
  $("status").textContent = "Took back your last move.";
  render();
}

async function choose(starter) {
  const data = await api(`/api/matches/${match.id}/choose`, { starter });
  await update(data);
}

// --- the analysis board -------------------------------------------------------------
async function analyze(event) {
  event.preventDefault();
  const data = await api("/api/analyze", { position: $("analyze-input").value });
  draw($("analysis-board"), data.piles, data.legal_moves, null);
  if (data.is_over) {
    $("analysis-out").replaceChildren(
      h("p", { id: "analysis-value" }, `The battle is over: Red ${data.scoring.red}, Black ${data.scoring.black}.`),
    );
    return;
  }
  const rows = Object.entries(data.moves)
    .sort((a, b) => b[1] - a[1])
    .map(([move, value]) => [move, signed(value), data.extra_moves[move] ? "yes" : ""]);
  $("analysis-out").replaceChildren(
    h("p", { id: "analysis-value" }, `${NAMES[data.to_move]} to move: value ${signed(data.value)}${data.exact ? " (exact)" : " (estimate)"}`),
    table({ id: "analysis-table" }, ["pile", "value", "extra move"], rows),
    h("p", { id: "analysis-pv" }, `Best line: ${data.pv.join(" ")}`),
  );
}

// --- keyboard -----------------------------------------------------------------------
document.addEventListener("keydown", (event) => {
  if (!match || event.target.tagName === "INPUT" || event.target.tagName === "SELECT") return;
  if (/^[0-9]$/.test(event.key) && match.legal_moves.includes(Number(event.key))) {
    lift(Number(event.key));
  } else if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
    const legal = [...$("board").querySelectorAll(".pile.legal")];
    if (!legal.length) return;
    focused = (focused + (event.key === "ArrowRight" ? 1 : legal.length - 1)) % legal.length;
    legal[focused].focus();
    event.preventDefault();
  }
});

for (let level = 1; level <= 10; level++) {
  const option = document.createElement("option");
  option.value = String(level);
  option.textContent = String(level);
  if (level === 5) option.selected = true;
  $("level").append(option);
}
$("setup").addEventListener("submit", newMatch);
$("hint").addEventListener("click", hint);
$("undo").addEventListener("click", undo);
$("me-first").addEventListener("click", () => choose(match.human));
$("ai-first").addEventListener("click", () => choose(match.human === "r" ? "b" : "r"));
$("analyze-form").addEventListener("submit", analyze);
