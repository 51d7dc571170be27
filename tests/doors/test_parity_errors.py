"""One error behind every door: the scenarios of tests/data/parity_errors.json (bad
notation of several kinds, illegal moves, a move and a best move on a finished battle,
the scoring of a battle that goes on, bad records, refusals of a match's state, bad
deals) are driven through every door that offers their operation: the Python library,
the HTTP API (in process, route by route), the C library (tests/c/parity_errors.c,
compiled with ``cc``), WebAssembly through Node (tests/js/parity_errors.js) and both UGI
engines. Each door's answer becomes a transcript line, its error kind mapped back to the
core's kind name through docs/reliability.md's "Error kinds" table (a Python class, a
JavaScript ``name``, a C status, an HTTP status; a UGI engine answers every kind with
``info string error: MESSAGE``, so its line matches any kind), with the message; every
door must show each scenario's kind and message, the same for all.

A disagreement found and not yet fixed is listed in the scenario's ``known`` with why:
the test fails on any other disagreement, and on a listed door that agrees again (so
that the entry goes). The C and WebAssembly doors skip, naming why, where their tools
are missing, unless ``BUTTONUP_REQUIRE_NATIVE`` / ``BUTTONUP_REQUIRE_WASM`` is set (CI).
"""

from __future__ import annotations

import importlib.util
import json
import re
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NamedTuple

import processes
import pytest
from buttonup import Match, Position
from buttonup._core import Seats
from buttonup.ai import bot
from c_driver import compiled, need
from ugi_engines import command

ROOT = Path(__file__).resolve().parents[2]
DATA = json.loads((ROOT / "tests" / "data" / "parity_errors.json").read_text(encoding="utf-8"))
SCENARIOS: list[dict[str, Any]] = DATA["scenarios"]
BY_ID = {scenario["id"]: scenario for scenario in SCENARIOS}

Scenario = dict[str, Any]


class Line(NamedTuple):
    """One door's answer to one scenario: the kinds its error may be (one for a door
    that tells them apart; none for a call that succeeded) and its message."""

    kinds: frozenset[str]
    message: str


def ok(answer: object) -> Line:
    return Line(frozenset(), f"ok: {answer!r}")


# --- the docs' table: each door's representation of each kind --------------------------


def kind_table() -> list[list[str]]:
    """The rows of docs/reliability.md's "Error kinds" table, each cell stripped of its
    backquotes: kind, what, Python, JavaScript, C, HTTP."""
    text = (ROOT / "docs" / "reliability.md").read_text(encoding="utf-8")
    section = text.split("## Error kinds", 1)[1].split("\n## ", 1)[0]
    rows = [
        [cell.strip().replace("`", "") for cell in line.strip().strip("|").split("|")]
        for line in section.splitlines()
        if line.startswith("| `")
    ]
    assert len(rows) == 11, rows
    return rows


ROWS = kind_table()
ALL_KINDS = frozenset(row[0] for row in ROWS)
PYTHON_KIND = {row[2]: row[0] for row in ROWS}
JS_KIND = {row[3]: row[0] for row in ROWS}
JS_NAME = {row[0]: row[3] for row in ROWS}
C_KIND = {int(re.fullmatch(r"\w+ \((\d+)\)", row[4])[1]): row[0] for row in ROWS}  # type: ignore[index]
HTTP_KINDS = {
    int(status): frozenset(row[0] for row in ROWS if row[5] == status)
    for status in {row[5] for row in ROWS}
}


def python_line(error: BaseException) -> Line:
    return Line(frozenset({PYTHON_KIND.get(type(error).__name__, "?")}), str(error))


def js_line(answer: dict[str, Any]) -> Line:
    if "ok" in answer:
        return ok(answer["ok"])
    return Line(frozenset({JS_KIND.get(answer["name"], "?")}), answer["message"])


def c_line(status: int, message: str) -> Line:
    if status == 0:
        return ok(None)
    return Line(frozenset({C_KIND.get(status, "?")}), message)


def http_line(status: int, body: Any) -> Line:
    if status == 200:
        return ok(None)
    return Line(HTTP_KINDS.get(status, frozenset({f"HTTP {status}"})), body["error"])


