"""VecEnv against pgx on the same CPU, in rounds: the figures of docs/rl.md's VecEnv
paragraph and docs/benchmarks.md's VecEnv rows.

    python benches/vecenv_speed.py [--rounds 5] [--seconds 1.0] [--against PYTHONPATH]
    python benches/vecenv_speed.py --threads [--rounds 5] [--seconds 0.5]

A step is one move in every game (a finished game starts again on its next step, as
pgx's ``auto_reset`` does); the actions are the lowest legal pile of each game, chosen in
the loop by NumPy (``legal_action_mask.argmax(axis=1)``, counted in the time, as pgx's
``argmax`` is counted in its loop). The ``step_random`` rows let each game draw a random
legal pile in Rust instead (no NumPy call in the loop): a different policy, so their
ratio to pgx is printed apart. pgx runs its games jitted with JAX on the CPU
(``JAX_PLATFORMS=cpu``), each at batch 1,024 and 4,096; its fastest row is the one the
ratio takes. With ``--against``, the VecEnv rows are also run, in each round, in a child
Python whose ``PYTHONPATH`` is the one given (another build: the code before a change),
so that both builds meet the same noise. Set-up (making the environments, compiling) is
outside the timings.

``--threads`` checks the default number of threads (every core, as many as the batch
is worth: src/sim/vecenv.rs) against one thread at every batch size from 64 to 16,384
games, masks alone and with observations, the two in turns within each round: the
default must never be the slower.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

from bench_tools import in_process, spread

VECENV_ROWS = [
    # (games, threads, observations, step_random)
    (4096, 1, False, False),
    (4096, 2, False, False),
    (16384, 2, False, False),
    (4096, 1, True, False),
    (4096, 2, True, False),
    (4096, 1, False, True),
    (16384, 2, False, True),
    (16384, 2, True, True),
]


def vecenv_label(games: int, threads: int, observations: bool, random: bool) -> str:
    kind = "observations" if observations else "masks only"
    how = ", step_random" if random else ""
    return f"VecEnv, {games:,} games, {threads} thread(s), {kind}{how}"


#: The batch sizes of ``--threads``.
THREAD_SIZES = [64, 256, 1024, 2048, 4096, 8192, 16384]


def vecenv_rate(
    games: int, threads: int | None, observations: bool, random: bool, seconds: float
) -> float:
    import buttonup

    env = buttonup.VecEnv(games, seed=1, threads=threads, observations=observations)

    def step() -> None:
        if random:
            env.step_random()
        else:
            env.step(env.legal_action_mask.argmax(axis=1))

    for _ in range(20):  # the pool's threads started, the caches warm
        step()
    steps, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        for _ in range(20):
            step()
        steps += 20 * games
    return steps / (time.perf_counter() - started)


def pgx_maker(name: str, batch: int) -> Callable[[float], float] | None:
    """A timer of pgx's ``name`` at ``batch`` games, compiled once (None without pgx)."""
    try:
        import jax
        import pgx
        from pgx.experimental import auto_reset
    except ImportError:
        return None
    env = pgx.make(name)
    return jax_timer(jax.jit(jax.vmap(auto_reset(env.step, env.init))), env.init, batch)


def jax_timer(step: Any, init: Any, batch: int) -> Callable[[float], float]:
    """A timer of ``step`` (jitted and vmapped: state, action, key) on ``batch`` games
    from ``init``, compiled once here: steps a second, each game lifting its first
    legal pile (also benches/rl_speed.py's JAX row)."""
    import jax

    keys = jax.random.split(jax.random.PRNGKey(0), batch)
    state = jax.jit(jax.vmap(init))(keys)
    state = step(state, state.legal_action_mask.argmax(axis=1), keys)  # compile
    state.current_player.block_until_ready()

    def rate(seconds: float) -> float:
        nonlocal state
        steps, started = 0, time.perf_counter()
        while time.perf_counter() - started < seconds:
            for _ in range(20):
                state = step(state, state.legal_action_mask.argmax(axis=1), keys)
            state.current_player.block_until_ready()
            steps += 20 * batch
        return steps / (time.perf_counter() - started)

    return rate


