"""AI players, from random to perfect match play: the one AI of every front end.

Every bot has one small interface: ``choose(position, match=None)`` returns a legal move
of ``position`` (``match``, when given, is the :class:`buttonup.Match` being played), and
``choose_starter(match)`` names the player to start the next battle when the tie rule
lets this bot choose. :func:`bot` maps levels 1 to 10 to a graded scale, documented and
measured in docs/ai.md. The levels are the core's (``buttonup._core.Bot``, the same bot
that the native engine, the C library and WebAssembly play): the same level and seed
play the same moves through every door, ties included (of equally good moves, the
lowest-numbered). The terminal game, the tournament, the UGI engine and the web app all
play it; :mod:`buttonup.players` makes a bot of a name or a policy.

>>> from buttonup import Position
>>> from buttonup.ai import Limits, bot
>>> bot(9).choose(Position("W/R/B/W/B/R/R/W/B r"))
3
>>> bot(9, limits=Limits(depth=2)).choose(Position("W/R/B/W/B/R/R/W/B r")) in (0, 3, 7)
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from buttonup import _core
from buttonup._core import Match, Position, search
from buttonup.player import Player
from buttonup.results import SearchResult

__all__ = [
    "EPSILON",
    "LEVELS",
    "AlphaBetaBot",
    "Bot",
    "GreedyBot",
    "LevelBot",
    "Limits",
    "bot",
    "noisy_bot",
]


@dataclass(frozen=True)
class Limits:
    """How far a bot may search for each move.

    Any of the limits may be given; ``Limits()`` searches to the end. A bot without
    limits plays exactly.

    Args:
        depth: the most moves ahead, at least 1.
        nodes: the most positions visited, at least 1.
        time_limit: the most seconds, more than 0.

    Raises:
        ValueError: if ``depth`` or ``nodes`` is not an int of at least 1, or
            ``time_limit`` is not positive.

    Example:
        >>> from buttonup import Position
        >>> from buttonup.ai import Limits, bot
        >>> bot(9, limits=Limits(depth=2)).choose(Position("W/R/B/W/B/R/R/W/B r"))
        3
    """

    depth: int | None = None
    nodes: int | None = None
    time_limit: float | None = None

    def __post_init__(self) -> None:
        for name in ("depth", "nodes"):
            value = getattr(self, name)
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int) or value < 1
            ):
                raise ValueError(f"{name} must be an int, at least 1, not {value!r}")
        if self.time_limit is not None and not self.time_limit > 0:
            raise ValueError(f"time_limit must be positive, not {self.time_limit!r}")


class Bot(Protocol):
    """What a player of buttonup needs to be: a ``name`` and two methods.

    Any object with these members plays: the bots of this module, those that
    :mod:`buttonup.players` makes, or a class of your own.

    Attributes:
        name: the player's name, as results and records show it.
    """

    name: str

    def choose(self, position: Position, match: Match | None = None) -> int:
        """A legal move of ``position``.

        Args:
            position: the position to move in.
            match: the match being played, when there is one.
        """
        ...

    def choose_starter(self, match: Match) -> Player:
        """Who starts the next battle, when this bot is ``match.chooser``.

        Args:
            match: the match whose tie rule lets this bot choose.
        """
        ...


_NAMES = {1: "random", 9: "perfect", 10: "match"}
"""The names of the levels that have one (the others are named by their chance of a random
move, ``noisy-E``)."""


class LevelBot:
    """A bot of the level scale: what :func:`bot` and :func:`noisy_bot` make.

    It is the core's bot (``buttonup._core.Bot``) with the settings a front end may
    change between moves. Its perfect moves are the best move of one deepening search
    within ``limits`` (exact without them), the lowest-numbered of equally good ones;
    ``on_iteration`` is called with each finished iteration of that search (returning
    ``False`` ends it). ``last_random`` tells whether its last move was a random one and
    ``last_search`` is the search behind it. Without ``tt_mb`` it searches on the
    calling thread's tables; with it, on a table of its own of that many MiB, which
    carries over from move to move. ``stop()`` from another thread ends the search of
    the move being chosen (its best move so far is played).

    Attributes:
        name: ``"random"`` (level 1), ``"perfect"`` (9), ``"match"`` (10), ``"rating-R"``
            for a bot made for a rating, else ``"noisy-E"`` with E its chance of a random
            move.
        limits: the :class:`Limits` of each move's search (``None``: exact).
        on_iteration: called with the ``SearchResult`` of each finished iteration.

    Example:
        >>> from buttonup import Position
        >>> from buttonup.ai import bot
        >>> player = bot(9)
        >>> player.name, player.choose(Position("W/R/B/W/B/R/R/W/B r")), player.last_random
        ('perfect', 3, False)
        >>> player.last_search.value
        1
    """

    def __init__(
        self,
        core: _core.Bot,
        seed: int | None,
        *,
        level: int | None,
        limits: Limits | None = None,
        on_iteration: Callable[[SearchResult], object] | None = None,
    ) -> None:
        self._core = core
        self._seed = seed
        self._level = level
        self.limits = limits
        self.on_iteration = on_iteration
        if level is not None:
            self.name = _NAMES.get(level, f"noisy-{core.epsilon:g}")
        elif core.rating is not None:
            self.name = f"rating-{core.rating:g}"
        else:
            self.name = f"noisy-{core.epsilon:g}"

    @property
    def core(self) -> _core.Bot:
        """The core's bot it is (what a page's session takes the AI's turn with)."""
        return self._core

    @property
    def level(self) -> int | None:
        """Its level, 1 to 10: for a bot made for a rating, the level nearest (``None``
        for a bot of :func:`noisy_bot`)."""
        if self._level is None and self._core.rating is not None:
            return self._core.level
        return self._level

    @property
    def rating(self) -> float | None:
        """Its rating (:data:`buttonup.RATINGS`): its level's, or the one it was made for
        (``None`` for a bot of :func:`noisy_bot`)."""
        return self._core.rating

    @property
    def epsilon(self) -> float:
        """Its chance of a random move in the standard game."""
        return self._core.epsilon

    @property
    def seed(self) -> int | None:
        """The seed of its random choices."""
        return self._seed

    @property
    def last_random(self) -> bool:
        """Whether its last move was a random one."""
        return self._core.last_random

    @property
    def last_search(self) -> SearchResult | None:
        """The search behind its last move (``None`` after a random move)."""
        return self._core.last_search

    @property
    def tt_bytes(self) -> int:
        """The size of the table it searches on, in bytes."""
        return self._core.tt_bytes

    def epsilon_for(self, per_colour: int) -> float:
        """Its chance of a random move in a battle of ``per_colour`` buttons of each colour.

        A level's is smaller from 5 of each colour (docs/ai.md).

        Args:
            per_colour: the buttons of each colour of the battle.

        Example:
            >>> bot(8).epsilon_for(3), bot(8).epsilon_for(7)
            (0.03, 0.018)
        """
        return self._core.epsilon_for(per_colour)

    def choose(self, position: Position, match: Match | None = None) -> int:
        """Its move in ``position``.

        Args:
            position: the position to move in.
            match: the match being played; level 10 plays for it when given (without
                it, level 10 plays as level 9).

        Raises:
            IllegalMoveError: if the battle is over.

        Example:
            >>> from buttonup import Position
            >>> bot(9).choose(Position("W/R/B/W/B/R/R/W/B r"))
            3
        """
        limits = dataclasses.asdict(self.limits) if self.limits is not None else {}
        return self._core.choose(position, match, **limits, on_iteration=self.on_iteration)

    def choose_starter(self, match: Match) -> Player:
        """Who starts the next battle when it may choose.

        Level 10 picks the better chance of winning the match, the others themselves.

        Args:
            match: the match whose tie rule lets this bot choose.
        """
        return self._core.choose_starter(match)

    def stop(self) -> None:
        """Stops the search of the move being chosen in another thread.

        Its best move so far is played. A stop sent while no move is chosen stops the
        next search.
        """
        self._core.stop()

    def clear_stop(self) -> None:
        """Withdraws a ``stop()`` that no search has used yet."""
        self._core.clear_stop()

    def clear(self) -> None:
        """Forgets what its own table has learned (a new game)."""
        self._core.clear()

    def __repr__(self) -> str:
        """Its level (or chance of a random move) and settings:
        ``LevelBot(level=5, epsilon=0.24, seed=1)``."""
        if self._level is None and self._core.rating is not None:
            fields = [f"rating={self._core.rating:g}"]
        else:
            fields = [f"level={self._level}"] if self._level is not None else []
        noisy = self._level is None and self._core.rating is None
        if noisy or (self._level is not None and 1 < self._level < 9):
            fields.append(f"epsilon={self.epsilon!r}")
        fields.append(f"seed={self._seed!r}")
        for name in ("limits", "on_iteration"):
            value = getattr(self, name)
            if value is not None:
                fields.append(f"{name}={value!r}")
        return f"LevelBot({', '.join(fields)})"


