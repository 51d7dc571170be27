"""Rules 7 to 9 in plain Python: a match of battles to a target of victory points.

This is the oracle for ``buttonup.Match``, the Rust engine's match state machine: the
same API, the same deals for a seed, the same errors.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from buttonup.constants import MAX_TARGET, STANDARD_PER_COLOUR, STANDARD_TARGET
from buttonup.errors import IllegalMoveError, MatchStateError
from buttonup.player import Player, PlayerLike
from buttonup.reference.arguments import int_arg, seed_arg
from buttonup.reference.record import read
from buttonup.reference.record_notes import record_of, record_text
from buttonup.reference.rules import Position
from buttonup.reference.shuffle import SplitMix64
from buttonup.results import Battle, MoveOutcome, Standing

__all__ = ["Battle", "Match"]

MAX_PER_COLOUR = 10


def _check_deal(number: int, order: object, per_colour: int) -> Position:
    if not isinstance(order, str):
        raise TypeError(f"a deal must be a str, not {type(order).__name__}")
    try:
        start = Position.start(order.strip())
    except ValueError as error:
        raise type(error)(f"deal {number}: {error}") from None
    if any(order.count(colour) != per_colour for colour in "RBW"):
        raise ValueError(f"deal {number} does not have {per_colour} buttons of each colour")
    return start


class Match:
    """A match to ``target`` victory points on the reference engine.

    ``starter`` (Red if not given) starts the first battle (rule 7). Starts are
    taken in turn from ``deals`` (all checked now), then shuffled: battle ``i`` draws the
    ``i``-th number of a SplitMix64 generator seeded with ``seed`` as its shuffle's seed,
    dealt or not.
    """

    def __init__(
        self,
        starter: PlayerLike | None = None,
        *,
        target: int | None = None,
        per_colour: int | None = None,
        seed: int | None = None,
        deals: Iterable[str] | None = None,
    ) -> None:
        starter = Player.RED if starter is None else Player.of(starter, "starter")
        self.target = int_arg(
            "target", STANDARD_TARGET if target is None else target, 1, MAX_TARGET
        )
        self.per_colour = int_arg(
            "per_colour",
            STANDARD_PER_COLOUR if per_colour is None else per_colour,
            1,
            MAX_PER_COLOUR,
        )
        seed = seed_arg(seed)
        if isinstance(deals, str):
            raise TypeError("deals must be an iterable of start orders, not one str")
        self._deals = [
            _check_deal(number, order, self.per_colour)
            for number, order in enumerate(deals or (), 1)
        ]
        self._seed = seed
        self._rng = SplitMix64(seed)
        self._scores = {Player.RED: 0, Player.BLACK: 0}
        self._battles: list[Battle[Position]] = []
        self._chooser: Player | None = None
        self._winner: Player | None = None
        self._first_starter = starter
        self._positions: list[Position] = []
        self._moves: list[int] = []
        self._begin(starter)

    # --- state ------------------------------------------------------------------------
    @property
    def position(self) -> Position:
        """The current battle's position (the final one while a starter is chosen or
        after the match)."""
        return self._positions[-1]

    @property
    def to_move(self) -> Player:
        return self.position.to_move

    def legal_moves(self) -> list[int]:
        """The legal moves of the battle in progress."""
        return [] if self.is_over or self._chooser else self.position.legal_moves()

    @property
    def battle_start(self) -> Position:
        """The start of the current battle: with :attr:`moves`, the whole battle so far
        (the final pile of the latest battle while a starter is chosen, or after the
        match)."""
        return self._positions[0]

    @property
    def starter(self) -> Player:
        """Who started the current battle."""
        return self._starter

    @property
    def moves(self) -> tuple[int, ...]:
        return tuple(self._moves)

    @property
    def scores(self) -> tuple[int, int]:
        return self._scores[Player.RED], self._scores[Player.BLACK]

    def score(self, player: PlayerLike) -> int:
        """The victory points of ``player``."""
        return self._scores[Player.of(player)]

    @property
    def battles(self) -> tuple[Battle[Position], ...]:
        return tuple(self._battles)

    @property
    def chooser(self) -> Player | None:
        return self._chooser

    @property
    def last_loser(self) -> Player | None:
        """The loser of the latest battle that had a winner."""
        for battle in reversed(self._battles):
            if battle.winner is not None:
                return battle.winner.other
        return None

    @property
    def winner(self) -> Player | None:
        return self._winner

    @property
    def standing(self) -> Standing:
        """The scores before the current battle and what it depends on: its starter, or
        ``None`` while the tie rule's choice is due or after the match."""
        red, black = self.scores
        playing = self._winner is None and self._chooser is None
        return Standing(
            red,
            black,
            target=self.target,
            last_loser=self.last_loser,
            starter=self._starter if playing else None,
            per_colour=self.per_colour,
        )

    @property
    def is_over(self) -> bool:
        return self._winner is not None

    # --- actions ----------------------------------------------------------------------
    def play(self, move: int) -> MoveOutcome[Position]:
        """Plays a move and returns what it did: the position it leads to (the final pile
        when it ends the battle), the extra move and the drops."""
        if self._winner is not None:
            raise IllegalMoveError(f"the match is over: {self._winner} won")
        if self._chooser is not None:
            raise IllegalMoveError(f"{self._chooser} must first choose who starts the next battle")
        outcome = self.position.outcome(move)
        after = outcome.position
        self._positions.append(after)
        self._moves.append(move)
        if after.is_over:
            self._end_battle(after)
        return outcome

    def undo(self) -> int:
        """Takes back the last move of the current battle."""
        if not self._moves or self._winner is not None or self._chooser is not None:
            raise MatchStateError("there is no move of the current battle to take back")
        self._positions.pop()
        return self._moves.pop()

    def movers(self) -> list[Player]:
        """Who played each move of the current battle."""
        return [position.to_move for position in self._positions[: len(self._moves)]]

    def choose_starter(self, starter: PlayerLike) -> None:
        """The tie rule: the chooser names who starts the next battle."""
        starter = Player.of(starter, "starter")
        if self._chooser is None:
            raise MatchStateError("no choice of starter is due")
        self._chooser = None
        self._begin(starter)

    # --- records (docs/notation.md, "Match records") -----------------------------------
    def record(
        self,
        *,
        comments: Mapping[tuple[int, int], str] | None = None,
        values: Mapping[tuple[int, int], float] | None = None,
        **tags: str | None,
    ) -> str:
        """The record of the match so far, as ``buttonup.Match.record`` writes it."""
        return record_of(self, comments, values, tags)

    @classmethod
    def from_record(cls, text: str) -> Match:
        """The match of a record, every move checked, as ``buttonup.Match.from_record``."""
        game, _, _ = read(record_text(text, "a record"), cls)
        return game

    # --- rules 1, 6, 8 and 9 ----------------------------------------------------------
    def _begin(self, starter: Player) -> None:
        self._starter = starter
        seed = self._rng.next_u64()
        number = len(self._battles)
        if number < len(self._deals):
            start = Position.start("".join(self._deals[number].piles), to_move=starter)
        else:
            start = Position.random(seed, to_move=starter, per_colour=self.per_colour)
        self._positions = [start]
        self._moves = []

    def _end_battle(self, last: Position) -> None:
        scoring = last.scoring()
        battle = Battle(
            number=len(self._battles) + 1,
            starter=self._starter,
            start=self._positions[0],
            moves=tuple(self._moves),
            final_position=last,
            scoring=scoring,
        )
        self._battles.append(battle)
        self._positions = [last]
        self._moves = []
        if scoring.winner is not None:
            self._scores[scoring.winner] += scoring.points
            if self._scores[scoring.winner] >= self.target:
                self._winner = scoring.winner
                return
        red, black = self.scores
        if red != black:
            self._begin(Player.RED if red < black else Player.BLACK)
        elif self.last_loser is not None:
            self._chooser = self.last_loser
        else:
            self._begin(self._first_starter)
