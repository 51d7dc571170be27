"""The page's JSON is the core's, the same through both doors (issue 32): the server's
pages read ``_core.match_view`` and ``_core.battle_view``, the offline page the same
views of the WebAssembly build (``matchView``, ``battleView``). Whole matches of two
sizes, the view after every change, must be equal value for value; and the view says
what the rules say (spot checks against the library)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from buttonup import Match
from buttonup._core import battle_view, match_view, shown_battle
from buttonup.testing import processes

ROOT = Path(__file__).resolve().parent.parent
MATCHES = [
    {"seed": 1, "plies": 400, "perColour": 3},
    {"seed": 7, "plies": 400, "perColour": 3},
    {"seed": 3, "plies": 60, "perColour": 4},
]


def python_views() -> list[Any]:
    """What tests/js/view_parity.js prints, made by the Python door."""
    views: list[Any] = []
    for spec in MATCHES:
        game = Match(seed=spec["seed"], target=5, per_colour=spec["perColour"])
        views.append(match_view(game, battles=True, played=False))
        for _ in range(spec["plies"]):
            if game.is_over:
                break
            if game.chooser is not None:
                game.choose_starter("r")
                views.append(match_view(game, battles=True, played=False))
            else:
                game.play(game.legal_moves()[0])
                views.append(match_view(game, battles=True, played=True))
            views.append(battle_view(game, shown_battle(game)[0]))
    return views


def test_the_offline_page_gets_the_servers_views() -> None:
    from wasm_package import node_and_package

    node, pkg = node_and_package()
    with tempfile.TemporaryDirectory(prefix="view_parity_") as folder:
        file = Path(folder) / "matches.json"
        file.write_text(json.dumps(MATCHES), encoding="utf-8")
        done = processes.run(
            [node, str(ROOT / "tests" / "js" / "view_parity.js"), str(pkg), str(file)],
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert done.returncode == 0, done.stderr[-4000:]
    wasm = json.loads(done.stdout)
    python = python_views()
    assert len(wasm) == len(python) > 100
    for number, (theirs, ours) in enumerate(zip(wasm, python)):
        assert theirs == ours, number


def test_the_view_says_what_the_rules_say() -> None:
    game = Match(seed=7, target=5)
    while not game.battles:
        game.play(game.legal_moves()[0])
    view = match_view(game, played=True)
    last = game.battles[-1]
    scored = view["battles"][0]
    assert scored["moves"] == list(last.moves)
    assert scored["position"] == str(last.final_position)
    assert scored["scoring"]["points"] == last.scoring.points
    assert scored["tower"].startswith("<svg")
    assert view["played"]["battle"] == 1 and view["played"]["ended_battle"]
    assert view["played"]["move"] == last.moves[-1]
    assert view["scores"] == {"r": game.scores[0], "b": game.scores[1]}
    assert view["position"] == str(game.position)
    assert view["legal_moves"] == game.legal_moves()
    plies = battle_view(game, 1)
    assert plies is not None and [p["move"] for p in plies["plies"]] == list(last.moves)
    assert [p["position"] for p in plies["plies"]][-1] == str(last.final_position)
    assert battle_view(game, 9) is None
