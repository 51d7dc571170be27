"""Benchmarks are not timed tests: these only check that the work they time agrees
between the engines."""

from __future__ import annotations

import buttonup
import pytest
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
