"""Rules 7 to 9: a match of battles to a target of victory points.

The match rules are written once, here, over any engine's ``Position``:
``buttonup.Match`` runs them on the Rust engine, ``buttonup.reference.Match`` on the
pure-Python one.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

from buttonup.errors import IllegalMoveError
from buttonup.player import Player
from buttonup.protocols import PositionLike

P = TypeVar("P", bound=PositionLike)


@dataclass(frozen=True)
class Battle(Generic[P]):
    """One finished battle of a match."""

    number: int
    starter: Player
    start: P
    moves: tuple[int, ...]
    final: P
    red: int
    black: int

    @property
    def winner(self) -> Player | None:
        """The player with the larger sum, or ``None`` for equal sums."""
        if self.red == self.black:
            return None
        return Player.RED if self.red > self.black else Player.BLACK

    @property
    def points(self) -> int:
        """The victory points the winner gains: the difference of the sums."""
        return abs(self.red - self.black)


class MatchBase(Generic[P]):
    """A match to ``target`` victory points. Subclasses say which engine plays it."""

    _starter: Player
    _start: P
    _position: P
    _moves: list[int]

    def __init__(
        self,
        first: Player = Player.RED,
        *,
        target: int = 15,
        per_colour: int = 3,
        seed: int | None = None,
        deals: Iterable[str] | None = None,
    ) -> None:
        """``first`` starts the first battle (rule 7). Starts are shuffled from ``seed``
        (the same seed gives the same match), or taken in turn from ``deals``, an
        iterable of start orders such as ``"WRBWBRRWB"``, while it lasts."""
        if not isinstance(first, Player):
            raise TypeError(f"first must be a Player, not {type(first).__name__}")
        if isinstance(target, bool) or not isinstance(target, int) or target < 1:
            raise ValueError(f"target must be a positive int, not {target!r}")
        self.target = target
        self.per_colour = per_colour
        self._rng = random.Random(seed)
        self._deals: Iterator[str] = iter(deals if deals is not None else ())
        self._scores = {Player.RED: 0, Player.BLACK: 0}
        self._battles: list[Battle[P]] = []
        self._chooser: Player | None = None
        self._winner: Player | None = None
        self._begin(first)

    # --- the engine -------------------------------------------------------------------
    def _random_start(self, seed: int, to_move: Player) -> P:
        raise NotImplementedError

    def _dealt_start(self, order: str, to_move: Player) -> P:
        raise NotImplementedError

    # --- state ------------------------------------------------------------------------
    @property
    def position(self) -> P:
        """The current battle's position (the final one while a starter is chosen or
        after the match)."""
        return self._position

    @property
    def to_move(self) -> Player:
        return self._position.to_move

    def legal_moves(self) -> list[int]:
        return [] if self.is_over or self._chooser else self._position.legal_moves()

    @property
    def starter(self) -> Player:
        """Who started the current battle."""
        return self._starter

    @property
    def moves(self) -> tuple[int, ...]:
        """The moves played so far in the current battle."""
        return tuple(self._moves)

    @property
    def scores(self) -> tuple[int, int]:
        """Red's and Black's victory points."""
        return self._scores[Player.RED], self._scores[Player.BLACK]

    def score(self, player: Player) -> int:
        return self._scores[player]

    @property
    def battles(self) -> tuple[Battle[P], ...]:
        """The finished battles, first to last."""
        return tuple(self._battles)

    @property
    def chooser(self) -> Player | None:
        """The player who must now choose who starts the next battle (the tie rule), or
        ``None``."""
        return self._chooser

    @property
    def last_loser(self) -> Player | None:
        """The loser of the latest battle that had a winner (``None`` if none had): the
        player who chooses the starter when the scores are equal."""
        for battle in reversed(self._battles):
            if battle.winner is not None:
                return battle.winner.other
        return None

    @property
    def winner(self) -> Player | None:
        return self._winner

    @property
    def is_over(self) -> bool:
        return self._winner is not None

    # --- actions ----------------------------------------------------------------------
    def play(self, move: int) -> P:
        """Plays a move in the current battle and returns the new position. A battle
        that ends is scored, and the next one is set up unless a starter must be chosen
        or the match is won."""
        if self._winner is not None:
            raise IllegalMoveError(f"the match is over: {self._winner} won")
        if self._chooser is not None:
            raise IllegalMoveError(f"{self._chooser} must first choose who starts the next battle")
        self._position = self._position.play(move)
        self._moves.append(move)
        if self._position.is_over:
            self._end_battle()
        return self._position

    def undo(self) -> int:
        """Takes back the last move of the current battle and returns it. A finished
        battle cannot be taken back."""
        if not self._moves or self._winner is not None or self._chooser is not None:
            raise IllegalMoveError("there is no move of the current battle to take back")
        move = self._moves.pop()
        position = self._start
        for earlier in self._moves:
            position = position.play(earlier)
        self._position = position
        return move

    def movers(self) -> list[Player]:
        """Who played each move of the current battle."""
        position, players = self._start, []
        for move in self._moves:
            players.append(position.to_move)
            position = position.play(move)
        return players

    def choose_starter(self, starter: Player) -> None:
        """The tie rule: the chooser names who starts the next battle."""
        if self._chooser is None:
            raise IllegalMoveError("no choice of starter is due")
        if not isinstance(starter, Player):
            raise TypeError(f"starter must be a Player, not {type(starter).__name__}")
        self._chooser = None
        self._begin(starter)

    # --- rules 1, 6, 8 and 9 ----------------------------------------------------------
    def _begin(self, starter: Player) -> None:
        self._starter = starter
        order = next(self._deals, None)
        if order is not None:
            start = self._dealt_start(order, starter)
        else:
            start = self._random_start(self._rng.getrandbits(64), starter)
        self._start = start
        self._position = start
        self._moves = []

    def _end_battle(self) -> None:
        red, black = self._position.strengths()
        battle = Battle(
            number=len(self._battles) + 1,
            starter=self._starter,
            start=self._start,
            moves=tuple(self._moves),
            final=self._position,
            red=red,
            black=black,
        )
        self._battles.append(battle)
        if battle.winner is not None:
            self._scores[battle.winner] += battle.points
            if self._scores[battle.winner] >= self.target:
                self._winner = battle.winner
                return
        red_points, black_points = self.scores
        if red_points != black_points:
            self._begin(Player.RED if red_points < black_points else Player.BLACK)
            return
        loser = self.last_loser
        if loser is not None:
            self._chooser = loser
        else:
            self._begin(self._battles[0].starter)
