"""Playing bots against each other: single matches and series with statistics."""

from __future__ import annotations

import math
from dataclasses import dataclass

from buttonup.ai import Bot
from buttonup.match import Match
from buttonup.player import Player


def play_match(
    red: Bot, black: Bot, *, first: Player = Player.RED, seed: int | None = None, target: int = 15
) -> Match:
    """Plays a whole match between two bots and returns it (finished)."""
    match = Match(first, seed=seed, target=target)
    players = {Player.RED: red, Player.BLACK: black}
    while not match.is_over:
        chooser = match.chooser
        if chooser is not None:
            match.choose_starter(players[chooser].choose_starter(match))
        else:
            mover = players[match.to_move]
            match.play(mover.choose(match.position, match))
    return match


@dataclass(frozen=True)
class Series:
    """The result of a series of matches between two bots."""

    first: str
    second: str
    matches: int
    wins: int
    """Matches won by ``first``."""
    battles: int
    margin_sum: int
    """Sum over battles of ``first``'s margin."""
    starter_battle_wins: int
    decided_battles: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.matches

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """The Wilson score interval of the win rate (95% by default)."""
        n, p = self.matches, self.win_rate
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    @property
    def mean_margin(self) -> float:
        return self.margin_sum / self.battles

    @property
    def battles_per_match(self) -> float:
        return self.battles / self.matches

    @property
    def first_player_win_rate(self) -> float:
        """Share of decided battles won by the player who started them."""
        return self.starter_battle_wins / self.decided_battles if self.decided_battles else 0.0


def play_series(first: Bot, second: Bot, matches: int, seed: int = 0) -> Series:
    """``matches`` matches; ``first`` plays Red in even-numbered ones and Black in the
    others, and Red starts the first battle of each match."""
    wins = battles = margin_sum = starter_wins = decided = 0
    for i in range(matches):
        first_is_red = i % 2 == 0
        red, black = (first, second) if first_is_red else (second, first)
        match = play_match(red, black, seed=seed * 1_000_003 + i)
        first_colour = Player.RED if first_is_red else Player.BLACK
        wins += match.winner is first_colour
        for battle in match.battles:
            battles += 1
            margin = battle.red - battle.black
            margin_sum += margin if first_is_red else -margin
            if battle.winner is not None:
                decided += 1
                starter_wins += battle.winner is battle.starter
    return Series(
        first.name, second.name, matches, wins, battles, margin_sum, starter_wins, decided
    )
