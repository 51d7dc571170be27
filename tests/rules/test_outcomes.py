"""What a move does: ``Position.outcome`` (the position, the extra move of rule 4 and the
drops of rule 3) and the scoring of rule 6, in both engines, on every position reachable
from the standard starts and on random battles of variants."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import buttonup
import pytest
from buttonup import BattleNotOverError, IllegalMoveError, Player, Position
from buttonup.testing import strategies as bst
from harness import agree_ok
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


def check_outcome(position: Any, move: int) -> Any:
    """``position.outcome(move)``, checked against ``play``, ``gives_extra_move`` and the
    rules: the drops go clockwise from the pile after the lifted one, one button each
    (the last pile taking the rest on an overflow), and they explain the new piles."""
    outcome = position.outcome(move)
    assert outcome.position == position.play(move), (position, move)
    assert outcome.extra_move == position.gives_extra_move(move), (position, move)
    assert isinstance(outcome.drops, tuple)
    piles = list(position.piles)
    lifted = piles[move]
    assert len(outcome.drops) == len(lifted)
    clockwise = [(move + step) % len(piles) for step in range(1, len(piles))]
    assert list(outcome.drops) == [
        clockwise[min(j, len(clockwise) - 1)] for j in range(len(lifted))
    ]
    for button, target in zip(lifted, outcome.drops):
        piles[target] += button
    del piles[move]
    assert outcome.position.piles == tuple(piles)
    # Rule 4: the mover moves again exactly after an extra move, unless the battle ended.
    mover_again = outcome.position.to_move is position.to_move
    assert outcome.extra_move == (mover_again and not outcome.position.is_over)
    return outcome


def test_every_reachable_position_agrees() -> None:
    positions = reachable_from_standard_starts()
    assert len(positions) > 50_000
    extra_moves = finished = overflows = 0
    for position in sorted(positions):
        text = str(position)
        if position.is_over:
            scoring, sums = agree_ok(
                lambda e, t=text: (e.Position(t).scoring(), e.Position(t).sums())
            )
            assert sums == (dict(scoring[1:])["red"], dict(scoring[1:])["black"])
            finished += 1
            continue
        for move in position.legal_moves():
            outcome = dict(agree_ok(lambda e, t=text, m=move: check_outcome(e.Position(t), m))[1:])
            extra_moves += outcome["extra_move"]
            overflows += len(set(outcome["drops"])) < len(outcome["drops"])
    assert finished > 1000 and extra_moves > 1000 and overflows > 1000


@given(bst.reachable_positions(per_colour=st.integers(1, 7)), st.data())
def test_random_variant_battles_agree(position: Position, data: st.DataObject) -> None:
    text = str(position)
    if position.is_over:
        agree_ok(lambda e: (e.Position(text).scoring(), e.Position(text).sums()))
        return
    move = data.draw(st.sampled_from(position.legal_moves()))
    agree_ok(lambda e: check_outcome(e.Position(text), move))


def test_outcome_is_plain_data(each_engine: ModuleType) -> None:
    outcome = each_engine.Position("RW/B/W/B/R/R/W/B r").outcome(0)
    # The worked example of docs/rules.md: the white lands on a white.
    assert outcome == buttonup.results.MoveOutcome(
        each_engine.Position("BR/WW/B/R/R/W/B r"), True, (1, 2)
    )
    assert isinstance(outcome, buttonup.results.MoveOutcome)
    # An overflow: three buttons, two other piles (docs/rules.md).
    overflow = each_engine.Position("RBW/BR/WW r").outcome(0)
    assert (str(overflow.position), overflow.extra_move, overflow.drops) == (
        "BRR/WWBW b",
        False,
        (1, 2, 2),
    )


def test_outcome_errors(each_engine: ModuleType) -> None:
    position = each_engine.Position("W/R/B/W/B/R/R/W/B r")
    for call in (position.outcome, position.gives_extra_move, position.play):
        with pytest.raises(IllegalMoveError, match="pile 1 \\(R\\) has no white button"):
            call(1)
        with pytest.raises(IllegalMoveError, match="there is no pile 9"):
            call(9)
    with pytest.raises(BattleNotOverError):
        position.scoring()
    with pytest.raises(BattleNotOverError):
        position.sums()
    with pytest.raises(IllegalMoveError, match="the battle is over"):
        each_engine.Position("RBWBR b").outcome(0)
    scoring = each_engine.Position("RBWBR b").scoring()
    assert (scoring.red, scoring.black, scoring.winner, scoring.points) == (6, 6, None, 0)
    assert scoring.strengths(Player.RED) == (1, 5)


def test_the_engines_share_the_result_classes(each_engine: ModuleType) -> None:
    assert type(each_engine.Position("RBWBR b").scoring()) is buttonup.Scoring
    assert type(each_engine.Position("W/W r").outcome(0)) is buttonup.results.MoveOutcome
