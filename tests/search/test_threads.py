"""The `threads` arguments: the same answers on one thread as on several, clear errors
for bad counts, and a batch that stops cleanly."""

from __future__ import annotations

import buttonup
import pytest
from buttonup import Position, perft, perft_many, random_playouts, solve, solve_many
from harness import agree_ok, neutral


def starts(per_colour: int, count: int) -> list[Position]:
    return [Position.start(order) for order in buttonup.start_orders(per_colour)[:count]]


@pytest.mark.parametrize("per_colour", [2, 3, 5])
def test_playouts_play_the_same_games_on_any_number_of_threads(per_colour: int) -> None:
    one = random_playouts(10_000, seed=11, per_colour=per_colour, threads=1)
    for threads in (2, 3, None):
        assert random_playouts(10_000, seed=11, per_colour=per_colour, threads=threads) == one
    assert one.battles == 10_000


def test_playouts_agree_with_the_reference_on_several_threads() -> None:
    summary = agree_ok(lambda e: e.random_playouts(300, seed=5, per_colour=4, threads=2))
    assert summary == neutral(random_playouts(300, seed=5, per_colour=4, threads=1))


def test_solve_many_gives_what_solve_gives() -> None:
    orders = buttonup.start_orders(3)[:200]
    positions = [Position.start(o) for o in orders]
    positions += [Position.start(o, to_move=buttonup.Player.BLACK) for o in orders[:50]]
    positions.append(Position("RBW r"))  # a finished battle
    expected = [solve(p) for p in positions]
    assert solve_many(positions, threads=1) == expected
    assert solve_many(positions, threads=2) == expected
    assert solve_many(iter(positions), threads=2, tt_mb=0.5) == expected
    assert solve_many([]) == []


def test_perft_many_gives_what_perft_gives() -> None:
    positions = starts(3, 40)
    expected = [perft(p, 8) for p in positions]
    assert perft_many(positions, 8, threads=1) == expected
    assert perft_many(positions, 8, threads=2) == expected
    assert perft_many(positions, 0) == [1] * 40


@pytest.mark.parametrize(
    "call",
    [
        lambda threads: random_playouts(10, threads=threads),
        lambda threads: solve_many([Position("W/R/B r")], threads=threads),
        lambda threads: perft_many([Position("W/R/B r")], 2, threads=threads),
    ],
)
def test_thread_counts_are_checked(call) -> None:  # type: ignore[no-untyped-def]
    for bad in (0, -1, 257):
        with pytest.raises(ValueError, match=f"threads must be from 1 to 256, not {bad}"):
            call(bad)
    with pytest.raises(TypeError):
        call(True)
    with pytest.raises(TypeError):
        call(2.0)


def test_batches_name_what_is_not_a_position() -> None:
    with pytest.raises(TypeError, match=r"positions\[1\] must be a Position, not str"):
        solve_many([Position("W/R/B r"), "W/R/B r"])
    with pytest.raises(TypeError, match=r"positions\[0\] must be a Position, not int"):
        perft_many([3], 2)
    with pytest.raises(TypeError):
        solve_many(5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="tt_mb must be from"):
        solve_many([], tt_mb=0)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_big_solve_gives_the_same_value_on_any_number_of_threads(seed: int) -> None:
    start = Position.random(seed=seed, per_colour=6)  # 18 piles: the parallel path
    alone = solve(start, threads=1)
    assert solve(start, threads=2) == alone
    assert solve(start) == alone
    assert solve_many([start], threads=2) == [alone]
    assert buttonup.search(start).value == alone
    assert buttonup.search(start, threads=2).value == alone
    assert buttonup.Searcher(threads=2).solve(start) == alone


def test_solve_checks_its_thread_count() -> None:
    for call in (solve, buttonup.analyze, buttonup.search):
        with pytest.raises(ValueError, match="threads must be from 1 to 256, not 0"):
            call(Position("W/R/B r"), threads=0)


def test_analyze_gives_the_same_values_on_any_number_of_threads() -> None:
    for seed in range(4):
        position = Position.random(seed=seed, per_colour=4)
        one = buttonup.analyze(position, threads=1)
        assert buttonup.analyze(position, threads=2) == one == buttonup.analyze(position)


def test_a_tournament_on_worker_processes_gives_the_one_process_results() -> None:
    from buttonup.matches import PROCESSES_FROM, tournament

    matches = PROCESSES_FROM  # a pairing of this many matches runs on worker processes
    alone = [s.as_dict() for s in tournament(["1", "greedy"], matches, seed=3, threads=1)]
    calls: list[None] = []
    shared = tournament(
        ["1", "greedy"], matches, seed=3, threads=2, progress=lambda: calls.append(None)
    )
    assert [s.as_dict() for s in shared] == alone
    assert len(calls) == matches
