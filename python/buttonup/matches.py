"""Playing bots against each other: single matches, series and round-robin tournaments.

A series and each pairing of a tournament come with statistics (:class:`Series`).

>>> from buttonup.ai import bot
>>> from buttonup.matches import play_match
>>> match = play_match(bot(9, seed=1), bot(1, seed=2), seed=3, target=5)
>>> match.is_over, match.winner
(True, <Player.RED: 'r'>)
"""

from __future__ import annotations

import math
import multiprocessing
import signal
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

from buttonup._core import STANDARD_PER_COLOUR, STANDARD_TARGET, Match
from buttonup.ai import Bot
from buttonup.player import Player, PlayerLike
from buttonup.players import BotFactory, bot_factory

__all__ = ["MatchRecord", "Series", "play_match", "play_series", "tournament"]


def play_match(
    red: Bot,
    black: Bot,
    *,
    starter: PlayerLike = Player.RED,
    seed: int | None = None,
    target: int = STANDARD_TARGET,
    per_colour: int = STANDARD_PER_COLOUR,
) -> Match:
    """Plays a whole match between two bots and returns it, finished.

    Args:
        red: the bot that plays Red.
        black: the bot that plays Black.
        starter: the player who starts the first battle.
        seed: the match's seed (``None``: from the operating system).
        target: the victory points that win the match.
        per_colour: the buttons of each colour of each battle.

    Example:
        >>> from buttonup.ai import bot
        >>> match = play_match(bot(9, seed=1), bot(1, seed=2), seed=3, target=5)
        >>> match.is_over, match.winner
        (True, <Player.RED: 'r'>)
    """
    match = Match(starter, seed=seed, target=target, per_colour=per_colour)
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
class MatchRecord:
    """One match of a series, from the first bot's side."""

    first_won: bool
    """Whether the first bot won the match."""
    battles: int
    """The battles of the match."""
    margin_sum: int
    """Sum over battles of the first bot's margin."""
    starter_battle_wins: int
    """Decided battles won by the player who started them."""
    decided_battles: int
    """Battles with a winner (not equal sums)."""
    text: str = ""
    """The match's record (docs/notation.md, "Match records"), when it was kept."""


def play_one(
    first: Callable[[int], Bot],
    second: Callable[[int], Bot],
    index: int,
    seed: int,
    *,
    keep: dict[str, Any] | None = None,
    per_colour: int = STANDARD_PER_COLOUR,
) -> MatchRecord:
    """Match ``index`` of a series: the first bot plays Red in even-numbered matches.
    With ``keep`` (tags), the match's record is kept too."""
    match_seed = seed * 1_000_003 + index
    first_is_red = index % 2 == 0
    a, b = first(2 * match_seed), second(2 * match_seed + 1)
    red, black = (a, b) if first_is_red else (b, a)
    match = play_match(red, black, seed=match_seed, per_colour=per_colour)
    text = "" if keep is None else match.record(**keep, Red=repr(red), Black=repr(black))
    first_colour = Player.RED if first_is_red else Player.BLACK
    margin = sum(battle.scoring.margin_for(Player.RED) for battle in match.battles)
    decided = [battle for battle in match.battles if battle.winner is not None]
    return MatchRecord(
        first_won=match.winner is first_colour,
        battles=len(match.battles),
        margin_sum=margin if first_is_red else -margin,
        starter_battle_wins=sum(battle.winner is battle.starter for battle in decided),
        decided_battles=len(decided),
        text=text,
    )


