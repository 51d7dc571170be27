"""The engine's promises: its parser takes exactly the limits its search
takes, every ``go`` gets exactly one ``bestmove`` (``bestmove (none)`` when it cannot
search), numbers are ASCII digits, and a closed output ends it quietly."""

from __future__ import annotations

import processes
import pytest
import ugi_engines
from buttonup import Position

START = "W/R/B/W/B/R/R/W/B r"


def session(engine: list[str], *commands: str) -> list[str]:
    """The answers of ``engine`` to ``commands`` (then ``quit``)."""
    done = processes.run(
        engine,
        input="\n".join([*commands, "isready", "quit", ""]),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout.splitlines()


@pytest.mark.parametrize(
    ("limit", "searched"),
    [
        ("depth 4294967295", True),
        ("nodes 9223372036854775807", True),
        ("movetime 9223372036854775807", True),
        ("p1time 9223372036854775807 p2time 1", True),
        ("depth 4294967296", False),
        ("depth 1000000000000", False),
        ("nodes 9223372036854775808", False),
        ("movetime 0", False),
    ],
)
def test_the_parser_takes_what_the_search_takes(
    ugi_command: list[str], limit: str, searched: bool
) -> None:
    lines = session(ugi_command, f"position fen {START}", f"go {limit}")
    bestmoves = [line for line in lines if line.startswith("bestmove")]
    assert len(bestmoves) == 1, lines
    errors = [line for line in lines if line.startswith("info string error")]
    if searched:
        assert errors == [] and int(bestmoves[0].split()[1]) in Position(START).legal_moves()
    else:
        assert bestmoves == ["bestmove (none)"] and len(errors) == 1, lines
        assert "must be from" in errors[0] and "search failed" not in errors[0]


def test_every_go_gets_exactly_one_bestmove(ugi_command: list[str]) -> None:
    # 6 of each colour: each exact `go` a few milliseconds (at 8, fifty exact analyses
    # took most of the minute on a loaded machine), the protocol the same.
    commands = [f"position fen {Position.random(seed=1, per_colour=6)!s}", "go infinite"]
    for i in range(100):
        commands += ["go", "go depth 3", "isready"] if i % 2 else ["go movetime 5", "stop"]
    commands += ["stop", "go depth 2"]
    lines = session(ugi_command, *commands)
    gos = sum(command.startswith("go") for command in commands)
    bestmoves = [line for line in lines if line.startswith("bestmove")]
    assert len(bestmoves) == gos, (len(bestmoves), gos)
    refused = [line for line in lines if "a search is already running" in line]
    assert bestmoves.count("bestmove (none)") == len(refused) > 0


@pytest.mark.parametrize(
    "command",
    [
        f"position fen {START} moves \u0663",
        f"position fen {START} moves 1_0",
        "setoption name Level value \uff15",
        "go depth \u0663",
    ],
)
def test_numbers_are_ascii_digits(ugi_command: list[str], command: str) -> None:
    lines = session(ugi_command, f"position fen {START}", command, "query p1turn")
    assert any("must be an integer, not" in line for line in lines), lines
    assert "response true" in lines  # the position was kept


def test_a_closed_output_ends_the_engine_quietly(ugi_command: list[str]) -> None:
    with ugi_engines.started(ugi_command) as engine:
        assert engine.stdin is not None and engine.stdout is not None
        engine.stdin.write(f"position fen {START}\ngo infinite\nisready\n")
        engine.stdin.flush()
        while engine.stdout.readline() != "readyok\n":
            pass
        engine.stdout.close()  # nobody reads any more
        engine.stdin.write("stop\n")  # its bestmove meets the closed pipe
        engine.stdin.flush()
        assert engine.wait(timeout=30) == 141
        assert engine.stderr is not None and engine.stderr.read() == ""
