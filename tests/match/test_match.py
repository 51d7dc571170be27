"""Match rules 7 to 9 on scripted battles, in both engines: scores, next starter, the tie
rule, the end, the standing, and the requests that the match state refuses."""

from __future__ import annotations

from types import ModuleType

import pytest
from buttonup import IllegalMoveError, MatchStateError, Player, Standing
from harness import agree_ok, line_with_margin

RED, BLACK = Player.RED, Player.BLACK
ORDER = "WRBWBRRWB"


def play_battle(match: object, margin: int) -> None:
    order = match.position.piles  # type: ignore[attr-defined]
    for move in line_with_margin("".join(order), margin):
        match.play(move)  # type: ignore[attr-defined]


def test_scores_and_the_player_behind_starts(each_engine: ModuleType) -> None:
    match = each_engine.Match(RED, deals=[ORDER] * 5)
    assert match.starter is RED and match.to_move is RED and match.scores == (0, 0)
    play_battle(match, +3)
    assert match.scores == (3, 0)
    assert len(match.battles) == 1
    battle = match.battles[0]
    assert (battle.winner, battle.points, battle.starter) == (RED, 3, RED)
    assert battle.red - battle.black == 3 and battle.final_position.is_over
    assert battle.scoring == battle.final_position.scoring()
    assert battle.moves == line_with_margin(ORDER, 3)
    # Black has fewer points, so Black starts.
    assert match.starter is BLACK and match.position.to_move is BLACK
    assert match.moves == ()
    play_battle(match, -1)
    assert match.scores == (3, 1) and match.starter is BLACK


def test_play_returns_what_the_move_did(each_engine: ModuleType) -> None:
    match = each_engine.Match(RED, deals=[ORDER] * 2)
    # The battle of docs/rules.md, played perfectly: 3 0 0+ 1+ 3 3 2+ 0.
    extra = []
    for move in (3, 0, 0, 1, 3, 3, 2):
        before = match.position
        outcome = match.play(move)
        assert outcome == before.outcome(move) and match.position == outcome.position
        extra.append(outcome.extra_move)
    assert extra == [False, False, True, True, False, False, True]
    last = match.play(0)
    assert str(last.position) == "RBWWBRWBR b" and last.position.is_over and not last.extra_move
    assert last.drops == (1, 1, 1, 1, 1)  # an overflow onto the only other pile
    assert match.battles[0].final_position == last.position
    # The match has already moved on: Black, behind, starts the second battle.
    assert str(match.position) == "W/R/B/W/B/R/R/W/B b"
    assert match.battles[0].scoring.red_strengths == (1, 6, 9)


def test_tie_rule_loser_of_last_decided_battle_chooses(each_engine: ModuleType) -> None:
    match = each_engine.Match(RED, deals=[ORDER] * 6)
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
    match.choose_starter("r")  # a side letter is a player too
    assert match.starter is RED and match.position.to_move is RED


def test_requests_the_match_state_refuses(each_engine: ModuleType) -> None:
    assert issubclass(MatchStateError, ValueError)
    assert not issubclass(MatchStateError, IllegalMoveError)
    fresh = each_engine.Match(RED)
    with pytest.raises(MatchStateError, match="no choice of starter is due"):
        fresh.choose_starter(RED)
    with pytest.raises(MatchStateError, match="to take back"):
        fresh.undo()  # nothing to undo
    match = each_engine.Match(RED, deals=[ORDER] * 3)
    match.play(3)
    assert match.undo() == 3 and match.moves == ()
    with pytest.raises(MatchStateError, match="to take back"):
        match.undo()
    play_battle(match, +2)
    with pytest.raises(MatchStateError, match="to take back"):
        match.undo()  # the battle is over: its moves stay
    play_battle(match, -2)
    assert match.chooser is RED
    with pytest.raises(MatchStateError, match="to take back"):
        match.undo()
    # A move while a choice is due is a move the rules refuse: IllegalMoveError.
    with pytest.raises(IllegalMoveError):
        match.play(0)
    with pytest.raises(ValueError):
        match.choose_starter("x")
    match.choose_starter(BLACK)
    with pytest.raises(MatchStateError, match="no choice of starter is due"):
        match.choose_starter(BLACK)


def test_the_standing(each_engine: ModuleType) -> None:
    match = each_engine.Match(BLACK, target=9, deals=[ORDER] * 6)
    assert match.standing == Standing(0, 0, target=9, starter=BLACK)
    match.play(match.legal_moves()[0])
    assert match.standing == Standing(0, 0, target=9, starter=BLACK)  # before this battle
    match.undo()
    play_battle(match, +3)
    assert match.standing == Standing(3, 0, target=9, last_loser=BLACK, starter=BLACK)
    play_battle(match, -3)  # 3-3, Red lost the latest decided battle: his choice is due
    assert match.standing == Standing(3, 3, target=9, last_loser=RED)
    match.choose_starter(RED)
    assert match.standing == Standing(3, 3, target=9, last_loser=RED, starter=RED)
    play_battle(match, +6)
    assert match.is_over and match.winner is RED
    assert match.standing == Standing(9, 3, target=9, last_loser=BLACK)
    assert each_engine.Match(per_colour=2, seed=1).standing.per_colour == 2


def test_draws_before_any_winner_keep_the_first_starter(each_engine: ModuleType) -> None:
    match = each_engine.Match(BLACK, deals=[ORDER] * 3)
    play_battle(match, 0)
    assert match.scores == (0, 0) and match.chooser is None
    assert match.starter is BLACK and match.last_loser is None
    play_battle(match, 0)
    assert match.starter is BLACK and len(match.battles) == 2


def test_match_ends_at_the_target(each_engine: ModuleType) -> None:
    match = each_engine.Match(RED, deals=[ORDER] * 10)
    play_battle(match, -12)
    assert match.winner is None and match.starter is RED
    play_battle(match, -3)
    assert match.scores == (0, 15) and match.target == 15
    assert match.winner is BLACK and match.is_over
    with pytest.raises(IllegalMoveError, match="the match is over: Black won"):
        match.play(0)


def test_custom_target(each_engine: ModuleType) -> None:
    match = each_engine.Match("r", target=3, deals=[ORDER] * 3)
    play_battle(match, 2)
    assert not match.is_over
    play_battle(match, 1)
    assert match.winner is RED and match.scores == (3, 0)
    with pytest.raises(ValueError, match="target must be from 1 to 1000"):
        each_engine.Match(RED, target=0)
    with pytest.raises(TypeError):
        each_engine.Match(first=RED)  # the old keyword is gone


def test_defaults(each_engine: ModuleType) -> None:
    match = each_engine.Match(seed=4)
    assert match.starter is RED and match.target == 15 and match.per_colour == 3
    assert (each_engine.Match(seed=4).position, each_engine.Match("b", seed=4).starter) == (
        match.position,
        BLACK,
    )


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


def test_seeded_matches_are_reproducible_and_engine_independent() -> None:
    first = agree_ok(lambda e: play_out(e.Match(RED, seed=11)))
    assert first == agree_ok(lambda e: play_out(e.Match(RED, seed=11)))
    assert first != agree_ok(lambda e: play_out(e.Match(RED, seed=12)))


def test_variant_matches(each_engine: ModuleType) -> None:
    match = each_engine.Match(RED, per_colour=4, seed=3)
    assert len(match.position.piles) == 12
    history = play_out(match)
    assert history and max(match.scores) >= 15