@dataclass(frozen=True)
class Series:
    """The result of a series of matches between two bots, with its statistics.

    Example:
        >>> from buttonup.ai import bot
        >>> series = play_series(bot(9, seed=1), bot(1, seed=2), 4, seed=3)
        >>> series.first, series.second, series.wins, series.win_rate
        ('perfect', 'random', 4, 1.0)
    """

    first: str
    """The first bot's name."""
    second: str
    """The second bot's name."""
    matches: int
    """The matches played."""
    wins: int
    """Matches won by ``first``."""
    battles: int
    """The battles of all the matches."""
    margin_sum: int
    """Sum over battles of ``first``'s margin."""
    starter_battle_wins: int
    """Decided battles won by the player who started them."""
    decided_battles: int
    """Battles with a winner (not equal sums)."""
    records: tuple[str, ...] = ()
    """The records of the matches (docs/notation.md), first to last, when kept."""

    @classmethod
    def of(cls, first: str, second: str, records: Iterable[MatchRecord]) -> Series:
        """The series of the matches ``records`` between ``first`` and ``second``."""
        records = list(records)
        return cls(
            first,
            second,
            len(records),
            sum(r.first_won for r in records),
            sum(r.battles for r in records),
            sum(r.margin_sum for r in records),
            sum(r.starter_battle_wins for r in records),
            sum(r.decided_battles for r in records),
            tuple(r.text for r in records if r.text),
        )

    @property
    def win_rate(self) -> float:
        """Share of the matches won by ``first``."""
        return self.wins / self.matches

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """The Wilson score interval of the win rate (95% by default).

        Args:
            z: the normal quantile of the confidence level (1.96: 95%).

        Returns:
            The interval's low and high ends, within 0 to 1.
        """
        n, p = self.matches, self.win_rate
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    @property
    def mean_margin(self) -> float:
        """``first``'s mean margin a battle."""
        return self.margin_sum / self.battles

    @property
    def battles_per_match(self) -> float:
        """The mean number of battles a match."""
        return self.battles / self.matches

    @property
    def first_player_win_rate(self) -> float:
        """Share of decided battles won by the player who started them."""
        return self.starter_battle_wins / self.decided_battles if self.decided_battles else 0.0

    def as_dict(self) -> dict[str, object]:
        """The series' figures as a dict for JSON: names, counts, rates, the 95% interval."""
        low, high = self.interval()
        return {
            "first": self.first,
            "second": self.second,
            "matches": self.matches,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "win_rate_95": [low, high],
            "mean_margin": self.mean_margin,
            "battles_per_match": self.battles_per_match,
            "first_player_battle_win_rate": self.first_player_win_rate,
        }


def play_series(first: Bot, second: Bot, matches: int, *, seed: int = 0) -> Series:
    """Plays ``matches`` matches between two bot objects, one after the other.

    ``first`` plays Red in even-numbered ones. Red starts the first battle of each
    match.

    Args:
        first: a bot.
        second: the other bot.
        matches: the number of matches.
        seed: the series' seed: each match's seed is made from it.

    Example:
        >>> from buttonup.ai import bot
        >>> play_series(bot(9, seed=1), bot(1, seed=2), 4, seed=3).wins
        4
    """
    records = [play_one(lambda s: first, lambda s: second, i, seed) for i in range(matches)]
    return Series.of(first.name, second.name, records)


# Below this many matches a tournament runs in the calling process: starting worker
# processes would cost more than it saves.
PROCESSES_FROM = 64


def play_block(
    specs: tuple[str, str],
    pairing: int,
    first: int,
    last: int,
    seed: int,
    records: bool = False,
    per_colour: int = STANDARD_PER_COLOUR,
    movetime: float | None = None,
) -> list[MatchRecord]:
    """Matches ``first`` to ``last - 1`` of one pairing (in a worker process, or not),
    with their records when ``records``, of ``per_colour`` buttons of each colour, the
    bots' searches within ``movetime`` seconds a move where given (:class:`BotFactory`)."""
    a, b = (replace(bot_factory(spec), movetime=movetime) for spec in specs)

    def keep(index: int) -> dict[str, Any] | None:
        if not records:
            return None
        event = f"buttonup tournament, seed {seed}: {a.name} vs {b.name}"
        return {"Event": event, "Round": f"{pairing + 1}.{index + 1}"}

    return [
        play_one(a, b, index, seed + pairing, keep=keep(index), per_colour=per_colour)
        for index in range(first, last)
    ]


