"""The same work through the Rust engine and the pure-Python reference in one process,
one after the other, and with the optional ``open-spiel`` package OpenSpiel's C++ mancala
as an outside yardstick (the ``bench`` extra)::

    python benches/compare.py [--full] [--json FILE]

Every row checks that the engines agree (same counts, same games, same values) before it
reports their speeds; a disagreement is an error. Speeds are noisy on a shared machine,
so read ratios from one run.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import buttonup
import buttonup.reference as ref
from bench_tools import processes
from buttonup.player import Player


@dataclass
class Row:
    name: str
    unit: str
    rust: float
    reference: float | None = None
    openspiel: float | None = None
    note: str = ""

    @property
    def vs_reference(self) -> float | None:
        return self.rust / self.reference if self.reference else None

    @property
    def vs_openspiel(self) -> float | None:
        return self.rust / self.openspiel if self.openspiel else None


class Disagreement(AssertionError):
    """The two engines gave different results."""


def agree(what: str, rust: object, reference: object) -> None:
    if rust != reference:
        raise Disagreement(f"{what}: Rust {rust!r} but reference {reference!r}")


def timed(work: Callable[[], Any]) -> tuple[Any, float]:
    """The result of ``work`` and its time, with Python's garbage collector held off (as
    ``timeit`` does): a full collection of an earlier row's objects is no row's cost."""
    gc.collect()
    gc.disable()
    try:
        started = time.perf_counter()
        result = work()
        return result, time.perf_counter() - started
    finally:
        gc.enable()


def bench_perft(reference_starts: int) -> Row:
    orders = buttonup.start_orders(3)
    rust_counts, rust_time = timed(
        lambda: [buttonup.perft(buttonup.Position.start(o), 8) for o in orders]
    )
    subset = orders[:: max(1, len(orders) // reference_starts)][:reference_starts]
    ref_counts, ref_time = timed(lambda: [ref.perft(ref.Position.start(o), 8) for o in subset])
    agree("perft", [rust_counts[orders.index(o)] for o in subset], ref_counts)
    return Row(
        "perft to the end of the battle, standard starts",
        "starts/s",
        len(orders) / rust_time,
        len(subset) / ref_time,
        note=f"Rust all {len(orders)} starts ({sum(rust_counts)} leaves); reference {len(subset)}",
    )


def bench_playouts(rust_battles: int, reference_battles: int) -> Row:
    buttonup.random_playouts(1, seed=0)  # builds the move graph outside the timing
    rust, rust_time = timed(lambda: buttonup.random_playouts(rust_battles, seed=1, threads=1))
    reference, ref_time = timed(lambda: ref.random_playouts(reference_battles, seed=1))
    agree("random playouts", buttonup.random_playouts(reference_battles, seed=1), reference)
    return Row(
        "random playouts, standard game, move graph, 1 thread",
        "moves/s",
        rust.moves / rust_time,
        reference.moves / ref_time,
        note=f"{rust_battles} and {reference_battles} battles; same games for the same seed; "
        "the graph's build (about 30-50 ms, once a process) is left out: benches/faster.py "
        "times it, the bit-packed path and 4-8 of each colour",
    )


def python_play_loop(position_type: Any, seconds: float) -> tuple[float, list[str]]:
    """Calls of ``play`` per second from Python, in random battles; and the battles."""
    rng = random.Random(3)
    calls, finals = 0, []
    deadline = time.perf_counter() + seconds
    started = time.perf_counter()
    while time.perf_counter() < deadline:
        for seed in range(200):
            position = position_type.random(seed)
            while not position.is_over:
                moves = position.legal_moves()
                position = position.play(moves[rng.randrange(len(moves))])
                calls += 1
            finals.append(str(position))
    return calls / (time.perf_counter() - started), finals


def bench_python_play(seconds: float) -> Row:
    rust_rate, rust_games = python_play_loop(buttonup.Position, seconds)
    ref_rate, ref_games = python_play_loop(ref.Position, seconds)
    shared = min(len(rust_games), len(ref_games))
    agree("Python play loop", rust_games[:shared], ref_games[:shared])
    return Row(
        "Position.play called from Python (with legal_moves and a random choice)",
        "calls/s",
        rust_rate,
        ref_rate,
    )


def bench_solve_all(reference_starts: int) -> Row:
    orders = buttonup.start_orders(3)
    searcher = buttonup.Searcher(tt_mb=16)
    starts = [buttonup.Position.start(o, to_move=s) for s in Player for o in orders]
    values, rust_time = timed(lambda: [searcher.solve(p) for p in starts])
    subset = list(range(0, len(starts), max(1, len(starts) // reference_starts)))
    ref_values, ref_time = timed(lambda: [ref.solve(ref.Position(str(starts[i]))) for i in subset])
    agree("solve", [values[i] for i in subset], ref_values)
    return Row(
        "solve every standard start, both sides to move",
        "starts/s",
        len(starts) / rust_time,
        len(subset) / ref_time,
        note=f"Rust all {len(starts)} in {rust_time * 1000:.1f} ms (fresh 16 MiB table); "
        f"reference {len(subset)} (its cache warms up as it goes)",
    )


def solve_variant(per_colour: int, engine: str) -> dict[str, float]:
    """Solves one seeded start exactly in a fresh process; time, positions, peak memory."""
    code = f"""
