"""The Position API: value semantics, notation, variants."""

from __future__ import annotations

import copy
import pickle
from types import ModuleType

import pytest
from buttonup import Player

START = "W/R/B/W/B/R/R/W/B r"


def test_value_semantics(each_engine: ModuleType) -> None:
    a, b = each_engine.Position(START), each_engine.Position(START)
    assert a == b and hash(a) == hash(b)
    assert a != each_engine.Position(START[:-1] + "b")
    assert len({a, b, each_engine.Position("W/R b")}) == 2
    assert a != START
    assert repr(a) == f"Position('{START}')"
    assert str(a) == START
    assert pickle.loads(pickle.dumps(a)) == a
    assert copy.copy(a) == a and copy.deepcopy(a) == a
    with pytest.raises(AttributeError):
        a.piles = ()  # type: ignore[misc]


def test_accessors(each_engine: ModuleType) -> None:
    p = each_engine.Position("RW/B/WWB/R/W b")
    assert p.piles == ("RW", "B", "WWB", "R", "W")
    assert p.to_move is Player.BLACK
    assert p.is_over is False
    assert p.legal_moves() == [0, 2, 4]
    assert p.is_legal(2) and not p.is_legal(1) and not p.is_legal("2")
    after = p.play(4)
    assert str(after) == "RWW/B/WWB/R b"  # W lands on W: Black moves again
    assert str(p) == "RW/B/WWB/R/W b"  # the original is unchanged


def test_start_and_to_move(each_engine: ModuleType) -> None:
    p = each_engine.Position.start("WRBWBRRWB", to_move=Player.BLACK)
    assert str(p) == "W/R/B/W/B/R/R/W/B b"
    assert each_engine.Position.start("WRBWBRRWB").to_move is Player.RED
    assert each_engine.Position.start("WRBWBRRWB", to_move="b") == p
    assert each_engine.Position.start("WRBWBRRWB", to_move=None).to_move is Player.RED
    with pytest.raises(TypeError):
        each_engine.Position.start("WRBWBRRWB", Player.BLACK)  # keyword-only


def test_surrounding_white_space_is_accepted(each_engine: ModuleType) -> None:
    assert str(each_engine.Position("  W/R \t b\n")) == "W/R b"


def test_random_starts(each_engine: ModuleType) -> None:
    assert each_engine.Position.random(7) == each_engine.Position.random(7)
    assert each_engine.Position.random(7, to_move="r") == each_engine.Position.random(7)
    p = each_engine.Position.random(per_colour=5, to_move=Player.BLACK)
    assert len(p.piles) == 15 and all(len(pile) == 1 for pile in p.piles)
    assert sorted("".join(p.piles)) == sorted("RRRRRBBBBBWWWWW")
    assert p.to_move is Player.BLACK
    seen = {each_engine.Position.random(seed) for seed in range(200)}
    assert len(seen) > 150
    with pytest.raises(TypeError):
        each_engine.Position.random(7, Player.RED)  # keyword-only


@pytest.mark.parametrize("per_colour", [1, 2, 3, 4, 5, 7, 10])
def test_variant_battles_last_n_minus_1_moves(each_engine: ModuleType, per_colour: int) -> None:
    p = each_engine.Position.random(per_colour, per_colour=per_colour)
    moves = 0
    while not p.is_over:
        p = p.play(p.legal_moves()[-1])
        moves += 1
    assert moves == 3 * per_colour - 1
    red, black = p.sums()
    n = 3 * per_colour
    # The strengths 1 to n of the final pile, the white buttons' counting for nobody.
    whites = sum(height for height, button in enumerate(p.piles[0], 1) if button == "W")
    assert red + black + whites == n * (n + 1) // 2
    scoring = p.scoring()
    assert scoring.margin_for(Player.RED) == red - black == -scoring.margin_for(Player.BLACK)
    assert (scoring.sum(Player.RED), scoring.sum(Player.BLACK)) == (red, black)
    assert abs(red - black) <= each_engine.max_margin(per_colour)


def test_perft_small_depths(each_engine: ModuleType) -> None:
    p = each_engine.Position(START)
    assert each_engine.perft(p, 0) == 1
    assert each_engine.perft(p, 1) == len(p.legal_moves()) == 3
    assert each_engine.perft(p, 2) == 9  # counted by hand in tests/data/playthroughs.txt


def test_sorted_positions(each_engine: ModuleType) -> None:
    positions = [each_engine.Position.random(seed) for seed in range(30)]
    positions += [p.play(p.legal_moves()[0]) for p in positions]
    ordered = sorted(positions)
    assert [str(p) for p in ordered] == sorted(str(p) for p in positions)
    assert all(a <= b for a, b in zip(ordered, ordered[1:]))
