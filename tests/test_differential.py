"""The Rust engine against the pure-Python reference."""

from __future__ import annotations

from typing import Any

import buttonup
import buttonup.reference as ref
from buttonup.testing import strategies as bst
from hypothesis import given
from hypothesis import strategies as st

from conftest import all_start_orders


def replay(engine: Any, order: str, to_move: buttonup.Player, choices: list[int]) -> list[Any]:
    """The positions of a battle from ``order``, picking the legal move ``choices[i]``
    (modulo the number of legal moves) at each step."""
    position = engine.Position.start(order, to_move)
    line = [position]
    for choice in choices:
        if position.is_over:
            break
        moves = position.legal_moves()
        position = position.play(moves[choice % len(moves)])
        line.append(position)
    return line


@given(
    per_colour=st.integers(1, 7),
    data=st.data(),
    to_move=bst.players(),
    choices=st.lists(st.integers(0, 50), min_size=0, max_size=21),
)
def test_engines_agree_along_random_battles(
    per_colour: int, data: st.DataObject, to_move: buttonup.Player, choices: list[int]
) -> None:
    order = data.draw(bst.start_orders(per_colour))
    rust_line = replay(buttonup, order, to_move, choices)
    ref_line = replay(ref, order, to_move, choices)
    assert [str(p) for p in rust_line] == [str(p) for p in ref_line]
    for rust, reference in zip(rust_line, ref_line):
        assert rust.piles == reference.piles
        assert rust.to_move is reference.to_move
        assert rust.is_over == reference.is_over
        assert rust.legal_moves() == reference.legal_moves()
        assert buttonup.Position(str(rust)) == rust
        assert str(ref.Position(str(reference))) == str(reference)
        # Every legal move, not only the one played, gives the same position.
        for move in rust.legal_moves():
            assert str(rust.play(move)) == str(reference.play(move))
        if rust.is_over:
            assert rust.strengths() == reference.strengths()
            assert rust.margin() == reference.margin()


@given(bst.reachable_positions(st.integers(1, 7)), st.integers(-3, 40))
def test_engines_agree_on_every_move_index(position: Any, move: int) -> None:
    reference = ref.Position(str(position))
    rust_outcome = outcome(lambda: position.play(move))
    ref_outcome = outcome(lambda: reference.play(move))
    assert rust_outcome == ref_outcome


def outcome(action: Any) -> tuple[str, str]:
    try:
        return ("ok", str(action()))
    except ValueError as error:
        return (type(error).__name__, str(error))


NOTATION_ALPHABET = st.sampled_from(list("RBWrb/ \t\nxX0é"))


@given(st.text(NOTATION_ALPHABET, max_size=40) | st.text(max_size=20))
def test_engines_agree_on_any_text(text: str) -> None:
    assert outcome(lambda: buttonup.Position(text)) == outcome(lambda: ref.Position(text))
    assert outcome(lambda: buttonup.Position.start(text)) == outcome(
        lambda: ref.Position.start(text)
    )


@given(st.integers(0, 2**64 - 1), st.integers(1, 10), bst.players())
def test_seeded_random_starts_are_the_same_in_both_engines(
    seed: int, per_colour: int, to_move: buttonup.Player
) -> None:
    rust = buttonup.Position.random(seed, to_move, per_colour)
    reference = ref.Position.random(seed, to_move, per_colour)
    assert str(rust) == str(reference)
    assert sorted("".join(rust.piles)) == sorted(
        "R" * per_colour + "B" * per_colour + "W" * per_colour
    )


def test_perft_to_the_end_agrees_on_all_1680_starts() -> None:
    orders = all_start_orders()
    assert len(orders) == 1680
    total = 0
    for order in orders:
        rust = buttonup.perft(buttonup.Position.start(order), 8)
        reference = ref.perft(ref.Position.start(order), 8)
        assert rust == reference, order
        total += rust
    # Perft to depth 9 adds nothing: every battle of nine buttons has exactly 8 moves.
    assert buttonup.perft(buttonup.Position.start(orders[0]), 9) == buttonup.perft(
        buttonup.Position.start(orders[0]), 8
    )
    assert total > 1680
