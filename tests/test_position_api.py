"""The Position API: value semantics, notation, variants."""

from __future__ import annotations

import copy
import pickle
from types import ModuleType

import pytest
from buttonup import Player

START = "W/R/B/W/B/R/R/W/B r"


def test_value_semantics(engine: ModuleType) -> None:
    a, b = engine.Position(START), engine.Position(START)
    assert a == b and hash(a) == hash(b)
    assert a != engine.Position(START[:-1] + "b")
    assert len({a, b, engine.Position("W/R b")}) == 2
    assert a != START
    assert repr(a) == f"Position('{START}')"
    assert str(a) == START
    assert pickle.loads(pickle.dumps(a)) == a
    assert copy.copy(a) == a and copy.deepcopy(a) == a
    with pytest.raises(AttributeError):
        a.piles = ()  # type: ignore[misc]


def test_accessors(engine: ModuleType) -> None:
    p = engine.Position("RW/B/WWB/R/W b")
    assert p.piles == ("RW", "B", "WWB", "R", "W")
    assert p.to_move is Player.BLACK
    assert p.is_over is False
    assert p.legal_moves() == [0, 2, 4]
    assert p.is_legal(2) and not p.is_legal(1) and not p.is_legal("2")
    after = p.play(4)
    assert str(after) == "RWW/B/WWB/R b"  # W lands on W: Black moves again
    assert str(p) == "RW/B/WWB/R/W b"  # the original is unchanged


def test_start_and_to_move(engine: ModuleType) -> None:
    p = engine.Position.start("WRBWBRRWB", Player.BLACK)
    assert str(p) == "W/R/B/W/B/R/R/W/B b"
    assert engine.Position.start("WRBWBRRWB").to_move is Player.RED


def test_surrounding_white_space_is_accepted(engine: ModuleType) -> None:
    assert str(engine.Position("  W/R \t b\n")) == "W/R b"


def test_random_starts(engine: ModuleType) -> None:
    assert engine.Position.random(7) == engine.Position.random(7)
    p = engine.Position.random(per_colour=5, to_move=Player.BLACK)
    assert len(p.piles) == 15 and all(len(pile) == 1 for pile in p.piles)
    assert sorted("".join(p.piles)) == sorted("RRRRRBBBBBWWWWW")
    assert p.to_move is Player.BLACK
    seen = {engine.Position.random(seed) for seed in range(200)}
    assert len(seen) > 150


@pytest.mark.parametrize("per_colour", [1, 2, 3, 4, 5, 7, 10])
def test_variant_battles_last_n_minus_1_moves(engine: ModuleType, per_colour: int) -> None:
    p = engine.Position.random(per_colour, Player.RED, per_colour)
    moves = 0
    while not p.is_over:
        p = p.play(p.legal_moves()[-1])
        moves += 1
    assert moves == 3 * per_colour - 1
    red, black = p.strengths()
    n = 3 * per_colour
    assert 0 < red + black < n * (n + 1) // 2
    assert p.margin() == red - black


def test_perft_small_depths(engine: ModuleType) -> None:
    p = engine.Position(START)
    assert engine.perft(p, 0) == 1
    assert engine.perft(p, 1) == len(p.legal_moves()) == 3
    assert engine.perft(p, 2) == sum(len(p.play(m).legal_moves()) for m in p.legal_moves())
