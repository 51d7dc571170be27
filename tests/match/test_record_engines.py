"""Both engines read and write match records alike: the same text for the same match,
the same match from the same text, and the same fault, worded the same, for a bad one."""

from __future__ import annotations

import buttonup
import pytest
from buttonup import RecordError
from buttonup import reference as ref
from hypothesis import given
from hypothesis import strategies as st
from test_record import PERFECT, act, matches

BAD = [
    "",
    '[Red "Ann"]\n\n',
    "1. WRBWBRRWB",
    "1. WRBWBRRWB r 3 0 0 1",
    "1. WRBWBRRWB r 3\n 0+",
    "1. WRBWBRRWB r 1",
    "1. WRBWBRRWB r 30",
    "1. WRBWBRRWB r 3 99999999999999999999999",
    "1. WRBWBRRWB r 3 0 0+ 1+ 3 3 2+ 0 RBWWBRWBR R+2",
    "1. WRBWBRRWB r 3 0 0+ 1+ 3 3 2+ 0 RBWWBRWBR R+1 0-1",
    "1. WRBWBRRWB r 3 0 0+ 1+ 3 3 2+ 0 RBWWBRWBB R+1",
    "1. WRBWBRRWB r 3 0 0+ 1+ 3 3 2+ 0 1",
    "1. WRBWBRRWB r 3 0 0+ 1+ 3 3 2+ 0",
    "1. WRBWBRRWB r 3 0 R+1",
    "1. WRBWBRRWB r 3\n2. WRBWBRRWB b",
    "1. WRBWBRRWB r 3 0 0+ 1+ 3 3 2+ 0 R+1\n2. WRBWBRRWB r",
    '[Target "1"]\n1. WRBWBRRWB r 3 0 0+ 1+ 3 3 2+ 0 R+1\n2. WRBWBRRWB b',
    "1. WRBWBRRWB r 3 0 0+ 1+ 3 3 2+ 0 R+1\n3. WRBWBRRWB b",
    "1. WRBWBRRWX r",
    "1. WRBWBRRW r",
    '[Result "Red"]\n1. WRBWBRRWB r',
    '[Score "1-0"]\n1. WRBWBRRWB r',
    '[Red "Ann"]\n[Red "Bob"]\n1. WRBWBRRWB r',
    '[Target "0"]\n1. WRBWBRRWB r',
    '[Target "+9999999999999999999"]\n1. WRBWBRRWB r',
    '[PerColour "11"]\n1. WRBWBRRWB r',
    '[Target "99999999999999999999"]\n1. WRBWBRRWB r',
    '[PerColour "x"]\n1. WRBWBRRWB r',
    "1. WRBWBRRWB r 3\x1c0",
    "1. WRBWBRRWB\x1fr 3",
    '[Deals "WRBWBRRWB\x1eWRBWBRRWB"]\n1. WRBWBRRWB r',
    '[Seed "-1"]\n1. WRBWBRRWB r',
    '[Deals "WRB"]\n1. WRBWBRRWB r',
    "[Red Ann]\n1. WRBWBRRWB r",
    "[Red]\n1. WRBWBRRWB r",
    '[red "x"]\n1. WRBWBRRWB r',
    '[Red "a\\x"]\n1. WRBWBRRWB r',
    "1. WRBWBRRWB r (+1)",
    "1. WRBWBRRWB r 3 {open",
    "1. WRBWBRRWB r 3 {a {b}",
    "1. WRBWBRRWB r 3 (1e999)",
    "1. WRBWBRRWB r 3 (2x)",
    "1. WRBWBRRWB r 3 R+0",
    "1. WRBWBRRWB r r",
    "1. WRBWBRRWB r 3 0 0+ 1+ 3 3 2+ 0 R+1 1-0 1-0",
    "1. WRBWBRRWB r 3 0 0+ 1+ 3 3 2+ 0 R+1 1-0 3",
    "3 1. WRBWBRRWB r",
    "1. r",
    "1. WRBWBRRWB r 3 0 0+ 1+ 3 3 2+ 0 1-0",
]


def message(engine: object, text: str) -> str:
    with pytest.raises(RecordError) as raised:
        engine.Match.from_record(text)  # type: ignore[attr-defined]
    return str(raised.value)


@pytest.mark.parametrize("text", BAD)
def test_a_bad_record_is_the_same_fault_on_both_engines(text: str) -> None:
    assert message(buttonup, text) == message(ref, text)


def test_a_count_that_is_no_number_is_named_as_written() -> None:
    # The message names what the record says (it once said "not -1").
    for engine in (buttonup, ref):
        text = '[Target "99999999999999999999"]\n1. WRBWBRRWB r'
        assert "must be from 1 to 1000, not 99999999999999999999" in message(engine, text)
        assert "must be from 1 to 10, not x " in message(engine, '[PerColour "x"]\n\n')


@pytest.mark.parametrize("separator", ["\x1c", "\x1d", "\x1e", "\x1f"])
def test_information_separators_are_characters_on_both_engines(separator: str) -> None:
    # Python's str.split takes U+001C-U+001F for whitespace, Rust's split_whitespace does
    # not: the reference reads as the core does, so one token here, a fault on both.
    text = f"1. WRBWBRRWB r 3{separator}0"
    assert message(buttonup, text) == message(ref, text)
    assert f"'3{separator}0'" in message(buttonup, text)


def outcome(engine: object, text: str) -> str:
    """The record written back, or the fault's message."""
    try:
        game = engine.Match.from_record(text)  # type: ignore[attr-defined]
    except RecordError as error:
        return f"fault: {error}"
    return game.record(Seed=None) + str(game.position)


@given(
    st.integers(0, len(PERFECT)),
    st.integers(0, 4),
    st.text('RBWrb0123456789+-=(){}[]" .\n\x1c\x1f\xa0', max_size=4),
)
def test_a_damaged_record_reads_alike_on_both_engines(at: int, cut: int, insert: str) -> None:
    text = PERFECT[:at] + insert + PERFECT[at + cut :]
    assert outcome(buttonup, text) == outcome(ref, text)


@given(matches(), st.lists(st.integers(0, 1000), max_size=20))
def test_both_engines_write_the_same_record_and_read_it_back(
    drawn: tuple[buttonup.Match, dict[str, object]], more: list[int]
) -> None:
    game, _ = drawn
    text = game.record(Event="both")
    twin = ref.Match.from_record(text)
    assert twin.record(Event="both") == text
    for choice in more:  # the same seed and deals to come: the same future
        if game.is_over:
            break
        act(game, choice)
        act(twin, choice)
        assert str(twin.position) == str(game.position)
