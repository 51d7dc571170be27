"""``VecEnv.step_random``: every game plays a legal pile drawn by its own generator,
the piles played are reported, the result is ``Position.play`` of them, the draw is
uniform over the legal piles and reproducible from the seed on 1 or 2 threads; bad
``actions`` arrays are refused with the reason."""

from __future__ import annotations

import os
from typing import Any

import pytest
from buttonup import VecEnv

if os.environ.get("BUTTONUP_REQUIRE_RL"):
    import numpy as np
else:
    np = pytest.importorskip("numpy")


def test_each_game_plays_a_legal_pile_and_reports_it() -> None:
    env = VecEnv(300, per_colour=3, seed=5)
    played = np.zeros(300, dtype=np.int64)
    ends = 0
    for _ in range(40):
        mask = env.legal_action_mask.copy()
        before = env.positions()
        env.step_random(played)
        after = env.positions()
        for g, pile in enumerate(played.tolist()):
            if not mask[g].any():  # the battle had ended: a new one starts
                assert pile == -1
                assert len(after[g].piles) == 9 and not env.terminated[g]
                continue
            assert mask[g, pile], f"game {g}: pile {pile} is not legal"
            assert after[g] == before[g].play(pile)
            assert env.terminated[g] == after[g].is_over
            ends += int(env.terminated[g])
    assert ends > 100


def test_the_draw_is_uniform_over_the_legal_piles() -> None:
    # Every start has its three white buttons alone: three legal piles, each drawn about
    # a third of the time over 30,000 games (a count off by 4 sigma fails).
    games = 30_000
    env = VecEnv(games, per_colour=3, seed=11, observations=False)
    mask = env.legal_action_mask.copy()
    assert (mask.sum(axis=1) == 3).all()
    played = np.zeros(games, dtype=np.int64)
    env.step_random(played)
    rank = (np.cumsum(mask, axis=1)[np.arange(games), played]) - 1
    counts = np.bincount(rank, minlength=3)
    sigma = (games * (1 / 3) * (2 / 3)) ** 0.5
    assert all(abs(c - games / 3) < 4 * sigma for c in counts), counts


def run_random(threads: int, seed: int) -> list[Any]:
    env = VecEnv(700, seed=seed, threads=threads)
    played = np.zeros(700, dtype=np.int64)
    seen = []
    for _ in range(30):
        env.step_random(played)
        seen.append((played.copy(), env.observation.copy(), env.rewards.copy()))
    return seen


def test_reproducible_from_the_seed_whatever_the_threads() -> None:
    one, two, other = run_random(1, 3), run_random(2, 3), run_random(1, 4)
    for a, b in zip(one, two):
        for x, y in zip(a, b):
            assert np.array_equal(x, y)
    assert not all(np.array_equal(a[0], b[0]) for a, b in zip(one, other))


def test_without_actions_it_steps_all_the_same() -> None:
    env, reported = VecEnv(50, seed=2), VecEnv(50, seed=2)
    played = np.zeros(50, dtype=np.int64)
    for _ in range(20):
        env.step_random()
        reported.step_random(played)
        assert env.positions() == reported.positions()
        assert np.array_equal(env.observation, reported.observation)


@pytest.mark.parametrize(
    ("actions", "error", "words"),
    [
        (np.zeros(4, dtype=np.int64), ValueError, "4 entries for 5 games"),
        (np.zeros(5, dtype=np.int32), TypeError, "int64"),
        ([0] * 5, TypeError, "int64"),
        (np.zeros(10, dtype=np.int64)[::2], ValueError, "contiguous"),
    ],
)
def test_bad_actions_arrays_are_refused(actions: Any, error: type, words: str) -> None:
    env = VecEnv(5, seed=1)
    before = env.positions()
    with pytest.raises(error, match=words):
        env.step_random(actions)
    assert env.positions() == before


def test_a_read_only_actions_array_is_refused() -> None:
    env = VecEnv(5, seed=1)
    actions = np.zeros(5, dtype=np.int64)
    actions.flags.writeable = False
    with pytest.raises(ValueError, match="actions"):
        env.step_random(actions)
