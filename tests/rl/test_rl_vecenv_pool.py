"""VecEnv's kept worker threads and its writes by changes: every step's outputs equal
what ``Position.play`` and docs/rl.md's encoding say, on 1 and 2 threads, over many
steps and seeds; the threads end with the environment; Ctrl-C in a loop of steps."""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import textwrap
import time
from typing import Any

import pytest
from buttonup import Player, VecEnv
from harness import encoded_by_the_docs
from processes import started

if os.environ.get("BUTTONUP_REQUIRE_RL"):
    import numpy as np
else:
    np = pytest.importorskip("numpy")


def random_legal(env: VecEnv, rng: Any) -> Any:
    """A uniformly random legal pile in every game (0 where none, a finished game)."""
    masks = env.legal_action_mask
    scores = rng.random(masks.shape) * masks
    return scores.argmax(axis=1).astype(np.int64)


def check_against_play(env: VecEnv, steps: int, rng: Any) -> int:
    """Steps with random legal actions, checking every game's outputs after each step
    against ``Position.play`` and the docs' encoding; returns the battles finished."""
    positions = env.positions()
    finished = [False] * env.num_envs
    endings = 0
    width = env.legal_action_mask.shape[1]
    for _ in range(steps):
        actions = random_legal(env, rng)
        env.step(actions)
        after = env.positions()
        for i, (before, now) in enumerate(zip(positions, after)):
            if finished[i]:
                assert not env.terminated[i] and tuple(env.rewards[i]) == (0.0, 0.0)
                finished[i] = False
            else:
                assert now == before.play(int(actions[i]))
                margin = now.scoring().margin_for(Player.RED) if now.is_over else 0
                assert tuple(env.rewards[i]) == (margin, -margin)
                assert env.terminated[i] == now.is_over
                finished[i] = now.is_over
                endings += now.is_over
            assert env.current_player[i] == (0 if now.to_move is Player.RED else 1)
            mask = np.zeros(width, bool)
            mask[list(now.legal_moves())] = True
            assert (env.legal_action_mask[i] == mask).all(), (i, now)
            assert (
                env.observation[i] == encoded_by_the_docs(now, now.to_move).reshape(-1)
            ).all(), (i, now)
        positions = after
    return endings


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_step_equals_position_play_and_the_docs_encoding(threads: int, seed: int) -> None:
    # 600 games: two parts of the batch, one for each thread (256 or more a thread).
    env = VecEnv(600, seed=seed, threads=threads)
    rng = np.random.default_rng(seed)
    assert check_against_play(env, 30, rng) > 300
    env.reset(seed=seed + 10)
    assert check_against_play(env, 12, rng) > 0


@pytest.mark.parametrize("per_colour", [1, 2, 4])
def test_other_sizes_on_two_threads(per_colour: int) -> None:
    env = VecEnv(1100, per_colour=per_colour, seed=per_colour, threads=2)
    rng = np.random.default_rng(per_colour)
    assert check_against_play(env, 4 * per_colour + 4, rng) > 0


def test_single_agent_with_same_step_restarts_on_two_threads() -> None:
    one = VecEnv(1100, seed=3, threads=1, agent=Player.BLACK, opponent=1)
    two = VecEnv(1100, seed=3, threads=2, agent=Player.BLACK, opponent=1)
    rng = np.random.default_rng(3)
    for _ in range(40):
        actions = random_legal(one, rng)
        for env in (one, two):
            env.step(actions)
            env.restart_finished()
        assert one.positions() == two.positions()
        for name in ("observation", "legal_action_mask", "rewards", "terminated"):
            assert (getattr(one, name) == getattr(two, name)).all(), name
        for i, position in enumerate(two.positions()):
            seen = encoded_by_the_docs(position, Player.BLACK).reshape(-1)
            assert (two.observation[i] == seen).all()
            assert two.legal_action_mask[i].sum() == len(list(position.legal_moves()))


def test_masks_only_equals_the_observing_env() -> None:
    seen = VecEnv(8200, seed=8, threads=2)
    blind = VecEnv(8200, seed=8, threads=2, observations=False)
    rng = np.random.default_rng(8)
    for _ in range(50):
        actions = random_legal(seen, rng)
        seen.step(actions)
        blind.step(actions)
        assert (seen.legal_action_mask == blind.legal_action_mask).all()
        assert (seen.rewards == blind.rewards).all()
    assert seen.positions() == blind.positions()


def test_actions_of_other_int_types_play_the_same() -> None:
    fast, slow = VecEnv(1100, seed=4, threads=2), VecEnv(1100, seed=4, threads=2)
    rng = np.random.default_rng(4)
    for _ in range(20):
        actions = random_legal(fast, rng)
        fast.step(actions)  # int64, contiguous: read as it is
        slow.step(actions.astype(np.int32)[::-1][::-1].tolist())  # a list: converted
        assert fast.positions() == slow.positions()
    with pytest.raises(ValueError, match="1099 actions for 1100 games"):
        fast.step(np.zeros(1099, np.int64))
    with pytest.raises(TypeError):
        fast.step(np.zeros(300, np.float64))


