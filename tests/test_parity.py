"""One AI behind every door: the same level and seed choose the same moves through the
library (``buttonup.ai``, the core's bot), ``buttonup engine`` and the native
``buttonup-engine`` (tests/ugi_engines.py), the C library (a C driver, tests/c/parity_ai.c)
and WebAssembly (a Node driver, tests/js/parity_ai.js) -- the server's page and the
offline page play those last two bots. The scenarios are data: the positions of
tests/data/parity_positions.txt, asked in order of one bot, so that its random stream is
compared too, for every level and a few seeds: exact (``go``; the exact bot's draw
between equal moves), within a depth, and within a time limit."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from pathlib import Path

import processes
import pytest
from buttonup import Position
from buttonup.ai import LEVELS, Limits, bot
from buttonup.engine.referee import EngineProcess
from c_driver import compiled
from ugi_engines import NAMES, command

POSITIONS = [
    line
    for line in (Path(__file__).parent / "data" / "parity_positions.txt").read_text().splitlines()
    if line and not line.startswith("#")
]
ROOT = Path(__file__).resolve().parent.parent
SEEDS = (0, 7, 2**64 - 1)
#: The time limit of the timed moves: every position of the suite is solved well within
#: it, so the timed search ends exact and the move does not depend on the clock.
TIME_LIMIT_MS = 1000
#: What each position is asked: an exact move, then one within two plies.
GOES = ("go", "go depth 2")


def library_moves(level: int, seed: int) -> list[str]:
    """The moves of ``bot(level, seed)`` on each position, as ``bestmove`` lines (an
    engine knows no match, so level 10 plays as level 9)."""
    ai = bot(level, seed, tt_mb=16, threads=1)
    moves = []
    for text in POSITIONS:
        position = Position(text)
        for limits in (Limits(), Limits(depth=2)):
            ai.limits = limits
            moves.append(f"bestmove {ai.choose(position)}")
    return moves


def engine_moves(process: EngineProcess, level: int, seed: int) -> list[str]:
    process.send(f"setoption name Level value {level}")
    process.send(f"setoption name Seed value {seed}")
    moves = []
    for text in POSITIONS:
        for go in GOES:
            process.send(f"position fen {text}")
            process.send(go)
            moves.append(process.until("bestmove")[0])
    return moves


@pytest.fixture(scope="module")
def engines() -> Iterator[dict[str, EngineProcess]]:
    # Every command first: one that skips (no native engine built) skips before any
    # engine is started.
    commands = {name: command(name) for name in NAMES}
    processes: dict[str, EngineProcess] = {}
    try:
        for name, line in commands.items():
            processes[name] = EngineProcess(line)
        yield processes
    finally:
        # close() sends quit, and kills an engine that has not ended 10 s later: each
        # is closed, whatever another's close says.
        statuses = {name: process.close() for name, process in processes.items()}
    assert statuses == dict.fromkeys(processes, 0)


def test_the_positions_are_varied() -> None:
    positions = [Position(text) for text in POSITIONS]
    assert len({sum(map(len, p.piles)) for p in positions}) >= 4  # buttons in all
    assert any(len(p.legal_moves()) == 1 for p in positions)
    assert all(not p.is_over for p in positions)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("level", sorted(LEVELS))
def test_same_level_and_seed_same_moves_at_every_door(
    engines: dict[str, EngineProcess], level: int, seed: int
) -> None:
    expected = library_moves(level, seed)
    for name, process in engines.items():
        assert engine_moves(process, level, seed) == expected, name
    moves = {line.split()[1] for line in expected}
    # Not one move everywhere: the positions differ, and so do the choices.
    assert len(moves) > 1


def test_random_levels_differ_by_seed() -> None:
    """The seed is the random stream: two seeds of level 1 play different moves
    somewhere on the suite, one seed always the same."""
    assert library_moves(1, 0) != library_moves(1, 7)
    assert library_moves(1, 7) == library_moves(1, 7)


def library_exact_and_timed(level: int, seed: int) -> dict[str, list[int]]:
    """What the C and WebAssembly drivers print: one bot's exact moves on every
    position in turn, and another's within the time limit."""

    def moves(limits: Limits | None) -> list[int]:
        ai = bot(level, seed, limits=limits)
        return [ai.choose(Position(text)) for text in POSITIONS]

    return {"exact": moves(None), "timed": moves(Limits(time_limit=TIME_LIMIT_MS / 1000))}


def test_the_c_library_chooses_the_same_moves() -> None:
    with tempfile.TemporaryDirectory(prefix="parity_ai_") as folder:
        driver = compiled("parity_ai", Path(folder))
        for level in sorted(LEVELS):
            for seed in SEEDS:
                expected = library_exact_and_timed(level, seed)
                for kind, limit in (("exact", 0), ("timed", TIME_LIMIT_MS)):
                    given = f"{level} {seed} {limit}\n" + "".join(p + "\n" for p in POSITIONS)
                    done = processes.run(
                        [str(driver)], input=given, capture_output=True, text=True, timeout=120
                    )
                    assert done.returncode == 0, done.stderr
                    got = [int(line) for line in done.stdout.split()]
                    assert got == expected[kind], (level, seed, kind)


def test_webassembly_chooses_the_same_moves() -> None:
    from wasm_package import node_and_package

    node, package = node_and_package()
    driver = ROOT / "tests" / "js" / "parity_ai.js"
    positions = ROOT / "tests" / "data" / "parity_positions.txt"
    levels, seeds = ",".join(map(str, sorted(LEVELS))), ",".join(map(str, SEEDS))
    done = processes.run(
        [node, str(driver), str(package), str(positions), levels, seeds, str(TIME_LIMIT_MS)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    answers = json.loads(done.stdout)
    for level in sorted(LEVELS):
        for seed in SEEDS:
            assert answers[f"{level}:{seed}"] == library_exact_and_timed(level, seed), (level, seed)
