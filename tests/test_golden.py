"""Both engines against the golden playthroughs of tests/data/playthroughs.txt."""

from __future__ import annotations

from types import ModuleType

from conftest import DATA


def records() -> list[tuple[str, list[str]]]:
    out = []
    for line in (DATA / "playthroughs.txt").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            kind, rest = line.split(" ", 1)
            out.append((kind, rest.split(" | ")))
    return out


def test_golden_playthroughs(engine: ModuleType) -> None:
    checked = 0
    for kind, fields in records():
        if kind == "play":
            before, move, after, extra = fields
            position = engine.Position(before)
            result = position.play(int(move))
            assert str(result) == after, fields
            assert result == engine.Position(after)
            assert position.gives_extra_move(int(move)) == (extra == "extra"), fields
        elif kind == "score":
            final, red, black = fields
            assert engine.Position(final).strengths() == (int(red), int(black))
            scoring = engine.Position(final).scoring()
            assert (scoring.red, scoring.black) == (int(red), int(black))
        elif kind == "perft":
            text, depth, count = fields
            assert engine.perft(engine.Position(text), int(depth)) == int(count), fields
        else:
            raise AssertionError(f"unknown record {kind}")
        checked += 1
    assert checked >= 30
