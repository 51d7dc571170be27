"""Variants as values: the start orders of a variant and the limits of each capability."""

from __future__ import annotations

import collections.abc
import itertools
import pickle
import random as random_module

import buttonup
import pytest
from buttonup import (
    STANDARD_PER_COLOUR,
    VARIANT_LIMITS,
    Player,
    Position,
    StartOrders,
    start_orders,
)


@pytest.mark.parametrize("per_colour", [1, 2, 3])
def test_start_orders_are_every_distinct_circle_in_order(per_colour: int) -> None:
    buttons = "R" * per_colour + "B" * per_colour + "W" * per_colour
    expected = sorted(set(map("".join, itertools.permutations(buttons))))
    assert start_orders(per_colour) == expected


def test_start_order_counts() -> None:
    # 9! / (3! 3! 3!) and 12! / (4! 4! 4!).
    assert len(start_orders()) == len(start_orders(STANDARD_PER_COLOUR)) == 1680
    assert len(start_orders(4)) == 34650


def test_start_orders_are_a_lazy_sequence_of_the_listing() -> None:
    expected = sorted(set(map("".join, itertools.permutations("RRRBBBWWW"))))
    orders = start_orders(3)
    assert isinstance(orders, collections.abc.Sequence) and isinstance(orders, StartOrders)
    assert len(orders) == 1680 and orders.per_colour == 3
    assert list(orders) == expected and list(reversed(orders)) == expected[::-1]
    assert [orders[i] for i in range(-1680, 1680, 37)] == [
        expected[i] for i in range(-1680, 1680, 37)
    ]
    for window in (slice(None), slice(5, 50, 7), slice(-3, None), slice(None, None, -5),
                   slice(1600, 1700), slice(40, 10), slice(10, 40, -1)):  # fmt: skip
        assert orders[window] == expected[window], window
    assert [orders.index(order) for order in expected[::41]] == list(range(0, 1680, 41))
    assert orders.index(expected[99], 99, 100) == 99
    with pytest.raises(ValueError, match="'RRRBBBWWW' is not a start order of 3 buttons"):
        orders.index("RRRBBBWWW", 0, 10)
    assert "WRBWBRRWB" in orders and orders.count("WRBWBRRWB") == 1
    for other in ("wrbwbrrwb", "WRBWBRRW", "WRBWBRRWR", 3, None):
        assert other not in orders and orders.count(other) == 0
    assert orders == expected and expected == orders and orders == tuple(expected)
    assert orders != expected[:-1] and orders != start_orders(2) and orders == start_orders(3)
    assert hash(orders) == hash(start_orders(3)) and repr(orders) == "start_orders(3)"
    assert pickle.loads(pickle.dumps(orders)) == orders
    with pytest.raises(IndexError):
        orders[1680]
    with pytest.raises(IndexError):
        orders[-1681]
    with pytest.raises(IndexError):
        orders[2**70]
    with pytest.raises(TypeError, match="indices must be integers or slices, not str"):
        orders["1"]  # type: ignore[call-overload]


def test_the_six_of_each_colour_listing_is_made_only_where_asked() -> None:
    # It used to be a list of 17 million strings: 5 s and 2.4 GB before the first.
    six = start_orders(6)
    assert len(six) == 17_153_136  # 18! / (6!)^3
    assert six[0] == "BBBBBBRRRRRRWWWWWW" and six[-1] == "WWWWWWRRRRRRBBBBBB"
    middle = six[8_000_000:8_000_010]
    assert middle == sorted(middle) and len(set(middle)) == 10
    assert all(sorted(order) == sorted("RBW" * 6) for order in middle)
    assert [six.index(order) for order in middle] == list(range(8_000_000, 8_000_010))
    assert six[8_000_000:8_000_010] == [six[i] for i in range(8_000_000, 8_000_010)]
    iterator = iter(six)
    assert [next(iterator) for _ in range(3)] == six[:3]
    assert iterator.__length_hint__() == len(six) - 3
    assert buttonup._core.start_orders_from(6, len(six) - 2, 5) == six[-2:]


@pytest.mark.parametrize("per_colour", [1, 2])
def test_all_positions_are_those_the_reference_rules_reach(per_colour: int) -> None:
    """The core's list against a breadth-first walk of the pure-Python reference engine
    (its own rules, not the core's), from every start, either player starting."""
    from buttonup import reference

    frontier = [
        reference.Position.start(order, to_move=player)
        for player in (Player.RED, Player.BLACK)
        for order in start_orders(per_colour)
    ]
    seen = set(frontier)
    while frontier:
        following = [p.play(m) for p in frontier for m in p.legal_moves()]
        frontier = [p for p in dict.fromkeys(following) if p not in seen]
        seen.update(frontier)
    listed = buttonup.all_positions(per_colour)
    assert len(set(listed)) == len(listed)
    assert sorted(map(str, listed)) == sorted(map(str, seen))


def test_all_positions_of_the_standard_game() -> None:
    positions = buttonup.all_positions()
    assert len(positions) == 112_760  # docs/rl.md
    assert sum(p.is_over for p in positions) == 112_760 - 109_840
    assert positions[:1680] == [Position.start(order) for order in start_orders()]
    listed = set(positions)
    assert all(p.play(m) in listed for p in positions[::97] for m in p.legal_moves())
    with pytest.raises(ValueError, match="every position is listed for 1 to 3 buttons"):
        buttonup.all_positions(4)


def test_limits_are_one_table_and_errors_name_them() -> None:
    assert VARIANT_LIMITS == {
        "rules": 10,
        "start_orders": 6,
        "move_graph": 3,
        "match_odds": 3,
        "positions": 3,
    }
    with pytest.raises(ValueError, match="start orders are listed for 1 to 6 buttons"):
        start_orders(7)
    with pytest.raises(ValueError, match="per_colour must be from 1 to 10, not 11"):
        Position.random(seed=1, per_colour=11)
    with pytest.raises(ValueError, match="match odds are computed for 1 to 3 buttons"):
        buttonup.win_probability(buttonup.Standing(0, 0, starter=Player.RED, per_colour=4))
    with pytest.raises(ValueError, match="per_colour must be from 1 to 10, not 0"):
        buttonup.Match(per_colour=0)


def test_the_match_bot_plays_bigger_variants_for_the_margin() -> None:
    from buttonup.ai import bot

    match = buttonup.Match(Player.RED, per_colour=4, seed=1)
    move = bot(10, seed=1).choose(match.position, match)
    assert match.position.is_legal(move)


def test_levels_make_fewer_random_moves_from_5_of_each_colour() -> None:
    """docs/ai.md: level 5 plays 24% random moves in the standard game and 18% from 5
    buttons of each colour (counted over positions near a battle's end, cheap to solve)."""
    from buttonup.ai import bot

    def share(per_colour: int) -> float:
        player = bot(5, seed=per_colour)
        random, seen, seed = 0, 0, 0
        while seen < 3000:
            seed += 1
            position = Position.random(seed, per_colour=per_colour)
            moves = random_module.Random(seed)
            while len(position.piles) > 5 and not position.is_over:
                position = position.play(moves.choice(position.legal_moves()))
            if position.is_over:
                continue
            player.choose(position)
            random += player.last_random
            seen += 1
        return random / seen

    assert bot(5).epsilon_for(3) == 0.24 and bot(5).epsilon_for(7) == 0.18
    # 3,000 draws: three standard deviations are about 0.023.
    assert abs(share(3) - 0.24) < 0.025
    assert abs(share(6) - 0.18) < 0.025
