"""The fast paths agree with the pure-Python reference (or, where the reference is too
slow, with the path they replaced) on small amounts of every kind of work that
benches/compare.py times: a disagreement there is an error, not a figure."""

from __future__ import annotations

import io
import random
import tempfile
from pathlib import Path
from typing import Any

import buttonup
import buttonup.reference as ref
import pytest
from buttonup.player import Player
from rich.console import Console
from source_scripts import load

SIDES = {side.letter: side for side in Player}


def agree(what: str, rust: object, reference: object) -> None:
    assert rust == reference, f"{what}: Rust {rust!r} but reference {reference!r}"


def test_the_benchmarks_work_agrees_between_the_engines() -> None:
    compare = load("benches/compare.py")
    compare.bench_perft(3)
    compare.bench_playouts(200, 200)
    compare.bench_variants([2], [2])
    agree("solve", buttonup.solve(buttonup.Position.random(2)), ref.solve(ref.Position.random(2)))


def test_a_disagreement_is_an_error() -> None:
    compare = load("benches/compare.py")
    with pytest.raises(compare.Disagreement, match="perft: Rust 1 but reference 2"):
        compare.agree("perft", 1, 2)


def test_the_comparison_is_a_markdown_table() -> None:
    compare = load("benches/compare.py")
    rows = [compare.Row("work", "things/s", 2000.0, 10.0, 100.0, note="a note")]
    text = compare.render(rows, "no OpenSpiel")
    assert "| work | things/s | 2,000 | 10.00 | 200x | 100 | 20.0x |" in text
    assert "- work: a note" in text


def test_big_solves_agree_with_the_reference() -> None:
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


def test_solve_all_rows_agree_with_the_reference() -> None:
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


def test_vecenv_on_threads_agrees_with_the_reference() -> None:
    """VecEnv on its kept threads, stepped by changes, against the reference engine
    playing the same random legal moves from the same starts (needs NumPy): positions,
    masks, ends and the observations of docs/rl.md."""
    np = pytest.importorskip("numpy")
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
