"""The forms a player takes in the adapters, made one: a function from a position to the
pile it lifts. ``opponent=`` of the Gymnasium environments, the self-play pool and
:func:`buttonup.envs.evaluate` all take any of them:

- a **level**, 1 to 10: :func:`buttonup.ai.bot` of that level;
- a **bot**: any object with ``choose(position)`` (every :mod:`buttonup.ai` bot);
- a **callable of a position**: ``f(position) -> pile`` (one parameter);
- a **policy**, a function of the observation and the mask:
  ``f(observation, mask) -> pile`` (two parameters; the observation is the mover's
  ``(N, N, 3)`` int8 view, the mask a bool array of the legal piles);
- a **Stable-Baselines3 model** (anything with ``predict``; a MaskablePPO model is given
  the mask), played deterministically;
- an **OpenSpiel bot** (anything with ``step(state)``), given the
  ``python_button_up`` state of the position.

>>> from buttonup import Position
>>> from buttonup.envs.opponents import chooser
>>> start = Position("W/R/B/W/B/R/R/W/B r")
>>> chooser(9)(start), chooser(lambda position: position.legal_moves()[-1])(start)
(3, 7)
>>> chooser(lambda observation, mask: int(mask.nonzero()[0][0]))(start)
0
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from buttonup._core import Position
from buttonup.ai import bot
from buttonup.envs.encoding import observation

__all__ = ["Chooser", "chooser", "policy_view"]

Chooser = Callable[[Position], int]


def policy_view(position: Position) -> tuple[np.ndarray, np.ndarray]:
    """What a policy sees of ``position``: the mover's observation, ``(N, N, 3)`` int8,
    and the legal piles as a bool array."""
    seen = observation(position, position.to_move)
    mask = np.zeros(sum(len(pile) for pile in position.piles), bool)  # one a button
    mask[position.legal_moves()] = True
    return seen, mask


def _parameters(function: Callable[..., Any]) -> int | None:
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return None
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return sum(
        1
        for p in signature.parameters.values()
        if p.kind in kinds and p.default is inspect.Parameter.empty
    )


def _sb3(model: Any) -> Chooser:
    masked = "action_masks" in inspect.signature(model.predict).parameters

    def choose(position: Position) -> int:
        seen, mask = policy_view(position)
        extra = {"action_masks": mask} if masked else {}
        action, _ = model.predict(seen, deterministic=True, **extra)
        return int(np.asarray(action).reshape(-1)[0])

    return choose


def _openspiel(player: Any) -> Chooser:
    import pyspiel

    import buttonup.envs.openspiel  # noqa: F401 (registers the game)

    def choose(position: Position) -> int:
        game = pyspiel.load_game("python_button_up", {"start": str(position)})
        return int(player.step(game.new_initial_state()))

    return choose


def chooser(player: Any, *, seed: int | None = None) -> Chooser:
    """``player``, in any of the forms above, as a function of a position (a level's
    bot drawing from ``seed``). Anything else is a ``TypeError`` naming the forms."""
    if isinstance(player, int) and not isinstance(player, bool):
        return bot(player, seed=seed).choose
    if hasattr(player, "choose"):
        return player.choose  # type: ignore[no-any-return]
    if hasattr(player, "predict"):
        return _sb3(player)
    if hasattr(player, "step") and not callable(player):
        return _openspiel(player)
    if callable(player):
        arity = _parameters(player)
        if arity == 1:
            return player  # type: ignore[no-any-return]
        if arity == 2:
            return lambda position: int(player(*policy_view(position)))
        raise TypeError(
            f"a callable player takes a position, or an observation and a mask: "
            f"{player!r} takes {arity} arguments"
        )
    raise TypeError(
        "a player is a level (1 to 10), a bot (with choose), a callable of a position, a "
        "policy of (observation, mask), a Stable-Baselines3 model or an OpenSpiel bot, "
        f"not {player!r}"
    )
