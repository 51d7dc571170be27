"""The fuzz targets of ``buttonup.cli.fuzz``, briefly, through hypothesis. The long
run: ``python -m buttonup.cli.fuzz --minutes 10`` (docs/reliability.md)."""

from __future__ import annotations

from buttonup.cli.fuzz import EngineTarget, check_notation
from hypothesis import given, settings
from hypothesis import strategies as st

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
    check_notation(text)


TARGET = EngineTarget()


@settings(max_examples=300)
@given(st.one_of(st.text(max_size=40), st.lists(ENGINE_WORDS, max_size=8).map(" ".join)))
def test_the_engine_answers_any_line(line: str) -> None:
    TARGET(line)