import json, time
import buttonup, buttonup.reference as ref
from buttonup.reference.solver import _value
start = buttonup.Position.random(seed=1, per_colour={per_colour})
searcher = buttonup.Searcher(tt_mb=16)
t = time.perf_counter()
if {engine!r} == "rust":
    result = searcher.search(start)
    value, positions = result.value, result.nodes
else:
    value = ref.solve(ref.Position(str(start)))
    positions = _value.cache_info().currsize
seconds = time.perf_counter() - t
# VmHWM: the peak resident memory of this process image (ru_maxrss would include
# the parent's, which Linux carries across fork and exec).
status = open("/proc/self/status").read().split("VmHWM:")
peak = int(status[1].split()[0]) / 1024 if len(status) > 1 else float("nan")
print(json.dumps(dict(value=value, positions=positions, seconds=seconds, peak_mib=peak)))
"""
    done = processes.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    figures: dict[str, float] = json.loads(done.stdout)
    return figures


def bench_variants(rust_sizes: Sequence[int], reference_sizes: Sequence[int]) -> list[Row]:
    rows = []
    for n in rust_sizes:
        rust = solve_variant(n, "rust")
        reference = solve_variant(n, "reference") if n in reference_sizes else None
        if reference is not None:
            agree(f"{n} of each colour", rust["value"], reference["value"])
        note = (
            f"value {rust['value']:+d}; Rust {rust['seconds'] * 1000:.1f} ms, "
            f"{rust['positions']:,.0f} nodes, peak {rust['peak_mib']:.0f} MiB"
        )
        if reference is not None:
            note += (
                f"; reference {reference['seconds']:.2f} s, {reference['positions']:,.0f} "
                f"positions, peak {reference['peak_mib']:.0f} MiB"
            )
        rows.append(
            Row(
                f"exact solve of a start with {n} of each colour",
                "solves/s",
                1 / rust["seconds"],
                1 / reference["seconds"] if reference else None,
                note=note,
            )
        )
    return rows


def openspiel_rows(playouts: Row, play: Row, seconds: float) -> str:
    """Adds OpenSpiel's mancala figures to the playout and play rows, if installed."""
    try:
        import pyspiel
    except ImportError:
        return "OpenSpiel not installed (pip install open-spiel to compare)"
    game = pyspiel.load_game("mancala")
    bots = [pyspiel.make_uniform_random_bot(p, 1 + p) for p in range(2)]
    moves = games = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = game.new_initial_state()
        pyspiel.evaluate_bots(state, bots, games)
        games += 1
    cpp_games_rate = games / (time.perf_counter() - started)
    rng = random.Random(1)
    calls = 0
    started = time.perf_counter()
    lengths = []
    while time.perf_counter() - started < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
            calls += 1
        lengths.append(len(state.history()))
        moves += lengths[-1]
    python_rate = calls / (time.perf_counter() - started)
    mean_length = sum(lengths) / len(lengths)
    playouts.openspiel = cpp_games_rate * mean_length
    play.openspiel = python_rate
    return (
        f"OpenSpiel {getattr(pyspiel, '__version__', '')} mancala: C++ uniform random bots via "
        f"evaluate_bots ({mean_length:.1f} moves a game); apply_action from Python in the "
        "same loop as the play row"
    )