def _play_block(
    job: tuple[tuple[str, str], int, int, int, int, bool, int, float | None],
) -> list[MatchRecord]:
    return play_block(*job)


def _ignore_interrupts() -> None:
    """Worker processes leave Ctrl-C to the parent, which ends them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def tournament(
    specs: list[str],
    matches: int,
    *,
    seed: int = 0,
    threads: int = 1,
    progress: Callable[[], None] | None = None,
    records: bool = False,
    per_colour: int = STANDARD_PER_COLOUR,
    movetime: float | None = None,
) -> list[Series]:
    """Plays every pairing of the bots, ``matches`` matches each.

    The matches run on ``threads`` worker processes (a bot's moves are mostly Python,
    which one process runs on one core at a time), with the same results for any
    number. With ``movetime``, the bots of the level scale search within that time a
    move, on one thread each (:class:`~buttonup.players.BotFactory`): where exact moves
    cost too much (10 of each colour), and as the page plays them. Their moves then
    depend on the machine's speed and load, so the results are no longer the same from
    run to run.

    Args:
        specs: the bots: levels or names, as :func:`buttonup.players.bot_factory`
            takes.
        matches: the matches of each pairing.
        seed: the tournament's seed.
        threads: the worker processes.
        progress: called after each match.
        records: whether each series keeps the record of every match
            (``Series.records``).
        per_colour: the buttons of each colour of every battle (a variant).
        movetime: seconds a move, more than 0, for the bots of the level scale.

    Returns:
        One :class:`Series` a pairing.

    Raises:
        ValueError: if ``movetime`` is not a positive number, or ``threads`` not an int
            of at least 1.

    Example:
        >>> [(s.first, s.second, s.wins) for s in tournament(["9", "1"], 2)]
        [('level-9', 'level-1', 2)]
    """
    if movetime is not None and (
        isinstance(movetime, bool) or not isinstance(movetime, (int, float)) or not movetime > 0
    ):
        raise ValueError(f"movetime must be a number of seconds above 0, not {movetime!r}")
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be an int, at least 1, not {threads!r}")
    jobs = threads
    bots: list[BotFactory] = [bot_factory(spec) for spec in specs]
    pairings = list(combinations(range(len(bots)), 2))
    total = len(pairings) * matches
    block = max(1, min(25, matches // max(1, 4 * jobs)))
    work = [
        (
            (specs[a], specs[b]),
            p,
            first,
            min(first + block, matches),
            seed,
            records,
            per_colour,
            movetime,
        )
        for p, (a, b) in enumerate(pairings)
        for first in range(0, matches, block)
    ]
    played: list[MatchRecord] = []

    def take(done: list[MatchRecord]) -> None:
        played.extend(done)
        for _ in done:
            if progress is not None:
                progress()

    if jobs <= 1 or total < PROCESSES_FROM:
        for job in work:
            take(_play_block(job))
    else:
        # Fresh interpreters ("spawn"): safe whatever threads this process runs. Like any
        # use of worker processes, a script that calls this needs the usual
        # ``if __name__ == "__main__":`` guard.
        context = multiprocessing.get_context("spawn")
        pool = ProcessPoolExecutor(jobs, mp_context=context, initializer=_ignore_interrupts)
        # Futures of our own, not pool.map's: map cancels the pending ones when it is left
        # by an exception, and the pool's thread then fails on them with a traceback.
        futures = [pool.submit(_play_block, job) for job in work]
        try:
            for future in futures:
                take(future.result())
        except BaseException:
            # Ctrl-C or a failure: end the workers, whose pool then fails the waiting work
            # quietly, and leave without waiting for it.
            for child in multiprocessing.active_children():
                child.terminate()
            pool.shutdown(wait=False)
            raise
        pool.shutdown()
    return [
        Series.of(bots[a].name, bots[b].name, played[p * matches : (p + 1) * matches])
        for p, (a, b) in enumerate(pairings)
    ]
