"""The rules of Button Up! in plain Python, to be read next to docs/rules.md.

This is the reference engine: slow and simple on purpose, and independent of the Rust
core, which the tests check against it.
"""

from __future__ import annotations

import operator
from functools import total_ordering
from typing import NamedTuple, SupportsIndex

from buttonup.constants import STANDARD_PER_COLOUR
from buttonup.errors import BattleNotOverError, IllegalMoveError
from buttonup.player import Player, PlayerLike
from buttonup.reference import notation
from buttonup.reference.arguments import I64_MAX, U32_MAX, int_arg, seed_arg
from buttonup.reference.shuffle import SplitMix64, shuffled_buttons
from buttonup.results import MoveOutcome, Scoring

WHITE = "W"


def max_margin(per_colour: int) -> int:
    """The largest final margin with ``per_colour`` buttons of each colour (rule 6): one
    player's buttons on top (strengths ``2k+1`` to ``3k``), the other's at the bottom
    (``1`` to ``k``), which is ``2k*k``."""
    int_arg("per_colour", per_colour, 1, I64_MAX)
    top = sum(range(2 * per_colour + 1, 3 * per_colour + 1))
    bottom = sum(range(1, per_colour + 1))
    return top - bottom


class Sowing(NamedTuple):
    """What lifting one pile does."""

    piles: list[str]
    extra_move: bool
    overflow: bool


def sow(piles: list[str], lifted: int) -> Sowing:
    """Rules 3 and 4: lift pile ``lifted`` and drop its buttons, bottom first, one per pile
    clockwise; if there are more buttons than other piles, the last pile takes the rest.
    """
    buttons = piles[lifted]
    # The other piles, clockwise from the one right after the lifted pile.
    order = list(range(lifted + 1, len(piles))) + list(range(lifted))
    after = list(piles)
    k, m = len(buttons), len(order)
    overflow = k > m
    if not overflow:
        for button, target in zip(buttons, order):
            after[target] += button
        last_target = order[k - 1]
        landed_on = piles[last_target][-1]
        # The last button lands on its own colour; never when a single pile remains.
        extra_move = buttons[-1] == landed_on and m > 1
    else:
        for button, target in zip(buttons, order[: m - 1]):
            after[target] += button
        after[order[-1]] += buttons[m - 1 :]
        extra_move = False
    del after[lifted]
    return Sowing(after, extra_move, overflow)


def check_move(position: Position, move: object) -> int:
    """The pile index of ``move`` (any int but a bool, numpy's too), or the reason it
    cannot be played."""
    if isinstance(move, bool) or not isinstance(move, SupportsIndex):
        raise TypeError(f"a move must be an int, not {type(move).__name__}")
    move = operator.index(move)
    if position.is_over:
        raise IllegalMoveError("the battle is over: no pile can be lifted")
    piles = position.piles
    if not 0 <= move < len(piles):
        try:
            shown = notation.shorten(str(move))
        except ValueError:  # more digits than int-to-str conversion allows
            shown = "(a huge number)"
        raise IllegalMoveError(
            f"there is no pile {shown}: the piles are numbered 0 to {len(piles) - 1}"
        )
    if WHITE not in piles[move]:
        raise IllegalMoveError(
            f"pile {move} ({piles[move]}) has no white button, so it cannot be lifted"
        )
    return move


def check_player(to_move: object, name: str = "to_move") -> Player:
    """The player to move; ``None`` means Red, as in the Rust engine."""
    if to_move is None:
        return Player.RED
    return Player.of(to_move, name)


