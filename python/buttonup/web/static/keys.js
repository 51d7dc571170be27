// The page's keys, outside text fields: a pile's number lifts it, H asks a hint, U
// takes back, ←/→ step through the battle shown, Esc goes back to the game. (On the
// board, the arrow keys go round the liftable piles and Enter lifts one: board.js.)

// `page` gives the state and actions of app.js: state, mine(), lift(pile), hint(),
// undo(), showPly(ply), liveBattle(), shownBattle().
export function setUpKeys(page) {
  const { state } = page;
  document.addEventListener("keydown", (event) => {
    const tag = event.target.tagName;
    if (["INPUT", "SELECT", "TEXTAREA"].includes(tag) || event.ctrlKey || event.metaKey || event.altKey) return;
    const m = state.match;
    if (!m) return;
    if (/^[0-9]$/.test(event.key) && page.mine() && state.view === null && m.legal_moves.includes(Number(event.key))) {
      page.lift(Number(event.key));
    } else if (event.key === "h" || event.key === "H") {
      page.hint();
    } else if (event.key === "u" || event.key === "U") {
      page.undo();
    } else if (event.key === "Escape" && state.view !== null) {
      state.past = null;
      page.showPly(page.liveBattle().plies.length);
    } else if ((event.key === "ArrowLeft" || event.key === "ArrowRight") && !event.target.closest(".pile")) {
      const at = state.view === null ? page.shownBattle().plies.length : state.view;
      page.showPly(at + (event.key === "ArrowLeft" ? -1 : 1));
      event.preventDefault();
    }
  });
}