#: A UGI engine names the move of the list that failed, then gives the core's words.
MOVE_PREFIX = re.compile(r"move \d+ \([^)]*\): ")


def ugi_line(lines: list[str]) -> Line:
    errors = [line for line in lines if line.startswith("info string error: ")]
    if not errors:
        return ok(lines)
    return Line(ALL_KINDS, MOVE_PREFIX.sub("", errors[0].removeprefix("info string error: "), 1))


# --- the doors ------------------------------------------------------------------------


def position_call(scenario: Scenario) -> Callable[[], object]:
    """The library's call of one scenario."""
    op = scenario["op"]
    calls: dict[str, Callable[[], object]] = {
        "position": lambda: Position(scenario["position"]),
        "play": lambda: Position(scenario["position"]).play(scenario["move"]),
        "scoring": lambda: Position(scenario["position"]).scoring(),
        "choose": lambda: bot(5, 0).choose(Position(scenario["position"])),
        "record": lambda: Match.from_record(scenario["record"]),
        "choose_starter": lambda: Match(seed=scenario["seed"]).choose_starter(scenario["starter"]),
        "undo": lambda: Match(seed=scenario["seed"]).undo(),
        "match_play": lambda: Match(seed=scenario["seed"]).play(scenario["move"]),
        "deal": lambda: Match(deals=scenario["deals"]),
        "seats": lambda: seats_call(scenario),
    }
    return calls[op]


def seats_call(scenario: Scenario) -> object:
    """A page's match (the core's ``Seats``): with ``ai_first``, the AI's side moves
    until the person is to move (any legal moves: the refusal does not depend on
    them), then ``action``: the person's move, the AI's turn, or undo."""
    game = Match(seed=scenario["seed"])
    seats = Seats(scenario["human"], scenario["players"])
    if scenario.get("ai_first"):
        while game.to_move is seats.ai:
            game.play(game.legal_moves()[0])
    action = scenario["action"]
    if action == "play":
        return seats.play(game, game.legal_moves()[0])
    if action == "ai":
        return seats.ai_turn(game)
    return seats.undo(game)


def python_door(scenarios: Iterable[Scenario]) -> dict[str, Line]:
    lines = {}
    for scenario in scenarios:
        try:
            lines[scenario["id"]] = ok(position_call(scenario)())
        except Exception as error:
            lines[scenario["id"]] = python_line(error)
    return lines


def http_door(route: str) -> Callable[[Iterable[Scenario]], dict[str, Line]]:
    """The door of one route (or, for ``/api/matches``, of the match routes)."""

    def door(scenarios: Iterable[Scenario]) -> dict[str, Line]:
        found = importlib.util.find_spec("fastapi") is not None
        need(found, "the web extra (fastapi) is not installed", "BUTTONUP_REQUIRE_WEB")
        from buttonup.web.app import create_app
        from fastapi.testclient import TestClient

        lines = {}
        with TestClient(create_app()) as client:
            for scenario in scenarios:
                answer = http_answer(client, route, scenario)
                lines[scenario["id"]] = http_line(answer.status_code, answer.json())
        return lines

    return door


def http_answer(client: Any, route: str, scenario: Scenario) -> Any:
    op = scenario["op"]
    if route == "/api/matches":
        if op == "record":
            return client.post("/api/matches/import", json={"record": scenario["record"]})
        settings = {"human": scenario.get("human", "r"), "players": scenario.get("players", 1)}
        made = client.post("/api/matches", json={**settings, "seed": scenario["seed"]})
        assert made.status_code == 200, made.text
        key = made.json()["id"]
        if op == "seats":
            return seats_answer(client, key, made.json(), scenario)
        if op == "choose_starter":
            return client.post(f"/api/matches/{key}/choose", json={"starter": scenario["starter"]})
        if op == "undo":
            return client.post(f"/api/matches/{key}/undo")
        return client.post(f"/api/matches/{key}/play", json={"move": scenario["move"]})
    body: dict[str, Any] = {"position": scenario["position"]}
    if route == "/api/play":
        body["move"] = scenario.get("move", 0)
    elif op == "play":
        body["moves"] = [scenario["move"]]
    return client.post(route, json=body)


