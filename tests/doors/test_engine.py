"""``buttonup engine`` driven as a subprocess, as a front end would."""

from __future__ import annotations

import shlex
import signal
import time
from collections.abc import Iterator

import processes
import pytest
import ugi_engines
from buttonup import RATINGS, Position, search, solve
from buttonup.ugi.referee import EngineProcess
from buttonup.ugi.referee import main as referee_main

START = "W/R/B/W/B/R/R/W/B r"


@pytest.fixture
def ugi(ugi_command: list[str]) -> Iterator[EngineProcess]:
    """Each UGI engine as a subprocess, spoken to in UGI."""
    process = EngineProcess(ugi_command)
    try:
        yield process
    finally:
        status = process.close()  # killed if quit does not end it within 10 s
    assert status == 0


def test_scripted_session(ugi: EngineProcess) -> None:
    ugi.send("ugi")
    _, lines = ugi.until("ugiok")
    assert lines[0].startswith("id name buttonup")
    assert any(line.startswith("option name Level type spin") for line in lines)
    assert any(line.startswith("option name Hash type spin") for line in lines)
    assert any(line.startswith("option name Seed type spin") for line in lines)
    ugi.send("isready")
    assert ugi.read() == "readyok"
    ugi.send(f"position fen {START}")
    ugi.send("go")
    bestmove, infos = ugi.until("bestmove")
    assert bestmove == "bestmove 3"
    last = infos[-1].split()
    assert last[:2] == ["info", "depth"] and "pv" in last
    assert last[last.index("score") + 2] == "100"  # cp: the margin +1 times 100
    assert last[last.index("pv") + 1 :] == ["3", "0", "0", "1", "3", "3", "2", "0"]
    ugi.send("query p1turn")
    assert ugi.read() == "response true"
    ugi.send(f"position fen {START} moves 3 0")
    ugi.send("query p1turn")
    assert ugi.read() == "response true"  # Black then Red: Red to move
    ugi.send("query gameover")
    assert ugi.read() == "response false"
    ugi.send("query result")
    assert ugi.read() == "response none"
    ugi.send(f"position fen {START} moves 3 0 0 1 3 3 2 0")
    ugi.send("query gameover")
    assert ugi.read() == "response true"
    ugi.send("query result")
    assert ugi.read() == "response p1win"
    ugi.send("go depth 3")
    assert ugi.until("bestmove")[0] == "bestmove (none)"


def test_limits_and_levels(ugi: EngineProcess) -> None:
    ugi.send("position startpos")
    ugi.send("go depth 2")
    bestmove, infos = ugi.until("bestmove")
    assert len(infos) == 2 and infos[-1].startswith("info depth 2")
    move = int(bestmove.split()[1])
    assert move in Position.random(seed=0).legal_moves()
    ugi.send("go nodes 5")
    assert ugi.until("bestmove")[0].startswith("bestmove ")
    ugi.send("go p1time 1000 p2time 1000 p1inc 10 p2inc 10")
    assert ugi.until("bestmove")[0].startswith("bestmove ")
    ugi.send("setoption name Level value 1")
    ugi.send("setoption name Seed value 42")
    ugi.send("position startpos")
    ugi.send("go movetime 10")
    bestmove, _ = ugi.until("bestmove")
    assert int(bestmove.split()[1]) in Position.random(seed=42).legal_moves()


def test_limit_strength_plays_at_the_elo_options_rating(ugi: EngineProcess) -> None:
    ugi.send("ugi")
    _, lines = ugi.until("ugiok")
    low, high = round(RATINGS[0]), round(RATINGS[-1])
    assert f"option name Elo type spin default {high} min {low} max {high}" in lines
    assert "option name LimitStrength type check default false" in lines
    # Level 1's rating is random moves; level 9's, perfect play (the Level option is
    # not what plays while LimitStrength is on).
    ugi.send("setoption name Level value 9")
    ugi.send("setoption name LimitStrength value true")
    ugi.send(f"setoption name Elo value {low}")
    ugi.send(f"position fen {START}")
    ugi.send("go depth 3")
    bestmove, infos = ugi.until("bestmove")
    assert f"info string Elo {low} plays a random move" in infos
    assert int(bestmove.split()[1]) in Position(START).legal_moves()
    ugi.send(f"setoption name Elo value {round(RATINGS[8])}")
    ugi.send("go")
    bestmove, infos = ugi.until("bestmove")
    assert bestmove == f"bestmove {search(Position(START)).best_move}"
    assert not any("random move" in line for line in infos)
    # Off again: the Level option plays (level 1: random moves).
    ugi.send("setoption name LimitStrength value false")
    ugi.send("setoption name Level value 1")
    ugi.send("go depth 3")
    _, infos = ugi.until("bestmove")
    assert "info string level 1 plays a random move" in infos