class AlphaBetaBot:
    """A bot that searches ``depth`` moves ahead with alpha-beta.

    It judges the horizon with the network estimate (exact where the battle ends within
    the horizon). Its name is ``alphabeta-DEPTH``.

    Args:
        depth: the moves to look ahead, at least 1.

    Raises:
        ValueError: if ``depth`` is not an int of at least 1.

    Example:
        >>> from buttonup import Position
        >>> AlphaBetaBot(2).choose(Position("W/R/B/W/B/R/R/W/B r"))
        3
    """

    def __init__(self, depth: int) -> None:
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
            raise ValueError(f"depth must be an int, at least 1, not {depth!r}")
        self.depth = depth
        self.name = f"alphabeta-{depth}"
        self.last_random = False

    def __repr__(self) -> str:
        """``AlphaBetaBot(depth=3)``, or ``GreedyBot()``."""
        if type(self) is GreedyBot:
            return "GreedyBot()"
        return f"{type(self).__name__}(depth={self.depth})"

    def choose(self, position: Position, match: Match | None = None) -> int:
        """The best move of a search ``depth`` moves deep.

        Args:
            position: the position to move in.
            match: ignored: it plays for the battle.

        Raises:
            IllegalMoveError: if the battle is over.
        """
        move = search(position, depth=self.depth).best_move
        if move is None:
            position.play(0)  # the core's IllegalMoveError of a finished battle
        assert move is not None  # a position with legal moves has a best one
        return move

    def choose_starter(self, match: Match) -> Player:
        """Itself: starting is worth more on average.

        Args:
            match: the match whose tie rule lets this bot choose.
        """
        chooser = match.chooser
        return chooser if chooser is not None else match.to_move