def seats_answer(client: Any, key: str, state: dict[str, Any], scenario: Scenario) -> Any:
    """A seats scenario through the page's match routes (the AI's own moves first with
    ``ai_first``)."""
    if scenario.get("ai_first"):
        while state["to_move"] != scenario["human"]:
            state = client.post(f"/api/matches/{key}/ai").json()
    action = scenario["action"]
    if action == "play":
        return client.post(f"/api/matches/{key}/play", json={"move": state["legal_moves"][0]})
    return client.post(f"/api/matches/{key}/{'ai' if action == 'ai' else 'undo'}")


def c_door(scenarios: Iterable[Scenario]) -> dict[str, Line]:
    folder = tempfile.TemporaryDirectory(prefix="parity_errors_")
    driver = compiled("parity_errors", Path(folder.name))
    try:
        arguments = {
            "position": ("position",),
            "play": ("position", "move"),
            "scoring": ("position",),
            "choose": ("position",),
            "record": ("record",),
            "choose_starter": ("seed", "starter"),
            "undo": ("seed",),
            "match_play": ("seed", "move"),
        }
        given = "".join(
            " ".join(
                str(field).encode().hex()
                for field in (s["id"], s["op"], *(s[name] for name in arguments[s["op"]]))
            )
            + "\n"
            for s in scenarios
        )
        done = processes.run(
            [str(driver)], input=given, capture_output=True, text=True, timeout=120
        )
    finally:
        folder.cleanup()
    assert done.returncode == 0, done.stderr
    lines = {}
    for row in done.stdout.splitlines():
        scenario_id, status, message = row.split(" ")
        text = "" if message == "-" else bytes.fromhex(message).decode()
        lines[scenario_id] = c_line(int(status), text)
    return lines


def wasm_door(scenarios: Iterable[Scenario]) -> dict[str, Line]:
    from wasm_package import node_and_package

    node, pkg = node_and_package()
    folder = tempfile.TemporaryDirectory(prefix="parity_errors_")
    file = Path(folder.name) / "scenarios.json"
    file.write_text(json.dumps({"scenarios": list(scenarios)}), encoding="utf-8")
    try:
        driver = ROOT / "tests" / "js" / "parity_errors.js"
        done = processes.run(
            [node, str(driver), str(pkg), str(file)], capture_output=True, text=True, timeout=120
        )
    finally:
        folder.cleanup()
    assert done.returncode == 0, done.stderr[-4000:]
    return {answer["id"]: js_line(answer) for answer in json.loads(done.stdout)}


