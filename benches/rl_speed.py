"""Speed of the learning-agent interfaces, measured in one run: the figures of docs/rl.md.

    python benches/rl_speed.py [--seconds S] [--rounds R] [--only PREFIX,...] [--jax-before REV]
                               [--batches N,...]

- VecEnv steps per second (one step = one move in one game), for 1, 64 and 4,096 games,
  on 1 and 2 threads, with masks only and with observations, against a Python loop of
  ``Position.play`` over as many games;
- ``gymnasium.make_vec("buttonup/Battle-v0", num_envs=1024)`` with
  ``vectorization_mode="vector_entry_point"`` (``buttonup.envs.vector``, the opponent
  played in Rust) against ``"sync"`` (SyncVectorEnv of the single environment, the
  opponent a Python bot), against levels 1 and 5, and the ratio of the two in each
  round; the SB3 adapter (``buttonup.envs.sb3``) at 1,024 games;
- the JAX environment (``buttonup.envs.jax``, batches 1,024 and 4,096 or ``--batches``,
  jitted: finished battles started again by ``Battle.auto_reset_step`` and through pgx's
  ``auto_reset``, and the step alone) on JAX's default device (the CPU, or a GPU where
  JAX's CUDA build is installed: the run's first line names it), where JAX is
  installed, beside pgx's tic_tac_toe and connect_four through pgx's ``auto_reset`` at
  the same batches (and, with ``--jax-before REV``, the JAX environment of a git
  revision);
- PettingZoo AEC steps per second, the loop of ``pettingzoo.test.performance_benchmark``
  (random legal actions), for ``buttonup.envs.pettingzoo`` and PettingZoo's own
  ``connect_four_v3`` and ``tictactoe_v3`` (they need pygame).

Engines are alternated in rounds so that noise hits all alike; each figure is the median
over the rounds. Set-up (making the environment) is outside the timings and shown apart.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from buttonup import Position
from vecenv_speed import jax_timer, vecenv_rate  # benches/, beside this script


def python_loop_rate(games: int, seconds: float) -> float:
    positions = [Position.random(seed=i) for i in range(games)]
    steps, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        for _ in range(20):
            for i, position in enumerate(positions):
                if position.is_over:
                    positions[i] = Position.random(seed=i)
                else:
                    positions[i] = position.play(position.legal_moves()[0])
        steps += 20 * games
    return steps / (time.perf_counter() - started)


def make_vec_rate(mode: str, level: int | str, seconds: float, games: int = 1024) -> float:
    """Agent steps per second of ``make_vec`` in ``mode``, ``games`` games against
    ``level`` (or ``"linear"``: :func:`linear_opponent`, in its batched form for the
    vector entry point and game by game for sync), the first legal pile everywhere
    (set-up outside the timing)."""
    import buttonup.envs.gymnasium  # noqa: F401 (registers the environment)
    import gymnasium

    opponent: Any = level
    if level == "linear":
        opponent = linear_opponent(batched=mode == "vector_entry_point")
    envs = gymnasium.make_vec(
        "buttonup/Battle-v0", num_envs=games, opponent=opponent, vectorization_mode=mode
    )
    _, infos = envs.reset(seed=0)
    steps, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        for _ in range(5):
            masks = infos["action_mask"].astype(bool)
            _, _, _, _, infos = envs.step(np.where(masks.any(axis=1), masks.argmax(axis=1), 0))
        steps += 5 * games
    envs.close()
    return steps / (time.perf_counter() - started)


def linear_opponent(batched: bool) -> Any:
    """A learned opponent's stand-in: a fixed linear scorer of the observation (NumPy,
    seeded), the legal pile of the highest score; a ``BatchPolicy`` or a policy of one
    game."""
    from buttonup.envs.batch_players import BatchPolicy

    weights = np.random.default_rng(0).normal(size=(9 * 9 * 3, 9)).astype(np.float32)

    def scores(observations: Any, masks: Any) -> Any:
        values = observations.reshape(len(masks), -1).astype(np.float32) @ weights
        return np.argmax(np.where(masks, values, -np.inf), axis=1)

    if batched:
        return BatchPolicy(scores)
    return lambda observation, mask: int(scores(observation[None], mask[None])[0])


def sb3_rate(seconds: float) -> float | None:
    try:
        from buttonup.envs.sb3 import BattleVecEnv
    except ImportError:
        return None
    envs = BattleVecEnv(1024, opponent=1, seed=0)
    envs.reset()
    steps, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        for _ in range(20):
            masks = envs.action_masks()
            envs.step(masks.argmax(axis=1))
        steps += 20 * 1024
    return steps / (time.perf_counter() - started)


def jax_battle(before: str | None = None) -> Any:
    """``buttonup.envs.jax.Battle``, or that of the git revision ``before`` (its
    module loaded from ``git show``, beside today's core)."""
    if before is None:
        from buttonup.envs.jax import Battle

        return Battle
    import types

    from bench_tools import run

    source = run(
        ["git", "show", f"{before}:python/buttonup/envs/jax.py"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    module = types.ModuleType(f"jax_env_{before}")
    exec(compile(source, f"{before}:jax.py", "exec"), module.__dict__)
    return module.Battle


def jax_rate(
    batch: int, seconds: float, mode: str = "reset", before: str | None = None
) -> float | None:
    """Moves a second of the JAX environment: ``mode`` "reset" (finished battles start
    again: ``Battle.auto_reset_step`` where the build has it, else a ``where`` of a fresh
    ``init`` over every field), "pgx" (through ``pgx.experimental.auto_reset``) or
    "step" (the step alone: finished battles stay finished, at the same cost)."""
    try:
        import jax
    except ImportError:
        return None
    env = jax_battle(before)()

    def where_reset(state: Any, action: Any, key: Any) -> Any:
        stepped = env.step(state, action)
        fresh = env.init(key)
        return jax.tree.map(lambda a, b: jax.numpy.where(stepped.terminated, a, b), fresh, stepped)

    def plain(state: Any, action: Any, key: Any) -> Any:
        return env.step(state, action)

    if mode == "pgx":
        try:
            from pgx.experimental import auto_reset
        except ImportError:
            return None
        chosen = auto_reset(env.step, env.init)
    elif mode == "reset":
        chosen = getattr(env, "auto_reset_step", where_reset)
    else:
        chosen = plain
    return jax_timer(jax.jit(jax.vmap(chosen)), env.init, batch)(seconds)


def jax_device() -> str:
    """Where the JAX and pgx rows run: JAX's version and its default device."""
    try:
        import jax
    except ImportError:
        return "JAX: not installed"
    device = jax.devices()[0]
    return f"JAX {jax.__version__} on {device.platform}: {device.device_kind}"


def pgx_rate(name: str, batch: int, seconds: float) -> float | None:
    try:
        import jax
        import pgx
    except ImportError:
        return None
    from pgx.experimental import auto_reset

    env = pgx.make(name)
    init = jax.jit(jax.vmap(env.init))
    # Finished games start again, as in VecEnv.
    step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))
    keys = jax.random.split(jax.random.PRNGKey(0), batch)
    state = init(keys)

    def act(state: Any) -> Any:
        return state.legal_action_mask.argmax(axis=1)

    state = step(state, act(state), keys)  # compile
    state.current_player.block_until_ready()
    steps, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        for _ in range(20):
            state = step(state, act(state), keys)
        state.current_player.block_until_ready()
        steps += 20 * batch
    return steps / (time.perf_counter() - started)


def aec_rate(make: Callable[[], Any], seconds: float) -> float:
    env = make()
    env.reset(seed=0)
    turns, started = 0, time.perf_counter()
    rng = random.Random(0)
    while time.perf_counter() - started < seconds:
        for _agent in env.agent_iter(env.num_agents):
            obs, _, termination, truncation, _ = env.last()
            if termination or truncation:
                action = None
            else:
                action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            env.step(action)
            turns += 1
            if all(env.terminations.values()) or all(env.truncations.values()):
                env.reset()
                break
    return turns / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.5, help="per measurement")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--only", default="", help="only the measures starting with one of these (comma-separated)"
    )
    parser.add_argument(
        "--jax-before", metavar="REV", help="also the JAX environment of this git revision"
    )
    parser.add_argument(
        "--batches",
        default="1024,4096",
        help="games a batch of the JAX and pgx rows (comma-separated; a GPU wants more)",
    )
    args = parser.parse_args()
    s = args.seconds
    batches = [int(b) for b in args.batches.split(",")]
    work: dict[str, Callable[[], float | None]] = {}
    for level in (1, 5):
        for mode in ("vector_entry_point", "sync"):
            label = f"make_vec {mode}, 1024 games, level {level}"
            work[label] = lambda m=mode, lv=level: make_vec_rate(m, lv, s)
    # A learned opponent (a NumPy policy): asked for the batch, or game by game in sync.
    for mode in ("vector_entry_point", "sync"):
        label = f"make_vec {mode}, 256 games, a NumPy policy opponent"
        work[label] = lambda m=mode: make_vec_rate(m, "linear", s, games=256)
    work["SB3 adapter (buttonup.envs.sb3), 1024 games, level 1"] = lambda: sb3_rate(s)
    jax_modes = {
        "reset": "own auto-reset",
        "pgx": "through pgx.experimental.auto_reset",
        "step": "step alone",
    }
    for batch in batches:
        for rev in (None, args.jax_before) if args.jax_before else (None,):
            for mode, what in jax_modes.items():
                label = (
                    f"JAX buttonup.envs.jax{f' at {rev}' if rev else ''}, batch {batch} ({what})"
                )
                work[label] = lambda b=batch, m=mode, r=rev: jax_rate(b, s, m, r)
        for name in ("tic_tac_toe", "connect_four"):
            work[f"pgx {name}, batch {batch} (through auto_reset)"] = lambda n=name, b=batch: (
                pgx_rate(n, b, s)
            )
    work["VecEnv, 1024 games, 1 thread(s), observations"] = lambda: vecenv_rate(
        1024, 1, True, False, s
    )
    for games in (1, 64, 4096):
        work[f"Position.play loop, {games} games"] = lambda g=games: python_loop_rate(g, s)
        for threads in (1, 2):
            for obs in (False, True):
                label = f"VecEnv, {games} games, {threads} thread(s), " + (
                    "observations" if obs else "masks only"
                )
                work[label] = lambda g=games, t=threads, o=obs: vecenv_rate(g, t, o, False, s)
    try:
        from buttonup.envs.pettingzoo import env as button_up
    except ImportError:  # the rl extra is not installed (the JAX rows need only JAX)
        button_up = None
    if button_up is not None:
        work["PettingZoo AEC: buttonup.envs.pettingzoo"] = lambda: aec_rate(button_up, s)
    try:
        from pettingzoo.classic import connect_four_v3, tictactoe_v3

        work["PettingZoo AEC: connect_four_v3"] = lambda: aec_rate(connect_four_v3.env, s)
        work["PettingZoo AEC: tictactoe_v3"] = lambda: aec_rate(tictactoe_v3.env, s)
    except ImportError:
        print("(PettingZoo's classic games need pygame: pip install pygame)")
    prefixes = tuple(args.only.split(","))
    work = {name: measure for name, measure in work.items() if name.startswith(prefixes)}
    if any(name.startswith(("JAX", "pgx")) for name in work):
        print(jax_device())
    figures: dict[str, list[float]] = {name: [] for name in work}
    ratios: dict[int | str, list[float]] = {1: [], 5: [], "a NumPy policy": []}
    for _ in range(args.rounds):
        for name, measure in work.items():
            value = measure()
            if value is not None:
                figures[name].append(value)
        for level, found in ratios.items():
            row = (
                f"1024 games, level {level}"
                if isinstance(level, int)
                else (f"256 games, {level} opponent")
            )
            vector = figures.get(f"make_vec vector_entry_point, {row}")
            sync = figures.get(f"make_vec sync, {row}")
            if vector and sync:
                found.append(vector[-1] / sync[-1])
    print("| work | steps/s (median) |")
    print("|---|---:|")
    for name, values in figures.items():
        if values:
            print(f"| {name} | {statistics.median(values):,.0f} |")
        else:
            print(f"| {name} | not installed |")
    for level, found in ratios.items():
        if found:
            each = ", ".join(f"{r:.1f}x" for r in found)
            against = f"level {level}" if isinstance(level, int) else level
            print(f"vector_entry_point / sync against {against}: {each} (rounds)")


if __name__ == "__main__":
    main()
