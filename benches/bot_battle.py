"""A level-9 bot playing both sides of whole battles, timed as whole processes, this
build against another one alternated seed by seed:

    python benches/bot_battle.py --before /path/to/old/python --per-colour 8 --seeds 1,2,3,4

Each battle is a fresh process (``PYTHONPATH`` at ``--before``, a tree holding an older
``buttonup`` package with its built ``_core``, for the "before" runs); each seed is run
after then before, then the next seed. The bot is the core's (``_core.Bot``) on every
core of the machine, so positions of 16 piles or more are solved on several threads.
Prints one row a seed (seconds before, after, ratio) and the total.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))


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
    parser.add_argument("--before", required=True, help="a python/ folder of the older build")
    parser.add_argument("--per-colour", type=int, default=8)
    parser.add_argument("--seeds", default="1,2,3,4")
    parser.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        print(battle(args.child, args.per_colour))
        return

    import processes

    def timed(seed: int, path: str | None) -> float:
        env = dict(os.environ)
        if path is not None:
            env["PYTHONPATH"] = path
        command = [sys.executable, __file__, "--before", args.before, "--child", str(seed)]
        command += ["--per-colour", str(args.per_colour)]
        done = processes.run(command, capture_output=True, text=True, env=env, check=True)
        return float(done.stdout)

    print("| seed | before (s) | after (s) | before / after |")
    print("|---|---:|---:|---:|")
    totals = [0.0, 0.0]
    for seed in (int(s) for s in args.seeds.split(",")):
        after = timed(seed, None)
        before = timed(seed, args.before)
        totals[0] += before
        totals[1] += after
        print(f"| {seed} | {before:.2f} | {after:.2f} | {before / after:.2f} |", flush=True)
    print(f"| all | {totals[0]:.2f} | {totals[1]:.2f} | {totals[0] / totals[1]:.2f} |")


if __name__ == "__main__":
    main()
