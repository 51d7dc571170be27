"""Match rules 7 to 9 on scripted battles: scores, next starter, the tie rule, the end."""

from __future__ import annotations

from functools import cache
from types import ModuleType

import buttonup.reference as ref
import pytest
from buttonup import IllegalMoveError, Player

RED, BLACK = Player.RED, Player.BLACK
ORDER = "WRBWBRRWB"


@cache
def line_with_margin(order: str, margin: int) -> tuple[int, ...]:
    """Some move sequence from ``order`` whose final Red-minus-Black margin is
    ``margin``, found by depth-first search on the reference engine (sowing does not
    depend on who moves, so the line works whoever starts)."""

    def search(position: ref.Position, moves: tuple[int, ...]) -> tuple[int, ...] | None:
        if position.is_over:
            return moves if position.margin() == margin else None
        for move in position.legal_moves():
            found = search(position.play(move), (*moves, move))
            if found is not None:
                return found
        return None

    found = search(ref.Position.start(order), ())
    assert found is not None, f"no line from {order} ends {margin:+d}"
    return found


def play_battle(match: object, margin: int) -> None:
    order = match.position.piles  # type: ignore[attr-defined]
    for move in line_with_margin("".join(order), margin):
        match.play(move)  # type: ignore[attr-defined]


def test_scores_and_the_player_behind_starts(engine: ModuleType) -> None:
    match = engine.Match(RED, deals=[ORDER] * 5)
    assert match.starter is RED and match.to_move is RED and match.scores == (0, 0)
    play_battle(match, +3)
    assert match.scores == (3, 0)
    assert len(match.battles) == 1
    battle = match.battles[0]
    assert (battle.winner, battle.points, battle.starter) == (RED, 3, RED)
    assert battle.red - battle.black == 3 and battle.final.is_over
    assert battle.moves == line_with_margin(ORDER, 3)
    # Black has fewer points, so Black starts.
    assert match.starter is BLACK and match.position.to_move is BLACK
    assert match.moves == ()
    play_battle(match, -1)
    assert match.scores == (3, 1) and match.starter is BLACK


def test_tie_rule_loser_of_last_decided_battle_chooses(engine: ModuleType) -> None:
    match = engine.Match(RED, deals=[ORDER] * 6)
    play_battle(match, +2)
    play_battle(match, -2)  # 2-2: Red lost the last battle with a winner
    assert match.scores == (2, 2)
    assert match.chooser is RED
    assert match.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="Red must first choose who starts"):
        match.play(0)
    match.choose_starter(BLACK)
    assert match.chooser is None and match.starter is BLACK
    # A drawn battle does not count: the last battle with a winner is still Black's,
    # so Red chooses again.
    play_battle(match, 0)
    assert match.scores == (2, 2)
    assert match.chooser is RED
    with pytest.raises(IllegalMoveError, match="no choice of starter is due"):
        engine.Match(RED).choose_starter(RED)


def test_draws_before_any_winner_keep_the_first_starter(engine: ModuleType) -> None:
    match = engine.Match(BLACK, deals=[ORDER] * 3)
    play_battle(match, 0)
    assert match.scores == (0, 0) and match.chooser is None
    assert match.starter is BLACK
    play_battle(match, 0)
    assert match.starter is BLACK and len(match.battles) == 2


def test_match_ends_at_the_target(engine: ModuleType) -> None:
    match = engine.Match(RED, deals=[ORDER] * 10)
    play_battle(match, -12)
    assert match.winner is None and match.starter is RED
    play_battle(match, -3)
    assert match.scores == (0, 15)
    assert match.winner is BLACK and match.is_over
    with pytest.raises(IllegalMoveError, match="the match is over: Black won"):
        match.play(0)


def test_custom_target(engine: ModuleType) -> None:
    match = engine.Match(RED, target=3, deals=[ORDER] * 3)
    play_battle(match, 2)
    assert not match.is_over
    play_battle(match, 1)
    assert match.winner is RED and match.scores == (3, 0)
    with pytest.raises(ValueError, match="target must be from 1 to 1000"):
        engine.Match(RED, target=0)


def play_out(match: object) -> list[str]:
    """Plays a whole match with the first legal move, resolving choices by choosing the
    other player; returns the history as text."""
    while not match.is_over:  # type: ignore[attr-defined]
        if match.chooser is not None:  # type: ignore[attr-defined]
            match.choose_starter(match.chooser.other)  # type: ignore[attr-defined]
        else:
            match.play(match.legal_moves()[0])  # type: ignore[attr-defined]
    return [
        f"{b.starter} {b.start} {b.moves} {b.red}-{b.black}"
        for b in match.battles  # type: ignore[attr-defined]
    ]


def test_seeded_matches_are_reproducible_and_engine_independent(engine: ModuleType) -> None:
    first = play_out(engine.Match(RED, seed=11))
    assert first == play_out(engine.Match(RED, seed=11))
    assert first == play_out(ref.Match(RED, seed=11))
    assert first != play_out(engine.Match(RED, seed=12))


def test_variant_matches(engine: ModuleType) -> None:
    match = engine.Match(RED, per_colour=4, seed=3)
    assert len(match.position.piles) == 12
    history = play_out(match)
    assert history and max(match.scores) >= 15
