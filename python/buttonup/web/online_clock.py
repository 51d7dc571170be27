"""The clocks of online matches (docs/online.md): none by default, or
``{"per_move": s}`` (each move within ``s`` seconds of the previous action) or
``{"per_match": s}`` (``s`` seconds in all per player, a chess clock).

Nothing lives only in memory: every action of a match with a clock stores, after its
value, the seat whose time ran until it (``"12 r"``; ``"-"`` before the match began),
and the time a side has used is summed from the actions' commit times; the time since
the last action is counted from the row's ``updated`` (that action's commit time), so a
restart keeps the clocks right. Time
runs only for the side whose turn it is (the mover, or the chooser when the tie rule's
choice is due), and only once both seats are taken.

Every time stored (and so every clock and every expiry) is server time
(:class:`buttonup.web.store.server_time.ServerTime`): time the server measured while
serving, so that neither the time it was down nor a jump of the system's clock is
charged to a player or ages a match.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from buttonup.web.online_views import restore
from buttonup.web.store import Action, MatchRow

KINDS = ("per_move", "per_match")


def limit_of(row: MatchRow) -> tuple[str, float] | None:
    """The clock of ``row``: its kind and its seconds (``None``: no clock)."""
    clock = row.settings.get("clock")
    if not clock:
        return None
    kind = next(kind for kind in KINDS if kind in clock)
    return kind, float(clock[kind])


def running(row: MatchRow) -> str | None:
    """The seat whose time runs now (``None``: not begun, or over)."""
    if row.ended is not None or row.red is None or row.black is None:
        return None
    match = restore(row)
    if match.is_over:
        return None
    return match.chooser.letter if match.chooser is not None else match.to_move.letter


def tagged(value: str, side: str | None) -> str:
    """An action's stored value with the seat whose time ran until it."""
    return f"{value} {side or '-'}"


def used(actions: Sequence[Action]) -> dict[str, float]:
    """The seconds each seat has used until the last of ``actions`` (in order)."""
    found = {"r": 0.0, "b": 0.0}
    before: float | None = None
    for action in actions:
        side = action.value.rpartition(" ")[2]
        if before is not None and side in found:
            found[side] += max(0.0, action.at - before)
        before = action.at
    return found


def left(row: MatchRow, spent: dict[str, float], now: float) -> dict[str, float] | None:
    """Each seat's seconds left at ``now`` (never below 0); ``None`` without a clock."""
    clock = limit_of(row)
    if clock is None:
        return None
    kind, seconds = clock
    side = running(row)
    since = max(0.0, now - row.updated)
    if kind == "per_move":
        found = {s: seconds for s in "rb"}
    else:
        found = {s: seconds - u for s, u in spent.items()}
    if side is not None:
        found[side] -= since
    if row.ended == "time":  # the loser's time ran out
        found["r" if row.winner == "b" else "b"] = 0.0
    return {s: max(0.0, round(value, 3)) for s, value in found.items()}


def flagged(row: MatchRow, spent: dict[str, float], now: float) -> str | None:
    """The seat whose time has run out at ``now`` (``None``: none)."""
    side = running(row)
    found = left(row, spent, now)
    if side is None or found is None or found[side] > 0:
        return None
    return side


def clock_json(row: MatchRow, spent: dict[str, float], now: float) -> dict[str, Any] | None:
    """``state.clock``: the limit, each side's seconds left, whose time runs."""
    clock = limit_of(row)
    found = left(row, spent, now)
    if clock is None or found is None:
        return None
    return {clock[0]: clock[1], "left": found, "running": running(row)}
