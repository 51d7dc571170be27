"""AI players, from random to perfect match play: the one AI of every front end.

Every bot has one small interface: ``choose(position, match=None)`` returns a legal move
of ``position`` (``match``, when given, is the :class:`buttonup.Match` being played), and
``choose_starter(match)`` names the player to start the next battle when the tie rule
lets this bot choose. :func:`bot` maps levels 1 to 10 to a graded scale, documented and
measured in docs/ai.md. The levels are the core's (``buttonup._core.Bot``, the same bot
that the native engine, the C library and WebAssembly play): the same level and seed
play the same moves through every door. The terminal game, the tournament, the UGI
engine and the web app all play it.

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
from typing import Any, Protocol

from buttonup import _core
from buttonup._core import Match, Position, search
from buttonup.player import Player
from buttonup.policy_spec import is_policy_spec, policy_name
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


class LevelBot:
    """What :func:`bot` makes: the core's bot (``buttonup._core.Bot``) with the settings
    a front end may change between moves. ``limits`` and ``on_iteration`` shape its
    searches (see :class:`PerfectBot`); ``last_random`` tells whether its last move was
    a random one and ``last_search`` is the search behind it, when it was chosen within
    limits. Without ``tt_mb`` it searches on the calling thread's table; with it, on a
    table of its own of that many MiB, which carries over from move to move. ``stop()``
    from another thread ends the search of the move being chosen (its best move so far
    is played)."""

    name: str

    def __init__(
        self,
        core: _core.Bot,
        seed: int | None,
        *,
        limits: Limits | None = None,
        on_iteration: Callable[[SearchResult], object] | None = None,
    ) -> None:
        self._core = core
        self._seed = seed
        self.limits = limits
        self.on_iteration = on_iteration

    @property
    def last_random(self) -> bool:
        return self._core.last_random

    @property
    def last_search(self) -> SearchResult | None:
        return self._core.last_search

    @property
    def tt_bytes(self) -> int:
        """The size of the table it searches on, in bytes."""
        return self._core.tt_bytes

    def epsilon_for(self, per_colour: int) -> float:
        """Its chance of a random move in a battle of ``per_colour`` buttons of each
        colour: a level's is smaller from 5 of each colour (docs/ai.md).

        >>> bot(8).epsilon_for(3), bot(8).epsilon_for(7)
        (0.03, 0.018)
        """
        return self._core.epsilon_for(per_colour)

    def choose(self, position: Position, match: Match | None = None) -> int:
        if self.limits is None:
            return self._core.choose(position, match, on_iteration=self.on_iteration)
        return self._core.choose(
            position,
            match,
            **dataclasses.asdict(self.limits),
            search=True,
            on_iteration=self.on_iteration,
        )

    def choose_starter(self, match: Match) -> Player:
        return self._core.choose_starter(match)

    def stop(self) -> None:
        """Stops the search of the move being chosen in another thread; a stop sent
        while no move is chosen stops the next search."""
        self._core.stop()

    def clear_stop(self) -> None:
        """Withdraws a ``stop()`` that no search has used yet."""
        self._core.clear_stop()

    def clear(self) -> None:
        """Forgets what its own table has learned (a new game)."""
        self._core.clear()

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
        for name in ("limits", "on_iteration"):
            value = getattr(self, name)
            if value is not None:
                fields.append(f"{name}={value!r}")
        return f"{type(self).__name__}({', '.join(fields)})"


class RandomBot(LevelBot):
    """Plays a uniformly random legal move (level 1)."""

    name = "random"

    def __init__(self, seed: int | None = None, **settings: Any) -> None:
        _made(self, 1, seed, settings)


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
        move = search(position, depth=self.depth).best_move
        if move is None:
            position.play(0)  # the core's IllegalMoveError of a finished battle
        assert move is not None  # a position with legal moves has a best one
        return move


class GreedyBot(AlphaBetaBot):
    """Looks one move ahead: the move whose result looks best right away."""

    def __init__(self) -> None:
        super().__init__(1)
        self.name = "greedy"


class PerfectBot(LevelBot):
    """Maximises the battle margin under perfect play, choosing at random between
    equally good moves (level 9).

    With ``limits`` it plays the best move of one deepening search within them instead
    (with ``on_iteration`` called after each iteration): exact when the search reaches
    the end, the best estimate at its horizon otherwise. ``limits`` and
    ``on_iteration`` are attributes that a front end may change between moves.
    """

    name = "perfect"

    def __init__(self, seed: int | None = None, **settings: Any) -> None:
        _made(self, 9, seed, settings)


class NoisyBot(LevelBot):
    """Plays like :class:`PerfectBot`, except that with probability ``epsilon`` it plays
    a uniformly random legal move instead: the dial of the level scale."""

    def __init__(self, epsilon: float, seed: int | None = None, **settings: Any) -> None:
        _made(self, epsilon, seed, settings)

    @property
    def epsilon(self) -> float:
        return self._core.epsilon


class MatchBot(LevelBot):
    """Maximises the probability of winning the match (level 10): in each battle it
    plays for the match value of the final margin (a player who needs 2 points only
    needs to win by 2), and it chooses the starter that gives it the better chance.
    Ties between moves go to the better battle margin. Outside a match, or in a variant
    without a match table, it plays like :class:`PerfectBot` (limits included)."""

    name = "match"

    def __init__(self, seed: int | None = None, **settings: Any) -> None:
        _made(self, 10, seed, settings)


def _made(made: LevelBot, level: int | float, seed: int | None, settings: dict[str, Any]) -> None:
    """Sets up ``made`` over the core's bot of ``level`` (an int) or of a chance of a
    random move (a float, for :class:`NoisyBot`); ``settings`` are ``tt_mb``,
    ``threads``, ``limits`` and ``on_iteration``."""
    table = {key: settings.pop(key) for key in ("tt_mb", "threads") if key in settings}
    if isinstance(level, float):
        core = _core.Bot.noisy(level, seed, **table)
    else:
        core = _core.Bot(level, seed, **table)
    LevelBot.__init__(made, core, seed, **settings)
    if isinstance(made, NoisyBot):
        made.name = f"noisy-{core.epsilon:g}"


# --- the registry: every level and every named bot, defined once ---------------------

#: The chance of a random move at each level: level 1 is random play, level 9 perfect
#: play for the battle margin, level 10 perfect play for the match (docs/ai.md). The
#: scale is the core's (``buttonup._core.LEVELS``), read here and by every door.
EPSILON: dict[int, float] = {level: epsilon for level, epsilon, _ in _core.LEVELS}

#: What each level is.
LEVELS: dict[int, str] = {level: text for level, _, text in _core.LEVELS}


def bot(
    level: int,
    seed: int | None = None,
    *,
    limits: Limits | None = None,
    on_iteration: Callable[[SearchResult], object] | None = None,
    tt_mb: float | None = None,
    threads: int | None = None,
) -> LevelBot:
    """The AI player of ``level`` (1 to 10); ``seed`` (0 to 2**64 - 1) fixes its random
    choices.

    Without ``limits`` its perfect moves are exact (every move solved); with them, and
    with ``on_iteration``, they are the best move of one search within the limits (see
    :class:`PerfectBot`). Level 10 needs the ``match`` passed to ``choose`` to play for
    the match; without one it plays as level 9. ``tt_mb`` gives it a table of its own
    (MiB), ``threads`` the threads of its exact solves of big positions and of its
    searches of them within a time alone (default every core).
    """
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 10:
        raise ValueError(f"level must be an int from 1 to 10, not {level!r}")
    kind = {1: RandomBot, 9: PerfectBot, 10: MatchBot}.get(level, NoisyBot)
    made = kind.__new__(kind)
    settings: dict[str, Any] = {"limits": limits, "on_iteration": on_iteration}
    if tt_mb is not None:
        settings["tt_mb"] = tt_mb
    if threads is not None:
        settings["threads"] = threads
    _made(made, level, seed, settings)
    return made


#: The bots known by name besides the levels; ``alphabeta-N`` and ``noisy-E`` take a
#: number.
BOT_NAMES = ("random", "greedy", "perfect", "match", "alphabeta-N", "noisy-E")


@dataclass(frozen=True)
class BotFactory:
    """A maker of one kind of bot: ``factory(seed)`` is a new bot, ``factory.name`` its
    display name. Plain data, so that worker processes can be sent one. With
    ``movetime`` (seconds), the bots of the level scale (levels, ``perfect``, ``match``,
    ``noisy-E``) play their perfect moves as one search within that time on one thread,
    as the page and ``go movetime`` play them, instead of solving every move."""

    name: str
    spec: str
    movetime: float | None = None

    def __call__(self, seed: int | None = None) -> Bot:
        text = self.spec
        if is_policy_spec(text):
            from buttonup.envs.policies import load_policy

            made = load_policy(text, seed)
            made.name = self.name
            return made
        settings: dict[str, Any] = {}
        if self.movetime is not None:
            settings = {"limits": Limits(time_limit=self.movetime), "threads": 1}
        if text.isdigit():
            return bot(int(text), seed, **settings)
        if text == "random":
            return RandomBot(seed)
        if text == "greedy":
            return GreedyBot()
        if text == "perfect":
            return PerfectBot(seed, **settings)
        if text == "match":
            return MatchBot(seed, **settings)
        kind, _, argument = text.partition("-")
        if kind == "alphabeta":
            return AlphaBetaBot(int(argument))
        return NoisyBot(float(argument), seed, **settings)


def bot_factory(spec: str) -> BotFactory:
    """A maker of bots by level (``1`` to ``10``), name (see :data:`BOT_NAMES`) or
    policy spec (``module:attribute``, ``PATH.zip``, ``PATH.onnx``: the forms of
    :mod:`buttonup.envs.policies`, which loads it), checked now. ``NAME=SPEC`` names
    the bot ``NAME``.

    >>> make = bot_factory("alphabeta-3")
    >>> make.name, make(seed=0).name
    ('alphabeta-3', 'alphabeta-3')
    >>> bot_factory("5").name
    'level-5'
    >>> bot_factory("first=buttonup.envs.policies:first_legal").name
    'first'
    """
    name, sep, rest = spec.partition("=")
    if sep and name.strip() and not is_policy_spec(name):
        made = bot_factory(rest)
        return BotFactory(name.strip(), made.spec)
    if is_policy_spec(spec):
        from buttonup.envs.policies import load_policy

        text = spec.strip()
        load_policy(text)  # checks that it loads and plays
        return BotFactory(policy_name(text), text)
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
    raise ValueError(
        f"unknown bot '{spec}': use a level 1 to 10, one of {', '.join(BOT_NAMES)}, "
        "or a policy (module:attribute, PATH.zip, PATH.onnx)"
    )
