"""The page's JSON is the core's, the same through both doors: the server's
pages read ``_core.match_view`` and ``_core.battle_view``, the offline page the same
views of the WebAssembly build (``matchView``, ``battleView``). Whole matches of two
sizes, the view after every change, must be equal value for value; and the view says
what the rules say (spot checks against the library). So must the page's analysis
(``_core.Chart``, ``hint_view``, ``analysis_view``, ``review_view`` and the WebAssembly
``Chart``, ``hintView``, ``analysisView``, ``reviewView``), and its values be the
library's exact ones."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import processes
import pytest
from buttonup import Match, analyze, match_analyze, win_probability
from buttonup._core import (
    Bot,
    Chart,
    Session,
    analysis_view,
    battle_view,
    hint_view,
    match_view,
    review_view,
    shown_battle,
)

ROOT = Path(__file__).resolve().parents[2]
MATCHES = [
    {"seed": 1, "plies": 400, "perColour": 3},
    {"seed": 7, "plies": 400, "perColour": 3},
    {"seed": 3, "plies": 60, "perColour": 4},
]


def changes(game: Match, plies: int) -> Iterator[bool]:
    """Plays up to ``plies`` changes of ``game`` as the scripts of tests/js do (the first
    legal move, the tie rule's choice Red); after each, whether it was a move."""
    for _ in range(plies):
        if game.is_over:
            return
        if game.chooser is not None:
            game.choose_starter("r")
            yield False
        else:
            game.play(game.legal_moves()[0])
            yield True


def python_views() -> list[Any]:
    """What tests/js/view_parity.js prints, made by the Python door."""
    views: list[Any] = []
    for spec in MATCHES:
        game = Match(seed=spec["seed"], target=5, per_colour=spec["perColour"])
        views.append(match_view(game, battles=True, played=False))
        for moved in changes(game, spec["plies"]):
            views.append(match_view(game, battles=True, played=moved))
            views.append(battle_view(game, shown_battle(game)[0]))
    return views


def wasm_door(script: str, matches: list[dict[str, int]]) -> list[Any]:
    """What ``tests/js/SCRIPT`` prints for ``matches`` (the WebAssembly door, in Node)."""
    from wasm_package import node_and_package

    node, pkg = node_and_package()
    with tempfile.TemporaryDirectory(prefix="view_parity_") as folder:
        file = Path(folder) / "matches.json"
        file.write_text(json.dumps(matches), encoding="utf-8")
        done = processes.run(
            [node, str(ROOT / "tests" / "js" / script), str(pkg), str(file)],
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert done.returncode == 0, done.stderr[-4000:]
    out: list[Any] = json.loads(done.stdout)
    return out


def assert_the_doors_agree(
    script: str,
    matches: list[dict[str, int]],
    python: Callable[[], list[Any]],
    more_than: int,
    compared: Callable[[Any], Any] = lambda value: value,
) -> None:
    """What ``tests/js/SCRIPT`` prints for ``matches`` and what ``python`` makes: more
    than ``more_than`` values, equal one by one once ``compared``."""
    wasm = wasm_door(script, matches)
    ours = python()
    assert len(wasm) == len(ours) > more_than
    for number, (theirs, mine) in enumerate(zip(wasm, ours)):
        assert compared(theirs) == compared(mine), number


def test_the_offline_page_gets_the_servers_views() -> None:
    assert_the_doors_agree("view_parity.js", MATCHES, python_views, 100)


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


ANALYSED = [
    {"seed": 2, "plies": 90, "perColour": 3, "every": 7},
    {"seed": 5, "plies": 30, "perColour": 2, "every": 3},
]
LIMIT = 30.0  # never reached: every position here is solved at once

# Lines of equal value may differ with what a searcher's table held before (the
# server's thread searchers are warm, the page's fresh): values must not.
LINES = ("pv", "best_line")


def without_lines(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: without_lines(v) for k, v in value.items() if k not in LINES}
    if isinstance(value, list):
        return [without_lines(v) for v in value]
    return value


def python_analysis() -> list[Any]:
    """What tests/js/analysis_parity.js prints, made by the Python door."""
    out: list[Any] = []
    for spec in ANALYSED:
        game = Match(seed=spec["seed"], target=5, per_colour=spec["perColour"])
        chart = Chart()
        chart.note(game, LIMIT)
        for ply, _ in enumerate(changes(game, spec["plies"])):
            chart.note(game, LIMIT)
            if ply % spec["every"] == 0:
                out.append(hint_view(game, game.to_move, LIMIT))
                out.append(analysis_view(game.position, LIMIT))
        shown = shown_battle(game)[0]
        for number in range(1, shown + 1):
            out.append(chart.points(game, number))
            found = shown_battle(game, number)[1]
            assert found is not None
            start, moves = found
            out.append(review_view(start, moves, LIMIT, LIMIT))
        out.append(chart.points(game, shown + 1))
        imported = Chart()
        imported.backfill(game, LIMIT)
        out.extend(imported.points(game, number) for number in range(1, shown + 1))
    return out


def test_the_offline_page_gets_the_servers_analysis() -> None:
    assert_the_doors_agree("analysis_parity.js", ANALYSED, python_analysis, 20, without_lines)


def test_the_analysis_is_the_librarys() -> None:
    """The hint's values are the library's exact ``analyze``, its chances the library's
    ``win_probability`` and ``match_analyze``; the chart's points the margins and
    chances of the positions it passed; the review's losses the differences of exact
    values."""
    game = Match(seed=11, target=5)
    chart = Chart()
    chart.note(game, LIMIT)
    seen = [(game.position, win_probability(game))]
    for _ in range(4):
        game.play(game.legal_moves()[-1])
        chart.note(game, LIMIT)
        seen.append((game.position, win_probability(game)))
    side = game.to_move
    hint = hint_view(game, side, LIMIT)
    values = analyze(game.position)
    assert hint["moves"] == {str(move): value for move, value in values.items()}
    assert hint["value"] == max(values.values()) and hint["exact"]
    assert hint["pv"][0] in [m for m, v in values.items() if v == max(values.values())]
    assert hint["position"] == str(game.position)
    # The best of the moves' chances for the side to move (the same value, the
    # standing's for a Black mover one subtraction from 1 away).
    assert hint["match_win_probability"] == pytest.approx(win_probability(game).of(side))
    assert hint["match_odds"] == {str(m): c for m, c in match_analyze(game).items()}
    assert hint["extra_moves"] == {
        str(m): game.position.outcome(m).extra_move for m in game.legal_moves()
    }
    assert analysis_view(game.position, LIMIT) == {
        k: hint[k] for k in ("value", "moves", "pv", "exact", "extra_moves")
    }
    points = chart.points(game, 1)
    assert points is not None and len(points) == len(seen)
    for point, (position, chances) in zip(points, seen):
        assert point is not None
        best = max(analyze(position).values())
        mover, other = position.to_move.letter, position.to_move.other.letter
        assert point["margin"] == {mover: best, other: -best}
        assert point["chance"] == {"r": chances.red, "b": chances.black}
    assert chart.points(game, 2) is None
    with pytest.raises(TypeError, match="side must be a Player"):
        hint_view(game, None, LIMIT)  # type: ignore[arg-type]
    found = shown_battle(game, 1)[1]
    assert found is not None
    start, moves = found
    judged = review_view(start, moves, LIMIT, LIMIT)
    position = start
    for ply, move in zip(judged, moves):
        exact = analyze(position)
        assert ply["move"] == move and ply["best_value"] == max(exact.values())
        assert ply["played_value"] == exact[move]
        assert ply["loss"] == ply["best_value"] - ply["played_value"]
        assert ply["mistake"] == (ply["loss"] != 0)
        assert ply["best_moves"] == sorted(m for m, v in exact.items() if v == max(exact.values()))
        position = position.play(move)


SESSIONS = [
    {"seed": 4, "plies": 80, "perColour": 3, "players": 1},
    {"seed": 6, "plies": 40, "perColour": 2, "players": 2},
]


def python_sessions() -> list[Any]:
    """What tests/js/session_parity.js prints, made by the server's door."""
    out: list[Any] = []
    for spec in SESSIONS:
        game = Match(seed=spec["seed"], target=5, per_colour=spec["perColour"])
        session = Session(game, "r", players=spec["players"], cap=LIMIT)
        ai = Bot(9, 1)
        session.note()
        out.append(session.view(battles=True, played=False))
        for _ in range(spec["plies"]):
            if session.match.is_over:
                break
            played = True
            try:
                session.ai_turn()
            except ValueError:  # two people, or the person's turn
                if session.match.chooser is not None:
                    session.choose("r")
                    played = False
                else:
                    session.play(session.match.legal_moves()[0])
            else:
                played = session.ai_move(ai)[0] == "move"
            session.note()
            out.append(session.view(battles=True, played=played))
            shown = session.view(battles=False)["battle"]["number"]
            out.append(session.battle_view(shown))
            if session.battle(shown)[1]:
                out.append(session.ply_view(shown, 1))
        out.append(session.hint())
        out.append(session.review(1))
        out.append(session.record("buttonup level 9", "parity", "2026.12.06"))
    return out


def test_the_offline_page_keeps_its_matches_as_the_server_does() -> None:
    """Both doors keep a page's match as the core's session: the same turns, views,
    chart, hint, review and record."""
    assert_the_doors_agree("session_parity.js", SESSIONS, python_sessions, 60, without_lines)
