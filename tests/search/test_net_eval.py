"""The network estimate of limited searches: the shipped weights are the fit of the
stored exact labels (scripts/train_net.py), the labels are the solver's, the core
evaluates as the script does, and a limited search chooses by the network through the
library, both UGI engines, the C library and WebAssembly (the server plays the
library's bot)."""

from __future__ import annotations

import json
import math
import random
import re
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

import processes
import pytest
from buttonup import Player, Position, search, solve
from buttonup.ugi.referee import EngineProcess
from c_driver import compiled
from source_scripts import load
from ugi_engines import NAMES, command

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "train_net.py"
WEIGHTS = ROOT / "src" / "search" / "net_weights.rs"
pytestmark = pytest.mark.skipif(not SCRIPT.exists(), reason="needs the source tree (scripts/)")
np = pytest.importorskip("numpy")
pytest.importorskip("scipy")


def trainer() -> ModuleType:
    return load("scripts/train_net.py")


def shipped() -> Any:
    """The weights of net_weights.rs, as the script's ``Net`` (``float32``)."""
    text = WEIGHTS.read_text(encoding="utf-8")

    def numbers(name: str) -> Any:
        body = text.split(f"{name}:", 1)[1].split("=", 1)[1].split(";", 1)[0]
        return np.float32([float(w) for w in re.findall(r"-?\d[\d.e+-]*", body)])

    train = trainer()
    embed = numbers("EMBED").reshape(train.FEATURES, train.HIDDEN)
    return train.Net(embed, numbers("HIDDEN_BIAS"), numbers("OUT"), numbers("OUT_BIAS"))


def test_the_shipped_weights_are_the_fit_of_the_stored_labels() -> None:
    train = trainer()
    net, errors = train.fit(train.EPOCHS, train.SEED)
    weights = shipped()
    for fitted, written in zip(net, weights):
        assert np.allclose(fitted, written, rtol=1e-4, atol=1e-5)
    header = WEIGHTS.read_text(encoding="utf-8")
    assert f"error of the final margin is {errors['all']:.2f}" in header
    assert errors["train"] >= 100_000


def test_the_network_beats_the_projection_on_held_out_positions() -> None:
    train = trainer()
    held = [row for i, row in enumerate(train.read()) if i % train.HELD_OUT == 0]
    found = train.estimates([n for n, _ in held])
    net = np.array([rounded(value) for value, _, _ in found])
    side = np.array([1 if n.endswith("r") else -1 for n, _ in held])
    projection = np.array([p for _, p, _ in found]) * side
    values = np.array([train.side_value(n, m) for n, m in held])
    assert np.abs(net - values).mean() < 0.5 * np.abs(projection - values).mean()


def test_stored_labels_are_the_solvers_values() -> None:
    rows = trainer().read()
    for notation, red_value in random.Random(5).sample(rows, 40):
        position = Position(notation)
        value = solve(position)
        assert red_value == (value if position.to_move == Player.RED else -value), notation


def test_the_core_estimates_as_the_script_does() -> None:
    train = trainer()
    net = shipped()
    rng = random.Random(3)
    notations = []
    for seed in range(300):
        position = Position.random(seed, per_colour=2 + seed % 9)
        while len(position.piles) > 2 and rng.random() < 0.8:
            position = position.play(rng.choice(position.legal_moves()))
        notations.append(str(position))
    found = train.estimates(notations)
    x, buttons, _ = train.matrix([(n, 0) for n in notations])
    expected, _ = net.forward(x, buttons)
    for notation, (value, _, active), wanted in zip(notations, found, expected):
        assert sorted(active) == sorted(train.features(notation)[0]), notation
        assert value == pytest.approx(wanted, rel=1e-4, abs=1e-3), notation


def rounded(value: float) -> int:
    """Rounded half away from zero, as Rust's ``f32::round``."""
    return int(math.copysign(math.floor(abs(value) + 0.5), value))


def mover_values(position: Position, which: int = 0) -> dict[int, int]:
    """Each move's estimate (``which`` 0: the network's, 1: the projection) for the
    player who makes it, as a depth-1 search sees it (a finished battle's margin)."""
    sign = 1 if position.to_move == Player.RED else -1
    found = {}
    children = {move: position.play(move) for move in position.legal_moves()}
    going = [c for c in children.values() if not c.is_over]
    estimated = iter(trainer().estimates([str(c) for c in going]))
    for move, child in children.items():
        if child.is_over:
            scoring = child.scoring()
            red = scoring.red - scoring.black
        else:
            net, projection, _ = next(estimated)
            child_sign = 1 if child.to_move == Player.RED else -1
            red = rounded(net) * child_sign if which == 0 else projection
        found[move] = sign * red
    return found


def net_choices() -> list[tuple[str, int]]:
    """Positions of 7 of each colour where a one-ply choice by the network is one move,
    not one the projection would choose; with that move."""
    chosen = []
    for seed in range(40):
        position = Position.random(seed, per_colour=7)
        by_net = mover_values(position)
        best = max(by_net.values())
        projected = mover_values(position, which=1)
        move = max(by_net, key=lambda m: by_net[m])
        if list(by_net.values()).count(best) == 1 and projected[move] < max(projected.values()):
            chosen.append((str(position), move))
    assert len(chosen) >= 3
    return chosen


def test_a_limited_search_chooses_by_the_network() -> None:
    for seed in range(40):
        position = Position.random(seed, per_colour=7)
        by_net = mover_values(position)
        best = max(by_net.values())
        if list(by_net.values()).count(best) == 1:
            chosen = search(position, depth=1).best_move
            assert chosen is not None and by_net[chosen] == best
    for notation, move in net_choices():
        assert search(Position(notation), depth=1).best_move == move


@pytest.mark.parametrize("name", NAMES)
def test_the_engines_choose_by_the_network(name: str) -> None:
    engine = EngineProcess(command(name))
    try:
        engine.send("setoption name Level value 9")
        for notation, move in net_choices():
            engine.send(f"position fen {notation}")
            engine.send("go depth 1")
            assert engine.until("bestmove")[0] == f"bestmove {move}", notation
    finally:
        assert engine.close() == 0


def test_webassembly_chooses_by_the_network() -> None:
    from wasm_package import node_and_package

    node, package = node_and_package()
    cases = net_choices()
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


def test_the_c_library_chooses_by_the_network() -> None:
    cases = net_choices()
    with tempfile.TemporaryDirectory(prefix="search_") as folder:
        driver = compiled("search", Path(folder))
        given = "1 1 0 0\n" + "".join(f"{n}\n" for n, _ in cases)
        done = processes.run([str(driver)], input=given, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    found = [line.split() for line in done.stdout.splitlines()]
    assert [(int(w[0]), w[2], w[3]) for w in found] == [(m, "0", "1") for _, m in cases]