def ugi_door(name: str) -> Callable[[Iterable[Scenario]], dict[str, Line]]:
    def door(scenarios: Iterable[Scenario]) -> dict[str, Line]:
        scenarios = list(scenarios)
        given = ["ugi"]
        for scenario in scenarios:
            position = f"position fen {scenario['position']}"
            if scenario["op"] == "play":
                position += f" moves {scenario['move']}"
            given.append(position)
            if scenario["op"] == "bestmove":
                given.append("go")
            given.append("isready")
        given.append("quit")
        done = processes.run(
            command(name),
            input="\n".join(given) + "\n",
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr[-4000:]
        answered = done.stdout.split("ugiok\n", 1)[1].split("readyok\n")
        assert len(answered) == len(scenarios) + 1, done.stdout
        return {
            scenario["id"]: ugi_line(block.splitlines())
            for scenario, block in zip(scenarios, answered)
        }

    return door


#: Each door: the operations it offers, and how it answers a list of scenarios.
DOORS: dict[str, tuple[frozenset[str], Callable[[Iterable[Scenario]], dict[str, Line]]]] = {
    "python": (
        frozenset(
            {"position", "play", "scoring", "choose", "record"}
            | {"choose_starter", "undo", "match_play", "deal", "seats"}
        ),
        python_door,
    ),
    "http /api/board": (frozenset({"position", "play"}), http_door("/api/board")),
    "http /api/analyze": (frozenset({"position", "play"}), http_door("/api/analyze")),
    "http /api/bestmove": (frozenset({"position", "bestmove"}), http_door("/api/bestmove")),
    "http /api/play": (frozenset({"position", "play"}), http_door("/api/play")),
    "http /api/matches": (
        frozenset({"record", "choose_starter", "undo", "match_play", "seats"}),
        http_door("/api/matches"),
    ),
    "c": (
        frozenset(
            {"position", "play", "scoring", "choose", "record"}
            | {"choose_starter", "undo", "match_play"}
        ),
        c_door,
    ),
    "wasm": (
        frozenset(
            {"position", "play", "scoring", "bestmove", "choose", "record"}
            | {"choose_starter", "undo", "match_play", "deal", "seats"}
        ),
        wasm_door,
    ),
    "ugi-python": (frozenset({"position", "play", "bestmove"}), ugi_door("python")),
    "ugi-native": (frozenset({"position", "play", "bestmove"}), ugi_door("native")),
}


def expresses(door: str, scenario: Scenario) -> bool:
    """Whether ``door`` can be asked ``scenario`` (C's piles are unsigned)."""
    if scenario["op"] not in DOORS[door][0]:
        return False
    return not (door == "c" and scenario.get("move", 0) < 0)


def transcript(door: str) -> dict[str, Line]:
    return DOORS[door][1]([s for s in SCENARIOS if expresses(door, s)])


# --- the comparison -------------------------------------------------------------------


def disagreements(transcripts: dict[str, dict[str, Line]]) -> dict[tuple[str, str], str]:
    """Every (scenario, door) whose line is not the scenario's kind and message (or is
    missing), with what the door said."""
    found = {}
    for scenario in SCENARIOS:
        for door, lines in transcripts.items():
            if not expresses(door, scenario):
                continue
            line = lines.get(scenario["id"])
            if line is None:
                found[scenario["id"], door] = "no line"
            elif scenario["kind"] not in line.kinds or line.message != scenario["message"]:
                kinds = "|".join(sorted(line.kinds)) or "no error"
                found[scenario["id"], door] = f"{kinds}: {line.message}"
    return found


def known(door: str) -> set[str]:
    return {s["id"] for s in SCENARIOS if door in s.get("known", {})}


@pytest.fixture(scope="module")
def transcripts() -> dict[str, dict[str, Line]]:
    """The transcripts made so far, each door's once."""
    return {}


def door_transcript(transcripts: dict[str, dict[str, Line]], door: str) -> dict[str, Line]:
    if door not in transcripts:
        transcripts[door] = transcript(door)
    return transcripts[door]


def problems(door: str, lines: dict[str, Line]) -> list[str]:
    """What is wrong with one door's transcript: each scenario it disagrees on that is
    not known, and each known one it agrees on again."""
    found = disagreements({door: lines})
    wrong = [
        f"{scenario} through {where}: {said}"
        for (scenario, where), said in sorted(found.items())
        if scenario not in known(door)
    ]
    agreed_again = sorted(known(door) - {scenario for scenario, _ in found})
    wrong += [
        f"{scenario} through {door} agrees again: drop its 'known'" for scenario in agreed_again
    ]
    return wrong


@pytest.mark.parametrize("door", sorted(DOORS))
def test_every_door_shows_each_error_as_the_core_does(
    transcripts: dict[str, dict[str, Line]], door: str
) -> None:
    assert problems(door, door_transcript(transcripts, door)) == []


def test_each_kind_is_one_python_class_and_one_http_status_as_documented() -> None:
    from buttonup import errors

    assert [row[0] for row in ROWS] == [kind for kind, _ in errors.KINDS]
    assert [row[2] for row in ROWS] == [cls.__name__ for _, cls in errors.KINDS]
    assert len({cls for _, cls in errors.KINDS}) == len(errors.KINDS)
    for kind, cls in errors.KINDS:
        assert errors.kind_of(cls("x")) == kind
    pytest.importorskip("fastapi")
    from buttonup.web.app import HTTP_STATUS

    assert {row[0]: int(row[5]) for row in ROWS} == HTTP_STATUS


def test_the_scenarios_cover_every_door_and_kind_of_refusal() -> None:
    assert len(BY_ID) == len(SCENARIOS)
    ops = {s["op"] for s in SCENARIOS}
    assert ops == {
        "position",
        "play",
        "scoring",
        "bestmove",
        "choose",
        "record",
        "choose_starter",
        "undo",
        "match_play",
        "deal",
        "seats",
    }
    assert {s["kind"] for s in SCENARIOS} >= {
        "notation",
        "illegal_move",
        "battle_not_over",
        "match_state",
        "record",
        "invalid_argument",
    }
    for scenario in SCENARIOS:
        doors = [door for door in DOORS if expresses(door, scenario)]
        assert len(doors) >= 2, scenario["id"]
        assert set(scenario.get("known", {})) <= set(doors), scenario["id"]
        assert scenario["kind"] in ALL_KINDS
    for door in DOORS:  # every door is asked something
        assert any(expresses(door, s) for s in SCENARIOS), door


def test_the_library_answers_as_the_data_says() -> None:
    """The reference door, checked on its own (no tool needed): every scenario it can
    express, as written."""
    assert disagreements({"python": transcript("python")}) == {}


def test_a_door_that_changes_a_kind_or_a_message_is_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The suite fails when one door's error kind or message changes: one altered line
    of one door fails that door's test, which names exactly that scenario; a door whose
    mapping of a kind is wrong is reported on exactly the scenarios of that kind."""
    python = transcript("python")
    http = transcript("http /api/play")
    assert disagreements({"python": python, "http /api/play": http}) == {}

    # A message changed: the door's own test fails, naming the scenario and the door.
    altered = dict(http)
    altered["illegal-no-white"] = altered["illegal-no-white"]._replace(
        message="pile 1 (R) cannot be lifted"
    )
    assert set(disagreements({"python": python, "http /api/play": altered})) == {
        ("illegal-no-white", "http /api/play")
    }
    assert problems("http /api/play", http) == []
    assert problems("http /api/play", altered) == [
        "illegal-no-white through http /api/play: battle_not_over|illegal_move|"
        "invalid_argument|match_state|notation|record|wrong_type: pile 1 (R) cannot be lifted"
    ]

    # A C status changed: 3 (illegal_move) answered 5 (match_state), the same words.
    c_lines = {
        s["id"]: Line(frozenset({s["kind"]}), s["message"]) for s in SCENARIOS if expresses("c", s)
    }
    assert disagreements({"c": c_lines}) == {}
    c_lines["illegal-no-such-pile"] = c_line(5, BY_ID["illegal-no-such-pile"]["message"])
    assert set(disagreements({"python": python, "c": c_lines})) == {("illegal-no-such-pile", "c")}
    assert problems("c", c_lines) == [
        "illegal-no-such-pile through c: match_state: " + BY_ID["illegal-no-such-pile"]["message"]
    ]

    # A JavaScript error's name changed, read through the JS door's own mapping.
    wasm = {
        s["id"]: js_line({"name": JS_NAME[s["kind"]], "message": s["message"]})
        for s in SCENARIOS
        if expresses("wasm", s)
    }
    assert disagreements({"wasm": wasm}) == {}
    # ... where the known disagreements are gone, the test asks for their entries to go.
    assert problems("wasm", wasm) == [
        f"{scenario} through wasm agrees again: drop its 'known'"
        for scenario in sorted(known("wasm"))
    ]
    answer = {"name": "RangeError", "message": BY_ID["notation-non-ascii"]["message"]}
    wasm["notation-non-ascii"] = js_line(answer)
    assert disagreements({"wasm": wasm}) == {
        ("notation-non-ascii", "wasm"): f"invalid_argument: {answer['message']}"
    }

    # A door whose mapping of one class is wrong: Python's NotationError read as a record.
    monkeypatch.setitem(PYTHON_KIND, "NotationError", "record")
    notation = {s["id"] for s in SCENARIOS if s["kind"] == "notation"}
    assert set(disagreements({"python": transcript("python")})) == {
        (sid, "python") for sid in notation
    }


def test_a_ugi_line_is_read_back_to_the_core_words() -> None:
    line = ugi_line(["info string error: move 1 (9): there is no pile 9: x", "bestmove (none)"])
    assert line == Line(ALL_KINDS, "there is no pile 9: x")
    assert ugi_line(["readyok"]).kinds == frozenset()
