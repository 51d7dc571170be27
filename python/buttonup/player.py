"""The two players."""

from __future__ import annotations

import enum


class Player(enum.Enum):
    """A player: Red (Napoleon Buttonaparte) or Black (Ludwig von Buttonburg).

    The value is the side letter of the notation.

    >>> Player("r")
    <Player.RED: 'r'>
    >>> Player.RED.other
    <Player.BLACK: 'b'>
    """

    RED = "r"
    BLACK = "b"

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
