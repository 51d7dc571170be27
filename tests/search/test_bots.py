"""Bots print as what they are: their kind, level and settings."""

from __future__ import annotations

from buttonup.ai import EPSILON, Limits, bot
from buttonup.players import bot_factory


def test_each_level_prints_its_kind_level_and_seed() -> None:
    assert repr(bot(1, seed=1)) == "LevelBot(level=1, seed=1)"
    assert repr(bot(5, seed=1)) == "LevelBot(level=5, epsilon=0.24, seed=1)"
    assert repr(bot(9, seed=None)) == "LevelBot(level=9, seed=None)"
    assert repr(bot(10, seed=7)) == "LevelBot(level=10, seed=7)"
    for level in range(2, 9):
        assert repr(bot(level, seed=3)) == (
            f"LevelBot(level={level}, epsilon={EPSILON[level]!r}, seed=3)"
        )


def test_named_bots_and_settings() -> None:
    assert repr(bot_factory("alphabeta-3")(1)) == "AlphaBetaBot(depth=3)"
    assert repr(bot_factory("greedy")()) == "GreedyBot()"
    assert repr(bot_factory("noisy-0.4")(2)) == "LevelBot(epsilon=0.4, seed=2)"
    assert repr(bot(9, seed=0, limits=Limits(depth=2))) == (
        "LevelBot(level=9, seed=0, limits=Limits(depth=2, nodes=None, time_limit=None))"
    )
