"""The learned horizon estimate of limited searches: the shipped weights are the fit of
the stored exact labels (scripts/train_eval.py), the labels are the solver's, the core
evaluates with those weights, and a limited search chooses by them through the library,
both UGI engines, the C library and WebAssembly (the server plays the library's bot)."""

from __future__ import annotations

import json
import random
import re
import tempfile
from pathlib import Path
from types import ModuleType

import processes
import pytest
from buttonup import Player, Position, search, solve
from buttonup.ugi.referee import EngineProcess
from c_driver import compiled
from source_scripts import load
from ugi_engines import NAMES, command

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "train_eval.py"
pytestmark = pytest.mark.skipif(not SCRIPT.exists(), reason="needs the source tree (scripts/)")
np = pytest.importorskip("numpy")


def trainer() -> ModuleType:
    return load("scripts/train_eval.py")


def shipped_weights() -> list[float]:
    text = (ROOT / "src" / "search" / "learned_weights.rs").read_text(encoding="utf-8")
    body = text.split("= [", 1)[1].split("];", 1)[0]
    return [float(w) for w in re.findall(r"-?\d[\d.e+-]*", body)]


def test_the_shipped_weights_are_the_fit_of_the_stored_labels() -> None:
    train = trainer()
    rows = train.read()
    assert len(rows) >= 10_000
    weights, errors = train.fit(rows)
    assert np.allclose(weights, np.float32(shipped_weights()), rtol=1e-5, atol=1e-6)
    # What the weights' file says of them, and that they beat the projection.
    header = (ROOT / "src" / "search" / "learned_weights.rs").read_text(encoding="utf-8")
    assert f"error of the final margin is {errors['learned']:.2f}" in header
    assert errors["learned"] < 0.7 * errors["projection"]


def test_stored_labels_are_the_solvers_values() -> None:
    rows = trainer().read()
    for notation, red_value in random.Random(5).sample(rows, 40):
        position = Position(notation)
        value = solve(position)
        assert red_value == (value if position.to_move == Player.RED else -value), notation


def test_the_core_estimates_with_the_shipped_weights() -> None:
    weights = np.float32(shipped_weights())
    positions = [Position.random(seed, per_colour=2 + seed % 9) for seed in range(50)]
    for learned, projection, features in trainer().estimates([str(p) for p in positions]):
        features = np.float32(features)
        assert learned == int(np.rint(np.float32(features @ weights)))
        assert projection == features[0]


def red_estimates(positions: list[Position]) -> list[tuple[int, int]]:
    """Each position's learned estimate and projection, Red minus Black (the final
    margin of a finished battle twice)."""
    found: list[tuple[int, int]] = []
    going = [p for p in positions if not p.is_over]
    estimated = iter(trainer().estimates([str(p) for p in going]))
    for position in positions:
        if position.is_over:
            scoring = position.scoring()
            found.append((scoring.red - scoring.black,) * 2)
        else:
            learned, projection, _ = next(estimated)
            found.append((learned, projection))
    return found


def mover_values(position: Position, which: int = 0) -> dict[int, int]:
    """Each move's learned estimate (``which`` 1: projection) for the player who makes
    it (a depth-1 search's)."""
    moves = position.legal_moves()
    reds = red_estimates([position.play(move) for move in moves])
    sign = 1 if position.to_move == Player.RED else -1
    return {move: sign * red[which] for move, red in zip(moves, reds)}


def test_a_limited_search_chooses_by_the_learned_estimate() -> None:
    for seed in range(40):
        position = Position.random(seed, per_colour=7)
        learned = mover_values(position)
        best = max(learned.values())
        if list(learned.values()).count(best) == 1:
            chosen = search(position, depth=1).best_move
            assert chosen is not None and learned[chosen] == best
    for notation, move in learned_choices():  # where the projection would choose another
        assert search(Position(notation), depth=1).best_move == move


def learned_choices() -> list[tuple[str, int]]:
    """Positions of 7 of each colour where a one-ply choice by the learned estimate is
    one move, not one the projection would choose; with that move."""
    chosen = []
    for seed in range(40):
        position = Position.random(seed, per_colour=7)
        learned = mover_values(position)
        best = max(learned.values())
        projected = mover_values(position, which=1)
        move = max(learned, key=lambda m: learned[m])
        if list(learned.values()).count(best) == 1 and projected[move] < max(projected.values()):
            chosen.append((str(position), move))
    assert len(chosen) >= 3
    return chosen


@pytest.mark.parametrize("name", NAMES)
def test_the_engines_choose_by_the_learned_estimate(name: str) -> None:
    engine = EngineProcess(command(name))
    try:
        engine.send("setoption name Level value 9")
        for notation, move in learned_choices():
            engine.send(f"position fen {notation}")
            engine.send("go depth 1")
            assert engine.until("bestmove")[0] == f"bestmove {move}", notation
    finally:
        assert engine.close() == 0


def test_webassembly_chooses_by_the_learned_estimate() -> None:
    from wasm_package import node_and_package

    node, package = node_and_package()
    cases = learned_choices()
    script = (
        "const engine = require(process.argv[1]);"
        "const cases = JSON.parse(process.argv[2]);"
        "const moves = cases.map("
        "  (n) => engine.search(new engine.Position(n), { depth: 1 }).bestMove);"
        "process.stdout.write(JSON.stringify(moves));"
    )
    done = processes.run(
        [node, "-e", script, str(package), json.dumps([n for n, _ in cases])],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout) == [m for _, m in cases]


def test_the_c_library_chooses_by_the_learned_estimate() -> None:
    cases = learned_choices()
    with tempfile.TemporaryDirectory(prefix="search_") as folder:
        driver = compiled("search", Path(folder))
        given = "1 1 0 0\n" + "".join(f"{n}\n" for n, _ in cases)
        done = processes.run([str(driver)], input=given, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    found = [line.split() for line in done.stdout.splitlines()]
    assert [(int(w[0]), w[2], w[3]) for w in found] == [(m, "0", "1") for _, m in cases]
