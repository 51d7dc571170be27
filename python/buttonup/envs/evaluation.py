"""Exact evaluation of a policy: the solver values every legal move of every position
the policy meets, so its regret (the margin it gives away against perfect play) is
measured, not estimated by games against a stronger player.

>>> from buttonup.envs import evaluate
>>> report = evaluate(9, episodes=4, opponents=[1])
>>> report.regret.mean, report.optimal.mean
(0.0, 1.0)

``policy`` and each of ``opponents`` take any form of :mod:`buttonup.players`: a
level, a bot, a callable of a position, a function of the observation and the mask, an
SB3 model or an OpenSpiel bot. Against each opponent the policy plays ``episodes``
battles, Red in the even ones and Black in the odd ones, from shuffled starts whose
starter is a fair coin (all drawn from ``seed``), or from ``starts``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from buttonup._core import Position, analyze
from buttonup.player import Player
from buttonup.players import chooser

__all__ = ["Estimate", "Evaluation", "evaluate"]

_Z = {0.9: 1.6449, 0.95: 1.96, 0.99: 2.5758}


@dataclass(frozen=True)
class Estimate:
    """A mean over ``count`` samples and its confidence interval ``low`` to ``high``
    (Wilson's for a share, the normal approximation for a mean)."""

    mean: float
    low: float
    high: float
    count: int

    def __str__(self) -> str:
        return f"{self.mean:.3f} ({self.low:.3f} to {self.high:.3f})"


def _share(successes: int, count: int, z: float) -> Estimate:
    if count == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    p = successes / count
    centre = (p + z * z / (2 * count)) / (1 + z * z / count)
    half = z * math.sqrt(p * (1 - p) / count + z * z / (4 * count * count)) / (1 + z * z / count)
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), count)


def _mean(values: Sequence[float], z: float) -> Estimate:
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    half = z * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half, n)


@dataclass(frozen=True)
class Evaluation:
    """What :func:`evaluate` measured. ``regret``: the margin lost per move against
    perfect play (the best move's exact value minus the chosen one's, from the mover's
    side); ``optimal``: the share of moves of no regret; ``win_rate``: battles won
    (margin above 0) against each opponent, by its label; ``as_colour``: battles won as
    ``"red"`` and as ``"black"``; ``margin``: the mean final margin for the policy."""

    regret: Estimate
    optimal: Estimate
    win_rate: dict[str, Estimate]
    as_colour: dict[str, Estimate]
    margin: Estimate
    battles: int
    regrets: tuple[int, ...] = field(repr=False, default=())

    def row(self, name: str) -> str:
        """One row of docs/rl.md's table: name, regret, optimal share, win rates."""
        wins = " | ".join(str(e) for e in self.win_rate.values())
        return f"| {name} | {self.regret} | {self.optimal} | {wins} |"


def _label(opponent: Any) -> str:
    if isinstance(opponent, int) and not isinstance(opponent, bool):
        return f"level {opponent}"
    return str(getattr(opponent, "__name__", None) or type(opponent).__name__)


def evaluate(
    policy: Any,
    *,
    episodes: int = 100,
    opponents: Iterable[Any] | dict[str, Any] = (1, 5, 9),
    per_colour: int = 3,
    seed: int = 0,
    starts: Sequence[Position | str] | None = None,
    confidence: float = 0.95,
) -> Evaluation:
    """Plays ``policy`` against each of ``opponents`` (a dict names them) for
    ``episodes`` battles and measures it exactly (see :class:`Evaluation`).
    ``confidence`` is 0.9, 0.95 or 0.99. With ``starts`` (positions or their text),
    episode ``i`` starts from ``starts[i % len(starts)]``, its starter as written."""
    if episodes < 1:
        raise ValueError(f"episodes must be at least 1, not {episodes}")
    if confidence not in _Z:
        raise ValueError(f"confidence must be 0.9, 0.95 or 0.99, not {confidence!r}")
    z = _Z[confidence]
    named = dict(opponents) if isinstance(opponents, dict) else {_label(o): o for o in opponents}
    if not named:
        raise ValueError("opponents must name at least one opponent")
    given = [Position(s) if isinstance(s, str) else s for s in (starts or ())]
    draws = random.Random(seed)
    regrets: list[int] = []
    margins: list[float] = []
    wins: dict[str, list[int]] = {name: [0, 0] for name in named}
    colours: dict[str, list[int]] = {"red": [0, 0], "black": [0, 0]}
    for index, (name, opponent) in enumerate(named.items()):
        mine = chooser(policy, seed=seed + 2 * index)
        theirs = chooser(opponent, seed=seed + 2 * index + 1)
        for episode in range(episodes):
            side = Player.RED if episode % 2 == 0 else Player.BLACK
            if given:
                position = given[episode % len(given)]
            else:
                starter = Player.RED if draws.getrandbits(1) == 0 else Player.BLACK
                position = Position.random(
                    draws.getrandbits(63), to_move=starter, per_colour=per_colour
                )
            while not position.is_over:
                if position.to_move is side:
                    move = int(mine(position))
                    values = analyze(position)
                    if move not in values:
                        raise ValueError(
                            f"the policy chose pile {move}, not a legal move of {position}"
                        )
                    regrets.append(max(values.values()) - values[move])
                else:
                    move = int(theirs(position))
                position = position.play(move)
            margin = position.scoring().margin_for(side)
            margins.append(float(margin))
            won = int(margin > 0)
            wins[name][0] += won
            wins[name][1] += 1
            colour = colours["red" if side is Player.RED else "black"]
            colour[0] += won
            colour[1] += 1
    optimal = sum(1 for r in regrets if r == 0)
    return Evaluation(
        regret=_mean([float(r) for r in regrets], z),
        optimal=_share(optimal, len(regrets), z),
        win_rate={name: _share(w, n, z) for name, (w, n) in wins.items()},
        as_colour={name: _share(w, n, z) for name, (w, n) in colours.items()},
        margin=_mean(margins, z),
        battles=len(margins),
        regrets=tuple(regrets),
    )
