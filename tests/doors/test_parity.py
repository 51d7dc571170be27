"""One AI behind every door: the same level and seed choose the same moves through the
library (``buttonup.ai``, the core's bot), ``buttonup engine`` and the native
``buttonup-engine`` (tests/ugi_engines.py), the C library (a C driver, tests/c/parity_ai.c)
and WebAssembly (a Node driver, tests/js/parity_ai.js) -- the server's page and the
offline page play those last two bots. The scenarios are data: the positions of
tests/data/parity_positions.txt, asked in order of one bot, so that its random stream is
compared too, for every level and a few seeds: exact (``go``, against the default bot
of ``buttonup.ai.bot(level, seed)``), within a depth, and within a time limit. Some of
the positions have several equally good moves: every door plays the lowest-numbered
(the core's one tie rule), which the suite checks too."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from pathlib import Path

import processes
import pytest
from buttonup import RATINGS, Position, analyze, search
from buttonup.ai import LEVELS, Limits, bot
from buttonup.ugi.referee import EngineProcess
from c_driver import compiled
from ugi_engines import NAMES, command

TESTS = Path(__file__).resolve().parents[1]
POSITIONS = [
    line
    for line in (Path(__file__).resolve().parents[1] / "data" / "parity_positions.txt")
    .read_text()
    .splitlines()
    if line and not line.startswith("#")
]
ROOT = Path(__file__).resolve().parents[2]
SEEDS = (0, 7, 2**64 - 1)
#: The time limit of the timed moves: every position of the suite is solved well within
#: it, so the timed search ends exact and the move does not depend on the clock.
TIME_LIMIT_MS = 1000
#: What each position is asked: an exact move, then one within two plies.
GOES = ("go", "go depth 2")


def library_moves(level: int, seed: int) -> list[str]:
    """The moves of the default ``bot(level, seed)`` on each position, exact and within
    two plies, as ``bestmove`` lines (an engine knows no match, so level 10 plays as
    level 9)."""
    ai = bot(level, seed)
    moves = []
    for text in POSITIONS:
        position = Position(text)
        for limits in (None, Limits(depth=2)):
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


def test_ties_go_to_the_lowest_numbered_move() -> None:
    """Perfect play's one tie rule: of equally good moves, the lowest-numbered, so that
    no door can draw between them otherwise and still pass the suite above."""
    tied = 0
    for text in POSITIONS:
        position = Position(text)
        values = analyze(position)
        best = [move for move, value in values.items() if value == max(values.values())]
        tied += len(best) > 1
        for level, seed in ((9, 0), (9, 7), (10, 2**64 - 1)):
            assert bot(level, seed).choose(position) == min(best), (text, level, seed)
    assert tied >= 10


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


def test_the_c_library_plays_a_rating_as_python() -> None:
    """Bots asked for by rating, between levels and at one, exact."""
    ratings = [1234.5, (RATINGS[4] + RATINGS[5]) / 2, RATINGS[6], 2100.0]
    with tempfile.TemporaryDirectory(prefix="parity_rated_") as folder:
        driver = compiled("parity_ai", Path(folder))
        for rating in ratings:
            for seed in SEEDS:
                ai = bot(rating=rating, seed=seed)
                expected = [ai.choose(Position(text)) for text in POSITIONS]
                given = f"r{rating!r} {seed} 0\n" + "".join(p + "\n" for p in POSITIONS)
                done = processes.run(
                    [str(driver)], input=given, capture_output=True, text=True, timeout=120
                )
                assert done.returncode == 0, done.stderr
                assert [int(line) for line in done.stdout.split()] == expected, (rating, seed)


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


# --- one search --------------------------------------------------------------------------

#: The search suite: the positions above, and two of 6 buttons of each colour (18 piles,
#: big enough for threads).
SEARCHED = [*POSITIONS, *(str(Position.random(seed, per_colour=6)) for seed in (1, 2))]
#: The searches asked of every door: threads (0: every core), depth, nodes (0: none).
SEARCHES = ((1, 0, 0), (2, 0, 0), (0, 0, 0), (2, 4, 0), (2, 0, 5000))


def library_search(threads: int, depth: int, nodes: int) -> list[tuple[object, ...]]:
    """``buttonup.search`` of each position: best move, value, exact, depth, threads, and
    the nodes of a node-limited search (the others' counts depend on what the table
    holds from earlier searches)."""
    found = []
    for text in SEARCHED:
        r = search(
            Position(text), threads=threads or None, depth=depth or None, nodes=nodes or None
        )
        found.append((r.best_move, r.value, r.exact, r.depth, r.threads, r.nodes if nodes else 0))
    return found


def test_the_search_takes_its_threads_by_one_rule() -> None:
    big = Position.random(1, per_colour=6)
    assert search(big, threads=2).threads == 2
    assert search(big, threads=2, depth=4).threads == 1  # the same answer on every run
    assert search(big, threads=2, nodes=5000).threads == 1
    assert search(Position(POSITIONS[0]), threads=2).threads == 1  # too small to pay


@pytest.mark.parametrize(("threads", "depth", "nodes"), SEARCHES)
def test_the_c_library_searches_as_python(threads: int, depth: int, nodes: int) -> None:
    with tempfile.TemporaryDirectory(prefix="search_") as folder:
        driver = compiled("search", Path(folder))
        given = f"{threads} {depth} {nodes} 0\n" + "".join(p + "\n" for p in SEARCHED)
        done = processes.run(
            [str(driver)], input=given, capture_output=True, text=True, timeout=120
        )
    assert done.returncode == 0, done.stderr
    found = []
    for line in done.stdout.splitlines():
        pile, value, exact, reached, counted, used = line.split()
        found.append(
            (
                int(pile),
                float(value),
                exact == "1",
                int(reached),
                int(used),
                int(counted) if nodes else 0,
            )
        )
    assert found == library_search(threads, depth, nodes)


@pytest.mark.parametrize(("depth", "nodes"), [(0, 0), (4, 0), (0, 5000)])
def test_webassembly_searches_as_python_on_one_thread(depth: int, nodes: int) -> None:
    from wasm_package import node_and_package

    node, package = node_and_package()
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as listed:
        listed.write("".join(p + "\n" for p in SEARCHED))
    try:
        done = processes.run(
            [
                node,
                str(ROOT / "tests" / "js" / "parity_search.js"),
                str(package),
                listed.name,
                str(depth),
                str(nodes),
                "0",
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
    finally:
        Path(listed.name).unlink()
    assert done.returncode == 0, done.stderr[-4000:]
    # The nodes of a node-limited search are left out here: the page's build runs the
    # portable copy of the search, whose last plies are counted a little differently
    # (the same moves and values).
    found = [
        (move, value, exact, reached, used)
        for move, value, exact, reached, _counted, used in json.loads(done.stdout)
    ]
    assert found == [row[:5] for row in library_search(1, depth, nodes)]
