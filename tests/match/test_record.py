"""Match records (docs/notation.md, "Match records") through Python: round trips of
random matches (variants, undo, the tie rule's choice) with hypothesis, records written
by hand, the faults named, and the reference engine replaying what the core read."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import buttonup
import pytest
from buttonup import Match, RecordError
from buttonup import reference as ref
from hypothesis import given
from hypothesis import strategies as st


def state(game: Any) -> tuple[object, ...]:
    """What a match shows of itself, engine-independent (texts, not objects)."""
    battles = tuple(
        (b.number, b.starter, str(b.start), b.moves, str(b.final_position), b.scoring)
        for b in game.battles
    )
    return (
        str(game.position),
        game.moves,
        game.scores,
        game.standing,
        game.chooser,
        game.winner,
        game.starter,
        game.last_loser,
        battles,
    )


def act(game: Any, choice: int) -> None:
    """One step of play chosen by the number ``choice``: the tie rule's choice when it
    is due, else an undo now and then, else a legal move."""
    if game.chooser is not None:
        game.choose_starter(list(buttonup.Player)[choice % 2])
    elif game.moves and choice % 7 == 0:
        game.undo()
    else:
        moves = game.legal_moves()
        game.play(moves[choice % len(moves)])


def same_future(game: Match, other: Match, future: list[int]) -> None:
    """Checks that ``other`` is in the state of ``game`` and stays so as both take the
    steps ``future`` (see ``act``) until ``game`` is over."""
    assert state(other) == state(game)
    for choice in future:
        if game.is_over:
            break
        act(game, choice)
        act(other, choice)
        assert state(other) == state(game)


@st.composite
def matches(draw: st.DrawFn) -> tuple[Match, dict[str, Any]]:
    """A match of a random variant, target, seed and deals, played some random steps."""
    per_colour = draw(st.integers(1, 4))
    orders = st.permutations("R" * per_colour + "B" * per_colour + "W" * per_colour)
    made: dict[str, Any] = {
        "starter": draw(st.sampled_from(list(buttonup.Player))),
        "target": draw(st.integers(1, 25)),
        "per_colour": per_colour,
        "seed": draw(st.integers(0, 2**64 - 1)),
        "deals": ["".join(order) for order in draw(st.lists(orders, max_size=3))],
    }
    game = Match(**made)
    stop_at_choice = draw(st.booleans())
    least = draw(st.sampled_from([0, 20, 60]))
    for choice in draw(st.lists(st.integers(0, 1000), min_size=least, max_size=300)):
        if game.is_over or (stop_at_choice and game.chooser is not None):
            break
        act(game, choice)
    return game, made


@given(matches(), st.lists(st.integers(0, 1000), max_size=40))
def test_a_record_reads_back_to_the_same_match_and_its_future(
    drawn: tuple[Match, dict[str, Any]], future: list[int]
) -> None:
    game, _ = drawn
    text = game.record(Event="hypothesis", Red="a", Black="b")
    back = Match.from_record(text)
    assert back.record(Event="hypothesis", Red="a", Black="b") == text
    # The seed and the deals still to come are in the record: the rest of the match
    # is dealt the same.
    same_future(game, back, future)


@given(matches())
def test_the_reference_engine_replays_a_record_read_by_the_core(
    drawn: tuple[Match, dict[str, Any]],
) -> None:
    game, made = drawn
    back = Match.from_record(game.record())
    starts = [b.start for b in back.battles]
    if not back.is_over and back.chooser is None:
        starts.append(_current_start(back))
    first = starts[0].to_move if starts else back.starter
    replay = ref.Match(
        first,
        target=back.target,
        per_colour=back.per_colour,
        seed=made["seed"],
        deals=[str(s).split()[0].replace("/", "") for s in starts],
    )
    for battle in back.battles:
        if replay.chooser is not None:
            replay.choose_starter(battle.starter)
        assert str(replay.position) == str(battle.start)
        for move in battle.moves:
            replay.play(move)
    if not back.is_over and back.chooser is None:
        if replay.chooser is not None:
            replay.choose_starter(back.starter)
        for move in back.moves:
            replay.play(move)
    assert str(replay.position) == str(back.position)
    assert replay.scores == back.scores
    assert replay.winner == back.winner
    assert replay.chooser == back.chooser


def _current_start(game: Match) -> buttonup.Position:
    """The start of the battle in play, found by taking its moves back on a copy."""
    copy = game.__copy__()
    while copy.moves:
        copy.undo()
    return copy.position


PERFECT = """\
[Event "docs/rules.md"]
[Date "2026.12.01"]
[Red "Perfect"]
[Black "Perfect"]
[Target "1"]
[PerColour "3"]
[Seed "0"]
[Score "1-0"]
[Result "Red"]