class GreedyBot(AlphaBetaBot):
    """A bot that looks one move ahead: the move whose result looks best right away.

    An :class:`AlphaBetaBot` of depth 1, named ``greedy``.
    """

    def __init__(self) -> None:
        super().__init__(1)
        self.name = "greedy"


EPSILON: dict[int, float] = {level: epsilon for level, epsilon, _ in _core.LEVELS}
"""The chance of a random move at each level: level 1 is random play, level 9 perfect play
for the battle margin, level 10 perfect play for the match (docs/ai.md). The scale is the
core's (``buttonup._core.LEVELS``), read here and by every door."""

LEVELS: dict[int, str] = {level: text for level, _, text in _core.LEVELS}
"""What each level is."""


def bot(
    level: int | None = None,
    seed: int | None = None,
    *,
    rating: float | None = None,
    limits: Limits | None = None,
    on_iteration: Callable[[SearchResult], object] | None = None,
    tt_mb: float | None = None,
    threads: int | None = None,
) -> LevelBot:
    """The AI player of ``level`` on the scale of docs/ai.md.

    Level 1 plays random moves, the levels after it fewer and fewer, level 9 plays
    perfectly for the battle margin and level 10 for the match (:data:`LEVELS`,
    :data:`EPSILON`). Level 10 needs the ``match`` passed to ``choose`` to play for the
    match; without one it plays as level 9.

    Or the player of a ``rating`` instead of a level: each level has a rating
    (:data:`buttonup.RATINGS`, measured in matches between the levels), and a rating
    between two levels' plays between them, its chance of a random move as far between
    theirs.

    Args:
        level: 1 to 10.
        seed: fixes its random choices, 0 to 2**64 - 1 (``None``: drawn afresh).
        rating: instead of ``level``: from level 1's rating to level 10's.
        limits: bound the search of each move (without them its perfect moves are
            exact).
        on_iteration: called with each finished iteration of a move's search.
        tt_mb: gives it a table of its own, of that many MiB (``None``: the calling
            thread's tables).
        threads: the threads its searches of big positions may take (``None``: every
            core).

    Raises:
        ValueError: if ``level`` or ``rating`` is out of range (worded by the core), both
            or neither is given, or another argument is out of range.

    Example:
        >>> bot(5, seed=1)
        LevelBot(level=5, epsilon=0.24, seed=1)
        >>> from buttonup import RATINGS, Position
        >>> bot(9).choose(Position("W/R/B/W/B/R/R/W/B r"))
        3
        >>> bot(rating=RATINGS[6]).level   # level 7's rating is level 7
        7
    """
    if (level is None) == (rating is None):
        raise ValueError("give a level or a rating, not both or neither")
    if level is None:
        assert rating is not None  # (one of the two, checked above)
        core = _core.Bot.rated(rating, seed, tt_mb=tt_mb, threads=threads)
        return LevelBot(core, seed, level=None, limits=limits, on_iteration=on_iteration)
    core = _core.Bot(level, seed, tt_mb=tt_mb, threads=threads)
    return LevelBot(core, seed, level=level, limits=limits, on_iteration=on_iteration)


def noisy_bot(
    epsilon: float,
    seed: int | None = None,
    *,
    limits: Limits | None = None,
    on_iteration: Callable[[SearchResult], object] | None = None,
    tt_mb: float | None = None,
    threads: int | None = None,
) -> LevelBot:
    """A bot off the level scale: perfect play with a chance of a random move.

    It plays perfectly for the battle margin, except that with probability ``epsilon``
    it plays a uniformly random legal move instead.

    Args:
        epsilon: the chance of a random move, 0 to 1.
        seed: fixes its random choices, 0 to 2**64 - 1 (``None``: drawn afresh).
        limits: as :func:`bot`'s.
        on_iteration: as :func:`bot`'s.
        tt_mb: as :func:`bot`'s.
        threads: as :func:`bot`'s.

    Raises:
        ValueError: if ``epsilon`` is out of range.

    Example:
        >>> noisy_bot(0.4, seed=2)
        LevelBot(epsilon=0.4, seed=2)
    """
    core = _core.Bot.noisy(epsilon, seed, tt_mb=tt_mb, threads=threads)
    return LevelBot(core, seed, level=None, limits=limits, on_iteration=on_iteration)
