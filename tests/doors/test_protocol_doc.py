"""The sample session of docs/protocol.md, piped at once (as a script or a front end
that writes ahead would) to both UGI engines: each answers what the doc shows, in its
order (``nodes``, ``nps`` and ``time`` vary, and the native engine's ``id name`` is its
own)."""

from __future__ import annotations

import re
from pathlib import Path

import processes
import pytest
import ugi_engines

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
VARYING = re.compile(r" (nodes|nps|time) \d+")


def sample_session() -> tuple[list[str], list[str]]:
    """The doc's sample session: the lines sent and the lines answered."""
    text = DOC.read_text()
    block = text.split("## A sample session", 1)[1].split("```", 2)[1]
    sent, answered = [], []
    for line in block.strip("\n").splitlines():
        if line.startswith("> "):
            sent.append(line[2:])
        elif line:
            answered.append(line)
    return sent, answered


def comparable(line: str, engine: list[str]) -> str:
    line = VARYING.sub(r" \1 N", line)
    if line.startswith("id name") and "buttonup-engine" in " ".join(engine):
        line = line.replace("id name buttonup ", "id name buttonup-engine ")
    return line


def test_the_sample_session_is_read_from_the_doc() -> None:
    sent, answered = sample_session()
    assert sent[0] == "ugi" and sent[-1] == "quit" and "go" in sent
    assert "bestmove 3" in answered and answered[-1].startswith("info string error")


@pytest.mark.parametrize("without_quit", [False, True], ids=["quit", "end of input"])
def test_a_piped_session_answers_as_the_doc(ugi_command: list[str], without_quit: bool) -> None:
    sent, answered = sample_session()
    if without_quit:
        sent = sent[:-1]  # the end of input ends it as quit does, after every answer
    with ugi_engines.started(ugi_command) as process:
        out, err = process.communicate("".join(line + "\n" for line in sent), timeout=60)
    assert process.returncode == 0, err
    got = [comparable(line, ugi_command) for line in out.splitlines()]
    assert got == [comparable(line, ugi_command) for line in answered]


def test_a_piped_go_finishes_before_the_next_position(ugi_command: list[str]) -> None:
    """`go depth 8` then end of input answers at depth 8 (it once answered a depth-1 move)."""
    lines = "position fen W/R/B/W/B/R/R/W/B r\ngo depth 8\nposition fen W/R/B b\ngo\n"
    result = processes.run(ugi_command, input=lines, capture_output=True, text=True, timeout=60)
    bestmoves = [line for line in result.stdout.splitlines() if line.startswith("bestmove")]
    assert bestmoves == ["bestmove 3", "bestmove 0"], result.stdout
    assert "error" not in result.stdout
