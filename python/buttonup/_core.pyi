"""Type stubs of the Rust extension module ``buttonup._core``."""

from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Final, Literal, TypeAlias, final, overload

import numpy as np
import numpy.typing as npt

from buttonup.player import Player
from buttonup.results import (
    Battle,
    Chances,
    MoveOutcome,
    PlayoutSummary,
    Scoring,
    SearchResult,
    Standing,
)

__all__ = [
    "LEVELS",
    "MAX_BUTTONS",
    "MAX_TARGET",
    "RATINGS",
    "STANDARD_PER_COLOUR",
    "STANDARD_TARGET",
    "UGI_MAX_LINE",
    "VARIANT_LIMITS",
    "Bot",
    "Chart",
    "Match",
    "Position",
    "Searcher",
    "Seats",
    "Session",
    "StartOrders",
    "UgiEngine",
    "VecEnv",
    "all_positions",
    "analysis_view",
    "analyze",
    "battle_view",
    "draw_match",
    "draw_position",
    "draw_tower",
    "draw_walk",
    "draw_walks",
    "encode_observation",
    "hint_view",
    "legal_action_mask",
    "line_view",
    "match_analyze",
    "match_view",
    "match_view_text",
    "max_margin",
    "perft",
    "perft_many",
    "position_view",
    "random_playouts",
    "read_records",
    "review",
    "review_view",
    "search",
    "shown_battle",
    "solve",
    "solve_many",
    "start_classes",
    "start_orders",
    "start_orders_from",
    "win_probability",
]

LEVELS: Final[tuple[tuple[int, float, str], ...]]
"""The AI's level scale: `(level, share of random moves, description)` for levels 1 to 10."""
MAX_BUTTONS: Final[int]
"""The most buttons a position may hold (32)."""
MAX_TARGET: Final[int]
"""The largest match target, in victory points (1,000)."""
RATINGS: Final[tuple[float, ...]]
"""Each level's rating, from level 1: an Elo scale (400 points are odds of ten to one of
winning a match) measured in matches of the standard game between the levels, level 1
(random moves) at 1000. A bot may be asked for any rating from the first to the last."""
STANDARD_PER_COLOUR: Final[int]
"""The buttons of each colour in the standard game (3)."""
STANDARD_TARGET: Final[int]
"""The victory points a standard match is played to (15)."""
UGI_MAX_LINE: Final[int]
"""The longest line a UGI engine reads, in bytes; a longer one is answered with an error."""
VARIANT_LIMITS: Final[dict[str, int]]
"""The most buttons of each colour each capability supports, by capability: `rules`, `start_orders`, `move_graph`, `match_odds`, `positions` (the fewest is 1)."""

_PlayerLike: TypeAlias = Player | Literal["r", "b"]

def max_margin(per_colour: int) -> int:
    """The exact largest final margin of a battle of `per_colour` buttons of each colour.

    It is `2 * per_colour**2` (18 for the standard game): one colour's buttons all on
    top of the final pile and the other's at its bottom.

    Args:
        per_colour: the buttons of each colour, 1 to `VARIANT_LIMITS["rules"]`.

    Raises:
        ValueError: if `per_colour` is out of range.

    Example:
        >>> from buttonup import max_margin
        >>> max_margin(3), max_margin(1)
        (18, 2)
    """