@total_ordering
class Position:
    """A position: the circle of piles (clockwise, each bottom first) and the player to
    move. Immutable.

    >>> p = Position("W/R/B/W/B/R/R/W/B r")
    >>> p.legal_moves()
    [0, 3, 7]
    >>> p.play(3)
    Position('W/R/B/BW/R/R/W/B b')
    """

    __slots__ = ("_piles", "_to_move")

    _piles: tuple[str, ...]
    _to_move: Player

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise TypeError(f"a position must be given as a str, not {type(text).__name__}")
        piles, side = notation.parse(text)
        object.__setattr__(self, "_piles", tuple(piles))
        object.__setattr__(self, "_to_move", Player(side))

    @classmethod
    def _make(cls, piles: list[str], to_move: Player) -> Position:
        position = cls.__new__(cls)
        object.__setattr__(position, "_piles", tuple(piles))
        object.__setattr__(position, "_to_move", to_move)
        return position

    @classmethod
    def start(cls, order: str, *, to_move: PlayerLike | None = None) -> Position:
        """Rule 1's circle of one-button piles, e.g. ``"WRBWBRRWB"`` (Red to move unless
        ``to_move`` says otherwise)."""
        if not isinstance(order, str):
            raise TypeError(f"a start order must be a str, not {type(order).__name__}")
        return cls._make(notation.parse_start(order), check_player(to_move))

    @classmethod
    def random(
        cls,
        seed: int | None = None,
        *,
        to_move: PlayerLike | None = None,
        per_colour: int = STANDARD_PER_COLOUR,
    ) -> Position:
        """A uniformly shuffled start (the same one as the Rust engine for a seed)."""
        seed = seed_arg(seed)
        per_colour = int_arg("per_colour", per_colour, 1, notation.MAX_BUTTONS // 3)
        order = shuffled_buttons(per_colour, SplitMix64(seed))
        return cls._make(list(order), check_player(to_move))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Position is immutable")

    @property
    def piles(self) -> tuple[str, ...]:
        return self._piles

    @property
    def to_move(self) -> Player:
        return self._to_move

    @property
    def is_over(self) -> bool:
        """Rule 5: the battle ends when one pile remains."""
        return len(self._piles) == 1

    def legal_moves(self) -> list[int]:
        """Rule 2: any pile holding a white button may be lifted."""
        if self.is_over:
            return []
        return [i for i, pile in enumerate(self._piles) if WHITE in pile]

    def is_legal(self, move: object) -> bool:
        """Whether ``move`` is a legal move."""
        try:
            check_move(self, move)
        except (TypeError, IllegalMoveError):
            return False
        return True

    def play(self, move: int) -> Position:
        """The position after lifting pile ``move``."""
        sowing = sow(list(self._piles), check_move(self, move))
        # Rule 4: an extra move keeps the same player; otherwise the other one moves.
        to_move = self._to_move if sowing.extra_move else self._to_move.other
        return self._make(sowing.piles, to_move)

    def outcome(self, move: int) -> MoveOutcome[Position]:
        """The position after ``move``, whether the mover plays again (rule 4) and the
        pile receiving each lifted button, bottom first (rule 3; with an overflow the
        last pile takes the rest, so it repeats)."""
        lifted = check_move(self, move)
        sowing = sow(list(self._piles), lifted)
        to_move = self._to_move if sowing.extra_move else self._to_move.other
        order = list(range(lifted + 1, len(self._piles))) + list(range(lifted))
        buttons = len(self._piles[lifted])
        drops = tuple(order[min(j, len(order) - 1)] for j in range(buttons))
        return MoveOutcome(self._make(sowing.piles, to_move), sowing.extra_move, drops)

    def gives_extra_move(self, move: int) -> bool:
        """Rule 4 asked ahead: whether playing ``move`` makes the mover move again."""
        return sow(list(self._piles), check_move(self, move)).extra_move

    def scoring(self) -> Scoring:
        """Rule 6: the buttons of the final pile have strengths 1 (bottom) to N (top); each
        player adds those of his colour, and the larger sum wins the difference."""
        if not self.is_over:
            raise BattleNotOverError("the battle is not over: it has more than one pile")
        tower = self._piles[0]
        red = tuple(height for height, button in enumerate(tower, 1) if button == "R")
        black = tuple(height for height, button in enumerate(tower, 1) if button == "B")
        winner = None
        if sum(red) != sum(black):
            winner = Player.RED if sum(red) > sum(black) else Player.BLACK
        return Scoring(
            tower=tower,
            red_strengths=red,
            black_strengths=black,
            red=sum(red),
            black=sum(black),
            winner=winner,
            points=abs(sum(red) - sum(black)),
        )

    def sums(self) -> tuple[int, int]:
        """Red's and Black's sums in the final pile (rule 6)."""
        scoring = self.scoring()
        return scoring.red, scoring.black

    def __str__(self) -> str:
        return "/".join(self._piles) + " " + self._to_move.letter

    def __repr__(self) -> str:
        return f"Position('{self}')"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._piles == other._piles and self._to_move is other._to_move

    def __lt__(self, other: object) -> bool:
        """Positions are ordered by their notation text, so that ``sorted`` works."""
        if not isinstance(other, Position):
            return NotImplemented
        return str(self) < str(other)

    def __hash__(self) -> int:
        return hash((self._piles, self._to_move))

    def __reduce__(self) -> tuple[type[Position], tuple[str]]:
        return (type(self), (str(self),))


def perft(position: Position, depth: int) -> int:
    """The number of move sequences of length ``depth``; one that ends the battle sooner
    counts as one leaf."""
    # Checked before recursing so a negative depth is refused, as the Rust core does.
    if not isinstance(position, Position):
        raise TypeError(f"a position must be a Position, not {type(position).__name__}")
    return _perft(position, int_arg("depth", depth, 0, U32_MAX))


def _perft(position: Position, depth: int) -> int:
    if depth == 0 or position.is_over:
        return 1
    return sum(_perft(position.play(move), depth - 1) for move in position.legal_moves())