def bench_vecenv(seconds: float) -> Row | None:
    """VecEnv against a Python loop of ``Position.play`` over as many games (the lowest
    legal pile everywhere), after checking that both play the same games."""
    try:
        import numpy  # noqa: F401
    except ImportError:
        return None
    games = 4096
    env = buttonup.VecEnv(games, seed=1, observations=False)
    loop = env.positions()
    for _ in range(4):
        env.step(env.legal_action_mask.argmax(axis=1))
        loop = [p.play(p.legal_moves()[0]) for p in loop]
    agree("VecEnv", [str(p) for p in env.positions()], [str(p) for p in loop])

    def vec_rate() -> float:
        steps, started = 0, time.perf_counter()
        while time.perf_counter() - started < seconds:
            env.step(env.legal_action_mask.argmax(axis=1))
            steps += games
        return steps / (time.perf_counter() - started)

    def loop_rate() -> float:
        positions = env.positions()
        steps, started = 0, time.perf_counter()
        while time.perf_counter() - started < seconds:
            positions = [
                buttonup.Position.random(i) if p.is_over else p.play(p.legal_moves()[0])
                for i, p in enumerate(positions)
            ]
            steps += games
        return steps / (time.perf_counter() - started)

    return Row(
        "VecEnv steps, 4,096 games, masks only (default threads)",
        "steps/s",
        vec_rate(),
        loop_rate(),
        note="the reference column here is a Python loop of buttonup.Position.play over "
        "4,096 games; both play the same games (checked)",
    )


def run(full: bool) -> tuple[list[Row], str]:
    playouts = bench_playouts(2_000_000 if full else 300_000, 20_000 if full else 3_000)
    play = bench_python_play(3.0 if full else 1.0)
    rows = [
        bench_perft(1680 if full else 60),
        playouts,
        play,
        bench_solve_all(3360 if full else 200),
    ]
    rows += bench_variants([4, 5, 6] if full else [4, 5], [4, 5] if full else [4])
    vecenv = bench_vecenv(3.0 if full else 1.0)
    if vecenv is not None:
        rows.append(vecenv)
    note = openspiel_rows(playouts, play, 3.0 if full else 1.0)
    return rows, note


def render(rows: list[Row], note: str) -> str:
    def fmt(x: float | None) -> str:
        if x is None:
            return ""
        return f"{x:,.0f}" if x >= 100 else f"{x:.2f}" if x >= 1 else f"{x:.4f}"

    lines = [
        "| work | unit | Rust | reference | Rust / reference | OpenSpiel | Rust / OpenSpiel |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        ratio = f"{r.vs_reference:,.0f}x" if r.vs_reference else ""
        os_ratio = f"{r.vs_openspiel:.1f}x" if r.vs_openspiel else ""
        cells = [r.name, r.unit, fmt(r.rust), fmt(r.reference), ratio, fmt(r.openspiel), os_ratio]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.extend(f"- {r.name}: {r.note}" for r in rows if r.note)
    lines.append(f"- {note}")
    return "\n".join(lines)


def write_json(rows: list[Row], note: str, path: Path) -> None:
    """The figures of a run, with both ratios of each row, as ``--json`` writes them."""
    figures = [
        asdict(r) | {"vs_reference": r.vs_reference, "vs_openspiel": r.vs_openspiel} for r in rows
    ]
    path.write_text(json.dumps({"rows": figures, "openspiel": note}, indent=2) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--full", action="store_true", help="the long runs (minutes)")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = parser.parse_args(argv)
    rows, note = run(args.full)
    print(render(rows, note))
    if args.json is not None:
        write_json(rows, note, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
