"""An independent, tiny Button Up! written from the rules text (docs/rules.md, rules 2
to 6) and nothing else: the source of the golden numbers of tests/data/playthroughs.txt
that are too long to count by hand.

It shares no code with ``python/buttonup`` (it imports nothing from it) and is
deliberately written another way: a position is a list of strings, the sowing turns the
circle so that the lifted pile's successor comes first, and perft counts piles only
(who moves changes no move). Run ``python tests/independent_perft.py`` to recompute and
check every record of the data file; tests/rules/test_golden.py does that too.
"""

from __future__ import annotations

import sys
from pathlib import Path

DATA = Path(__file__).parent / "data" / "playthroughs.txt"


def parse(text: str) -> tuple[list[str], str]:
    """``"RW/B r"`` -> (["RW", "B"], "r")."""
    piles, side = text.split()
    return piles.split("/"), side


def write(piles: list[str], side: str) -> str:
    return "/".join(piles) + " " + side


def lift(piles: list[str], index: int) -> tuple[list[str], bool]:
    """Rules 3 and 4: the piles after lifting ``piles[index]``, and whether the mover
    moves again."""
    hand = piles[index]
    assert "W" in hand, "rule 2: only a pile with a white button may be lifted"
    # The circle turned so that the pile after the lifted one comes first.
    circle = piles[index + 1 :] + piles[:index]
    k, m = len(hand), len(circle)
    if k <= m:
        # Rule 3: one button on each of the first k piles.
        for j in range(k):
            circle[j] = circle[j] + hand[j]
        # Rule 4: the last button on its own colour, and more than one pile left.
        again = m > 1 and circle[k - 1][-1] == circle[k - 1][-2]
    else:
        # Rule 3, overflow: one on each of the first m - 1, the rest on the last.
        for j in range(m - 1):
            circle[j] = circle[j] + hand[j]
        circle[m - 1] = circle[m - 1] + hand[m - 1 :]
        again = False
    # Turned back: the piles before the lifted one are the last `index` of the circle.
    return circle[m - index :] + circle[: m - index], again


def play(text: str, move: int) -> tuple[str, bool]:
    piles, side = parse(text)
    after, again = lift(piles, move)
    if not again:
        side = {"r": "b", "b": "r"}[side]
    return write(after, side), again


def sums(tower: str) -> tuple[int, int]:
    """Rule 6: Red's and Black's sums, the bottom button worth 1."""
    red = sum(height for height, button in enumerate(tower, 1) if button == "R")
    black = sum(height for height, button in enumerate(tower, 1) if button == "B")
    return red, black


def perft(piles: list[str], depth: int) -> int:
    """Move sequences of length ``depth``; one that ends the battle sooner counts once."""
    if depth == 0 or len(piles) == 1:
        return 1
    return sum(perft(lift(piles, i)[0], depth - 1) for i, pile in enumerate(piles) if "W" in pile)


def check(path: Path = DATA) -> int:
    """Checks every record of the golden file; returns how many."""
    checked = 0
    for number, line in enumerate(path.read_text().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        kind, rest = line.split(" ", 1)
        fields = rest.split(" | ")
        where = f"{path.name}:{number}: {line}"
        if kind == "play":
            before, move, after, extra = fields
            assert play(before, int(move)) == (after, extra == "extra"), where
        elif kind == "score":
            final, red, black = fields
            piles, _ = parse(final)
            assert len(piles) == 1 and sums(piles[0]) == (int(red), int(black)), where
        elif kind == "perft":
            text, depth, count = fields
            assert perft(parse(text)[0], int(depth)) == int(count), where
        else:
            raise AssertionError(f"{where}: unknown record")
        checked += 1
    return checked


if __name__ == "__main__":
    if len(sys.argv) == 3:  # python tests/independent_perft.py "POSITION" DEPTH
        print(perft(parse(sys.argv[1])[0], int(sys.argv[2])))
    else:
        print(f"{check()} records agree with the independent rules")
