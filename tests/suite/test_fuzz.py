"""The fuzz targets of fuzz/targets.py, briefly, through hypothesis. The long run:
``python fuzz/targets.py --minutes 10`` (docs/reliability.md)."""

from __future__ import annotations

from functools import cache
from types import ModuleType
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from source_scripts import load

NOTATION_ALPHABET = st.sampled_from("RBWrb/ \t\n\x00é\udc80X")
ENGINE_WORDS = st.sampled_from(
    [
        "go",
        "depth",
        "nodes",
        "movetime",
        "infinite",
        "stop",
        "position",
        "fen",
        "startpos",
        "moves",
        "setoption",
        "name",
        "value",
        "Level",
        "Hash",
        "Seed",
        "query",
        "gameover",
        "result",
        "p1turn",
        "isready",
        "uginewgame",
        "ugi",
        "-1",
        "0",
        "3",
        "99999999999999999999",
        "W/R/B/W/B/R/R/W/B",
        "r",
        "b",
        "RBWWBRWBR",
        "x",
        "\u00e9",
    ]
)


@settings(max_examples=500)
@given(st.one_of(st.text(), st.text(NOTATION_ALPHABET)))
def test_notation_parsers_agree_on_any_text(text: str) -> None:
    targets().check_notation(text)


@cache
def targets() -> ModuleType:
    return load("fuzz/targets.py")


@cache
def engine_target() -> Any:
    """One engine for every example (the target keeps it serving)."""
    return targets().EngineTarget()


@settings(max_examples=300)
@given(st.one_of(st.text(max_size=40), st.lists(ENGINE_WORDS, max_size=8).map(" ".join)))
def test_the_engine_answers_any_line(line: str) -> None:
    engine_target()(line)
