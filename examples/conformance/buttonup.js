#!/usr/bin/env node
// Button Up! in JavaScript, speaking the conformance kit's line protocol
// (docs/conformance.md): a correct implementation in a second language, written from
// docs/rules.md alone, to show that the protocol needs nothing of Python.
//
//   buttonup conformance -- node examples/conformance/buttonup.js
//
// A position is an array of piles, each a string written bottom first ("RW" is a white
// button on a red one). Any number of piles and buttons is accepted.
"use strict";

// Rule 2: a pile may be lifted if it holds a white button (and the battle is not over).
function legalMoves(piles) {
  if (piles.length < 2) return [];
  const moves = [];
  piles.forEach((pile, i) => {
    if (pile.includes("W")) moves.push(i);
  });
  return moves;
}

// Rules 3 and 4: lift pile `lifted`, drop its buttons bottom first, one a pile
// clockwise; with more buttons than other piles, the last pile takes the rest at once.
// Returns the new piles (the lifted one removed) and whether the mover plays again.
function play(piles, lifted) {
  const buttons = piles[lifted];
  const rest = piles.slice(0, lifted).concat(piles.slice(lifted + 1));
  const m = rest.length;
  // After removing the lifted pile, the pile after it has index `lifted` (mod m).
  const target = (j) => (lifted + j) % m;
  if (buttons.length <= m) {
    let below = "";
    for (let j = 0; j < buttons.length; j++) {
      const t = target(j);
      below = rest[t][rest[t].length - 1];
      rest[t] += buttons[j];
    }
    const last = buttons[buttons.length - 1];
    return { piles: rest, extra: last === below && m > 1 };
  }
  for (let j = 0; j < m - 1; j++) rest[target(j)] += buttons[j];
  rest[target(m - 1)] += buttons.slice(m - 1);
  return { piles: rest, extra: false };
}

// Rule 6: strengths 1 (bottom) to N (top); each player adds his own.
function score(pile) {
  let red = 0;
  let black = 0;
  for (let i = 0; i < pile.length; i++) {
    if (pile[i] === "R") red += i + 1;
    if (pile[i] === "B") black += i + 1;
  }
  return `R=${red} B=${black}`;
}

let piles = null;

function answer(line) {
  const [command, argument] = line.trim().split(/\s+/, 2);
  if (command === "state") {
    const parsed = (argument || "").split("/");
    const valid = parsed.every((pile) => /^[RBW]+$/.test(pile));
    if (!valid || !parsed.some((pile) => pile.includes("W"))) {
      piles = null;
      return "error not a position of Button Up!";
    }
    piles = parsed;
    return "ok";
  }
  if (piles === null) return "error no position: send 'state PILES' first";
  if (command === "legal") return legalMoves(piles).join(" ");
  if (command === "score") {
    return piles.length === 1 ? score(piles[0]) : "error the battle is not over";
  }
  if (command === "play") {
    const move = /^\d+$/.test(argument || "") ? Number(argument) : -1;
    if (!legalMoves(piles).includes(move)) return `error pile ${argument} cannot be lifted`;
    const after = play(piles, move);
    piles = after.piles;
    return `${piles.join("/")} extra=${after.extra}`;
  }
  return `error unknown request '${command}'`;
}

// Answer every complete line of each chunk read, in one write.
let partial = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  const lines = (partial + chunk).split("\n");
  partial = lines.pop();
  const out = [];
  for (const line of lines) {
    if (line.trim() === "quit") {
      process.stdout.write(out.join(""));
      process.exit(0);
    }
    out.push(answer(line) + "\n");
  }
  if (out.length) process.stdout.write(out.join(""));
});
process.stdin.on("end", () => {
  if (partial.trim() && partial.trim() !== "quit") process.stdout.write(answer(partial) + "\n");
});
process.stdout.on("error", () => process.exit(0)); // a closed pipe: stop quietly
