"""The hint's cost: the server's path before issue 32's analysis moved into the core
(``analyze`` and ``search`` of the position, each within half the cap, then
``win_probability`` and ``match_analyze`` of the match, four calls from Python) against
the core's ``hint_view`` (one call; the side to move's match odds solved once),
alternated in rounds over the first six positions of eight seeded matches.

    python benches/hint_cost.py [--rounds 6]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from buttonup import Match, analyze, match_analyze, search, win_probability
from buttonup._core import hint_view

CAP = 2.0  # seconds: the server's default search cap


def matches() -> list[Match]:
    out = []
    for seed in range(1, 9):
        game = Match(seed=seed)
        for _ in range(6):
            out.append(Match.from_record(game.record()))
            game.play(game.legal_moves()[0])
    return out


def before(game: Match) -> None:
    position = game.position
    analyze(position, time_limit=CAP / 2)
    search(position, time_limit=CAP / 2)
    win_probability(game).of(game.to_move)
    match_analyze(game)


def now(game: Match) -> None:
    hint_view(game, game.to_move, CAP)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6)
    rounds = parser.parse_args().rounds
    games = matches()
    paths: list[tuple[str, Callable[[Match], None]]] = [("before", before), ("now", now)]
    times: dict[str, list[float]] = {name: [] for name, _ in paths}
    for turn in range(rounds):
        for name, path in paths if turn % 2 == 0 else paths[::-1]:
            started = time.perf_counter()
            for game in games:
                path(game)
            times[name].append((time.perf_counter() - started) / len(games) * 1e3)
    for name, taken in times.items():
        shown = ", ".join(f"{t:.2f}" for t in taken)
        print(f"{name}: median {statistics.median(taken):.2f} ms a hint ({shown})")
    ratio = statistics.median(times["before"]) / statistics.median(times["now"])
    print(f"before / now: {ratio:.2f} ({len(games)} positions, {rounds} rounds)")


if __name__ == "__main__":
    main()
