"""The commands as a person meets them: help and version, Ctrl-C, closed pipes, the
terminal game's undo and board, and the referee's errors and series."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from buttonup import __version__
from buttonup.cli.main import main
from buttonup.ugi.referee import main as referee_main
from processes import run, started

BUTTONUP = [sys.executable, "-m", "buttonup"]


def interrupted(args: list[str]) -> tuple[subprocess.Popen[str], str, str]:
    """`buttonup ARGS` sent Ctrl-C (SIGINT) after 1.5 s: the process, its output and
    its errors once it has ended."""
    with started(
        [*BUTTONUP, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        time.sleep(1.5)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    return process, out, err


def test_version_and_bare_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"buttonup {__version__}\n"
    assert main([]) == 0
    assert "usage: buttonup" in capsys.readouterr().out


@pytest.mark.parametrize(
    "args",
    [
        ["tournament", "--bots", "9,10", "--matches", "100000"],
        ["engine"],
        ["solve-all", "--per-colour", "5"],  # minutes, even in a release build
        ["analyze", "R/R/R/R/R/R/R/R/R/R/B/B/B/B/B/B/B/B/B/B/W/W/W/W/W/W/W/W/W/W r"],
    ],
)
def test_ctrl_c_ends_a_command_with_one_line(args: list[str]) -> None:
    process, _, err = interrupted(args)
    assert process.returncode == 130
    assert err.strip() == "buttonup: interrupted"


def test_ctrl_c_at_the_prompt_ends_the_game_as_every_command() -> None:
    # As the README promises for every command: status 130 and one line (Ctrl-C is
    # not 'quit', which says goodbye and ends with 0).
    process, out, err = interrupted(["play", "--seed", "1", "--no-color"])
    assert process.returncode == 130
    assert err.strip() == "buttonup: interrupted"
    assert out.endswith("Red to move> ")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["serve", "--port", "70000"], "cannot listen on 127.0.0.1:70000: a port is a number"),
        (["serve", "--port", "-1"], "a port is a number from 0 to 65535"),
        (["serve", "--expire-days", "-1"], "expire_days must be above 0"),
        (["serve", "--expire-days", "0"], "expire_days must be above 0"),
        (["serve", "--expire-days", "nan"], "expire_days must be above 0"),
        (["export-site", "{file}/sub"], "/file/sub/static/wasm: Not a directory"),
    ],
)
def test_bad_arguments_are_one_line_and_status_2(
    args: list[str], says: str, tmp_path: Path
) -> None:
    # A traceback and status 1 (OverflowError, NotADirectoryError), or, for
    # --expire-days, every unfinished online match deleted at start.
    pytest.importorskip("fastapi")
    file = tmp_path / "file"
    file.write_text("")
    args = [arg.replace("{file}", str(file)) for arg in args]
    done = run([*BUTTONUP, *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("buttonup: error: ")
    assert says in done.stderr, done.stderr


def test_a_closed_pipe_ends_quietly() -> None:
    done = run(
        ["bash", "-c", f"'{sys.executable}' -m buttonup solve-all | head -n 1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr == ""
    assert "Perfect-play value" in done.stdout


def test_undo_redraws_the_board_and_board_draws_it() -> None:
    done = run(
        [*BUTTONUP, "play", "--seed", "1", "--no-color"],
        input="1\nundo\nboard\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    out = done.stdout
    after_undo = out.split("Took back your last move")[1]
    # The board after the undo is the start again (nine piles), drawn twice (undo, board).
    assert after_undo.count("8:") == 2 and after_undo.count("Score: Red 0") == 2


def test_referee_reports_a_missing_or_silent_engine(capsys: pytest.CaptureFixture[str]) -> None:
    assert referee_main(["--red", "no-such-engine-here"]) == 1
    assert capsys.readouterr().err == (
        "referee: error: cannot start 'no-such-engine-here': No such file or directory\n"
    )
    assert referee_main(["--black", "true"]) == 1  # exits at once
    err = capsys.readouterr().err
    assert err.startswith("referee: error: 'true' ") and err.count("\n") == 1
    assert "closed its output" in err or "stopped reading its input" in err


def test_referee_plays_a_series_with_colours_swapped(capsys: pytest.CaptureFixture[str]) -> None:
    engine = f"{sys.executable} -m buttonup engine"
    assert (
        referee_main(["--red", engine, "--black", engine, "--battles", "2", "--movetime", "5"]) == 0
    )
    out = capsys.readouterr().out
    assert "battle 1: A plays Red, B plays Black" in out
    assert "battle 2: B plays Red, A plays Black" in out
    table = out.split("engine    wins")[1].splitlines()[1:3]
    # Perfect engines on the same start with colours swapped: equal results.
    a, b = (line.split() for line in table)
    assert a[1:5] == b[1:5] and sum(map(int, a[1:4])) == 2
