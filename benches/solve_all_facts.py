"""The facts docs/ai.md gives for a strongly solved variant, read from the file that
``buttonup solve-all --per-colour N --csv FILE`` wrote, and a check of that file.

    python benches/solve_all_facts.py six.csv --per-colour 6 --check 300 --seed 1

Reads the file on its own (not through solve-all's summary): the count of rows, each
start order present once with each side to move, the value distribution, the first
player's average edge, the win / draw / loss shares, each value as often with Red as
with Black moving first, and the file's SHA-256. Then ``--check`` rows drawn at random
are solved again one by one, each on a fresh one-thread ``Searcher`` and from the row's
own start order and side (not its class's representative, so the expansion of classes
into rows is checked too); every value must equal the file's.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from collections import Counter
from math import comb


def start_order_count(per_colour: int) -> int:
    """Orders of ``per_colour`` buttons of each of three colours around the circle,
    counted from a fixed first pile (the rows of the file are these, twice)."""
    return comb(3 * per_colour, per_colour) * comb(2 * per_colour, per_colour)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("--per-colour", type=int, required=True)
    parser.add_argument("--check", type=int, default=300, help="rows solved again")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    digest = hashlib.sha256()
    with open(args.csv, "rb") as raw:
        for block in iter(lambda: raw.read(1 << 20), b""):
            digest.update(block)

    values: Counter[int] = Counter()
    by_side: dict[str, Counter[int]] = {"r": Counter(), "b": Counter()}
    sides_seen: dict[str, int] = {}
    picked: list[tuple[str, str, int]] = []
    rng = random.Random(args.seed)
    rows = 0
    with open(args.csv) as handle:
        if handle.readline().strip() != "start,to_move,value":
            print("not a solve-all file: the header is wrong", file=sys.stderr)
            return 1
        for line in handle:
            order, side, text = line.rstrip("\n").split(",")
            value = int(text)
            values[value] += 1
            by_side[side][value] += 1
            sides_seen[order] = sides_seen.get(order, 0) | (1 if side == "r" else 2)
            rows += 1
            # Reservoir sampling: every row equally likely to be checked.
            if len(picked) < args.check:
                picked.append((order, side, value))
            elif (slot := rng.randrange(rows)) < args.check:
                picked[slot] = (order, side, value)

    expected = 2 * start_order_count(args.per_colour)
    print(f"rows: {rows:,} (expected {expected:,})")
    print(f"start orders with both sides: {sum(s == 3 for s in sides_seen.values()):,}")
    print(f"SHA-256: {digest.hexdigest()}")
    mean = sum(v * c for v, c in values.items()) / rows
    won = sum(c for v, c in values.items() if v > 0) / rows
    lost = sum(c for v, c in values.items() if v < 0) / rows
    print(f"first player's average edge: {mean:+.4f} points per battle")
    print(f"first player wins / draws / loses: {won:.1%} / {1 - won - lost:.1%} / {lost:.1%}")
    print(f"values from {min(values):+d} to {max(values):+d}")
    print(f"each value as often with Red as with Black first: {by_side['r'] == by_side['b']}")
    print("| value for the first player | positions (share) |")
    print("|---:|---:|")
    for value in sorted(values):
        print(f"| {value:+d} | {values[value]:,} ({values[value] / rows:.1%}) |")

    ok = rows == expected and all(s == 3 for s in sides_seen.values())
    ok = ok and len(sides_seen) == start_order_count(args.per_colour)
    if args.check:
        from buttonup import Player, Position, Searcher

        started = time.perf_counter()
        wrong = 0
        for order, side, value in picked:
            to_move = Player.RED if side == "r" else Player.BLACK
            again = Searcher(tt_mb=16, threads=1).solve(Position.start(order, to_move=to_move))
            if again != value:
                wrong += 1
                print(f"MISMATCH {order} {side}: file {value:+d}, solved again {again:+d}")
        took = time.perf_counter() - started
        print(f"{len(picked)} random rows solved again one by one: {wrong} differ ({took:.1f} s)")
        ok = ok and wrong == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