BAD_LINES = [
    ("frobnicate", "unknown command 'frobnicate'"),
    ("position fen W/X r", "unknown button 'X'"),
    ("position fen W/R", "missing side to move"),  # the notation's own words
    ("position fen", "expected 'position fen PILES SIDE'"),
    (f"position fen {START} moves 1", "move 1 (1): pile 1 (R) has no white button"),
    (f"position fen {START} moves 99", "there is no pile 99"),
    (f"position fen {START} moves x", "move 1 must be an integer"),
    (f"position fen {START} moves 3 99999999999999999999999", "must be from"),
    ("position sideways", "expected 'startpos' or 'fen'"),
    ("setoption name Level value 11", "Level must be from 1 to 10"),
    ("setoption name Level value many", "Level must be an integer"),
    ("setoption name Colour value 2", "unknown option 'Colour'"),
    ("setoption name LimitStrength value maybe", "LimitStrength must be true or false"),
    ("setoption name Elo value 999", "Elo must be from 1000 to"),
    ("setoption Level 3", "expected 'setoption name NAME value N'"),
    ("query", "expected 'query gameover'"),
    ("query weather", "unknown query 'weather'"),
    ("x" * 70000, "line longer than 65536 bytes ignored"),
]


def test_bad_input_gets_an_error_and_the_engine_keeps_serving(ugi: EngineProcess) -> None:
    for line, message in BAD_LINES:
        ugi.send(line)
        answer = ugi.read()
        assert answer.startswith("info string error: "), (line, answer)
        assert message in answer, (line, answer)
    # Binary garbage.
    assert ugi.process.stdin is not None
    ugi.process.stdin.buffer.write(b"\xff\xfe\x00\x01 garbage\n")  # type: ignore[attr-defined]
    ugi.process.stdin.flush()
    assert ugi.read() == "info string error: the line is not UTF-8 (byte 0xff at 0)"
    # go without a position, and with bad numbers: an error and one bestmove.
    ugi.send("go")
    assert "no position" in ugi.read()
    assert ugi.read() == "bestmove (none)"
    ugi.send(f"position fen {START}")
    ugi.send("go depth -3")
    assert "depth must be from 1" in ugi.read()
    assert ugi.read() == "bestmove (none)"
    ugi.send("go sideways")
    assert "unknown go parameter" in ugi.read()
    assert ugi.read() == "bestmove (none)"
    # Still serving.
    ugi.send("isready")
    assert ugi.read() == "readyok"
    ugi.send("go depth 1")
    assert ugi.until("bestmove")[0] in {"bestmove 0", "bestmove 3", "bestmove 7"}


def test_isready_and_stop_are_answered_during_an_infinite_search(ugi: EngineProcess) -> None:
    big = Position.random(seed=5, per_colour=7)
    ugi.send(f"position fen {big}")
    ugi.send("go infinite")
    ugi.until("info depth")
    # An infinite search never ends by itself: a readyok now came while it ran.
    ugi.send("isready")
    _, before = ugi.until("readyok", timeout=5)
    assert not any(line.startswith("bestmove") for line in before)
    # stop is answered (by the bestmove) before the isready sent after it.
    ugi.send("stop")
    ugi.send("isready")
    bestmove, before = ugi.until("bestmove", timeout=5)
    assert "readyok" not in before
    assert int(bestmove.split()[1]) in big.legal_moves()
    assert ugi.until("readyok", timeout=5)[1] == []