def pool_threads_of_this_process() -> int:
    """This process's threads named by VecEnv's pool (`buttonup-pool1`, ...):
    other libraries' threads may come and go meanwhile."""
    count = 0
    for task in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{task}/comm") as comm:
                count += comm.read().startswith("buttonup-pool")
        except OSError:  # the thread ended meanwhile
            pass
    return count


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="needs Linux's /proc")
def test_the_threads_end_with_the_environment() -> None:
    gc.collect()
    before = pool_threads_of_this_process()
    for _ in range(20):
        env = VecEnv(1024, seed=1, threads=2)
        env.step(env.legal_action_mask.argmax(axis=1))
        # One worker beside the caller (named once it has started running).
        waited = time.perf_counter()
        while pool_threads_of_this_process() < before + 1 and time.perf_counter() - waited < 5:
            time.sleep(0.001)
        assert pool_threads_of_this_process() == before + 1
        del env
        gc.collect()
    assert pool_threads_of_this_process() == before
    env = VecEnv(1024, seed=1, threads=2)
    env.step(env.legal_action_mask.argmax(axis=1))
    time.sleep(0.05)  # the worker asleep now: it wakes for the next step
    env.step(env.legal_action_mask.argmax(axis=1))
    assert env.positions() is not None


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="needs Linux's /proc")
@pytest.mark.parametrize(
    ("games", "observations", "opponent", "workers"),
    [
        (1023, True, None, 0),
        (1024, True, None, 1),
        (1024, False, 1, 1),
        (8191, False, None, 0),
        (8192, False, None, 1),
    ],
)
def test_a_second_thread_works_only_from_the_measured_batch_sizes(
    games: int, observations: bool, opponent: int | None, workers: int
) -> None:
    """Two threads were slower than one on 2 cores below a few thousand games
    of masks alone; `benches/vecenv_speed.py --threads` measured where a second thread
    pays (1,024 games with observations or an opponent, 8,192 of masks alone)."""
    gc.collect()
    before = pool_threads_of_this_process()
    agent = Player.RED if opponent else None
    env = VecEnv(
        games, seed=1, threads=2, observations=observations, agent=agent, opponent=opponent
    )
    for _ in range(3):
        env.step(env.legal_action_mask.argmax(axis=1))
        env.restart_finished()
    waited = time.perf_counter()
    while pool_threads_of_this_process() < before + workers and time.perf_counter() - waited < 5:
        time.sleep(0.001)
    assert pool_threads_of_this_process() == before + workers
    del env
    gc.collect()


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child is POSIX")
def test_ctrl_c_in_a_loop_of_steps_stops_it_and_the_process_exits() -> None:
    script = textwrap.dedent(
        """
        import sys, time
        from buttonup import VecEnv
        env = VecEnv(50_000, seed=1, threads=2)
        print("ready", flush=True)
        try:
            while True:
                env.step(env.legal_action_mask.argmax(axis=1))
        except KeyboardInterrupt:
            print("interrupted", time.perf_counter(), flush=True)
        env.step(env.legal_action_mask.argmax(axis=1))
        assert all(not p.is_over or len(p.piles) == 1 for p in env.positions())
        print("still stepping", flush=True)
        """
    )
    with started(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=dict(os.environ)
    ) as child:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        time.sleep(0.3)
        sent = time.perf_counter()
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=30)
    lines = out.splitlines()
    assert lines[0].startswith("interrupted") and lines[-1] == "still stepping"
    # The clocks of both processes are the same monotonic clock on Linux.
    if sys.platform.startswith("linux"):
        assert float(lines[0].split()[1]) - sent < 0.5
    assert child.returncode == 0


def test_an_interrupted_reset_changes_no_game() -> None:
    """Ctrl-C during the deal of a reset (here a timer's signal whose handler raises
    KeyboardInterrupt, as Python's does for SIGINT) stops it and leaves every game and
    output as it was: the old masks still give legal actions."""
    env = VecEnv(1_500_000, seed=5, observations=False)
    env.step(env.legal_action_mask.argmax(axis=1))
    before = [str(p) for p in env.positions()[::400_000]]
    masks = env.legal_action_mask.copy()

    def raise_interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, raise_interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.005)
        with pytest.raises(KeyboardInterrupt):
            env.reset(seed=6)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert [str(p) for p in env.positions()[::400_000]] == before
    assert (env.legal_action_mask == masks).all()
    env.step(masks.argmax(axis=1))
