"""AI players, from random to perfect match play: the one AI of every front end.

Every bot has one small interface: ``choose(position, match=None)`` returns a legal move
of ``position`` (``match``, when given, is the :class:`buttonup.Match` being played), and
``choose_starter(match)`` names the player to start the next battle when the tie rule
lets this bot choose. :func:`bot` maps levels 1 to 10 to a graded scale, documented and
measured in docs/ai.md; the terminal game, the tournament, the UGI engine and the web app
all play it.

>>> from buttonup import Position
>>> from buttonup.ai import Limits, bot
>>> bot(9).choose(Position("W/R/B/W/B/R/R/W/B r"))
3
>>> bot(9, limits=Limits(depth=2)).choose(Position("W/R/B/W/B/R/R/W/B r")) in (0, 3, 7)
True
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from buttonup._core import (
    VARIANT_LIMITS,
    Match,
    Position,
    Searcher,
    analyze,
    match_analyze,
    search,
    win_probability,
)
from buttonup.errors import IllegalMoveError
from buttonup.player import Player
from buttonup.results import SearchResult

__all__ = [
    "BOT_NAMES",
    "EPSILON",
    "LEVELS",
    "AlphaBetaBot",
    "Bot",
    "BotFactory",
    "GreedyBot",
    "LevelBot",
    "Limits",
    "MatchBot",
    "NoisyBot",
    "PerfectBot",
    "RandomBot",
    "bot",
    "bot_factory",
]


def _moves(position: Position) -> list[int]:
    """The legal moves of ``position``, which must have one."""
    moves = position.legal_moves()
    if not moves:
        raise IllegalMoveError("the battle is over: there is no move to choose")
    return moves


def _has_match_odds(match: Match | None, position: Position) -> bool:
    return (
        match is not None
        and match.per_colour <= VARIANT_LIMITS["match_odds"]
        and match.position == position
    )


@dataclass(frozen=True)
class Limits:
    """How far a bot may search for each move: ``depth`` moves, ``nodes`` positions,
    ``time_limit`` seconds (any that are given; ``Limits()`` searches to the end). A
    bot without limits plays exactly, by solving every move."""

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
    """What a player of buttonup needs to be."""

    name: str

    def choose(self, position: Position, match: Match | None = None) -> int:
        """A legal move of ``position``."""
        ...

    def choose_starter(self, match: Match) -> Player:
        """Who starts the next battle, when this bot is ``match.chooser``."""
        ...


class _StartsItself:
    """Chooses to start the next battle itself: starting is worth more on average."""

    def choose_starter(self, match: Match) -> Player:
        chooser = match.chooser
        return chooser if chooser is not None else match.to_move


class LevelBot(_StartsItself):
    """What :func:`bot` makes: a bot with the settings a front end may change between
    moves. ``limits``, ``searcher`` and ``on_iteration`` shape its searches (see
    :class:`PerfectBot`); ``last_random`` tells whether its last move was a random one
    and ``last_search`` is the search behind it, when it was chosen within limits."""

    name: str

    def __init__(
        self,
        seed: int | None = None,
        *,
        limits: Limits | None = None,
        searcher: Searcher | None = None,
        on_iteration: Callable[[SearchResult], object] | None = None,
    ) -> None:
        self._rng = random.Random(seed)
        self._seed = seed
        self.limits = limits
        self.searcher = searcher
        self.on_iteration = on_iteration
        self.last_random = False
        self.last_search: SearchResult | None = None

    def choose(self, position: Position, match: Match | None = None) -> int:
        raise NotImplementedError

    def __repr__(self) -> str:
        """The kind of bot, its level when it is one of :func:`bot`'s, and its settings:
        ``NoisyBot(level=5, epsilon=0.24, seed=1)``."""
        epsilon = getattr(self, "epsilon", None)
        levels = {RandomBot: 1, PerfectBot: 9, MatchBot: 10}
        level = levels.get(type(self))
        if type(self) is NoisyBot:
            level = next((n for n in range(2, 9) if EPSILON[n] == epsilon), None)
        fields = [f"level={level}"] if level is not None else []
        if epsilon is not None:
            fields.append(f"epsilon={epsilon!r}")
        fields.append(f"seed={self._seed!r}")
        for name in ("limits", "searcher", "on_iteration"):
            value = getattr(self, name)
            if value is not None:
                fields.append(f"{name}={value!r}")
        return f"{type(self).__name__}({', '.join(fields)})"


class RandomBot(LevelBot):
    """Plays a uniformly random legal move (level 1)."""

    def __init__(self, seed: int | None = None, **settings: Any) -> None:
        super().__init__(seed, **settings)
        self.name = "random"
        self.last_random = True

    def choose(self, position: Position, match: Match | None = None) -> int:
        return self._rng.choice(_moves(position))


class AlphaBetaBot(_StartsItself):
    """Searches ``depth`` moves ahead with alpha-beta and judges the horizon with the
    projected-tower estimate (exact where the battle ends within the horizon)."""

    def __init__(self, depth: int) -> None:
        if depth < 1:
            raise ValueError(f"depth must be at least 1, not {depth}")
        self.depth = depth
        self.name = f"alphabeta-{depth}"
        self.last_random = False

    def __repr__(self) -> str:
        """``AlphaBetaBot(depth=3)``, or ``GreedyBot()``."""
        if type(self) is GreedyBot:
            return "GreedyBot()"
        return f"{type(self).__name__}(depth={self.depth})"

    def choose(self, position: Position, match: Match | None = None) -> int:
        _moves(position)
        move = search(position, depth=self.depth).best_move
        assert move is not None  # a position with legal moves has a best one
        return move


class GreedyBot(AlphaBetaBot):
    """Looks one move ahead: the move whose result looks best right away."""

    def __init__(self) -> None:
        super().__init__(1)
        self.name = "greedy"


class PerfectBot(LevelBot):
    """Maximises the battle margin under perfect play, choosing at random between
    equally good moves.

    With ``limits`` it plays the best move of one deepening search within them instead
    (on ``searcher`` if given, whose table then carries over from move to move, with
    ``on_iteration`` called after each iteration): exact when the search reaches the
    end, the best estimate at its horizon otherwise. ``limits``, ``searcher`` and
    ``on_iteration`` are attributes that a front end may change between moves.
    """

    def __init__(self, seed: int | None = None, **settings: Any) -> None:
        super().__init__(seed, **settings)
        self.name = "perfect"

    def _best(self, position: Position) -> int:
        self.last_random = False
        self.last_search = None
        if self.limits is None and self.searcher is None:
            values = analyze(position)
            best = max(values.values())
            return self._rng.choice([move for move, value in values.items() if value == best])
        limits = dataclasses.asdict(self.limits or Limits())
        if self.searcher is not None:
            result = self.searcher.search(position, **limits, on_iteration=self.on_iteration)
        else:
            result = search(position, **limits, on_iteration=self.on_iteration)
        self.last_search = result
        assert result.best_move is not None  # a position with legal moves has a best one
        return result.best_move

    def choose(self, position: Position, match: Match | None = None) -> int:
        _moves(position)
        return self._best(position)


class NoisyBot(PerfectBot):
    """Plays like :class:`PerfectBot`, except that with probability ``epsilon`` it plays
    a uniformly random legal move instead: the dial of the level scale."""

    def __init__(self, epsilon: float, seed: int | None = None, **settings: Any) -> None:
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be from 0 to 1, not {epsilon}")
        super().__init__(seed, **settings)
        self.epsilon = epsilon
        self.name = f"noisy-{epsilon:g}"

    def choose(self, position: Position, match: Match | None = None) -> int:
        moves = _moves(position)
        if self._rng.random() < self.epsilon:
            self.last_random = True
            self.last_search = None
            return self._rng.choice(moves)
        return self._best(position)


class MatchBot(PerfectBot):
    """Maximises the probability of winning the match: in each battle it plays for the
    match value of the final margin (a player who needs 2 points only needs to win by
    2), and it chooses the starter that gives it the better chance. Ties between moves
    go to the better battle margin. Outside a match, or in a variant without a match
    table, it plays like :class:`PerfectBot` (limits included)."""

    def __init__(self, seed: int | None = None, **settings: Any) -> None:
        super().__init__(seed, **settings)
        self.name = "match"

    def choose(self, position: Position, match: Match | None = None) -> int:
        if match is None or not _has_match_odds(match, position):
            return super().choose(position)
        _moves(position)
        self.last_random = False
        self.last_search = None
        odds = match_analyze(match)  # the mover's chance of winning the match
        best = max(odds.values())
        candidates = [move for move, p in odds.items() if p == best]
        if len(candidates) == 1:
            return candidates[0]
        margins = analyze(position)
        top = max(margins[move] for move in candidates)
        return self._rng.choice([move for move in candidates if margins[move] == top])

    def choose_starter(self, match: Match) -> Player:
        chooser = match.chooser
        if chooser is None or match.per_colour > VARIANT_LIMITS["match_odds"]:
            return super().choose_starter(match)
        standing = match.standing
        odds = {
            starter: win_probability(dataclasses.replace(standing, starter=starter)).of(chooser)
            for starter in Player
        }
        # The better chance; starting itself when both are equal.
        return max(Player, key=lambda s: (odds[s], s is chooser))


# --- the registry: every level and every named bot, defined once ---------------------

#: The chance of a random move at each level: level 1 is random play, level 9 perfect
#: play for the battle margin, level 10 perfect play for the match (docs/ai.md).
EPSILON = {1: 1.0, 2: 0.7, 3: 0.5, 4: 0.35, 5: 0.24, 6: 0.15, 7: 0.08, 8: 0.03, 9: 0.0, 10: 0.0}

#: What each level is.
LEVELS = {
    **{level: f"perfect play with {eps:.0%} random moves" for level, eps in EPSILON.items()},
    1: "random moves",
    9: "perfect play for the battle margin",
    10: "perfect play for the match",
}


def bot(
    level: int,
    seed: int | None = None,
    *,
    limits: Limits | None = None,
    searcher: Searcher | None = None,
    on_iteration: Callable[[SearchResult], object] | None = None,
) -> LevelBot:
    """The AI player of ``level`` (1 to 10); ``seed`` fixes its random choices.

    Without ``limits`` its perfect moves are exact (every move solved); with them, and
    with ``searcher`` and ``on_iteration``, they are the best move of one search within
    the limits (see :class:`PerfectBot`). Level 10 needs the ``match`` passed to
    ``choose`` to play for the match; without one it plays as level 9.
    """
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 10:
        raise ValueError(f"level must be an int from 1 to 10, not {level!r}")
    settings: dict[str, Any] = {
        "limits": limits,
        "searcher": searcher,
        "on_iteration": on_iteration,
    }
    if level == 1:
        return RandomBot(seed, **settings)
    if level == 9:
        return PerfectBot(seed, **settings)
    if level == 10:
        return MatchBot(seed, **settings)
    return NoisyBot(EPSILON[level], seed, **settings)


#: The bots known by name besides the levels; ``alphabeta-N`` and ``noisy-E`` take a
#: number.
BOT_NAMES = ("random", "greedy", "perfect", "match", "alphabeta-N", "noisy-E")


@dataclass(frozen=True)
class BotFactory:
    """A maker of one kind of bot: ``factory(seed)`` is a new bot, ``factory.name`` its
    display name. Plain data, so that worker processes can be sent one."""

    name: str
    spec: str

    def __call__(self, seed: int | None = None) -> Bot:
        text = self.spec
        if text.isdigit():
            return bot(int(text), seed)
        if text == "random":
            return RandomBot(seed)
        if text == "greedy":
            return GreedyBot()
        if text == "perfect":
            return PerfectBot(seed)
        if text == "match":
            return MatchBot(seed)
        kind, _, argument = text.partition("-")
        if kind == "alphabeta":
            return AlphaBetaBot(int(argument))
        return NoisyBot(float(argument), seed)


def bot_factory(spec: str) -> BotFactory:
    """A maker of bots by level (``1`` to ``10``) or name (see :data:`BOT_NAMES`),
    checked now.

    >>> make = bot_factory("alphabeta-3")
    >>> make.name, make(seed=0).name
    ('alphabeta-3', 'alphabeta-3')
    >>> bot_factory("5").name
    'level-5'
    """
    text = spec.strip().lower()
    if text.isdigit():
        bot(int(text))  # checks the range
        return BotFactory(f"level-{int(text)}", str(int(text)))
    if text in ("random", "greedy", "perfect", "match"):
        return BotFactory(text, text)
    if text.partition("-")[0] in ("alphabeta", "noisy"):
        factory = BotFactory(text, text)
        try:
            factory(0)  # checks the number
        except ValueError as error:
            raise ValueError(f"bad bot '{spec}': {error}") from None
        return factory
    raise ValueError(f"unknown bot '{spec}': use a level 1 to 10 or one of {', '.join(BOT_NAMES)}")
