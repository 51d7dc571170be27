"""Facts of the standard game under perfect play, and the measured AI level scale.

    python benches/ai_facts.py [--matches N] [--seed S]

Prints the tables of docs/ai.md: the distribution of perfect-play values over all
standard starts, the first player's average edge, the match win probability of the
player who starts the first battle, each level's win rate against the level below, and
the match bot against the margin-perfect bot.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from buttonup import Player, Position, Standing, solve, start_orders, win_probability
from buttonup.ai import LEVELS, AlphaBetaBot, GreedyBot, bot
from buttonup.cli.solve_all import first_player_edge
from buttonup.matches import play_series


def start_values() -> Counter[int]:
    """Perfect-play value for the player to move, over every start and both starters."""
    orders = start_orders(3)
    return Counter(
        solve(Position.start(order, to_move=side)) for order in orders for side in Player
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000, help="matches per pairing")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    started = time.perf_counter()
    values = start_values()
    solved_in = time.perf_counter() - started
    total = sum(values.values())
    print(
        f"## Perfect-play values of the {total:,} start positions"
        f" ({total // 2:,} start orders, either side to move)"
    )
    print(f"(solved in {solved_in * 1000:.1f} ms from Python)\n")
    print("| value for the first player | starts | share |")
    print("|---:|---:|---:|")
    for value in sorted(values):
        print(f"| {value:+d} | {values[value]} | {values[value] / total:.1%} |")
    mean, wins, losses = first_player_edge(values)
    print(f"\nFirst player's average edge: {mean:+.4f} points per battle")
    print(f"First player wins {wins:.1%}, draws {1 - wins - losses:.1%}, loses {losses:.1%}")

    p = win_probability(Standing(0, 0, starter=Player.RED)).red
    print(f"\nStarter of the first battle wins the match with probability {p:.6f}\n")

    print(f"## Level scale ({args.matches} matches per pairing, colours alternated)\n")
    print("| level | what it is | win rate against the level below | 95% interval |")
    print("|---:|---|---:|---|")
    print(f"| 1 | {LEVELS[1]} | | |")
    for level in range(2, 11):
        series = play_series(
            bot(level, seed=args.seed + level),
            bot(level - 1, seed=args.seed),
            args.matches,
            seed=args.seed + level,
        )
        low, high = series.interval()
        print(
            f"| {level} | {LEVELS[level]} | {series.win_rate:.3f} | {low:.3f} to {high:.3f} |",
            flush=True,
        )

    placement = max(1, args.matches // 2)
    print(f"\n## Named search bots against levels ({placement} matches each)\n")
    print("| bot | vs level 3 | vs level 5 | vs level 7 | vs level 9 |")
    print("|---|---:|---:|---:|---:|")
    for named in (GreedyBot(), AlphaBetaBot(2), AlphaBetaBot(3), AlphaBetaBot(5)):
        rates = [
            play_series(named, bot(level, seed=args.seed), placement, seed=level).win_rate
            for level in (3, 5, 7, 9)
        ]
        print(f"| {named.name} | " + " | ".join(f"{r:.3f}" for r in rates) + " |", flush=True)


if __name__ == "__main__":
    main()
