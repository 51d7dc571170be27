// The choice of the AI's level: each level with its rating and what it is (the
// engine's words, buttonup.RATINGS and buttonup.ai.LEVELS), then the players the server offers besides the levels
// (`buttonup serve --opponent NAME=SPEC`: value "opponent:NAME"), the chosen one
// described under the list.

import { h } from "./dom.js";

export async function setUpLevels(engine, select, description, fail) {
  let levels = {};
  let ratings = {};
  try {
    [levels, ratings] = await Promise.all([engine.levels(), engine.ratings()]);
  } catch (error) {
    fail(error);
  }
  const rated = (level) => (level in ratings ? ` · rating ${Math.round(ratings[level])}` : "");
  // The levels are the engine's (the core's scale), in order, each with its rating.
  for (const level of Object.keys(levels).map(Number).sort((a, b) => a - b)) {
    select.append(h("option", { value: level, selected: level === 5 }, `${level}${rated(level)} · ${levels[level]}`));
  }
  let others = {};
  try {
    others = await engine.opponents();
  } catch (error) {
    fail(error);
  }
  const names = Object.keys(others);
  if (names.length) {
    const group = h("optgroup", { label: "This server's players" });
    for (const name of names) {
      group.append(h("option", { value: `opponent:${name}` }, `${name} · ${KINDS[others[name]] || others[name]}`));
    }
    select.append(group);
  }
  const describe = () => {
    const name = opponentOf(select.value);
    description.textContent = name === null
      ? `Level ${select.value}${rated(select.value)}: ${levels[select.value] || ""}.`
      : `${name}: ${KINDS[others[name]] || others[name]} that this server offers.`;
  };
  select.addEventListener("change", describe);
  describe();
}

const KINDS = { policy: "a trained policy", bot: "a bot" };

// The extra opponent's name a choice of the list names, or null for a level.
export function opponentOf(value) {
  return String(value).startsWith("opponent:") ? String(value).slice("opponent:".length) : null;
}
