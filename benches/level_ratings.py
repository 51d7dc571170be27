"""The level scale on a rating scale: a round robin of matches between levels 1 to 10,
the ratings fitted to its results (Bradley-Terry, as Elo ratings: 400 points are odds
of ten to one), level 1, random moves, anchored at the rating buttonup's core gives it.
With ``--check``, bots asked for by rating (``rating-R``) then play the same levels, and
their ratings are fitted with the levels' held fixed.

    python benches/level_ratings.py [--per-colour 3] [--matches 2000] [--seed 11]
                                    [--threads 2] [--json FILE] [--results FILE]
                                    [--check 1500,2000]

``--results`` reads a round robin already played (the ``--json`` of ``buttonup
tournament`` or of this script) instead of playing one. Prints a table of every level's
rating and its 95% interval, and the pairing results it was fitted to.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence
from pathlib import Path

from buttonup import _core
from buttonup.matches import Series, tournament

#: Elo points per unit of log-odds.
SCALE = 400 / math.log(10)


def solve_linear(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix^-1 vector`` by Gauss-Jordan elimination with partial pivoting."""
    size = len(vector)
    rows = [[*row, value] for row, value in zip(matrix, vector)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda r: abs(rows[r][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        lead = rows[column][column]
        rows[column] = [value / lead for value in rows[column]]
        for r in range(size):
            if r != column and rows[r][column] != 0.0:
                factor = rows[r][column]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[column])]
    return [row[size] for row in rows]


def inverse(matrix: list[list[float]]) -> list[list[float]]:
    size = len(matrix)
    columns = [
        solve_linear(matrix, [1.0 if i == j else 0.0 for i in range(size)]) for j in range(size)
    ]
    return [[columns[j][i] for j in range(size)] for i in range(size)]


def fit(
    names: Sequence[str],
    results: Sequence[tuple[str, str, int, int]],
    fixed: dict[str, float],
) -> dict[str, tuple[float, float]]:
    """Each name's rating and the half-width of its 95% interval, fitted by maximum
    likelihood to ``results`` (first, second, first's wins, matches), the ratings of
    ``fixed`` held (their interval 0)."""
    free = [name for name in names if name not in fixed]
    rating = {name: fixed.get(name, next(iter(fixed.values()))) / SCALE for name in names}
    index = {name: i for i, name in enumerate(free)}
    hessian: list[list[float]] = []
    for _ in range(100):
        gradient = [0.0] * len(free)
        hessian = [[0.0] * len(free) for _ in free]
        for first, second, wins, matches in results:
            p = 1 / (1 + math.exp(rating[second] - rating[first]))
            weight = matches * p * (1 - p)
            for name, sign in ((first, 1.0), (second, -1.0)):
                if name in index:
                    gradient[index[name]] += sign * (wins - matches * p)
                    hessian[index[name]][index[name]] += weight
            if first in index and second in index:
                hessian[index[first]][index[second]] -= weight
                hessian[index[second]][index[first]] -= weight
        step = solve_linear(hessian, gradient)
        for name in free:
            # A bounded step: a pairing won every time would otherwise run off.
            rating[name] += max(-2.0, min(2.0, step[index[name]]))
        if max(map(abs, step), default=0.0) < 1e-9:
            break
    covariance = inverse(hessian) if free else []
    return {
        name: (
            rating[name] * SCALE,
            1.96 * SCALE * math.sqrt(max(covariance[index[name]][index[name]], 0.0))
            if name in index
            else 0.0,
        )
        for name in names
    }


def pairings(
    series: Sequence[Series] | Sequence[dict[str, object]],
) -> list[tuple[str, str, int, int]]:
    found = []
    for one in series:
        row = one.as_dict() if isinstance(one, Series) else one
        found.append((str(row["first"]), str(row["second"]), int(row["wins"]), int(row["matches"])))  # type: ignore[call-overload]
    return found


def level_name(level: int) -> str:
    return f"level-{level}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-colour", type=int, default=3)
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--json", help="write the round robin's results here")
    parser.add_argument("--results", help="fit these results instead of playing")
    parser.add_argument("--check", help="ratings to ask bots for, comma-separated")
    args = parser.parse_args()

    levels = [level_name(level) for level in range(1, 11)]
    if args.results:
        given = json.loads(Path(args.results).read_text())
        played = pairings(given["pairings"])
        args.per_colour = given.get("per_colour", args.per_colour)
    else:
        played = pairings(
            tournament(
                [str(level) for level in range(1, 11)],
                args.matches,
                seed=args.seed,
                threads=args.threads,
                per_colour=args.per_colour,
            )
        )
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {
                    "per_colour": args.per_colour,
                    "matches": args.matches,
                    "seed": args.seed,
                    "pairings": [
                        {"first": f, "second": s, "wins": w, "matches": n} for f, s, w, n in played
                    ],
                },
                indent=1,
            )
        )
    anchor = _core.RATINGS[0]
    ratings = fit(levels, played, {levels[0]: anchor})
    print(f"{args.per_colour} of each colour, matches to 15, level 1 (random moves) at {anchor:g}")
    print("| level | rating | 95% interval |")
    print("|---|---:|---:|")
    for level, name in enumerate(levels, 1):
        value, half = ratings[name]
        shown = "anchor" if half == 0.0 else f"±{half:.0f}"
        print(f"| {level} | {value:.0f} | {shown} |")
    if args.check:
        asked = [float(r) for r in args.check.split(",")]
        names = [f"rating-{r:g}" for r in asked]
        fixed = {name: ratings[name][0] for name in levels}
        checks: list[tuple[str, str, int, int]] = []
        for name in names:
            for level in range(1, 11):
                checks += pairings(
                    tournament(
                        [name, str(level)],
                        args.matches,
                        seed=args.seed + level,
                        threads=args.threads,
                        per_colour=args.per_colour,
                    )
                )
        found = fit([*levels, *names], checks, fixed)
        print("| asked | found | 95% interval |")
        print("|---:|---:|---:|")
        for rating, name in zip(asked, names):
            value, half = found[name]
            print(f"| {rating:g} | {value:.0f} | ±{half:.0f} |")


if __name__ == "__main__":
    main()
