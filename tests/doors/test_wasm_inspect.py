"""What a Node user sees of the WebAssembly package's objects:
``console.log(position)`` shows the notation, not ``Position { __wbg_ptr: ... }``, and
``JSON.stringify`` gives a position's notation and a match's position, standing and
record (which reads back, in the Python library, to the same match)."""

from __future__ import annotations

import json
import os

from buttonup import Match
from processes import run
from wasm_package import node_and_package

SCRIPT = """
const e = require(process.env.BUTTONUP_WASM_PKG);
const position = new e.Position("W/R/B/W/B/R/R/W/B r");
const game = new e.Match({ seed: 5 });
game.play(game.legalMoves()[0]);
console.log(require("node:util").inspect(position));
console.log(require("node:util").inspect(game));
console.log(JSON.stringify({ position, game }));
"""


def test_positions_and_matches_inspect_and_serialise_readably() -> None:
    node, pkg = node_and_package()
    done = run(
        [node, "-e", SCRIPT],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "BUTTONUP_WASM_PKG": str(pkg.resolve())},
    )
    assert done.returncode == 0, done.stderr
    shown_position, shown_match, as_json = done.stdout.splitlines()
    assert shown_position == "Position <W/R/B/W/B/R/R/W/B r>"
    assert shown_match.startswith("Match <Red 0 - Black 0, first to 15: "), shown_match
    data = json.loads(as_json)
    assert data["position"] == "W/R/B/W/B/R/R/W/B r"
    game = Match.from_record(data["game"]["record"])
    assert str(game.position) == data["game"]["position"]
    assert data["game"]["standing"]["target"] == 15
    assert shown_match.endswith(f": {game.position}>"), shown_match
