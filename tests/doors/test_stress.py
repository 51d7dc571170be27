"""Threads and memory: eight threads mixing every call that shares state give the
serial answers and never hang; a million calls and ten thousand searches leave the
resident memory flat."""

from __future__ import annotations

import contextlib
import copy
import os
import pickle
import random
import threading
import time

import buttonup
import pytest
from buttonup import Player, Position, Searcher, Standing, search, solve, win_probability
from buttonup.errors import SearchStoppedError

POSITIONS = [Position.random(seed=s, per_colour=p) for s in range(6) for p in (3, 4)]
# Standings that matches reach: the last loser lost to a player with points.
STATES = [
    Standing(r, b, last_loser=Player.RED if b else Player.BLACK)
    for r in (0, 5, 13)
    for b in (0, 7, 14)
    if r or b
]
STATES += [Standing(0, 0, starter=starter) for starter in Player]
BUDGET = 3.0  # seconds of mixing


def test_eight_threads_agree_with_serial_answers() -> None:
    values = {p: solve(p) for p in POSITIONS}
    odds = {state: win_probability(state) for state in STATES}
    shared = Searcher(tt_mb=2)
    failures: list[str] = []
    calls = [0]

    def worker(seed: int) -> None:
        rng = random.Random(seed)
        deadline = time.monotonic() + BUDGET
        while time.monotonic() < deadline:
            position = rng.choice(POSITIONS)
            kind = rng.randrange(7)
            try:
                if kind == 0 and solve(position) != values[position]:
                    failures.append(f"solve {position}")
                elif kind == 1:
                    result = search(position)
                    if result.value != values[position] or not result.exact:
                        failures.append(f"search {position}")
                elif kind == 2:
                    result = shared.search(position)  # others may stop it
                    if result.exact and result.value != values[position]:
                        failures.append(f"shared search {position}")
                elif kind == 3:
                    shared.stop()
                    if shared.tt_bytes != 2 << 20:
                        failures.append("tt_bytes")
                elif kind == 4:
                    shared.clear()
                elif kind == 5:
                    state = rng.choice(STATES)
                    if win_probability(state) != odds[state]:
                        failures.append(f"win_probability {state}")
                else:
                    try:
                        if shared.solve(position) != values[position]:
                            failures.append(f"shared solve {position}")
                    except SearchStoppedError:
                        pass  # another thread stopped it: allowed
                calls[0] += 1
            except Exception as error:  # anything else is a failure
                failures.append(repr(error))

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=BUDGET + 60)
    assert not any(thread.is_alive() for thread in threads), "a thread hung"
    assert failures == []
    assert calls[0] > 100


def resident_kib() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


def hammer(calls: list[object], seconds: float = 1.5, threads: int = 4) -> list[BaseException]:
    """Runs random ``calls`` on ``threads`` threads for ``seconds``: what they raised."""
    failures: list[BaseException] = []
    deadline = time.monotonic() + seconds

    def work(seed: int) -> None:
        rng = random.Random(seed)
        while time.monotonic() < deadline and not failures:
            try:
                rng.choice(calls)()  # type: ignore[operator]
            except BaseException as error:
                failures.append(error)

    workers = [threading.Thread(target=work, args=(n,)) for n in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return failures


def test_a_match_shared_by_threads_takes_every_call() -> None:
    # Two threads on one Match raised "RuntimeError: Already mutably borrowed" (482,575
    # of them a second): PyO3's words, not ours.
    match = buttonup.Match("r", seed=3, target=30)

    def play() -> None:
        moves = match.legal_moves()
        if moves:
            with contextlib.suppress(buttonup.IllegalMoveError):  # another thread first
                match.play(moves[0])
        elif match.chooser is not None:
            with contextlib.suppress(buttonup.MatchStateError):
                match.choose_starter(match.chooser)

    def undo() -> None:
        with contextlib.suppress(buttonup.MatchStateError):
            match.undo()

    calls = [
        play, play, undo, match.legal_moves, lambda: match.battles, lambda: match.standing,
        lambda: match.record(Event="x"), lambda: repr(match), lambda: match.to_move,
        lambda: match.score("r"), lambda: pickle.dumps(match), lambda: copy.copy(match),
    ]  # fmt: skip
    assert hammer(calls) == []
    # Whole after it all: its record reads back as the same match.
    again = buttonup.Match.from_record(match.record())
    assert again.position == match.position and again.scores == match.scores
    assert len(match.battles) == len(again.battles)


def test_a_vecenv_shared_by_threads_takes_its_steps_in_turn() -> None:
    np = pytest.importorskip("numpy")
    env = buttonup.VecEnv(64, seed=1, threads=2)

    def step() -> None:
        actions = np.argmax(env.legal_action_mask, axis=1)
        try:
            env.step(actions)
        except ValueError as error:
            # Another thread stepped between the mask and this step: a refusal naming
            # the pile (no game changed), never a borrow error of PyO3's or NumPy's.
            if "pile" not in str(error):
                raise

    calls = [step, env.step_random, env.restart_finished, env.positions, lambda: env.reset(7)]
    assert hammer(calls) == []
    assert len(env.positions()) == 64


def test_memory_stays_flat() -> None:
    start = Position("W/R/B/W/B/R/R/W/B r")
    rng = random.Random(1)

    def calls(n: int) -> None:
        for _ in range(n):
            position = start
            while not position.is_over:
                moves = position.legal_moves()
                position = position.play(moves[rng.randrange(len(moves))])
                str(position)

    def searches(n: int) -> None:
        for i in range(n):
            search(POSITIONS[i % len(POSITIONS)], depth=3)

    calls(20_000)
    searches(1_000)
    before = resident_kib()
    calls(125_000)  # 125,000 battles: a million play, legal_moves and str calls each
    searches(10_000)
    grown = resident_kib() - before
    assert grown < 4096, f"resident memory grew by {grown} KiB"
    assert buttonup.random_playouts(10).battles == 10


def test_a_huge_table_takes_memory_only_as_it_is_used() -> None:
    import sys

    import processes

    # In a fresh process, so that the high-water mark is this table's alone.
    if not os.path.exists("/proc/self/status"):
        pytest.skip("needs Linux's /proc")
    # VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the parent across fork and
    # exec, so a big test process would be counted.
    program = (
        "import buttonup\n"
        "s = buttonup.Searcher(tt_mb=2048)\n"
        "assert s.solve(buttonup.Position('W/R/B/W/B/R/R/W/B r')) == 1\n"
        "status = open('/proc/self/status').read()\n"
        "print(int(status.split('VmHWM:')[1].split()[0]) // 1024)\n"
    )
    done = processes.run([sys.executable, "-c", program], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) < 300  # MiB: the interpreter and the pages touched, not 2 GiB
