"""Arguments from Python: every int argument takes anything with ``__index__`` but a
bool, and a bad one is a ``ValueError`` or ``TypeError`` that names it and its range."""

from __future__ import annotations

import re
from collections.abc import Callable
from types import ModuleType

import buttonup
import pytest
from buttonup import Match, Player, Position, Searcher, perft, random_playouts, search
from buttonup.ai import bot
from harness import agree, agree_ok

START = Position("W/R/B/W/B/R/R/W/B r")

OUT_OF_RANGE: list[tuple[Callable[[], object], str]] = [
    (lambda: perft(START, -1), "depth must be from 0 to 4294967295, not -1"),
    (
        lambda: perft(START, 2**70),
        "depth must be from 0 to 4294967295, not 11805916207174113034...",
    ),
    (lambda: random_playouts(-1), "battles must be from 0 to 9223372036854775807, not -1"),
    (lambda: search(START, nodes=2**63), "nodes must be from 1 to 9223372036854775807, not 9223"),
    (lambda: search(START, depth=0), "depth must be from 1 to 4294967295, not 0"),
    (lambda: Position.random(per_colour=-1), "per_colour must be from 1 to 10, not -1"),
    (lambda: Position.random(per_colour=10**30), "per_colour must be from 1 to 10, not 1000"),
    (lambda: Position.random(seed=-1), "seed must be an int from 0 to 2**64 - 1, not -1"),
    (lambda: Match(target=0), "target must be from 1 to 1000, not 0"),
    (lambda: buttonup.start_orders(0), "start orders are listed for 1 to 6 buttons"),
    (lambda: Searcher(tt_mb=0), "tt_mb must be from 0.001 to 65536"),
    (lambda: Searcher(threads=0), "threads must be from 1 to 256, not 0"),
    (lambda: buttonup.analyze(START, threads=300), "threads must be from 1 to 256, not 300"),
]


@pytest.mark.parametrize("call, message", OUT_OF_RANGE)
def test_out_of_range_is_a_value_error_naming_the_argument(
    call: Callable[[], object], message: str
) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        call()


def test_bools_are_never_ints() -> None:
    for call, name in [
        (lambda: perft(START, True), "depth"),
        (lambda: random_playouts(True), "battles"),
        (lambda: search(START, depth=True), "depth"),
        (lambda: START.play(True), "a move"),
        (lambda: Match(target=True), "target"),
        (lambda: Position.random(per_colour=True), "per_colour"),
        (lambda: Searcher(threads=True), "threads"),
    ]:
        with pytest.raises(TypeError, match=f"{name} must be an int, not bool"):
            call()
    assert agree_ok(lambda e: e.Position(str(START)).is_legal(True)) is False


def test_numpy_integers_are_moves_in_both_engines(each_engine: ModuleType) -> None:
    np = pytest.importorskip("numpy")
    position = each_engine.Position(str(START))
    assert position.is_legal(np.int64(3))
    assert str(position.play(np.int64(3))) == "W/R/B/BW/R/R/W/B b"
    assert position.outcome(np.int64(3)).drops == (4,)
    assert each_engine.perft(position, np.int32(2)) == 9  # counted by hand: 3 + 3 + 3


def test_a_surrogate_in_notation_is_a_notation_error_in_both_engines(
    each_engine: ModuleType,
) -> None:
    with pytest.raises(buttonup.NotationError, match="non-ASCII character U\\+DC80 at index 3"):
        each_engine.Position("W/R\udc80 r")
    with pytest.raises(TypeError, match="a position must be given as a str, not int"):
        each_engine.Position(3)


PLAYER_ARGUMENTS: list[Callable[[ModuleType, object], object]] = [
    lambda e, p: e.Position.start("WRBWBRRWB", to_move=p),
    lambda e, p: e.Position.random(7, to_move=p),
    lambda e, p: e.Match(p, seed=1).starter,
    lambda e, p: e.Match(starter=p, seed=1).position,
    lambda e, p: e.Position("RBWWBRWBR b").scoring().margin_for(p),
    lambda e, p: e.Position("RBWWBRWBR b").scoring().sum(p),
    lambda e, p: e.Position("RBWWBRWBR b").scoring().strengths(p),
]


@pytest.mark.parametrize("call", PLAYER_ARGUMENTS)
def test_player_letters_are_players_in_both_engines(
    call: Callable[[ModuleType, object], object],
) -> None:
    for player in Player:
        by_letter = agree_ok(lambda e, p=player: call(e, p.letter))
        assert by_letter == agree_ok(lambda e, p=player: call(e, p))
    bad_players = (
        ("x", "ValueError"),
        ("R", "ValueError"),
        ("red", "ValueError"),
        (1, "TypeError"),
    )
    for bad, error in bad_players:
        kind, message = agree(lambda e, bad=bad: call(e, bad))
        assert kind == error, (bad, kind, message)


def test_player_letters_in_the_rust_only_calls() -> None:
    match = Match("r", deals=["WRBWBRRWB"] * 2)
    assert match.starter is Player.RED
    standing = buttonup.Standing(0, 0, starter="b")
    assert buttonup.win_probability(standing) == buttonup.win_probability(
        buttonup.Standing(0, 0, starter=Player.BLACK)
    )


def test_bots_refuse_a_finished_battle_clearly() -> None:
    final = Position("RBWWBRWBR b")
    for level in range(1, 11):
        with pytest.raises(buttonup.IllegalMoveError, match="the battle is over"):
            bot(level, seed=1).choose(final)


def test_node_limited_searches_do_not_depend_on_earlier_ones() -> None:
    positions = [Position.random(seed=s, per_colour=5) for s in range(20)]
    fresh = [Searcher(tt_mb=4).search(p, nodes=3000) for p in positions]
    shared = Searcher(tt_mb=4)
    for position in positions:
        shared.solve(position)  # exact entries that a node-limited search must not use
    again = [shared.search(p, nodes=3000) for p in positions]
    assert [(r.best_move, r.value, r.depth, r.pv) for r in fresh] == [
        (r.best_move, r.value, r.depth, r.pv) for r in again
    ]


def test_exact_results_have_a_whole_line() -> None:
    cut_near_the_end = 0
    # Limits about as long as the whole search (4 of each colour), so that some end
    # just after the last iteration.
    for seed in range(60):
        position = Position.random(seed=seed, per_colour=4)
        for limit in (0.0005, 0.001, 0.002, 0.003):
            result = search(position, time_limit=limit)
            if result.exact:
                cut_near_the_end += 1
                line = position
                for move in result.pv:
                    line = line.play(move)
                assert line.is_over, (seed, limit, result)
                assert result.pv[0] == result.best_move
    assert cut_near_the_end > 0
