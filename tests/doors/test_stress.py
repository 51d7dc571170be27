"""Threads and memory: eight threads mixing every call that shares state give the
serial answers and never hang; a million calls and ten thousand searches leave the
resident memory flat."""

from __future__ import annotations

import os
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
