"""The two players."""

from __future__ import annotations

import enum
from typing import Literal, Union


class Player(enum.Enum):
    """A player: Red (Napoleon Buttonaparte) or Black (Ludwig von Buttonburg).

    The value is the side letter of the notation; ``str(player)`` is its name,
    ``Red`` or ``Black``.

    Example:
        >>> Player("r")
        <Player.RED: 'r'>
        >>> Player.RED.other
        <Player.BLACK: 'b'>
        >>> str(Player.BLACK), Player.BLACK.letter, Player.BLACK.colour
        ('Black', 'b', 'B')
    """

    RED = "r"
    BLACK = "b"

    @classmethod
    def of(cls, value: object, name: str = "player") -> Player:
        """A :class:`Player` from itself or its side letter ``"r"``/``"b"``.

        This is the way every call of buttonup takes a player.

        Args:
            value: a ``Player``, ``"r"`` or ``"b"``.
            name: the argument's name, for the error message.

        Raises:
            ValueError: if ``value`` is another str.
            TypeError: if ``value`` is neither a ``Player`` nor a str.

        Example:
            >>> Player.of("b"), Player.of(Player.RED)
            (<Player.BLACK: 'b'>, <Player.RED: 'r'>)
        """
        if isinstance(value, Player):
            return value
        if isinstance(value, str):
            if value in ("r", "b"):
                return cls(value)
            raise ValueError(f"{name} must be a Player or 'r' or 'b', not {value[:20]!r}")
        kind = "None" if value is None else type(value).__name__
        raise TypeError(f"{name} must be a Player or 'r' or 'b', not {kind}")

    @property
    def other(self) -> Player:
        """The opponent."""
        return Player.BLACK if self is Player.RED else Player.RED

    @property
    def letter(self) -> str:
        """The side letter of the notation: ``r`` or ``b``."""
        return self.value

    @property
    def colour(self) -> str:
        """The letter of this player's buttons: ``R`` or ``B``."""
        return self.value.upper()

    def __str__(self) -> str:
        return self.name.capitalize()


#: What every call of buttonup takes as a player: a :class:`Player` or its letter.
PlayerLike = Union[Player, Literal["r", "b"]]
