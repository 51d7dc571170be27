"""The Rust engine against the pure-Python reference (tests/harness.py: ``agree``):
positions along random battles, every move index, any text, seeded starts, perft."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import buttonup
from buttonup import Player
from buttonup.testing import strategies as bst
from harness import agree, agree_ok, all_start_orders
from hypothesis import given
from hypothesis import strategies as st


def replay(engine: ModuleType, order: str, to_move: Player, choices: list[int]) -> list[Any]:
    """The positions of a battle from ``order``, picking the legal move ``choices[i]``
    (modulo the number of legal moves) at each step."""
    position = engine.Position.start(order, to_move=to_move)
    line = [position]
    for choice in choices:
        if position.is_over:
            break
        moves = position.legal_moves()
        position = position.play(moves[choice % len(moves)])
        line.append(position)
    return line


def observe(position: Any) -> dict[str, object]:
    """Everything a position tells, every legal move's outcome included."""
    seen: dict[str, object] = {
        "text": str(position),
        "piles": position.piles,
        "to_move": position.to_move,
        "is_over": position.is_over,
        "legal_moves": position.legal_moves(),
        "round trip": type(position)(str(position)) == position,
        "outcomes": {move: position.outcome(move) for move in position.legal_moves()},
    }
    if position.is_over:
        seen["sums"] = position.sums()
        seen["scoring"] = position.scoring()
    return seen


@given(
    per_colour=st.integers(1, 7),
    data=st.data(),
    to_move=bst.players(),
    choices=st.lists(st.integers(0, 50), min_size=0, max_size=21),
)
def test_engines_agree_along_random_battles(
    per_colour: int, data: st.DataObject, to_move: Player, choices: list[int]
) -> None:
    order = data.draw(bst.start_orders(per_colour))
    line = agree_ok(lambda e: [observe(p) for p in replay(e, order, to_move, choices)])
    assert all(seen["round trip"] for seen in line)
    assert line[-1]["is_over"] or len(line) == len(choices) + 1


@given(bst.reachable_positions(st.integers(1, 7)), st.integers(-3, 40))
def test_engines_agree_on_every_move_index(position: Any, move: int) -> None:
    text = str(position)
    played = agree(lambda e: e.Position(text).play(move))
    assert agree(lambda e: e.Position(text).outcome(move))[0] == played[0]
    assert agree(lambda e: e.Position(text).gives_extra_move(move))[0] == played[0]


NOTATION_ALPHABET = st.sampled_from(list("RBWrb/ \t\nxX0é"))


@given(st.text(NOTATION_ALPHABET, max_size=40) | st.text(max_size=20))
def test_engines_agree_on_any_text(text: str) -> None:
    agree(lambda e: e.Position(text))
    agree(lambda e: e.Position.start(text))


@given(st.integers(0, 2**64 - 1), st.integers(1, 10), bst.players(), st.booleans())
def test_seeded_random_starts_are_the_same_in_both_engines(
    seed: int, per_colour: int, to_move: Player, as_letter: bool
) -> None:
    side: Player | str = to_move.letter if as_letter else to_move
    start = agree_ok(lambda e: e.Position.random(seed, to_move=side, per_colour=per_colour))
    piles = start[1].split()[0].split("/")
    assert sorted("".join(piles)) == sorted("RBW" * per_colour)
    assert start[1].split()[1] == to_move.letter


def test_perft_to_the_end_agrees_on_all_1680_starts() -> None:
    orders = all_start_orders()
    assert len(orders) == 1680
    total = 0
    for order in orders:
        count = agree_ok(lambda e, order=order: e.perft(e.Position.start(order), 8))
        total += count
    # Perft to depth 9 adds nothing: every battle of nine buttons has exactly 8 moves.
    start = buttonup.Position.start(orders[0])
    assert buttonup.perft(start, 9) == buttonup.perft(start, 8)
    assert total > 1680
