// The choice of the AI's level: each level with what it is (the engine's words,
// buttonup.ai.LEVELS), the chosen one described under the list.

import { h } from "./dom.js";

export async function setUpLevels(engine, select, description, fail) {
  let levels = {};
  try {
    levels = await engine.levels();
  } catch (error) {
    fail(error);
  }
  for (let level = 1; level <= 10; level++) {
    select.append(h("option", { value: level, selected: level === 5 }, `${level} · ${levels[level] || ""}`));
  }
  const describe = () => {
    description.textContent = `Level ${select.value}: ${levels[select.value] || ""}.`;
  };
  select.addEventListener("change", describe);
  describe();
}