def vecenv_round(seconds: float) -> dict[str, float]:
    """Each row once (the ``step_random`` rows only where the build has it)."""
    import buttonup

    has_random = hasattr(buttonup.VecEnv, "step_random")
    rows = [row for row in VECENV_ROWS if has_random or not row[3]]
    return {vecenv_label(*row): vecenv_rate(*row, seconds) for row in rows}


def child_round(pythonpath: str, seconds: float) -> dict[str, float]:
    """The VecEnv rows in a child Python on another build."""
    found: dict[str, float] = in_process(__file__, "vecenv_round", [seconds], pythonpath)
    return found


def threads_check(rounds: int, seconds: float) -> None:
    """``--threads``: the default threads against one, per batch size, in turns."""
    ratios: dict[tuple[bool, int], list[float]] = {}
    for number in range(rounds):
        for observations in (False, True):
            for games in THREAD_SIZES:
                order = (None, 1) if number % 2 == 0 else (1, None)
                rate = {t: vecenv_rate(games, t, observations, False, seconds) for t in order}
                ratios.setdefault((observations, games), []).append(rate[None] / rate[1])
    print(f"| games | work | default / 1 thread, median ({rounds} rounds) | each round |")
    print("|---:|---|---:|---|")
    for (observations, games), values in ratios.items():
        kind = "observations" if observations else "masks only"
        each = " ".join(f"{v:.2f}" for v in values)
        print(f"| {games:,} | {kind} | {statistics.median(values):.2f} | {each} |")


def main() -> None:
    # pgx on the CPU, beside VecEnv (set here, not at import: benches/rl_speed.py borrows
    # jax_timer and runs JAX on its default device, a GPU where there is one).
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0, help="per measurement")
    parser.add_argument("--against", default=None, help="PYTHONPATH of another build")
    parser.add_argument("--no-pgx", action="store_true", help="VecEnv rows only")
    parser.add_argument(
        "--threads", action="store_true", help="the default threads against one thread"
    )
    args = parser.parse_args()
    if args.threads:
        threads_check(args.rounds, args.seconds)
        return
    pgx: dict[str, Callable[[float], float]] = {}
    if not args.no_pgx:
        for name in ("tic_tac_toe", "connect_four"):
            for batch in (1024, 4096):
                timer = pgx_maker(name, batch)
                if timer is not None:
                    pgx[f"pgx {name}, batch {batch:,} (JAX, CPU)"] = timer
        if not pgx:
            print("(pgx not installed: pip install pgx jax)")
    figures: dict[str, list[float]] = {}
    ratios: list[float] = []
    random_ratios: list[float] = []
    for _ in range(args.rounds):
        found: dict[str, Any] = {}
        if args.against:
            for name, value in child_round(args.against, args.seconds).items():
                found[f"{name} [--against]"] = value
        found |= vecenv_round(args.seconds)
        for name, timer in pgx.items():
            found[name] = timer(args.seconds)
        for name, value in found.items():
            figures.setdefault(name, []).append(value)
        fastest_pgx = max((found[n] for n in pgx), default=None)
        best = max(found[vecenv_label(*row)] for row in VECENV_ROWS[:3])
        best_random = max(
            (found[vecenv_label(*r)] for r in VECENV_ROWS if r[3] and not r[2]),
            default=None,
        )
        if fastest_pgx:
            ratios.append(best / fastest_pgx)
            if best_random:
                random_ratios.append(best_random / fastest_pgx)
    print(f"| work | M steps/s, median ({args.rounds} rounds, range) |")
    print("|---|---:|")
    for name, values in figures.items():
        print(f"| {name} | {spread(values, 1e6)} |")
    if ratios:
        each = ", ".join(f"{r:.1f}x" for r in ratios)
        print(f"fastest VecEnv masks-only row / fastest pgx row, each round: {each}")
    if random_ratios:
        each = ", ".join(f"{r:.1f}x" for r in random_ratios)
        print(f"fastest step_random masks-only row / fastest pgx row, each round: {each}")


if __name__ == "__main__":
    main()
