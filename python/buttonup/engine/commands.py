"""What the UGI engine reads: its options, and the limits of a ``go`` command
(docs/protocol.md)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from buttonup._core import Position
from buttonup.ai import Limits
from buttonup.player import Player


class ProtocolError(ValueError):
    """A command the engine cannot carry out; the message is sent as an info string."""


@dataclass
class Option:
    name: str
    default: int
    low: int
    high: int

    def declaration(self) -> str:
        return (
            f"option name {self.name} type spin default {self.default}"
            f" min {self.low} max {self.high}"
        )


OPTIONS = {
    option.name.lower(): option
    for option in (
        Option("Level", 10, 1, 10),
        Option("Hash", 16, 1, 4096),
        Option("Seed", 0, 0, 2**64 - 1),
    )
}


#: The search's own limits (``buttonup.search``): depth is a 32-bit count, nodes and
#: milliseconds 63-bit ones; the parser takes exactly what the search takes.
MAX_DEPTH = 2**32 - 1
MAX_COUNT = 2**63 - 1

#: The bounds of each number of ``go``.
GO_BOUNDS = {
    "depth": (1, MAX_DEPTH),
    "nodes": (1, MAX_COUNT),
    "movetime": (1, MAX_COUNT),
    "movestogo": (1, MAX_COUNT),
    **{clock: (0, MAX_COUNT) for clock in ("wtime", "btime", "winc", "binc")},
    **{clock: (0, MAX_COUNT) for clock in ("p1time", "p2time", "p1inc", "p2inc")},
}

#: An integer as the protocol writes one: ASCII digits, an optional minus sign (no
#: other script's digits, no underscores, no spaces, which Python's ``int`` takes).
INTEGER = re.compile(r"-?[0-9]+")


def shorten(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def parse_int(name: str, text: str, low: int, high: int) -> int:
    if not INTEGER.fullmatch(text) or len(text) > 40:
        raise ProtocolError(f"{name} must be an integer, not '{shorten(text)}'")
    value = int(text)
    if not low <= value <= high:
        raise ProtocolError(f"{name} must be from {low} to {high}, not {shorten(text)}")
    return value


@dataclass
class Go:
    """The limits of one ``go``."""

    depth: int | None = None
    nodes: int | None = None
    movetime: int | None = None
    infinite: bool = False
    clock: dict[str, int] | None = None

    @classmethod
    def parse(cls, words: list[str]) -> Go:
        go = cls(clock={})
        i = 0
        while i < len(words):
            word = words[i].lower()
            if word == "infinite":
                go.infinite = True
                i += 1
            elif word in GO_BOUNDS:
                if i + 1 >= len(words):
                    raise ProtocolError(f"go {word} needs a number")
                value = parse_int(word, words[i + 1], *GO_BOUNDS[word])
                if word in ("depth", "nodes", "movetime"):
                    setattr(go, word, value)
                else:
                    assert go.clock is not None
                    go.clock[word] = value
                i += 2
            else:
                raise ProtocolError(f"unknown go parameter '{shorten(words[i])}'")
        return go

    def limits(self, position: Position) -> Limits:
        """The AI's limits for this ``go``: ``Limits()`` (to the end) for ``infinite`` or
        when nothing is given."""
        budget = None if self.infinite else self.time_budget(position)
        return Limits(depth=self.depth, nodes=self.nodes, time_limit=budget)

    def time_budget(self, position: Position) -> float | None:
        """Seconds to spend: movetime, or a share of the mover's clock."""
        if self.movetime is not None:
            return self.movetime / 1000
        if not self.clock:
            return None
        red = position.to_move is Player.RED
        left = self.clock.get(
            "p1time" if red else "p2time", self.clock.get("wtime" if red else "btime")
        )
        if left is None:
            return None
        increment = self.clock.get(
            "p1inc" if red else "p2inc", self.clock.get("winc" if red else "binc", 0)
        )
        # Moves of this player still to come in the battle: about half the plies left.
        to_come = self.clock.get("movestogo", max(1, len(position.piles) // 2))
        return max(0.001, (left / to_come + increment * 0.8) / 1000 * 0.9)