def test_commands_behind_a_long_search_wait_but_isready_and_stop_are_answered(
    ugi: EngineProcess,
) -> None:
    """CI, 2026-12-03: a `go` without limits on 10 a colour searches for hours; a
    `position` sent meanwhile waited for it on the reading thread, so the engine no
    longer read: `isready` and `stop` went unanswered."""
    big = Position.random(seed=4, per_colour=10)
    ugi.send(f"position fen {big}")
    ugi.send("go")
    ugi.until("info depth")
    ugi.send(f"position fen {START}")
    ugi.send("go depth 8")
    ugi.send("query p1turn")
    # The position, the go and the query wait for the search; isready does not.
    ugi.send("isready")
    _, before = ugi.until("readyok", timeout=5)
    assert not any(line.startswith(("bestmove", "response")) for line in before)
    # stop stops both searches, in order, and the lines before it are carried out (the
    # query after the second search's answer), all before the isready after it.
    ugi.send("stop")
    ugi.send("isready")
    _, lines = ugi.until("readyok", timeout=5)
    bestmoves = [line for line in lines if line.startswith("bestmove")]
    assert len(bestmoves) == 2, lines
    assert int(bestmoves[0].split()[1]) in big.legal_moves()
    assert int(bestmoves[1].split()[1]) in Position(START).legal_moves()
    assert "response true" in lines
    assert lines.index(bestmoves[1]) < lines.index("response true")


def test_quit_behind_a_search_waits_for_it_in_its_turn(ugi: EngineProcess) -> None:
    """`quit` is carried out in its turn, as a piped session's end: a finite search
    before it answers first."""
    ugi.send(f"position fen {Position.random(seed=5, per_colour=7)}")
    ugi.send("go depth 12")
    ugi.send("query gameover")
    ugi.send("quit")
    lines = ugi.until("response false", timeout=30)[1]
    assert any(line.startswith("bestmove") for line in lines)
    assert ugi.process.wait(timeout=10) == 0


def test_infinite_search_waits_for_stop_even_when_solved(ugi: EngineProcess) -> None:
    ugi.send(f"position fen {START}")
    ugi.send("go infinite")
    ugi.until("info depth 8")
    ugi.send("isready")
    assert ugi.read() == "readyok"  # no bestmove before stop
    ugi.send("stop")
    assert ugi.until("bestmove")[0] == "bestmove 3"


def test_quit_during_a_search_and_eof_end_cleanly(ugi_command: list[str]) -> None:
    process = EngineProcess(ugi_command)
    try:
        process.send(f"position fen {Position.random(seed=2, per_colour=7)}")
        process.send("go infinite")
        process.until("info depth")
        process.send("quit")
        assert process.process.wait(timeout=10) == 0
    finally:
        process.close()  # kills it if it is still running
    done = processes.run(ugi_command, input=b"isready\n", capture_output=True, timeout=10)
    assert done.returncode == 0 and done.stdout == b"readyok\n"


def test_two_engines_play_a_battle_through_the_referee(
    capsys: pytest.CaptureFixture[str], ugi_command: list[str]
) -> None:
    engine = shlex.join(ugi_command)
    arguments = ["--seed", "7", "--movetime", "20", "--red", engine, "--black", engine]
    assert referee_main(arguments) == 0
    out = capsys.readouterr().out.splitlines()
    start = Position(out[0].removeprefix("start "))
    moves = [int(m) for m in out[1].removeprefix("moves ").split()]
    final = start
    for move in moves:
        final = final.play(move)
    assert final.is_over and len(moves) == 8
    red, black = final.sums()
    assert out[2] == f"final {final} red {red} black {black}"
    expected = "p1win" if red > black else "p2win" if black > red else "draw"
    assert out[3] == f"engine says response {expected}"
    # Both engines played perfectly: the result is the start's value.
    value = solve(start)
    assert (red - black) * (1 if start.to_move.letter == "r" else -1) == value


