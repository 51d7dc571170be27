// The small chart over a battle: after every move, the player's chance of winning the
// match (the line, 0 to 100%) and his margin in the battle under perfect play (the
// bars, above the middle when he is ahead), both the engine's (Battle.points), picked
// for the player's colour. The position shown on the board is marked; a click on a
// point shows the position after that move.

import { h, percent, s, signed } from "./dom.js";

const W = 320;
const H = 110;
const PAD = 14;

export function drawChart(container, points, side, shown, onSelect) {
  const known = points.filter(Boolean);
  if (!known.length) {
    container.replaceChildren(h("p", { class: "muted" }, "The chart fills as the battle goes."));
    return;
  }
  const n = Math.max(points.length - 1, 8);
  const x = (i) => PAD + ((W - 2 * PAD) * i) / n;
  const y = (chance) => PAD + (H - 2 * PAD) * (1 - chance);
  const margins = known.map((p) => Math.abs(p.margin[side] ?? 0));
  const top = Math.max(4, ...margins);
  const mid = H / 2;
  const bar = (margin) => ((H / 2 - PAD) * margin) / top;
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart-svg", role: "img" });
  svg.append(
    s("rect", { class: "chart-bg", x: PAD, y: PAD, width: W - 2 * PAD, height: H - 2 * PAD }),
    s("line", { class: "chart-mid", x1: PAD, x2: W - PAD, y1: mid, y2: mid }),
  );
  const line = [];
  points.forEach((point, i) => {
    if (!point) return;
    const margin = point.margin[side];
    if (margin !== null && margin !== undefined) {
      const height = bar(margin);
      svg.append(s("rect", {
        class: margin >= 0 ? "chart-bar up" : "chart-bar down",
        x: x(i) - 3, width: 6, y: margin >= 0 ? mid - height : mid, height: Math.max(Math.abs(height), 1),
      }));
    }
    const chance = point.chance[side];
    if (chance !== null && chance !== undefined) line.push(`${x(i)},${y(chance)}`);
  });
  if (line.length) svg.append(s("polyline", { class: "chart-line", points: line.join(" ") }));
  if (shown !== null && shown < points.length) {
    svg.append(s("line", { class: "chart-now", x1: x(shown), x2: x(shown), y1: PAD, y2: H - PAD }));
  }
  points.forEach((point, i) => {
    const hit = s("rect", { class: "chart-hit", x: x(i) - 6, y: 0, width: 12, height: H });
    const title = point
      ? `${i ? `After move ${i}` : "Start"}: your chance ${percent(point.chance[side])}, margin ${signed(point.margin[side])}`
      : `${i ? `After move ${i}` : "Start"}`;
    hit.append(s("title", {}, title));
    hit.addEventListener("click", () => onSelect(i));
    svg.append(hit);
  });
  const last = known[known.length - 1];
  const shownPoint = points[shown] || last;
  svg.setAttribute("aria-label",
    `Your chance of winning the match ${percent(shownPoint.chance[side])}, your margin in the battle ${signed(shownPoint.margin[side])}`);
  container.replaceChildren(
    svg,
    h("p", { class: "chart-legend" },
      h("span", { class: "key key-line" }), " your match chance ",
      h("strong", { id: "chart-chance" }, percent(shownPoint.chance[side])),
      h("span", { class: "key key-bar" }), " your margin ",
      h("strong", { id: "chart-margin" }, signed(shownPoint.margin[side]))),
  );
}
