"""Moves that say what happened: the extra move (rule 4) and the scoring (rule 6) of the
Rust engine against the reference, on every position reachable from the standard starts
and on random battles of variants."""

from __future__ import annotations

import buttonup
import buttonup.reference as ref
import pytest
from buttonup import BattleNotOverError, IllegalMoveError, Player, Position
from buttonup.testing import strategies as bst
from hypothesis import given
from hypothesis import strategies as st


def reachable_from_standard_starts() -> set[Position]:
    """Every position reachable from the 1,680 standard starts with Red to move (the
    sowing does not depend on who moves)."""
    frontier = {Position.start(order) for order in buttonup.start_orders()}
    seen = set(frontier)
    while frontier:
        frontier = {p.play(m) for p in frontier for m in p.legal_moves()} - seen
        seen |= frontier
    return seen


def test_every_reachable_position_agrees() -> None:
    positions = reachable_from_standard_starts()
    assert len(positions) > 50_000
    extra_moves = finished = 0
    for position in positions:
        oracle = ref.Position(str(position))
        if position.is_over:
            assert position.scoring() == oracle.scoring(), position
            finished += 1
            continue
        for move in position.legal_moves():
            assert position.drops(move) == oracle.drops(move), (position, move)
            gives = position.gives_extra_move(move)
            assert gives == oracle.gives_extra_move(move), (position, move)
            extra_moves += gives
    assert finished > 1000 and extra_moves > 1000


@given(bst.reachable_positions(per_colour=st.integers(1, 7)), st.data())
def test_random_variant_battles_agree(position: Position, data: st.DataObject) -> None:
    oracle = ref.Position(str(position))
    if position.is_over:
        assert position.scoring() == oracle.scoring()
        return
    move = data.draw(st.sampled_from(position.legal_moves()))
    assert position.gives_extra_move(move) == oracle.gives_extra_move(move)
    # The flag says what playing the move does.
    mover_again = position.play(move).to_move is position.to_move
    assert position.gives_extra_move(move) == (mover_again and not position.play(move).is_over)


@pytest.mark.parametrize("engine", [buttonup, ref])
def test_outcome_errors(engine: object) -> None:
    position = engine.Position("W/R/B/W/B/R/R/W/B r")  # type: ignore[attr-defined]
    with pytest.raises(IllegalMoveError, match="pile 1 \\(R\\) has no white button"):
        position.gives_extra_move(1)
    with pytest.raises(BattleNotOverError):
        position.scoring()
    scoring = engine.Position("RBWBR b").scoring()  # type: ignore[attr-defined]
    assert (scoring.red, scoring.black, scoring.winner, scoring.points) == (6, 6, None, 0)
    assert scoring.strengths(Player.RED) == (1, 5)