BIG_30 = "R/R/R/B/B/R/B/R/W/R/B/B/B/W/R/W/R/W/W/R/W/R/B/W/B/W/B/W/W/B r"


def test_every_level_keeps_the_go_limits_on_a_big_position(ugi_command: list[str]) -> None:
    # Levels 1 to 9 used an unlimited analysis: `movetime` was ignored and `stop`,
    # `isready` and `quit` waited for it (the command below timed out).
    script = (
        f"setoption name Level value 9\nposition fen {BIG_30}\ngo movetime 100\n"
        "isready\nstop\nisready\nquit\n"
    )
    started = time.perf_counter()
    done = processes.run(ugi_command, input=script.encode(), capture_output=True, timeout=20)
    assert time.perf_counter() - started < 10
    lines = done.stdout.decode().splitlines()
    assert lines.count("readyok") == 2 and sum(x.startswith("bestmove ") for x in lines) == 1
    move = int(next(x for x in lines if x.startswith("bestmove ")).split()[1])
    assert move in Position(BIG_30).legal_moves()


@pytest.mark.parametrize("level", [2, 5, 9, 10])
def test_movetime_holds_at_every_level(ugi: EngineProcess, level: int) -> None:
    big = Position.random(seed=3, per_colour=7)  # 21 buttons: far from solved in 0.4 s
    ugi.send(f"setoption name Level value {level}")
    ugi.send("setoption name Seed value 1")
    for _ in range(2):
        ugi.send(f"position fen {big}")
        ugi.send("isready")
        ugi.until("readyok")
        sent = time.perf_counter()
        ugi.send("go movetime 400")
        bestmove, _ = ugi.until("bestmove", timeout=30)
        # 0.4 s asked; a few seconds of slack for a loaded machine, still well under a
        # search that ignores the limit or spends it once per move (3.6 s: it took 928 ms
        # at level 9 with 50 ms asked).
        assert time.perf_counter() - sent < 0.4 + 2.5
        assert int(bestmove.split()[1]) in big.legal_moves()


def test_a_hash_too_large_for_the_machine_keeps_the_old_table(ugi_command: list[str]) -> None:
    script = "setoption name Hash value 4096\nisready\nposition fen " + START + "\ngo\nquit\n"
    started = time.perf_counter()
    done = processes.run(
        ["bash", "-c", 'ulimit -v 3000000; exec "$0" "$@"', *ugi_command],
        input=script.encode(),
        capture_output=True,
        timeout=30,
    )
    lines = done.stdout.decode().splitlines()
    assert done.returncode == 0
    assert lines[0] == (
        "info string error: cannot allocate a transposition table of 4096 MiB; "
        "the table of 16 MiB is kept"
    )
    assert lines[1] == "readyok" and lines[-1].split()[0] == "bestmove"
    assert time.perf_counter() - started < 10


def test_ctrl_c_ends_the_engine_with_130_and_one_line(ugi_command: list[str]) -> None:
    with ugi_engines.started(ugi_command) as process:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(f"position fen {Position.random(seed=2, per_colour=8)}\ngo infinite\n")
        process.stdin.flush()
        while not process.stdout.readline().startswith("info depth "):
            pass
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=10) == 130
        assert process.stderr is not None
        lines = process.stderr.read().strip().splitlines()
    assert len(lines) == 1 and lines[0].endswith("interrupted"), lines


def test_threads_option_searches_on_two_threads_with_the_same_exact_answer(
    ugi: EngineProcess,
) -> None:
    ugi.send("ugi")
    _, lines = ugi.until("ugiok")
    assert "option name Threads type spin default 1 min 1 max 256" in lines
    ugi.send("setoption name Threads value 0")
    assert ugi.read().startswith("info string error: Threads must be")
    ugi.send("setoption name Threads value 2")
    big = Position.random(seed=5, per_colour=6)  # 18 piles: exact within the time
    exact = search(big)
    for go in ("go movetime 60000", "go"):
        ugi.send(f"position fen {big}")
        ugi.send(go)
        bestmove, _ = ugi.until("bestmove", timeout=120)
        assert int(bestmove.split()[1]) == exact.best_move, go
