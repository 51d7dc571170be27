"""A level-9 bot playing both sides of whole battles, timed as whole processes, this
build against another one alternated seed by seed:

    python benches/bot_battle.py --before /path/to/old/python --per-colour 8 --seeds 1,2,3,4

Each battle is a fresh process on either build (``--before``: a checkout's ``python/``
folder with its built ``_core``; benches/bench_tools.py), the builds alternated seed by
seed. The bot is the core's (``_core.Bot``) on every
core of the machine, so positions of 16 piles or more are solved on several threads.
Prints one row a seed (seconds before, after, ratio) and the total.
"""

from __future__ import annotations

import argparse
import time

from bench_tools import alternated, in_process


def battle(seed: int, per_colour: int) -> float:
    """Seconds of one battle from the seed's start, the bot moving for both sides."""
    from buttonup import Position
    from buttonup._core import Bot

    position = Position.random(seed, per_colour=per_colour)
    bot = Bot(9, seed=seed)
    began = time.perf_counter()
    while not position.is_over:
        position = position.play(bot.choose(position))
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, help="the python/ folder of the older build")
    parser.add_argument("--per-colour", type=int, default=8)
    parser.add_argument("--seeds", default="1,2,3,4")
    args = parser.parse_args()
    print("| seed | before (s) | after (s) | before / after |")
    print("|---|---:|---:|---:|")
    totals = [0.0, 0.0]
    for seed in (int(s) for s in args.seeds.split(",")):
        builds = {"after": None, "before": args.before}
        arguments = [seed, args.per_colour]
        times = alternated(
            1, builds, lambda path, given=arguments: in_process(__file__, "battle", given, path)
        )
        before, after = times["before"][0], times["after"][0]
        totals[0] += before
        totals[1] += after
        print(f"| {seed} | {before:.2f} | {after:.2f} | {before / after:.2f} |", flush=True)
    print(f"| all | {totals[0]:.2f} | {totals[1]:.2f} | {totals[0] / totals[1]:.2f} |")


if __name__ == "__main__":
    main()
