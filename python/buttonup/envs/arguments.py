"""The adapters' checks of their text arguments, one wording for all (``ValueError``)."""

from __future__ import annotations

from collections.abc import Collection

from buttonup.player import Player

__all__ = ["agent_player", "one_of"]


def one_of(name: str, value: object, allowed: Collection[object]) -> None:
    """Refuses ``value`` for argument ``name`` unless it is in ``allowed``, naming them
    all: ``reward must be 'margin' or 'win', not 'x'``."""
    if value not in allowed:
        *others, last = (repr(choice) for choice in allowed)
        raise ValueError(f"{name} must be {', '.join(others)} or {last}, not {value!r}")


def agent_player(colour: str) -> Player:
    """The player of ``colour``, ``"red"`` or ``"black"``."""
    one_of("colour", colour, ("red", "black"))
    return Player.RED if colour == "red" else Player.BLACK
