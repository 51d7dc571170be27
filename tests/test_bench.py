"""Benchmarks are not timed tests: these only check that the work they time agrees
between the engines."""

from __future__ import annotations

from typing import Any

import buttonup
import pytest
from buttonup.cli import bench
from buttonup.cli.main import main
from harness import agree_ok
from hypothesis import given, settings
from hypothesis import strategies as st


@settings(max_examples=25)
@given(st.integers(0, 2**64 - 1), st.integers(1, 6), st.integers(0, 60))
def test_random_playouts_are_the_same_games_in_both_engines(
    seed: int, per_colour: int, battles: int
) -> None:
    agree_ok(lambda e: e.random_playouts(battles, seed=seed, per_colour=per_colour))
    rust = buttonup.random_playouts(battles, seed=seed, per_colour=per_colour)
    assert rust.battles == battles
    assert rust.moves == battles * (3 * per_colour - 1)
    assert rust.red_wins + rust.black_wins + rust.draws == battles
    assert sum(rust.red_margins.values()) == battles


def test_random_playouts_arguments() -> None:
    assert buttonup.random_playouts(10).battles == 10
    with pytest.raises(ValueError, match="per_colour must be from 1 to 10"):
        buttonup.random_playouts(10, per_colour=11)
    with pytest.raises(ValueError, match="seed must be an int"):
        buttonup.random_playouts(10, seed=-1)
    with pytest.raises(ValueError, match="battles must be from 0 to"):
        buttonup.random_playouts(-1)


def test_bench_smoke_mode_checks_agreement(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--smoke"]) == 0
    assert "the engines agree" in capsys.readouterr().out


def test_a_disagreement_is_an_error() -> None:
    with pytest.raises(bench.Disagreement, match="perft: Rust 1 but reference 2"):
        bench.agree("perft", 1, 2)


def test_render_gives_a_markdown_table() -> None:
    rows = [bench.Row("work", "things/s", 2000.0, 10.0, 100.0, note="a note")]
    text = bench.render(rows, "no OpenSpiel")
    assert "| work | things/s | 2,000 | 10.00 | 200x | 100 | 20.0x |" in text
    assert "- work: a note" in text


def test_the_smoke_check_of_solve_all_sees_a_wrong_class_value(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from buttonup.cli import bench_smoke, solve_all

    real = solve_all.solve_many

    def off_by_one_in_the_last(positions: Any, threads: Any = None) -> list[int]:
        values = real(positions, threads=threads)
        return [*values[:-1], values[-1] + 1]

    monkeypatch.setattr(solve_all, "solve_many", off_by_one_in_the_last)
    with pytest.raises(bench.Disagreement, match="solve-all's values at 2 of each colour"):
        bench_smoke.check_solve_all()


def test_the_smoke_check_of_big_solves_sees_a_wrong_value(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from buttonup.cli import bench_smoke

    real = buttonup.Searcher

    class Wrong:
        def solve(self, position: buttonup.Position) -> int:
            return real().solve(position) + 2

    monkeypatch.setattr(buttonup, "Searcher", Wrong)
    with pytest.raises(bench.Disagreement, match=r"Searcher\.solve of"):
        bench_smoke.check_big_solves()