@final
class Position:
    """A Button Up! position: the circle of piles and the player to move. Immutable.

    Read from the notation `PILES SIDE` (docs/notation.md), e.g. `"W/R/B/W/B/R/R/W/B r"`:
    the piles in clockwise order, each written bottom first, then the side to move.

    Positions are equal when their notations are, hash alike then, and are ordered by
    their notation text as strings compare (`sorted(positions)` sorts them as
    `sorted(map(str, positions))` does). `str(position)` is the notation.

    Args:
        text: the position in the notation `PILES SIDE`.

    Raises:
        NotationError: if `text` is not a position in the notation.
        TypeError: if `text` is not a str.

    Example:
        >>> from buttonup import Position
        >>> position = Position("W/R/B/W/B/R/R/W/B r")
        >>> position.legal_moves()
        [0, 3, 7]
        >>> position.play(3)
        Position('W/R/B/BW/R/R/W/B b')
        >>> str(position)
        'W/R/B/W/B/R/R/W/B r'
    """
    def __new__(cls, text: str) -> Position: ...
    @staticmethod
    def start(order: str, *, to_move: _PlayerLike | None = None) -> Position:
        """A start position from its start order: one letter per one-button pile.

        Args:
            order: the button of each pile, clockwise, one letter each (`R`, `B` or `W`),
                e.g. `"WRBWBRRWB"`.
            to_move: the player who moves first: a `Player` or `"r"`/`"b"`; `None` for Red.

        Raises:
            NotationError: if `order` is not a start order.
            TypeError: if `order` is not a str, or `to_move` not a player.
            ValueError: if `to_move` is a str other than `"r"` and `"b"`.

        Example:
            >>> from buttonup import Position
            >>> Position.start("WRBWBRRWB")
            Position('W/R/B/W/B/R/R/W/B r')
            >>> Position.start("WRBWBRRWB", to_move="b")
            Position('W/R/B/W/B/R/R/W/B b')
        """
    @staticmethod
    def random(
        seed: int | None = None, *, to_move: _PlayerLike | None = None, per_colour: int = 3
    ) -> Position:
        """A uniformly shuffled start with `per_colour` buttons of each colour.

        The same seed gives the same start.

        Args:
            seed: an int from 0 to 2**64 - 1 (`None`: a seed from the operating system).
            to_move: the player who moves first: a `Player` or `"r"`/`"b"`; `None` for Red.
            per_colour: the buttons of each colour, from 1 to `VARIANT_LIMITS["rules"]`.

        Raises:
            ValueError: if `seed` or `per_colour` is out of range.
            TypeError: if `seed` is not an int or `None`.

        Example:
            >>> from buttonup import Position
            >>> Position.random(7)
            Position('B/B/R/W/R/W/W/R/B r')
            >>> Position.random(7, per_colour=1)
            Position('W/R/B r')
        """
    @property
    def piles(self) -> tuple[str, ...]:
        """The piles in clockwise order, each written bottom first (a tuple of str).

        Example:
            >>> from buttonup import Position
            >>> Position("RW/B/W r").piles
            ('RW', 'B', 'W')
        """
    @property
    def to_move(self) -> Player:
        """The player to move (a `Player`)."""
    @property
    def is_over(self) -> bool:
        """Whether the battle is over (one pile left)."""
    def legal_moves(self) -> list[int]:
        """The legal moves: the indices of the piles holding a white button, in order.

        Example:
            >>> from buttonup import Position
            >>> Position("W/R/B/W/B/R/R/W/B r").legal_moves()
            [0, 3, 7]
        """
    def is_legal(self, move: object) -> bool:
        """Whether `move` is a legal move.

        Never raises: anything that is not a legal move (a number out of range, a value of
        another type) is `False`.

        Args:
            move: the index of the pile to lift.

        Example:
            >>> from buttonup import Position
            >>> position = Position("W/R/B/W/B/R/R/W/B r")
            >>> position.is_legal(3), position.is_legal(1), position.is_legal(20)
            (True, False, False)
        """
    def play(self, move: int) -> Position:
        """The position after lifting pile `move`.

        Args:
            move: the index of the pile to lift, 0 to `len(piles) - 1` (an int, or anything
                with `__index__` but a bool).

        Returns:
            The new position (this one is unchanged).

        Raises:
            IllegalMoveError: if there is no such pile, the pile has no white button, or the
                battle is over.
            TypeError: if `move` is not an int.

        Example:
            >>> from buttonup import Position
            >>> Position("W/R/B/W/B/R/R/W/B r").play(0)
            Position('RW/B/W/B/R/R/W/B b')
        """
    def outcome(self, move: int) -> MoveOutcome[Position]:
        """What lifting pile `move` does, from one evaluation.

        Args:
            move: the index of the pile to lift.

        Returns:
            A `MoveOutcome` with the position after it, whether the mover moves again (rule 4),
            and the pile (numbered as in this position) that receives each lifted button,
            bottom button first (rule 3; with an overflow the last pile repeats).

        Raises:
            IllegalMoveError: if `move` is not a legal move.
            TypeError: if `move` is not an int.

        Example:
            >>> from buttonup import Position
            >>> Position("W/R/B/W/B/R/R/W/B r").outcome(3)
            MoveOutcome(position=Position('W/R/B/BW/R/R/W/B b'), extra_move=False, drops=(4,))
            >>> Position("B/B/R/R/W/W r").outcome(4)
            MoveOutcome(position=Position('B/B/R/R/WW r'), extra_move=True, drops=(5,))
        """
    def gives_extra_move(self, move: int) -> bool:
        """Whether playing `move` makes the mover move again (rule 4).

        Args:
            move: the index of the pile to lift.

        Raises:
            IllegalMoveError: if `move` is not a legal move.
            TypeError: if `move` is not an int.

        Example:
            >>> from buttonup import Position
            >>> Position("B/B/R/R/W/W r").gives_extra_move(4)
            True
        """
    def scoring(self) -> Scoring:
        """The scoring of the final pile (rule 6).

        Returns:
            A `Scoring`: each button's strength and owner, the sums, the winner and the
            points.

        Raises:
            BattleNotOverError: if the battle is not over.

        Example:
            >>> from buttonup import Position
            >>> Position("WRBWBRRWB r").scoring()  # doctest: +NORMALIZE_WHITESPACE
            Scoring(tower='WRBWBRRWB', red_strengths=(2, 6, 7), black_strengths=(3, 5, 9),
                    red=15, black=17, winner=<Player.BLACK: 'b'>, points=2)
        """
    def sums(self) -> tuple[int, int]:
        """Red's and Black's sums in the final pile (rule 6).

        Raises:
            BattleNotOverError: if the battle is not over.

        Example:
            >>> from buttonup import Position
            >>> Position("WRBWBRRWB r").sums()
            (15, 17)
        """
    def _repr_svg_(self) -> str: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    def __lt__(self, value: Position, /) -> bool: ...
    def __le__(self, value: Position, /) -> bool: ...
    def __gt__(self, value: Position, /) -> bool: ...
    def __ge__(self, value: Position, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __copy__(self) -> Position: ...
    def __deepcopy__(self, memo: object) -> Position: ...
    def __reduce__(self) -> tuple[type[Position], tuple[str]]: ...

def perft(position: Position, depth: int) -> int:
    """Counts the move sequences of length `depth` from `position`.

    A sequence that ends the battle sooner counts as one leaf. Runs without the GIL.

    Args:
        position: the position to count from.
        depth: the moves of each sequence, 0 or more.

    Raises:
        ValueError: if `depth` is out of range.

    Example:
        >>> from buttonup import Position, perft
        >>> [perft(Position("W/R/B/W/B/R/R/W/B r"), depth) for depth in range(4)]
        [1, 3, 9, 26]
    """

def perft_many(
    positions: Iterable[Position], depth: int, *, threads: int | None = None
) -> list[int]:
    """`[perft(p, depth) for p in positions]` on `threads` threads.

    Args:
        positions: an iterable of `Position`.
        depth: the moves of each sequence, 0 or more.
        threads: the threads, 1 to 256 (`None`: every core).

    Raises:
        TypeError: if an item is not a `Position` (the message names it).
        ValueError: if `depth` or `threads` is out of range.

    Example:
        >>> from buttonup import Position, perft_many
        >>> perft_many([Position("W/R/B/W/B/R/R/W/B r"), Position("W/B/W/R/B/R/B/R/W r")], 3)
        [26, 20]
    """

@final
class Searcher:
    """A searcher with its own transposition table, which another thread can stop.

    With `threads` above 1 (`None`: every core) the table is one that threads share,
    and a solve, or an exact search (no limit), of a position of 16 piles or more runs
    on that many threads (Lazy SMP: the same value and best move), as does a search
    within a time alone (deeper in the same time); depth and node limits and smaller
    positions run on the calling thread.

    Its table carries over from search to search until `clear()`. One search runs at
    a time: a call made while another thread's search runs waits for it.

    Args:
        tt_mb: the size of the table in MiB, 0.001 to 65536.
        threads: the threads of a big solve or search, 1 to 256 (`None`: every core).

    Raises:
        ValueError: if `tt_mb` or `threads` is out of range.
        MemoryError: if the table cannot be allocated.

    Example:
        >>> from buttonup import Position, Searcher
        >>> searcher = Searcher(tt_mb=1)
        >>> searcher.tt_bytes, searcher.threads
        (1048576, 1)
        >>> searcher.solve(Position("W/R/B/W/B/R/R/W/B r"))
        1
    """
    def __new__(cls, *, tt_mb: float = 16.0, threads: int | None = 1) -> Searcher: ...
    def search(
        self,
        position: Position,
        *,
        depth: int | None = None,
        nodes: int | None = None,
        time_limit: float | None = None,
        on_iteration: Callable[[SearchResult], object] | None = None,
    ) -> SearchResult:
        """Searches `position` on this searcher's table: as `buttonup.search`.

        A `stop()` ends it early with the best move so far.

        Args:
            position: the position to search.
            depth: the most plies, 1 or more (`None`: no limit).
            nodes: the most positions visited, 1 or more (`None`: no limit).
            time_limit: the most seconds (`None`: no limit).
            on_iteration: called with a `SearchResult` for each finished iteration;
                returning `False` from it ends the search.

        Returns:
            The `SearchResult` of the last finished iteration.

        Raises:
            ValueError: if a limit is out of range.
            RuntimeError: if called from its own `on_iteration` callback.
        """
    def solve(self, position: Position) -> int:
        """The exact value of `position` for the side to move: as `buttonup.solve`.

        Raises:
            SearchStoppedError: if a `stop()` ends it before it has the exact value.
            RuntimeError: if called from its own `on_iteration` callback.
        """
    def stop(self) -> None:
        """Stops the search or solve running in another thread.

        A search returns its best move so far; a solve raises `SearchStoppedError`. A stop
        sent while nothing runs stops the next search: it is never lost.
        """
    def clear_stop(self) -> None:
        """Withdraws a `stop()` that no search has used yet.

        A front end that starts searches and stops them from one thread calls it before
        each search, so that a stop arriving just as the previous search ended cannot stop
        the next one.
        """
    def clear(self) -> None:
        """Forgets every stored position (waiting, without the GIL, for a running search)."""
    @property
    def tt_bytes(self) -> int:
        """The size of the transposition table in bytes (read without waiting for a search)."""
    @property
    def threads(self) -> int:
        """The threads a solve or an exact search uses (see the class)."""

@final
class Bot:
    """An AI player of the level scale (docs/ai.md): `Bot(level, seed)`, or
    `Bot.noisy(epsilon, seed)` off the scale.

    Without `tt_mb` it searches on the calling thread's table (as `buttonup.search`
    does); with it, on a table of its own that carries over from move to move.
    `buttonup.ai.bot` wraps it for front ends.

    Args:
        level: 1 to 10.
        seed: fixes its random choices, 0 to 2**64 - 1 (`None`: drawn afresh).
        tt_mb: the size of a table of its own, in MiB (`None`: none).
        threads: how many threads its exact solves of big positions may use (`None`:
            every core).

    Raises:
        ValueError: if an argument is out of range.

    Example:
        >>> from buttonup import Position
        >>> from buttonup._core import Bot
        >>> player = Bot(9, 1)
        >>> player
        Bot(level=9, epsilon=0.0, seed=1)
        >>> player.choose(Position("W/R/B/W/B/R/R/W/B r"))
        3
    """
    def __new__(
        cls,
        level: int,
        seed: int | None = None,
        *,
        tt_mb: float | None = None,
        threads: int | None = None,
    ) -> Bot: ...
    @staticmethod
    def rated(
        rating: float,
        seed: int | None = None,
        *,
        tt_mb: float | None = None,
        threads: int | None = None,
    ) -> Bot:
        """The bot of a rating on the level scale's ratings (`buttonup.RATINGS`).

        Between the two levels around `rating`, its chance of a random move lies as far
        between theirs as the rating between their ratings, at every size of battle; from
        halfway between levels 9 and 10 it plays for the match as level 10 does. It
        reports the level nearest. The other arguments are the constructor's.

        Args:
            rating: from level 1's rating to level 10's.

        Raises:
            ValueError: if `rating` is out of range.

        Example:
            >>> from buttonup import RATINGS
            >>> from buttonup._core import Bot
            >>> middle = (RATINGS[4] + RATINGS[5]) / 2
            >>> bot = Bot.rated(middle, seed=1)
            >>> bot.rating == middle, bot.level in (5, 6)
            (True, True)
        """
    @staticmethod
    def noisy(
        epsilon: float,
        seed: int | None = None,
        *,
        tt_mb: float | None = None,
        threads: int | None = None,
    ) -> Bot:
        """A bot that plays perfectly for the battle margin but for a chance of a random move.

        With probability `epsilon` it plays a uniformly random legal move instead: the dial
        of the level scale. The other arguments are the constructor's.

        Args:
            epsilon: the chance of a random move, 0 to 1.

        Raises:
            ValueError: if `epsilon` is out of range.
        """
    def choose(
        self,
        position: Position,
        match: Match | None = None,
        *,
        depth: int | None = None,
        nodes: int | None = None,
        time_limit: float | None = None,
        on_iteration: Callable[[SearchResult], object] | None = None,
    ) -> int:
        """Its move in `position`.

        Its perfect moves are the best move of one deepening search within `depth`, `nodes`
        and `time_limit` (exact without them), the lowest-numbered of equally good ones.

        Args:
            position: the position to move in.
            match: the match being played (level 10 then plays for it when its position is
                `position`).
            depth: the most plies of the search (`None`: no limit).
            nodes: the most positions visited (`None`: no limit).
            time_limit: the most seconds (`None`: no limit).
            on_iteration: called with each finished iteration's `SearchResult` (`False`
                ends the search).

        Raises:
            IllegalMoveError: if the battle is over.
            ValueError: if a limit is out of range.
        """
    def choose_starter(self, match: Match) -> Player:
        """Who starts the next battle of `match` when the tie rule lets this bot choose.

        Level 10 takes the better chance of winning the match; the others start themselves.
        """
    def stop(self) -> None:
        """Stops its move being chosen in another thread (it then plays the best move found so
        far).

        A stop sent while it chooses nothing stops its next search.
        """
    def clear_stop(self) -> None:
        """Withdraws a `stop()` that no search has used yet."""
    def clear(self) -> None:
        """Forgets what its own table has learned (a new game)."""
    def reset(self, level: int, seed: int | None = None) -> None:
        """Makes it the bot of `level` from `seed` again, as new but for its table and its
        threads (an engine's options changed).

        Raises:
            ValueError: if `level` or `seed` is out of range.
        """
    def resize(self, tt_mb: float) -> None:
        """Gives it a table of its own of `tt_mb` MiB in place of the one it has.

        Raises:
            MemoryError: if the table cannot be allocated (the old table is kept).
            ValueError: if `tt_mb` is out of range.
        """
    @property
    def level(self) -> int:
        """Its level, 1 to 10 (a noisy bot's is 9, or 1 when it only plays random moves)."""
    @property
    def epsilon(self) -> float:
        """Its chance of a random move in the standard game."""
    @property
    def rating(self) -> float | None:
        """Its rating on the level scale's ratings: its level's, or the one it was made for
        (`None` for a noisy bot).
        """
    def epsilon_for(self, per_colour: int) -> float:
        """Its chance of a random move in a battle of `per_colour` buttons of each colour (a
        level's is smaller from 5 of each colour).
        """
    @property
    def seed(self) -> int:
        """The seed of its random choices (drawn afresh when none was given)."""
    @property
    def tt_bytes(self) -> int:
        """The size of the table it searches on, in bytes."""
    @property
    def last_random(self) -> bool:
        """Whether its last move was a random one."""
    @property
    def last_search(self) -> SearchResult | None:
        """The `SearchResult` of the search behind its last move, when one search chose it."""

@final
class UgiEngine:
    """A UGI engine (docs/protocol.md) that calls itself `name` in its `id name` line. Its
    answers go to standard output (a closed one ends the process quietly, with status
    141), or to `write`, called with each line and its end of line (a
    `BrokenPipeError` or `ConnectionResetError` from it: nobody reads, nothing more is
    written).
    """
    def __new__(cls, name: str, write: Callable[[str], object] | None = None) -> UgiEngine: ...
    def handle(self, line: str | bytes) -> None:
        """Carries out one line, given as text or as the bytes read (a line that is not
        UTF-8 is answered with an error line).
        """
    def line_too_long(self) -> None:
        """Answers a line over the protocol's length limit, which the door skipped."""
    def end_of_input(self) -> None:
        """The end of input: every line before it is carried out (a finite search answers
        first), then the engine quits.
        """
    def interrupt(self) -> None:
        """Ctrl-C: stops any search and waits for it, writing nothing more."""
    def finish(self) -> None:
        """The door ends: after `quit` or the end of input, waits for every line before
        them to be carried out; otherwise stops any search and waits for it.
        """
    @property
    def running(self) -> bool:
        """Whether it reads on (not after `quit`)."""
    @property
    def position(self) -> Position | None:
        """The position that `go` searches once every line handed over is carried out
        (it waits for them): the last `position` command's, or `None` (before one, and
        after `uginewgame`). `buttonup engine --policy` plays it.
        """

def solve(position: Position, *, threads: int | None = None) -> int:
    """The exact value of `position` for the side to move under perfect play (a margin).

    Positions of 16 piles or more are solved on `threads` threads sharing one table
    (Lazy SMP; the same value); smaller ones on the calling thread. The solve runs
    without the GIL; Ctrl-C stops it with `KeyboardInterrupt`.

    Args:
        position: the position to solve.
        threads: the threads of a big solve, 1 to 256 (`None`: every core).

    Returns:
        The final margin the side to move can force: positive when it wins.

    Raises:
        ValueError: if `threads` is out of range.

    Example:
        >>> from buttonup import Position, solve
        >>> solve(Position("W/R/B/W/B/R/R/W/B r"))
        1
    """

def solve_many(
    positions: Iterable[Position], *, threads: int | None = None, tt_mb: float = 16.0
) -> list[int]:
    """The exact value (a margin, for the side to move) of every position, in order.

    The same numbers as `[solve(p) for p in positions]`, on `threads` threads sharing
    one transposition table of at most `tt_mb` MiB, sized by the work the batch's first
    positions took (a batch of small positions gets a small table, which is faster) and
    kept for the next batch.

    Args:
        positions: an iterable of `Position`.
        threads: the threads, 1 to 256 (`None`: every core).
        tt_mb: the most MiB of the shared table.

    Returns:
        A list of values, one a position.

    Raises:
        TypeError: if an item is not a `Position` (the message names it).
        ValueError: if `threads` or `tt_mb` is out of range.

    Example:
        >>> from buttonup import Position, solve_many
        >>> solve_many([Position("W/R/B/W/B/R/R/W/B r"), Position("W/B/W/R/B/R/B/R/W r")])
        [1, 0]
    """

def analyze(
    position: Position, *, threads: int | None = None, time_limit: float | None = None
) -> dict[int, int]:
    """The exact value, for the side to move, of every legal move: `{move: value}`.

    For a position of 16 piles or more the moves are solved on `threads` threads
    sharing one table; smaller ones on the calling thread. The values are the same.
    With `time_limit` the analysis runs on the calling thread.

    Args:
        position: the position to analyse.
        threads: the threads of a big analysis, 1 to 256 (`None`: every core).
        time_limit: the most seconds it may take (`None`: no limit).

    Returns:
        A dict from each legal move to its exact value.

    Raises:
        SearchStoppedError: if the analysis is not done within `time_limit` (values are
            exact or not given).
        ValueError: if `threads` or `time_limit` is out of range.

    Example:
        >>> from buttonup import Position, analyze
        >>> analyze(Position("W/R/B/W/B/R/R/W/B r"))
        {0: -1, 3: 1, 7: 0}
    """

def review(
    start: Position, moves: Sequence[int], *, time_limit: float, budget: float
) -> list[tuple[int | None, int | None, list[int], list[int]]]:
    """Each of `moves` played from a battle's `start` judged against perfect play:
    `(best, played, best_moves, best_line)`, the mover's best margin and the played
    move's (exact, or `None` where not solved in time), the moves of the best value and
    the best line. Each analysis and each line takes at most `time_limit` seconds and the
    whole review `budget` seconds; the last moves are judged first, so a short budget
    leaves unknown the first moves of a big battle. An illegal move raises
    `IllegalMoveError` before any search.
    """

def search(
    position: Position,
    *,
    depth: int | None = None,
    nodes: int | None = None,
    time_limit: float | None = None,
    on_iteration: Callable[[SearchResult], object] | None = None,
    threads: int | None = None,
) -> SearchResult:
    """Iterative-deepening alpha-beta search of `position` within the limits.

    Exact when no limit is given. An exact search (no limit) of a position of 16 piles
    or more runs on `threads` threads sharing one table (Lazy SMP: the same value and
    best move), and so does a search within a time alone (on the thread's second
    table: deeper in the same time); depth and node limits, and smaller positions, run
    on the calling thread.

    Args:
        position: the position to search.
        depth: the most plies, 1 or more (`None`: no limit).
        nodes: the most positions visited, 1 or more (`None`: no limit).
        time_limit: the most seconds (`None`: no limit).
        on_iteration: called with a `SearchResult` for each finished iteration;
            returning `False` from it ends the search, and an exception it raises ends
            the search and is raised.
        threads: the threads, 1 to 256 (`None`: every core).

    Returns:
        The `SearchResult` of the last finished iteration.

    Raises:
        ValueError: if a limit or `threads` is out of range.

    Example:
        >>> from buttonup import Position, search
        >>> result = search(Position("W/R/B/W/B/R/R/W/B r"))
        >>> result.best_move, result.value, result.exact, result.pv
        (3, 1, True, (3, 0, 0, 1, 3, 3, 2, 0))
        >>> search(Position("W/R/B/W/B/R/R/W/B r"), depth=2).exact
        False
    """

def win_probability(of: Standing | Match, *, threads: int | None = None) -> Chances:
    """Each player's exact probability of winning a match under perfect match play.

    The shuffles are taken as chance. `of` is a `buttonup.results.Standing` (between
    two battles: a battle about to be dealt, the tie rule's choice due, or the match
    over) or a `Match`, taken as it stands: while a choice is due and after the match,
    its `standing`'s chances; in a battle (from its dealt start on), the chances from
    its current position, the mover choosing his best move (a standing's chance before
    a battle is the mean of these over the starts it may deal). That position's moves
    are solved on `threads` threads where that pays, from 16 piles (beyond the 9 of the
    largest match the odds support today, so on the calling thread); a standing needs
    no search.

    Args:
        of: a `Standing` or a `Match`.
        threads: the threads of a big solve, 1 to 256 (`None`: every core).

    Returns:
        The `Chances` of Red and Black.

    Raises:
        MatchStateError: if the standing is impossible (at 0-0 without a `starter`, for
            one).
        ValueError: if the match has more buttons of each colour than the odds support
            (`VARIANT_LIMITS["match_odds"]`), or `threads` is out of range.
        TypeError: if `of` is neither a `Standing` nor a `Match`.

    Example:
        >>> from buttonup import Standing, win_probability
        >>> chances = win_probability(Standing(3, 5))  # Red is behind, so Red starts
        >>> round(chances.red, 5), round(chances.black, 5)
        (0.48696, 0.51304)
    """

def match_analyze(match: Match, *, threads: int | None = None) -> dict[int, float]:
    """The mover's exact probability of winning the match after each legal move.

    For each legal move of the current battle of `match`, under perfect match play:
    `{move: probability}` (empty while the tie rule's choice is due, or after the
    match: no move is legal). A move that ends a battle is worth the standing it leads
    to, the next start not dealt yet. The moves are solved on `threads` threads where
    that pays, as for `win_probability`.

    Args:
        match: the match, in the state it is in.
        threads: the threads of a big solve, 1 to 256 (`None`: every core).

    Returns:
        A dict from each legal move to the mover's probability of winning the match.

    Raises:
        ValueError: if the match has more buttons of each colour than the odds support
            (`VARIANT_LIMITS["match_odds"]`), or `threads` is out of range.

    Example:
        >>> from buttonup import Match, match_analyze
        >>> game = Match(target=3, per_colour=2, seed=1)
        >>> game.position
        Position('R/B/W/R/W/B r')
        >>> {move: round(chance, 4) for move, chance in match_analyze(game).items()}
        {2: 0.3906, 4: 0.0}
    """

def start_orders(per_colour: int = 3) -> StartOrders:
    """Every distinct start order of rule 1 with `per_colour` buttons of each colour, as a
    lazy sequence.

    1,680 for the standard game, in lexicographic order (`B < R < W`): a `StartOrders`.

    Args:
        per_colour: the buttons of each colour, 1 to `VARIANT_LIMITS["start_orders"]`.

    Raises:
        ValueError: if `per_colour` is out of range.

    Example:
        >>> from buttonup import start_orders
        >>> start_orders()[:3]
        ['BBBRRRWWW', 'BBBRRWRWW', 'BBBRRWWRW']
    """

@final
class StartOrders(Sequence[str]):
    """Every distinct start order of rule 1 with `per_colour` buttons of each colour.

    There are 1,680 for the standard game, in lexicographic order (`B < R < W`): a
    read-only sequence that makes each order when it is asked for, as `range` does its
    numbers. It has a length, indexes and slices, iterates, and finds an order's place
    (`index`, `in`) without listing the others; it equals the list of its orders.
    `isinstance(orders, collections.abc.Sequence)` holds. Made by `start_orders`.

    Example:
        >>> from buttonup import start_orders
        >>> orders = start_orders()
        >>> len(orders), orders[0], orders[-1]
        (1680, 'BBBRRRWWW', 'WWWRRRBBB')
        >>> orders.index("WRBWBRRWB"), "WRBWBRRWB" in orders
        (1396, True)
        >>> start_orders(1) == ["BRW", "BWR", "RBW", "RWB", "WBR", "WRB"]
        True
    """
    @property
    def per_colour(self) -> int:
        """The buttons of each colour of the orders' variant."""
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int, /) -> str: ...
    @overload
    def __getitem__(self, index: slice, /) -> list[str]: ...
    def __iter__(self) -> Iterator[str]: ...
    def __contains__(self, item: object, /) -> bool: ...
    def index(self, order: object, start: int = 0, stop: int | None = None) -> int:
        """The place of `order` in the listing (from 0), found without listing the orders
        before it.

        Args:
            order: a start order.
            start: where to start looking, counted as in a slice.
            stop: where to stop looking, counted as in a slice (`None`: the end).

        Raises:
            ValueError: if `order` is not one of the orders (between `start` and `stop`,
                when given).
        """
    def count(self, order: object) -> int:
        """1 if `order` is one of the orders, else 0."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

def all_positions(per_colour: int = 3) -> list[Position]:
    """Every position that play reaches from every start with `per_colour` buttons of each
    colour, either player starting, finished battles included.

    There are 112,760 for the standard game, listed breadth first from the starts, in
    the order met. Runs without the GIL.

    Args:
        per_colour: the buttons of each colour, 1 to `VARIANT_LIMITS["positions"]` (3).

    Raises:
        ValueError: if `per_colour` is out of range.

    Example:
        >>> from buttonup import all_positions
        >>> len(all_positions(1)), len(all_positions())
        (24, 112760)
    """

def start_classes(per_colour: int = 3) -> tuple[list[str], array[int]]:
    """The starts of a variant grouped by the symmetries that keep their value (turning the
    circle; swapping red and black with the side to move): one start order per class, to
    solve with Red to move, in the order the rows first need them, and the class of every
    start (start order `i` of `start_orders` with Red to move at `2 * i`, with Black at
    `2 * i + 1`) as an `array.array("I")` (4 bytes a start: 137 MB for six of each
    colour, where a list would take a gigabyte).
    """

def start_orders_from(per_colour: int, first: int, count: int) -> list[str]:
    """`count` start orders of `start_orders(per_colour)` from the `first`-th (counting from
    0) on, fewer at the end, as a list: `start_orders(per_colour)[first:first + count]`.
    """

def random_playouts(
    battles: int,
    seed: int | None = None,
    *,
    per_colour: int = 3,
    threads: int | None = None,
) -> PlayoutSummary:
    """Plays `battles` random battles from shuffled starts and sums them up.

    Red moves first in the even-numbered battles. The loop runs in Rust (no GIL held),
    on `threads` threads. Battle `i` has its own generator, so a seed gives the same
    games on any number of threads and in the reference engine.

    Args:
        battles: the number of battles, 0 or more.
        seed: an int from 0 to 2**64 - 1 (`None`: from the operating system).
        per_colour: the buttons of each colour, 1 to `VARIANT_LIMITS["rules"]`.
        threads: the threads, 1 to 256 (`None`: every core).

    Returns:
        A `PlayoutSummary`.

    Raises:
        ValueError: if an argument is out of range.

    Example:
        >>> from buttonup import random_playouts
        >>> summary = random_playouts(100, seed=1)
        >>> summary.battles, summary.red_wins, summary.black_wins, summary.draws
        (100, 46, 51, 3)
    """

@final
class Match:
    """A match of battles to `target` victory points (rules 7 to 9).

    The match scores each finished battle, sets up the next one, and applies the tie rule:
    when a starter must be chosen, `chooser` names the player who calls `choose_starter`.
    Starts are taken in turn from `deals`, start orders such as `"WRBWBRRWB"` (all
    checked at once), then shuffled from `seed`: the same seed gives the same match.

    A match may be shared by threads: each call takes the match for a step that runs
    no Python code, so no other thread can be inside one meanwhile (a call that finds it
    taken raises `RuntimeError`: try again). Matches pickle and copy (their seed and
    the shuffles to come included).

    Args:
        starter: the player who starts the first battle: a `Player` or `"r"`/`"b"`;
            `None` for Red.
        target: the victory points that win the match, 1 to `MAX_TARGET` (15 by default).
        per_colour: the buttons of each colour of every battle (3 by default).
        seed: the seed of the shuffled starts, an int from 0 to 2**64 - 1 (`None`: from
            the operating system).
        deals: an iterable of start orders (str) for the first battles.

    Raises:
        ValueError: if `target`, `per_colour` or `seed` is out of range, or `starter` is
            a str other than `"r"` and `"b"`.
        TypeError: if an argument has the wrong type (`deals` given as one str included).
        NotationError: if a deal is not a start order.

    Example:
        >>> from buttonup import Match
        >>> game = Match(target=1, per_colour=1, seed=5)
        >>> game.position, game.legal_moves()
        (Position('B/R/W r'), [2])
        >>> game.play(2).position
        Position('BW/R b')
        >>> game.play(0).position
        Position('RBW r')
        >>> game
        <Match 0-1 to 1, battle 1, winner=Black>
    """
    def __new__(
        cls,
        starter: _PlayerLike | None = None,
        *,
        target: int | None = None,
        per_colour: int | None = None,
        seed: int | None = None,
        deals: Iterable[str] | None = None,
    ) -> Match: ...
    @property
    def target(self) -> int:
        """The victory points that win the match."""
    @property
    def per_colour(self) -> int:
        """The buttons of each colour of every battle."""
    @property
    def position(self) -> Position:
        """The current battle's position.

        While a starter is chosen, or after the match, the final pile of the latest battle.
        """
    @property
    def to_move(self) -> Player:
        """The player to move in the current battle."""
    @property
    def battle_start(self) -> Position:
        """The start of the current battle.

        With `moves`, the whole battle so far. While a starter is chosen, or after the
        match, the final pile of the latest battle.
        """
    @property
    def starter(self) -> Player:
        """Who started the current battle."""
    @property
    def moves(self) -> tuple[int, ...]:
        """The moves played so far in the current battle (a tuple of pile indices)."""
    @property
    def scores(self) -> tuple[int, int]:
        """Red's and Black's victory points."""
    def score(self, player: _PlayerLike) -> int:
        """The victory points of `player`.

        Args:
            player: a `Player` or `"r"`/`"b"`.

        Raises:
            TypeError: if `player` is not a player (`None` included).
            ValueError: if `player` is a str other than `"r"` and `"b"`.
        """
    @property
    def battles(self) -> tuple[Battle[Position], ...]:
        """The finished battles, first to last (a tuple of `buttonup.results.Battle`)."""
    @property
    def chooser(self) -> Player | None:
        """The player who must now choose who starts the next battle (the tie rule), or `None`."""
    @property
    def last_loser(self) -> Player | None:
        """The loser of the latest battle that had a winner (`None` if none had).

        The player who chooses the starter when the scores are equal.
        """
    @property
    def standing(self) -> Standing:
        """The standing before the current battle (a `buttonup.results.Standing`).

        The scores, the last loser, the current battle's starter (`None` while the tie
        rule's choice is due, or after the match), `per_colour` and `target`.
        """
    @property
    def winner(self) -> Player | None:
        """The winner of the match once it is over, else `None`."""
    @property
    def is_over(self) -> bool:
        """Whether a player has reached the target."""
    def legal_moves(self) -> list[int]:
        """The legal moves now: none while a starter is due or after the match."""
    def play(self, move: int) -> MoveOutcome[Position]:
        """Plays `move` in the current battle and returns its `MoveOutcome`, from one evaluation.

        The outcome's position is the final pile when the move ends the battle; `position`
        then shows the next battle's start. A finished battle is scored, and the next one
        set up unless a starter must be chosen or the match is won. A refused move changes
        nothing.

        Args:
            move: the index of the pile to lift.

        Raises:
            IllegalMoveError: if `move` is not legal now: no such pile, no white button, a
                starter to be chosen, or the match over.
            TypeError: if `move` is not an int.

        Example:
            >>> from buttonup import Match
            >>> game = Match(target=1, per_colour=1, seed=5)
            >>> game.play(2)
            MoveOutcome(position=Position('BW/R b'), extra_move=False, drops=(0,))
        """
    def undo(self) -> int:
        """Takes back the last move of the current battle and returns it.

        Raises:
            MatchStateError: if the current battle has no move to take back (a finished
                battle cannot be taken back).

        Example:
            >>> from buttonup import Match
            >>> game = Match(target=1, per_colour=1, seed=5)
            >>> _ = game.play(2)
            >>> game.undo(), game.moves
            (2, ())
        """
    def movers(self) -> list[Player]:
        """Who played each move of the current battle (a list of `Player`)."""
    def choose_starter(self, starter: _PlayerLike) -> None:
        """The tie rule: the chooser names who starts the next battle.

        Args:
            starter: a `Player` or `"r"`/`"b"` (`None` is refused).

        Raises:
            MatchStateError: if no choice of starter is due.
            TypeError: if `starter` is not a player.
            ValueError: if `starter` is a str other than `"r"` and `"b"`.
        """
    def record(
        self,
        *,
        comments: Mapping[tuple[int, int], str] | None = None,
        values: Mapping[tuple[int, int], float] | None = None,
        **tags: str | None,
    ) -> str:
        """The record of the match so far (docs/notation.md, "Match records").

        `Target`, `PerColour`, `Seed`, `Deals`, `Score` and `Result` are written from the
        match itself.

        Args:
            comments: str comments, written after the moves of their keys `(battle, move)`:
                the battle from 1, the move from 0.
            values: float values, keyed and written as `comments` are.
            **tags: the tags, each a str: `Event`, `Date`, `Red` and `Black` are written `?`
                when not given; `Seed=None` leaves out the seed (and with it the shuffles of
                the battles to come).

        Returns:
            The record's text.

        Raises:
            TypeError: if a tag, comment, value or key has the wrong type.
            RecordError: if the match cannot be written as a record (a text that is not
                valid Unicode, for one).

        Example:
            >>> from buttonup import Match
            >>> game = Match(target=1, per_colour=1, seed=5)
            >>> _ = game.play(2), game.play(0)
            >>> print(game.record(Red="Ann", Black="Bob", Seed=None, comments={(1, 0): "forced"}))
            [Event "?"]
            [Date "?"]
            [Red "Ann"]
            [Black "Bob"]
            [Target "1"]
            [PerColour "1"]
            [Score "0-1"]
            [Result "Black"]
            <BLANKLINE>
            1. BRW r 2 {forced} 0 RBW B+1 0-1
            <BLANKLINE>
        """
    @classmethod
    def from_record(cls, text: str) -> Match:
        """The match of a record (docs/notation.md), every move checked by the rules.

        The battles after the record's are shuffled from its `Seed` (a fresh seed without
        one).

        Args:
            text: the record's text (a str).

        Raises:
            RecordError: if `text` is not a record; the message names the line and token of
                the first fault.
            TypeError: if `text` is not a str.

        Example:
            >>> from buttonup import Match
            >>> game = Match(target=1, per_colour=1, seed=5)
            >>> _ = game.play(2), game.play(0)
            >>> Match.from_record(game.record())
            <Match 0-1 to 1, battle 1, winner=Black>
        """
    @staticmethod
    def _read_record(
        text: str,
    ) -> tuple[
        Match,
        list[tuple[str, str]],
        tuple[list[tuple[tuple[int, int], str]], list[tuple[tuple[int, int], float]]],
    ]: ...
    def __getstate__(self) -> str: ...
    def __setstate__(self, state: str) -> None: ...
    def __reduce__(self) -> tuple[type[Match], tuple[()], str]: ...
    def __copy__(self) -> Match: ...
    def __deepcopy__(self, memo: object) -> Match: ...
    def _repr_svg_(self) -> str: ...
    def _repr_html_(self) -> str: ...

@final
class Seats:
    """Who sits at a match's screen and the turn rules that follow (the web page's
    matches): `players` 1, one person playing `human` against the AI, or 2, two people
    sharing the screen. Each method asks the seats' rules, then the match's; a refusal
    is `MatchStateError` (or the match's own error), with the same words on every door.
    """
    def __new__(cls, human: _PlayerLike, players: int | None = None) -> Seats: ...
    @property
    def ai(self) -> Player | None:
        """The AI's colour (`None` with two people)."""
    def acts(self, game: Match) -> Player:
        """The side whose hints and choices the screen shows in `game`: the person's, or
        with two people the side to move's.
        """
    def names(self, ai: str) -> tuple[str, str]:
        """The names a record gives the sides, Red's first: `You` and `ai` for one person
        against the AI, `Red player` and `Black player` for two.
        """
    def play(self, game: Match, move: int) -> MoveOutcome[Position]:
        """A person's move in `game` (`Match.play`'s answer)."""
    def ai_turn(self, game: Match) -> Literal["choose_starter", "move"]:
        """What the AI is to do in `game`: `"choose_starter"` or `"move"`."""
    def choose(self, game: Match, starter: _PlayerLike) -> None:
        """A person's choice of starter in `game` (the tie rule)."""
    def undo(self, game: Match) -> list[int]:
        """Takes back the person's last move of the battle and the AI's replies after it
        (with two people, the battle's last move); the moves taken back, the last first.
        """

@final
class Session:
    """A page's match: the match, who sits at its screen (`players` 1, the person playing
    `human` against the AI, or 2 people sharing the screen), the chart of where it stood
    after each change, and `cap`, the seconds its searches take at most (the AI's move
    within 1 s of them, the chart's margins within half, a hint within all of it, a
    review's looks within a quarter): the core's, as the offline page's.
    """
    def __new__(
        cls, match: Match, human: _PlayerLike, *, players: int | None = None, cap: float = 2.0
    ) -> Session: ...
    @property
    def match(self) -> Match:
        """The match (a copy)."""
    @property
    def human(self) -> Player:
        """The colour the person plays against the AI."""
    @property
    def players(self) -> int:
        """The people at the screen: 1 or 2."""
    @property
    def ai_time(self) -> float:
        """The seconds the AI searches for a move."""
    def acts(self) -> Player:
        """The side whose hints and choices the page shows."""
    def play(self, move: int) -> None:
        """A person's move (with two people, the side to move's)."""
    def choose(self, starter: _PlayerLike) -> None:
        """A person's choice of starter (the tie rule)."""
    def undo(self) -> None:
        """Takes back the person's last move of the battle and the AI's replies after it."""
    def ai_turn(self) -> Literal["choose_starter", "move"]:
        """What the AI is to do now: `"choose_starter"` or `"move"`."""
    def ai_move(self, bot: Bot) -> tuple[Literal["choose_starter", "move"], Any]:
        """The AI's turn taken by `bot` (a bot of the level scale, searching within the
        AI's time): `("move", pile)` or `("choose_starter", player)`.
        """
    def play_for_ai(self, move: int) -> None:
        """The AI's move chosen by a player of the server's own (an extra opponent)."""
    def choose_for_ai(self, starter: _PlayerLike) -> None:
        """The AI's choice of starter made by a player of the server's own."""
    def note(self) -> None:
        """Records the chart's point for the state the last change left."""
    def backfill(self) -> None:
        """Records the points `note` would have for a match read from a record."""
    def battle(self, number: int, ply: int | None = None) -> tuple[Position, list[int]]:
        """Battle `number`'s start and its first `ply` moves (every move so far without
        `ply`); a battle the match does not have, or more moves than it has, is a
        `ValueError` in the core's words.
        """
    def view(self, *, battles: bool = True, played: bool = False) -> dict[str, Any]:
        """The match's whole state as the page shows it (a dict): the core's view, the
        chart's points of the battle shown, `human` and `players`.
        """
    def battle_view(self, number: int) -> dict[str, Any]:
        """Battle `number` as the page shows it, with the chart's points."""
    def ply_view(self, number: int, ply: int) -> dict[str, Any]:
        """The position after the first `ply` moves of battle `number`, drawn."""
    def hint(self) -> dict[str, Any]:
        """The hint for the side that acts, within the cap."""
    def review(self, number: int) -> dict[str, Any]:
        """Battle `number`'s moves judged against perfect play, within the cap."""
    def record(self, ai: str, event: str, date: str) -> str:
        """The match's record, its sides named as the seats name them (`ai`: the AI's
        name), with the `event` and `date` tags.
        """

@final
class Chart:
    """The chart's points of a match (`buttonup::page::analysis::Chart`). Its searches run
    on a copy, its points merged in after: a page reading the chart never waits for one.
    """
    def __new__(cls) -> Chart: ...
    def note(self, match: Match, limit: float) -> None:
        """Records the point for the state `match` is in (after every change), each margin
        solved within `limit` seconds.
        """
    def backfill(self, match: Match, limit: float) -> None:
        """Records the points `note` would have for a match read from a record."""
    def points(self, match: Match, number: int) -> list[dict[str, Any] | None] | None:
        """The points of battle `number` of `match` (`None`: no such battle)."""

@final
class VecEnv:
    """Many battles stepped together, in the manner of EnvPool and pgx (docs/rl.md).

    The arrays `current_player` (0 Red, 1 Black), `legal_action_mask` (games x piles),
    `rewards` (games x 2: Red's and Black's margin on the step that ends a battle),
    `terminated` and `observation` (games x cells, the mover's view) are made once and
    rewritten by every `reset` and `step`. A finished game starts a new battle on its
    next step, whatever its action (or at once, by `restart_finished`). A step writes
    only what it changed (a game's mask when its legal moves changed, the cells of the
    buttons in its observation): copy an array before changing it. With `threads` above
    1 the environment keeps its worker threads from the first step to its end.

    With `agent` (a player) and `opponent` (a level, 1 to 10, of `buttonup.ai`)
    it is single-agent: the opponent's moves are played inside each step, the agent is
    to move in every unfinished game, and observations are the agent's view.

    Threads may share one: each call takes the games in turn (a wait that Ctrl-C ends,
    without the interpreter held). It needs NumPy (an `ImportError` names the extra to
    install when it is missing).

    Args:
        num_envs: the number of games, 1 to 2**24.
        per_colour: the buttons of each colour of every battle.
        seed: an int from 0 to 2**64 - 1 (`None`: from the operating system).
        threads: the threads a step uses, 1 to 256 (`None`: every core).
        observations: whether to write `observation` (`False`: no cells).
        agent: the agent's side (a `Player` or `"r"`/`"b"`), with `opponent`.
        opponent: the opponent's level, with `agent`.

    Raises:
        ValueError: if an argument is out of range, or only one of `agent` and
            `opponent` is given.

    Example:
        >>> import numpy as np
        >>> from buttonup import VecEnv
        >>> env = VecEnv(2, seed=1)
        >>> env.positions()
        [Position('W/B/W/R/B/R/B/R/W r'), Position('B/B/W/R/W/R/B/W/R r')]
        >>> env.legal_action_mask.astype(int)
        array([[1, 0, 1, 0, 0, 0, 0, 0, 1],
               [0, 0, 1, 0, 1, 0, 0, 1, 0]])
        >>> env.step(np.array([0, 2]))
        >>> env.current_player, env.terminated
        (array([1, 1], dtype=int8), array([False, False]))
    """
    def __new__(
        cls,
        num_envs: int,
        *,
        per_colour: int = 3,
        seed: int | None = None,
        threads: int | None = None,
        observations: bool = True,
        agent: _PlayerLike | None = None,
        opponent: int | None = None,
    ) -> VecEnv: ...
    def reset(self, seed: int | Iterable[int | None] | None = None) -> None:
        """New battles in every game.

        Args:
            seed: a new seed for all of them, or a sequence of one seed a game (game `i`
                then deals what game 0 of a reset with `seed[i]` deals); `None`: from the
                operating system.

        Raises:
            ValueError: if a seed is out of range, or a sequence does not have one seed a
                game.
        """
    def step(self, actions: npt.ArrayLike, waiting: npt.NDArray[np.bool_] | None = None) -> None:
        """Plays one action (a pile index) in every game.

        Args:
            actions: an int array of one pile a game.
            waiting: a bool array of one flag a game, for the games that sit the step out
                (their action unread, their battle unmoved, a finished one not started
                again, reward 0).

        Raises:
            ValueError: if an action is illegal, naming the game and the pile; no game
                changes then.
            TypeError: if `actions` is not an array of ints.
        """
    def step_random(self, actions: npt.NDArray[np.int64] | None = None) -> None:
        """A step in which every unfinished game plays a legal pile drawn uniformly at random.

        Each game draws from its own generator (reproducible from the seed, whatever the
        threads): no action array to make.

        Args:
            actions: an int64 array of one entry a game, into which the piles played are
                written, -1 for a game that started again (`None`: not written).
        """
    def restart_finished(self) -> None:
        """Starts a new battle at once in every game whose battle ended on the last step.

        A same-step reset: it rewrites the game's player, mask and observation; `rewards`
        and `terminated` keep the step's values.
        """
    @property
    def num_envs(self) -> int:
        """The number of games."""
    @property
    def per_colour(self) -> int:
        """Buttons of each colour."""
    @property
    def threads(self) -> int:
        """The threads a step uses."""
    @property
    def agent(self) -> Player | None:
        """The agent's side in the single-agent form (`None`: two players)."""
    @property
    def opponent(self) -> int | None:
        """The opponent's level in the single-agent form."""
    @property
    def current_player(self) -> npt.NDArray[np.int8]:
        """Whose turn it is in each game: 0 Red, 1 Black."""
    @property
    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """The legal piles of each game (games x piles; no pile once a battle is over)."""
    @property
    def rewards(self) -> npt.NDArray[np.float32]:
        """Red's and Black's reward of the last step (games x 2)."""
    @property
    def terminated(self) -> npt.NDArray[np.bool_]:
        """Whether the last step ended each game's battle."""
    @property
    def observation(self) -> npt.NDArray[np.int8]:
        """The observation of each game from its mover's point of view (games x cells;
        no cells if made with `observations=False`).
        """
    def positions(self) -> list[Position]:
        """The current positions, for inspection (a list of `Position`, one a game)."""

def encode_observation(
    position: Position, player: Player | Literal["r", "b"] | None = None
) -> npt.NDArray[np.int8]:
    """The observation of `position` from `player`'s point of view (by default its
    mover's; docs/rl.md): a flat int8 array of `piles x heights x 3` cells, piles and
    heights both up to the number of buttons; channel 0 the player's buttons, 1 the
    opponent's, 2 the white ones.
    """

def legal_action_mask(position: Position) -> npt.NDArray[np.bool_]:
    """The legal piles of `position` as a bool array as long as its number of buttons."""

_Board: TypeAlias = tuple[Position, list[int], int, tuple[int, list[int]] | None, float]

def draw_position(
    position: Position,
    *,
    size: float | None = 360.0,
    highlight: list[int] | None = None,
    lastmove: tuple[int, list[int]] | None = None,
    slots: list[int] | None = None,
    slot_count: int | None = None,
    labels: bool = True,
    max_radius: float | None = None,
) -> str:
    """The SVG text of `position` (see `buttonup.svg.position`)."""

def draw_tower(position: Position, *, size: float = 400.0) -> str:
    """The SVG text of a finished battle's tower (see `buttonup.svg.tower`)."""

def draw_walk(start: Position, moves: list[int]) -> _Board:
    """The board after `moves` from `start`: `(position, slots, slot_count, lastmove)`."""

def draw_walks(start: Position, moves: list[int]) -> list[_Board]:
    """The board at `start` and after each of `moves` (one walk: `len(moves) + 1` boards),
    for a front end that shows every ply of a battle.
    """

def match_view(game: Match, *, battles: bool = True, played: bool = False) -> dict[str, Any]:
    """A match's whole state as the page shows it (`buttonup::page::view::match_state`):
    with `battles` every scored battle, with `played` the move just made.
    """

def match_view_text(
    game: Match, *, battles: bool = True, played: bool = False, chart: Chart | None = None
) -> str:
    """`match_view`'s state as JSON text (compact), its battle's chart points from `chart`
    (each `null` without one, as a match with no chart shows): for a door that sends the
    state as it is, without making Python values of it and encoding them again (the
    online server's states).
    """

def battle_view(game: Match, number: int, *, listed: bool = False) -> dict[str, Any] | None:
    """Battle `number` of a match as the page shows it (`None`: no such battle); with
    `listed`, as the match's state lists a scored battle, with its tower (`None`: not
    scored).
    """

def position_view(position: Position) -> dict[str, Any]:
    """What a front end needs to draw a position (`buttonup::page::view::position`): its
    notation, piles, side to move, legal moves and, once over, its scoring.
    """

def line_view(start: Position, moves: Sequence[int]) -> dict[str, Any]:
    """Where `moves` played from `start` lead, drawn, with `line`, each ply
    (`buttonup::page::view::line`); an illegal move raises its `IllegalMoveError`.
    """

def shown_battle(
    game: Match, number: int | None = None, ply: int | None = None
) -> tuple[int, tuple[Position, list[int]]]:
    """The battle a page shows of a match (`buttonup::page::view::battle_number`), and that
    battle's or battle `number`'s start and moves so far, or its first `ply` moves; a
    `ValueError` in the page's words for a battle the match does not have or more moves
    than it has (`buttonup::page::view::battle_moves`).
    """

def draw_match(game: Match) -> _Board:
    """The board of a match now (see `buttonup::draw::match_board`)."""

def analysis_view(position: Position, limit: float) -> dict[str, Any]:
    """A position's analysis (`buttonup::page::analysis::analysis`) within `limit` seconds."""

def hint_view(match: Match, side: _PlayerLike, limit: float) -> dict[str, Any]:
    """The hint of `match` for `side` (`buttonup::page::analysis::hint`) within `limit` seconds."""

def review_view(
    start: Position, moves: Sequence[int], per_position: float, budget: float
) -> list[dict[str, Any]]:
    """Each of `moves` from `start` judged (`buttonup::page::analysis::review`): each position
    within `per_position` seconds, the whole within `budget`.
    """

def read_records(text: str) -> list[Match]:
    """Every match of a text of records one after the other (a tournament's file).

    A record starts at a tag line that follows the battles of the one before.

    Args:
        text: the records' text (a str).

    Returns:
        A list of `Match`, in the order of the text.

    Raises:
        RecordError: if a record is at fault; the message names the line (in the whole
            text) and the token of the first fault.
        TypeError: if `text` is not a str.

    Example:
        >>> from buttonup import Match, read_records
        >>> game = Match(target=1, per_colour=1, seed=5)
        >>> _ = game.play(2), game.play(0)
        >>> read_records(game.record() + "\\n" + game.record())
        [<Match 0-1 to 1, battle 1, winner=Black>, <Match 0-1 to 1, battle 1, winner=Black>]
    """
