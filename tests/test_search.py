"""Search and solving: the Rust engine against the reference minimax."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import buttonup
import buttonup.reference as ref
import pytest
from buttonup import Player, Position
from buttonup.testing import strategies as bst
from hypothesis import given
from hypothesis import strategies as st

from conftest import all_start_orders


@given(bst.reachable_positions(st.integers(1, 3)))
def test_solve_and_analyze_agree_with_the_reference(position: Position) -> None:
    reference = ref.Position(str(position))
    assert buttonup.solve(position) == ref.solve(reference)
    assert buttonup.analyze(position) == ref.analyze(reference)


def test_all_standard_starts_both_sides_agree_with_the_reference() -> None:
    for order in all_start_orders():
        for side in Player:
            position = Position.start(order, side)
            reference = ref.Position.start(order, side)
            values = buttonup.analyze(position)
            assert values == ref.analyze(reference), str(position)
            assert buttonup.solve(position) == max(values.values())


def replay_pv(position: Position, pv: list[int]) -> Position:
    for move in pv:
        position = position.play(move)
    return position


@given(bst.reachable_positions(st.integers(1, 4), max_moves=6))
def test_unlimited_search_is_exact_and_its_line_achieves_the_value(position: Position) -> None:
    result = buttonup.search(position)
    if position.is_over:
        assert result.best_move is None and result.pv == [] and result.exact
        return
    assert result.exact
    assert result.value == buttonup.solve(position)
    assert result.pv[0] == result.best_move
    final = replay_pv(position, result.pv)
    assert final.is_over
    margin = final.margin()
    assert result.value == (margin if position.to_move is Player.RED else -margin)
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
    results: list[buttonup.SearchResult] = []
    thread = threading.Thread(target=lambda: results.append(searcher.search(position)))
    thread.start()
    time.sleep(0.2)
    stopped_at = time.perf_counter()
    searcher.stop()
    thread.join(timeout=10)
    assert not thread.is_alive()
    assert time.perf_counter() - stopped_at < 5
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
    assert searcher.search(start).pv == [3, 0, 0, 1, 3, 3, 2, 0]
    searcher.clear()
    assert searcher.solve(start) == 1
    with pytest.raises(ValueError, match="tt_mb"):
        buttonup.Searcher(tt_mb=0)
