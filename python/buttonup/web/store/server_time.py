"""Server time: the time the stored matches are counted in (their clocks, their
expiry), measured by the server while it serves."""

from __future__ import annotations

import time
from collections.abc import Callable

#: Seconds between two notes in the store that the server serves
#: (:meth:`buttonup.web.store.base.Store.note_alive`).
ALIVE_EVERY = 10.0
#: Seconds past the last note after which a process starting counts the time since as
#: the server down: three notes missed.
DOWN_AFTER = 3 * ALIVE_EVERY


def wall() -> float:
    """The system clock (a seam for the tests of its jumps)."""
    return time.time()


class ServerTime:
    """The time stored matches are counted in: the system clock's when serving starts,
    then carried on by the monotonic clock (a jump of the system clock while serving
    changes nothing). A process that starts later than :data:`DOWN_AFTER` past the
    last note of the store's (:meth:`buttonup.web.store.base.Store.alive`), or before
    it (the system clock went back), resumes from that note: the time the server was
    down, or the jump, is nobody's. Within a few seconds of the note (a quick restart,
    or another process beside a serving one), it starts from the system clock."""

    def __init__(
        self,
        last_alive: float | None,
        system: float | None = None,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        start = wall() if system is None else system
        if last_alive is not None and not 0.0 <= start - last_alive <= DOWN_AFTER:
            start = last_alive
        self.start = start
        self.monotonic = monotonic
        self.started = monotonic()

    def now(self) -> float:
        """Server time now, in seconds (the epoch of the system clock's)."""
        return self.start + (self.monotonic() - self.started)
