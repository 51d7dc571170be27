"""Makes the pictures of docs/ with ``buttonup.svg``, the library's own drawing.

    python docs/make_pictures.py          # writes them
    python docs/make_pictures.py --check  # exits 1 if a committed one is out of date

``tests/rules/test_svg.py`` checks that the committed pictures are what this script makes now.
"""

from __future__ import annotations

import sys
from pathlib import Path

from buttonup import Position, svg

DOCS = Path(__file__).resolve().parent

#: A battle that reaches ``RWBBWW/BRR r``, a tall pile (found by a search
#: over the 3,360 starts): its start and moves.
TALL_START = "BBRRBWWRW"
TALL_MOVES = (6, 5, 6, 5, 1, 0, 1)


def pictures() -> dict[str, str]:
    """Each picture's file name in docs/ and its SVG text."""
    start = Position("W/R/B/W/B/R/R/W/B r")
    tall = svg.walk(Position.start(TALL_START), TALL_MOVES)
    assert str(tall.position) == "RWBBWW/BRR r"
    # A battle of 9 buttons of each colour, 12 moves in (each the last legal pile).
    variant_start = Position.start("WRBRWBBWR" * 3)
    variant, played = variant_start, []
    for _ in range(12):
        played.append(variant.legal_moves()[-1])
        variant = variant.play(played[-1])
    return {
        "board.svg": svg.position(start),
        "board-move.svg": svg.walk(start, [3]).svg(),
        "board-tall.svg": tall.svg(),
        "board-variant.svg": svg.walk(variant_start, played).svg(),
        "tower.svg": svg.tower(Position("RBWWBRWBR b"), size=360),
    }


def main(argv: list[str]) -> int:
    check = argv == ["--check"]
    if argv and not check:
        print("usage: python docs/make_pictures.py [--check]", file=sys.stderr)
        return 2
    stale = []
    for name, text in pictures().items():
        path = DOCS / name
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        stale.append(name)
        if not check:
            path.write_text(text, encoding="utf-8")
    if check and stale:
        print(f"out of date: {', '.join(stale)} (run python docs/make_pictures.py)")
        return 1
    done = "checked" if check else "wrote"
    print(f"{done} the pictures of docs/: {len(stale)} changed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