1. WRBWBRRWB r 3 0 0+ 1+ 3 3 2+ 0 RBWWBRWBR R+1 1-0
"""


def test_the_perfect_battle_of_the_rules_reads_as_written() -> None:
    game = Match.from_record(PERFECT)
    assert game.winner is buttonup.Player.RED
    (battle,) = game.battles
    assert battle.moves == (3, 0, 0, 1, 3, 3, 2, 0)
    assert (battle.red, battle.black) == (16, 15)
    tags = {"Event": "docs/rules.md", "Date": "2026.12.01", "Red": "Perfect", "Black": "Perfect"}
    assert game.record(Event=tags["Event"], Date=tags["Date"], Red="Perfect", Black="Perfect") == (
        PERFECT
    )


def test_a_written_record_by_hand() -> None:
    game = Match(seed=5, deals=["WRBWBRRWB"])
    for move in (3, 0, 0):
        game.play(move)
    assert game.record(Red="Ann", Black="Bob", Round="2") == (
        '[Event "?"]\n[Date "?"]\n[Red "Ann"]\n[Black "Bob"]\n[Round "2"]\n'
        '[Target "15"]\n[PerColour "3"]\n[Seed "5"]\n[Score "0-0"]\n[Result "*"]\n'
        "\n1. WRBWBRRWB r 3 0 0+\n"
    )
    assert "Seed" not in game.record(Seed=None)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1. WRBWBRRWB r 3 0 0", "line 1, at '0': 0 gives an extra move in RW/B/BW/R/R/W/B r"),
        ('[Red "Ann"]\n\n1. WRBWBRRWB r\n  1', "line 4, at '1': pile 1 (R) has no white button"),
        ("1. WRBWBRRWB r 3 x", "line 1, at 'x': unknown token 'x'"),
        ("", "a record holds at least the start of battle 1"),
    ],
)
def test_faults_are_record_errors_naming_line_and_token(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=re.escape(message)):
        Match.from_record(text)
    assert issubclass(RecordError, ValueError)


def test_bad_arguments() -> None:
    game = Match(seed=1)
    with pytest.raises(TypeError, match="a record must be a str, not int"):
        Match.from_record(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="the tag Red must be a str, not int"):
        game.record(Red=3)  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="the tag Target is written from the match"):
        game.record(Target="5")
    with pytest.raises(RecordError, match="bad tag name 'event'"):
        game.record(event="x")
    with pytest.raises(RecordError, match="one line"):
        game.record(Event="two\nlines")


def test_the_record_shown_in_the_notation_page_reads() -> None:
    path = Path(__file__).resolve().parents[2] / "docs" / "notation.md"
    if not path.exists():
        pytest.skip("docs/ is absent (an installed-artifact run copies tests/ alone)")
    page = path.read_text()
    shown = page.split("```text\n", 1)[1].split("```", 1)[0]
    game = Match.from_record(shown)
    assert game.scores == (1, 1)
    assert [b.moves for b in game.battles] == [(3, 0, 0, 1, 3, 3, 2, 0), (4, 1, 1, 3, 3, 0, 1, 0)]
    assert game.moves == (3,)


def test_a_text_of_records_reads_as_its_matches() -> None:
    first = Match(seed=1)
    first.play(first.legal_moves()[0])
    second = Match(seed=2, starter="b", target=4)
    text = first.record(Red="Ann") + "\n" + second.record(Red="Bob")
    read = buttonup.read_records(text)
    assert [state(game) for game in read] == [state(first), state(second)]
    broken = text.replace('[Target "4"]', '[Target "four"]')
    line = broken.splitlines().index('[Target "four"]') + 1
    with pytest.raises(RecordError, match=f"^line {line}, at 'Target'"):
        buttonup.read_records(broken)
    assert buttonup.read_records("\n\n") == []


comment_texts = st.text(
    st.characters(blacklist_categories=("Cc", "Cs"), blacklist_characters="{}"), max_size=30
).map(str.strip)


@given(matches(), st.data())
def test_comments_and_values_of_moves_read_back(
    drawn: tuple[Match, dict[str, Any]], data: st.DataObject
) -> None:
    from buttonup.records import read_record

    game, _ = drawn
    played = [(b.number, len(b.moves)) for b in game.battles]
    if not game.is_over and game.chooser is None:
        played.append((len(game.battles) + 1, len(game.moves)))
    places = [(battle, move) for battle, count in played for move in range(count)]
    if not places:
        return
    keys = st.sampled_from(places)
    comments = data.draw(st.dictionaries(keys, comment_texts, max_size=5))
    numbers = st.floats(allow_nan=False, allow_infinity=False) | st.integers(-18, 18)
    values = data.draw(st.dictionaries(keys, numbers))
    text = game.record(comments=comments, values=values, Round="7")
    record = read_record(text)
    assert state(record.match) == state(game)
    assert record.comments == comments
    assert record.values == {key: float(value) for key, value in values.items()}
    assert record.tags["Round"] == "7"


def test_notes_that_cannot_be_written_are_refused() -> None:
    game = Match(seed=1)
    game.play(game.legal_moves()[0])
    with pytest.raises(RecordError, match="without braces"):
        game.record(comments={(1, 0): "a } brace"})
    with pytest.raises(RecordError, match="the match has no such place"):
        game.record(values={(1, 5): 1.0})
    with pytest.raises(RecordError, match="cannot be written: it is not finite"):
        game.record(values={(1, 0): float("inf")})
    with pytest.raises(TypeError, match="a comment must be a str, not int"):
        game.record(comments={(1, 0): 3})  # type: ignore[dict-item]
    with pytest.raises(TypeError, match="a note's key must be"):
        game.record(values={"first": 1.0})  # type: ignore[dict-item]
