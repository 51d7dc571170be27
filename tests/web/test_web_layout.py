"""The board as the browser lays it out: for a sample of positions (battles of 1 to 10
buttons a colour played part way at random, piles as tall as the engine allows, and one
pile of all 27 buttons of a 9-a-colour battle), every button's box
(``getBoundingClientRect`` of its face) lies inside the board's drawing on the screen,
and no button covers another: the buttons are round, so two overlap when the distance
between the centres of their boxes is less than the sum of their radii (half their
boxes' widths). The positions are loaded in one page session through the analysis
board (``window.buttonup.analysis.draw``), at 1200x900 and at 390x844."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from buttonup import Position
from test_web_browser import (  # noqa: F401
    browser,
    downloads,
    server,
    shots,
    viewport,
    wait_for,
)

#: Screen pixels of slack for rounding (a box's edges are fractions of a pixel).
SLACK = 0.5

MEASURE = """
const [positions, done] = [arguments[0], arguments[arguments.length - 1]];
(async () => {
  const out = [];
  for (const position of positions) {
    await window.buttonup.analysis.draw(position);
    const svg = document.querySelector('#analysis-board svg');
    const frame = svg.getBoundingClientRect();
    const faces = [...svg.querySelectorAll('.button .face')].map((face) => {
      const r = face.getBoundingClientRect();
      return [r.left, r.top, r.right, r.bottom];
    });
    out.push({position, drawn: svg.dataset.position,
      frame: [frame.left, frame.top, frame.right, frame.bottom], faces});
  }
  done(out);
})().catch((error) => done({error: String(error)}));
"""


def sample(count: int, seed: int = 2026) -> list[str]:
    """Positions of battles of 1 to 10 buttons a colour, each played a random number
    of random moves from a random start, and the tallest piles."""
    rng = random.Random(seed)
    out = ["RBW" * 9 + " r", "RRRRRRRRRBBBBBBBBBWWWWWWWWW b", "W/" + "RB" * 15 + " r"]
    while len(out) < count:
        per_colour = rng.choice([1, 2, 3, 3, 3, 4, 5, 6, 7, 8, 9, 10])
        position = Position.random(rng.randrange(2**32), per_colour=per_colour)
        for _ in range(rng.randrange(3 * per_colour)):
            if position.is_over:
                break
            position = position.play(rng.choice(position.legal_moves()))
        out.append(str(position))
    return out


def overlaps(faces: list[list[float]]) -> list[tuple[int, int]]:
    found = []
    discs = [((a + c) / 2, (b + d) / 2, (c - a) / 2) for a, b, c, d in faces]
    for i, (x1, y1, r1) in enumerate(discs):
        for j in range(i + 1, len(discs)):
            x2, y2, r2 = discs[j]
            if ((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5 < r1 + r2 - SLACK:
                found.append((i, j))
    return found


@pytest.mark.parametrize("size", [(1200, 900), (390, 844)])
def test_every_button_is_whole_and_apart(
    server: str,  # noqa: F811
    browser: Any,  # noqa: F811
    shots: Path,  # noqa: F811
    size: tuple[int, int],
) -> None:
    viewport(browser, *size)
    browser.get(f"{server}/")
    wait_for(browser, lambda b: b.execute_script("return document.body.dataset.ready"))
    browser.set_script_timeout(120)
    positions = sample(220 if size[0] > 1000 else 60)
    results = browser.execute_async_script(MEASURE, positions)
    assert isinstance(results, list), results
    tallest = 0
    for result in results:
        position = Position(result["position"])
        assert result["drawn"] == str(position)
        assert len(result["faces"]) == sum(len(pile) for pile in position.piles)
        left, top, right, bottom = result["frame"]
        assert right - left > 100, "the board is drawn at a visible size"
        for a, b, c, d in result["faces"]:
            assert c - a > 2, f"{position}: a button too small to see"
            inside = a >= left - SLACK and b >= top - SLACK
            assert inside and c <= right + SLACK and d <= bottom + SLACK, (
                f"{position}: a button outside the board"
            )
        assert not overlaps(result["faces"]), f"{position}: buttons overlap"
        tallest = max(tallest, max(len(pile) for pile in position.piles))
    assert tallest >= 27
    browser.execute_async_script(MEASURE, ["RBW" * 9 + " r"])
    browser.execute_script("document.getElementById('analysis').scrollIntoView()")
    browser.save_screenshot(str(shots / f"tall-pile-{size[0]}.png"))
    viewport(browser, 1200, 900)


def test_the_overlap_check_finds_what_it_is_for() -> None:
    assert overlaps([[0, 0, 10, 10], [6, 0, 16, 10]]) == [(0, 1)]
    assert overlaps([[0, 0, 10, 10], [10, 0, 20, 10]]) == []  # touching
    # Diagonal neighbours: their boxes meet, their discs do not.
    assert overlaps([[0, 0, 10, 10], [7.1, 7.1, 17.1, 17.1]]) == []
