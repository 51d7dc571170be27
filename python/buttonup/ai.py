"""AI players, from random to perfect match play.

Every bot has one small interface: ``choose(position, match=None)`` returns a legal move
of ``position`` (``match``, when given, is the :class:`buttonup.Match` being played), and
``choose_starter(match)`` names the player to start the next battle when the tie rule
lets this bot choose. :func:`bot` maps levels 1 to 10 to a graded scale, documented and
measured in docs/ai.md.

>>> from buttonup import Position
>>> from buttonup.ai import bot
>>> bot(9).choose(Position("W/R/B/W/B/R/R/W/B r"))
3
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Optional, Protocol

from buttonup._core import (
    VARIANT_LIMITS,
    Match,
    Position,
    analyze,
    match_analyze,
    search,
    win_probability,
)
from buttonup.errors import IllegalMoveError
from buttonup.player import Player

__all__ = [
    "BOT_NAMES",
    "EPSILON",
    "LEVELS",
    "AlphaBetaBot",
    "Bot",
    "BotFactory",
    "GreedyBot",
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


def _has_match_odds(match: Match | None) -> bool:
    return match is not None and match.per_colour <= VARIANT_LIMITS["match_odds"]


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


class RandomBot(_StartsItself):
    """Plays a uniformly random legal move."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "random"
        self._rng = random.Random(seed)

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


class PerfectBot(_StartsItself):
    """Maximises the battle margin under perfect play, choosing at random between
    equally good moves."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "perfect"
        self._rng = random.Random(seed)

    def choose(self, position: Position, match: Match | None = None) -> int:
        _moves(position)
        values = analyze(position)
        best = max(values.values())
        return self._rng.choice([move for move, value in values.items() if value == best])


class NoisyBot(PerfectBot):
    """Plays like :class:`PerfectBot`, except that with probability ``epsilon`` it plays
    a uniformly random legal move instead: the dial of the level scale."""

    def __init__(self, epsilon: float, seed: int | None = None) -> None:
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be from 0 to 1, not {epsilon}")
        super().__init__(seed)
        self.epsilon = epsilon
        self.name = f"noisy-{epsilon:g}"

    def choose(self, position: Position, match: Match | None = None) -> int:
        moves = _moves(position)
        if self._rng.random() < self.epsilon:
            return self._rng.choice(moves)
        return super().choose(position)


class MatchBot(PerfectBot):
    """Maximises the probability of winning the match: in each battle it plays for the
    match value of the final margin (a player who needs 2 points only needs to win by
    2), and it chooses the starter that gives it the better chance. Ties between moves
    go to the better battle margin. Outside a match, or in a variant without a match
    table, it plays like :class:`PerfectBot`."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.name = "match"

    def choose(self, position: Position, match: Match | None = None) -> int:
        if match is None or not _has_match_odds(match):
            return super().choose(position)
        _moves(position)
        red, black = match.scores
        odds = match_analyze(position, red, black, match.starter, match.target, match.last_loser)
        sign = 1.0 if position.to_move is Player.RED else -1.0
        best = max(sign * p for p in odds.values())
        candidates = [move for move, p in odds.items() if sign * p == best]
        if len(candidates) == 1:
            return candidates[0]
        margins = analyze(position)
        top = max(margins[move] for move in candidates)
        return self._rng.choice([move for move in candidates if margins[move] == top])

    def choose_starter(self, match: Match) -> Player:
        chooser = match.chooser
        if chooser is None or not _has_match_odds(match):
            return super().choose_starter(match)
        red, black = match.scores
        odds = {
            starter: win_probability(red, black, starter, match.target, chooser, match.per_colour)
            for starter in Player
        }
        if chooser is Player.RED:
            return max(Player, key=lambda s: (odds[s], s is chooser))
        return min(Player, key=lambda s: (odds[s], s is not chooser))


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

#: A maker of bots, taking the seed of their random choices.
BotFactory = Callable[[Optional[int]], Bot]


def bot(level: int, seed: int | None = None) -> Bot:
    """The AI player of ``level`` (1 to 10); ``seed`` fixes its random choices."""
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 10:
        raise ValueError(f"level must be an int from 1 to 10, not {level!r}")
    if level == 1:
        return RandomBot(seed)
    if level == 9:
        return PerfectBot(seed)
    if level == 10:
        return MatchBot(seed)
    return NoisyBot(EPSILON[level], seed)


#: The bots known by name besides the levels; ``alphabeta-N`` and ``noisy-E`` take a
#: number.
BOT_NAMES = ("random", "greedy", "perfect", "match", "alphabeta-N", "noisy-E")


def bot_factory(spec: str) -> tuple[str, BotFactory]:
    """A bot by level (``1`` to ``10``) or name (see :data:`BOT_NAMES`): its display
    name and a maker taking a seed.

    >>> name, make = bot_factory("alphabeta-3")
    >>> name, make(0).name
    ('alphabeta-3', 'alphabeta-3')
    """
    text = spec.strip().lower()
    if text.isdigit():
        level = int(text)
        bot(level)  # checks the range
        return f"level-{level}", lambda seed: bot(level, seed)
    named: dict[str, BotFactory] = {
        "random": RandomBot,
        "greedy": lambda seed: GreedyBot(),
        "perfect": PerfectBot,
        "match": MatchBot,
    }
    if text in named:
        return text, named[text]
    kind, _, argument = text.partition("-")
    try:
        if kind == "alphabeta":
            depth = int(argument)
            AlphaBetaBot(depth)
            return text, lambda seed: AlphaBetaBot(depth)
        if kind == "noisy":
            epsilon = float(argument)
            NoisyBot(epsilon)
            return text, lambda seed: NoisyBot(epsilon, seed)
    except ValueError as error:
        raise ValueError(f"bad bot '{spec}': {error}") from None
    raise ValueError(f"unknown bot '{spec}': use a level 1 to 10 or one of {', '.join(BOT_NAMES)}")
