"""Both engines against the golden playthroughs of tests/data/playthroughs.txt, whose
records were worked out by hand or by tests/independent_perft.py (never by the code
under test)."""

from __future__ import annotations

from types import ModuleType

import independent_perft
from harness import DATA

GOLDEN = DATA / "playthroughs.txt"


def records() -> list[tuple[str, list[str]]]:
    out = []
    for line in GOLDEN.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            kind, rest = line.split(" ", 1)
            out.append((kind, rest.split(" | ")))
    return out


def test_the_golden_records_follow_from_the_rules_text() -> None:
    # The independent implementation of tests/independent_perft.py: the source of the
    # perft counts too long to count by hand, and a second look at the others.
    assert independent_perft.check(GOLDEN) == len(records()) >= 40


def test_golden_playthroughs(each_engine: ModuleType) -> None:
    checked = 0
    for kind, fields in records():
        if kind == "play":
            before, move, after, extra = fields
            position = each_engine.Position(before)
            outcome = position.outcome(int(move))
            assert str(outcome.position) == after, fields
            assert outcome.position == each_engine.Position(after) == position.play(int(move))
            assert outcome.extra_move == (extra == "extra"), fields
            assert position.gives_extra_move(int(move)) == (extra == "extra"), fields
        elif kind == "score":
            final, red, black = fields
            assert each_engine.Position(final).sums() == (int(red), int(black))
            scoring = each_engine.Position(final).scoring()
            assert (scoring.red, scoring.black) == (int(red), int(black))
        elif kind == "perft":
            text, depth, count = fields
            assert each_engine.perft(each_engine.Position(text), int(depth)) == int(count), fields
        else:
            raise AssertionError(f"unknown record {kind}")
        checked += 1
    assert checked >= 40
