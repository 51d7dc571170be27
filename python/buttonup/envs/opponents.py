"""The forms a player takes in the adapters, made one: a function from a position to the
pile it lifts. ``opponent=`` of the Gymnasium environments, the self-play pool and
:func:`buttonup.envs.evaluate` all take any of them:

- a **level**, 1 to 10: :func:`buttonup.ai.bot` of that level;
- a **bot**: any object with ``choose(position)`` (every :mod:`buttonup.ai` bot);
- a **callable of a position**: ``f(position) -> pile`` (one parameter);
- a **policy**, a function of the observation and the mask:
  ``f(observation, mask) -> pile`` (two parameters; the observation is the mover's
  ``(N, N, 3)`` int8 view, the mask a bool array of the legal piles);
- a **Stable-Baselines3 model** (anything with ``predict``), played deterministically:
  the legal pile of its policy's highest logit;
- an **OpenSpiel bot** (anything with ``step(state)``), given the
  ``python_button_up`` state of the position;
- a **policy spec**, a text naming a policy (``module:attribute``, ``PATH.zip`` or
  ``PATH.onnx``: :mod:`buttonup.envs.policies`).

>>> from buttonup import Position
>>> from buttonup.envs.opponents import chooser
>>> start = Position("W/R/B/W/B/R/R/W/B r")
>>> chooser(9)(start), chooser(lambda position: position.legal_moves()[-1])(start)
(3, 7)
>>> chooser(lambda observation, mask: int(mask.nonzero()[0][0]))(start)
0
"""

from __future__ import annotations

from typing import Any

from buttonup.ai import bot
from buttonup.envs.policies import Chooser, player_chooser, policy_view

__all__ = ["Chooser", "chooser", "policy_view"]


def chooser(player: Any, *, seed: int | None = None) -> Chooser:
    """``player``, in any of the forms above, as a function of a position (a level's
    bot drawing from ``seed``). Anything else is a ``TypeError`` naming the forms."""
    if isinstance(player, int) and not isinstance(player, bool):
        return bot(player, seed=seed).choose
    return player_chooser(player)
