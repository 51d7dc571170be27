// The page's status line: what the position on the board is and who is to act, said
// from the player's side (against the AI), or both sides' (two players on one screen).

import { NAMES } from "./dom.js";
import { sideNames, wins } from "./panel.js";

// `page`: app.js's state, mine(), two(), shownBattle().
export function describe({ state, mine, two, shownBattle }) {
  const m = state.match;
  if (state.view !== null) {
    const battle = shownBattle();
    const where = state.view === 0 ? "the start" : `move ${state.view} (${battle.plies[state.view - 1].label})`;
    return `Showing battle ${battle.number} after ${where}. ▶ or → steps on; Esc goes back to the game.`;
  }
  const names = sideNames(m);
  if (m.winner) return `${wins(names[m.winner])} the match!`;
  if (state.finished) {
    const { winner, points } = state.finished.scoring;
    const result = winner ? `${wins(names[winner])} ${points} point${points === 1 ? "" : "s"}` : "equal sums";
    return `Battle ${state.finished.number} is over: ${result}. Next battle when you are ready.`;
  }
  if (two() && m.chooser) return `${NAMES[m.chooser]} lost the last battle with a winner: ${NAMES[m.chooser]} chooses who starts.`;
  if (m.chooser === m.human) return "You lost the last battle with a winner: choose who starts.";
  if (two()) {
    const last = m.battle.plies[m.battle.plies.length - 1];
    const before = last ? `${NAMES[last.mover]} lifted pile ${last.move}. ` : "";
    return `${before}${NAMES[m.to_move]} to move: lift a marked pile.`;
  }
  if (mine()) {
    const last = m.battle.plies[m.battle.plies.length - 1];
    const before = last && last.mover !== m.human ? `The AI lifted pile ${last.move} (marked). ` : "";
    return `${before}Your move (${NAMES[m.human]}): lift a marked pile.`;
  }
  return "The AI is thinking…";
}
