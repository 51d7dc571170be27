"""``buttonup bench --smoke``: the CI check that the engines agree on small amounts of
every kind of work the benchmarks time, each fast path against the pure-Python
reference (or, where the reference is too slow, against the path it replaced)."""

from __future__ import annotations

import io
import random
import tempfile
from pathlib import Path
from typing import Any

from rich.console import Console

import buttonup
import buttonup.reference as ref
from buttonup.cli.bench import agree, bench_perft, bench_playouts, bench_variants
from buttonup.player import Player

SIDES = {side.letter: side for side in Player}


def check_threads() -> None:
    """The threaded paths give the one-thread answers, which agree with the reference."""
    for per_colour in (3, 4):
        battles = 300
        two = buttonup.random_playouts(battles, seed=2, per_colour=per_colour, threads=2)
        agree(
            f"playouts on 2 threads, {per_colour} of each colour",
            two,
            ref.random_playouts(battles, seed=2, per_colour=per_colour),
        )
    orders = buttonup.start_orders(3)[::97]
    starts = [buttonup.Position.start(o, to_move=side) for o in orders for side in Player]
    agree(
        "solve_many on 2 threads",
        buttonup.solve_many(starts, threads=2),
        [ref.solve(ref.Position(str(p))) for p in starts],
    )
    agree(
        "perft_many on 2 threads",
        buttonup.perft_many(starts[:6], 8, threads=2),
        [ref.perft(ref.Position(str(p)), 8) for p in starts[:6]],
    )


def check_big_solves() -> None:
    """The exact solver's paths for big variants. Tall piles from 6 and 8 of each colour
    (sowing that overflows, deep lines) against the reference; whole starts of 6 of each
    colour (18 piles: the parallel solve on a shared table, which the reference would
    take many minutes over) on 2 threads against one thread's ``Searcher``."""
    rng = random.Random(7)
    for seed, per_colour in ((1, 6), (2, 8), (3, 8)):
        position = buttonup.Position.random(seed=seed, per_colour=per_colour)
        while len(position.piles) > 7:
            moves = position.legal_moves()
            position = position.play(moves[rng.randrange(len(moves))])
        reference = ref.solve(ref.Position(str(position)))
        agree(f"solve of {position}", buttonup.solve(position), reference)
        agree(f"Searcher.solve of {position}", buttonup.Searcher().solve(position), reference)
    for seed in (1, 2):
        start = buttonup.Position.random(seed=seed, per_colour=6)
        agree(
            f"solve of {start} on 2 threads (shared table) and on 1",
            buttonup.solve(start, threads=2),
            buttonup.Searcher().solve(start),
        )


def check_solve_all() -> None:
    """``solve-all``'s rows (one start solved a class of starts, the rest expanded from
    it) against the reference solving every start order, both sides to move: all of 2 of
    each colour and a sample of 3."""
    from buttonup.cli.solve_all import solve_all_report

    for per_colour, every in ((2, 1), (3, 29)):
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "values.csv"
            solve_all_report(Console(file=io.StringIO()), path, per_colour)
            lines = path.read_text().splitlines()
        rows = [line.split(",") for line in lines[1:]]
        agree(
            f"solve-all's rows at {per_colour} of each colour",
            [(order, side) for order, side, _ in rows],
            [(o, s.letter) for o in buttonup.start_orders(per_colour) for s in Player],
        )
        sample = rows[::every]
        agree(
            f"solve-all's values at {per_colour} of each colour",
            [int(value) for _, _, value in sample],
            [
                ref.solve(ref.Position.start(order, to_move=SIDES[side]))
                for order, side, _ in sample
            ],
        )


def docs_observation(position: Any, player: Player) -> list[int]:
    """docs/rl.md's observation of a reference position, flattened: cell ``[p, h, c]`` is
    1 when pile ``p`` holds at height ``h`` a button of ``player`` (c 0), of the other (1)
    or white (2)."""
    n = sum(len(pile) for pile in position.piles)
    cells = [0] * (n * n * 3)
    channel = {player.letter.upper(): 0, player.other.letter.upper(): 1, "W": 2}
    for p, pile in enumerate(position.piles):
        for h, button in enumerate(pile):
            cells[(p * n + h) * 3 + channel[button]] = 1
    return cells


def check_vecenv() -> None:
    """VecEnv on its kept threads, stepped by changes, against the reference engine
    playing the same random legal moves from the same starts (needs NumPy): positions,
    masks, ends and the observations of docs/rl.md."""
    try:
        import numpy as np
    except ImportError:
        return
    env = buttonup.VecEnv(600, seed=3, threads=2)
    games = [ref.Position(str(p)) for p in env.positions()]
    rng = random.Random(3)
    for _ in range(20):
        actions = [rng.choice(g.legal_moves()) if g.legal_moves() else 0 for g in games]
        was_over = [g.is_over for g in games]
        env.step(np.array(actions, dtype=np.int64))
        now = env.positions()
        # A finished battle starts a new one (a shuffled start): taken from the env.
        games = [
            ref.Position(str(p)) if over else g.play(a)
            for g, a, over, p in zip(games, actions, was_over, now)
        ]
        agree("VecEnv on 2 threads", [str(p) for p in now], [str(g) for g in games])
        masks = [[p in g.legal_moves() for p in range(9)] for g in games]
        agree("VecEnv's masks", env.legal_action_mask.tolist(), masks)
        agree("VecEnv's ends", env.terminated.tolist(), [g.is_over for g in games])
        agree(
            "VecEnv's observations",
            env.observation.tolist(),
            [docs_observation(g, g.to_move) for g in games],
        )


def smoke() -> None:
    """The CI check: the engines agree on small amounts of every kind of work."""
    bench_perft(3)
    bench_playouts(200, 200)
    check_threads()
    check_vecenv()
    agree("solve", buttonup.solve(buttonup.Position.random(2)), ref.solve(ref.Position.random(2)))
    check_big_solves()
    check_solve_all()
    bench_variants([2], [2])
