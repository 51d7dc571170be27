"""Search and solving: the Rust engine against the reference minimax."""

from __future__ import annotations

import dataclasses
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import buttonup
import pytest
from buttonup import Player, Position
from buttonup.testing import strategies as bst
from harness import agree_ok, all_start_orders
from hypothesis import given
from hypothesis import strategies as st


@given(bst.reachable_positions(st.integers(1, 3)))
def test_solve_and_analyze_agree_with_the_reference(position: Position) -> None:
    text = str(position)
    value = agree_ok(lambda e: e.solve(e.Position(text)))
    values = agree_ok(lambda e: e.analyze(e.Position(text)))
    assert buttonup.analyze(position, threads=2) == values
    # Values are for the side to move: the best move's value is the position's.
    if position.is_over:
        assert values == {} and value == position.scoring().margin_for(position.to_move)
    else:
        assert value == max(values.values())


def test_all_standard_starts_both_sides_agree_with_the_reference() -> None:
    for order in all_start_orders():
        for side in Player:
            values = agree_ok(
                lambda e, order=order, side=side: e.analyze(e.Position.start(order, to_move=side))
            )
            assert buttonup.solve(Position.start(order, to_move=side)) == max(values.values())


def swap_colours(text: str) -> str:
    """The same position with Red's and Black's buttons, and the side to move, swapped."""
    return text.translate(str.maketrans("RBrb", "BRbr"))


@given(bst.reachable_positions(st.integers(1, 3)))
def test_values_are_for_the_side_to_move(position: Position) -> None:
    # Swapping the colours and the side to move changes nothing for the mover.
    swapped = Position(swap_colours(str(position)))
    assert buttonup.solve(swapped) == buttonup.solve(position)
    assert buttonup.analyze(swapped) == buttonup.analyze(position)
    assert buttonup.search(swapped).value == buttonup.search(position).value


def test_documented_values() -> None:
    # The worked example of docs/rules.md: Red to move wins by 1.
    assert buttonup.solve(Position("W/R/B/W/B/R/R/W/B r")) == 1
    assert buttonup.solve(Position("W/B/R/W/R/B/B/W/R b")) == 1  # the same, colours swapped
    # A finished battle is worth the mover's margin: Red 16, Black 15 (docs/rules.md).
    assert buttonup.solve(Position("RBWWBRWBR b")) == -1
    assert buttonup.solve(Position("RBWWBRWBR r")) == 1
    assert buttonup.search(Position("RBWWBRWBR b")).value == -1


def replay_pv(position: Position, pv: tuple[int, ...]) -> Position:
    for move in pv:
        position = position.play(move)
    return position


@given(bst.reachable_positions(st.integers(1, 4), max_moves=6))
def test_unlimited_search_is_exact_and_its_line_achieves_the_value(position: Position) -> None:
    result = buttonup.search(position)
    if position.is_over:
        assert result.best_move is None and result.pv == () and result.exact
        return
    assert result.exact
    assert result.value == buttonup.solve(position)
    assert result.pv[0] == result.best_move
    final = replay_pv(position, result.pv)
    assert final.is_over
    assert result.value == final.scoring().margin_for(position.to_move)
    assert result.depth == len(position.piles) - 1
    assert result.nodes > 0 and result.elapsed >= 0


def test_limited_searches_return_a_legal_move_at_once() -> None:
    position = Position.random(seed=3, per_colour=7)
    for kwargs in (
        {"depth": 1},
        {"nodes": 1},
        {"nodes": 50},
        {"time_limit": 0.0},
        {"time_limit": 0.001},
    ):
        result = buttonup.search(position, **kwargs)  # type: ignore[arg-type]
        assert result.best_move in position.legal_moves(), kwargs
        assert not result.exact
        assert result.pv and result.pv[0] == result.best_move
    shallow = buttonup.search(position, depth=2)
    assert shallow.depth == 2
    replay_pv(position, shallow.pv)  # a legal line


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"depth": 0}, "depth must be from 1 to 4294967295, not 0"),
        ({"nodes": -5}, "nodes must be from 1 to 9223372036854775807, not -5"),
        ({"time_limit": -1.0}, "time_limit must be"),
        ({"time_limit": float("nan")}, "time_limit must be"),
    ],
)
def test_bad_limits(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        buttonup.search(Position("W/R/B/W/B/R/R/W/B r"), **kwargs)


def test_a_search_stopped_from_another_thread_returns_its_best_move() -> None:
    searcher = buttonup.Searcher(tt_mb=4)
    position = Position.random(seed=11, per_colour=10)
    started = threading.Event()
    results: list[buttonup.SearchResult] = []
    thread = threading.Thread(
        target=lambda: results.append(
            searcher.search(position, on_iteration=lambda it: started.set())
        )
    )
    thread.start()
    assert started.wait(timeout=30)  # the search runs: its first iteration is done
    searcher.stop()
    thread.join(timeout=10)
    assert not thread.is_alive()
    (result,) = results
    assert not result.exact
    assert result.best_move in position.legal_moves()


def test_searches_in_threads_match_searches_one_at_a_time() -> None:
    positions = [Position.random(seed=s, per_colour=4) for s in range(8)]
    alone = [buttonup.search(p, depth=6) for p in positions]
    solved = [buttonup.solve(p) for p in positions[:4]]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(lambda p: buttonup.search(p, depth=6), positions))
        solved_together = list(pool.map(buttonup.solve, positions[:4]))
    assert [(r.best_move, r.value, r.pv) for r in together] == [
        (r.best_move, r.value, r.pv) for r in alone
    ]
    assert solved_together == solved


def test_searcher_objects() -> None:
    searcher = buttonup.Searcher(tt_mb=1)
    assert 0 < searcher.tt_bytes <= 1 << 20
    start = Position("W/R/B/W/B/R/R/W/B r")
    assert searcher.solve(start) == 1
    assert searcher.search(start).pv == (3, 0, 0, 1, 3, 3, 2, 0)  # docs/rules.md's line
    searcher.clear()
    assert searcher.solve(start) == 1
    assert buttonup.Searcher(tt_mb=1, threads=2).solve(start) == 1
    with pytest.raises(ValueError, match="tt_mb"):
        buttonup.Searcher(tt_mb=0)
    with pytest.raises(ValueError, match="threads must be from 1 to 256"):
        buttonup.Searcher(threads=0)
    with pytest.raises(TypeError):
        buttonup.Searcher(1)  # type: ignore[misc]  # options are keyword-only


def test_search_results_are_frozen_dataclasses() -> None:
    result = buttonup.search(Position("W/R/B/W/B/R/R/W/B r"))
    assert isinstance(result, buttonup.results.SearchResult)
    assert result == buttonup.SearchResult(
        best_move=3,
        value=1,
        exact=True,
        depth=8,
        nodes=result.nodes,
        pv=(3, 0, 0, 1, 3, 3, 2, 0),
        elapsed=result.elapsed,
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.value = 2  # type: ignore[misc]
    assert buttonup.search(Position("W/R/B/W/B/R/R/W/B r"), threads=2).value == 1


def test_a_search_within_a_time_on_two_threads_finds_the_exact_answer() -> None:
    # 18 piles: within a time alone the helper thread searches too; with time to spare
    # the answer is the exact one, as on one thread.
    position = Position.random(seed=7, per_colour=6)
    exact = buttonup.search(position)
    for threads in (1, 2):
        timed = buttonup.search(position, time_limit=600, threads=threads)
        assert (timed.best_move, timed.value, timed.exact) == (
            exact.best_move,
            exact.value,
            True,
        )
