"""Bad input: each malformed notation and illegal move gets the right exception and a
message that names the problem, in both engines."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import numpy as np
import pytest
from buttonup import IllegalMoveError, NotationError, Player

BAD_NOTATIONS = [
    ("", "empty notation"),
    ("   \n", "empty notation"),
    ("W/R/B", "missing side to move"),
    ("W/R/B r b", "unexpected text after the side to move: 'b'"),
    ("W/R/B x", "bad side to move 'x'"),
    ("W/R/B R", "bad side to move 'R'"),
    ("W/R/B red", "bad side to move 'red'"),
    ("W/R/Q r", "unknown button 'Q' at index 4"),
    ("w/R/B r", "unknown button 'w' at index 0"),
    ("W,R,B r", "unknown button ',' at index 1"),
    ("W/R/B\x00 r", "unknown button U+0000 at index 5"),
    ("W//B r", "pile 1 is empty"),
    ("/W/B r", "pile 0 is empty"),
    ("W/B/ r", "pile 2 is empty"),
    ("R/B/RB r", "no white button"),
    ("W/R/B/é r", "non-ASCII character U+00E9 at index 6"),
    ("W/R/B/\u2603 r", "non-ASCII character U+2603 at index 6"),
    ("W" * 33 + " r", "too many buttons: a position holds at most 32"),
    ("/".join("W" * 33) + " r", "too many buttons"),
    ("W/" * 100_000 + "W r", "too many buttons"),
    ("W r " + "x" * 1000, "unexpected text after the side to move: 'xxxxxxxxxxxxxxxxxxxx...'"),
]


@pytest.mark.parametrize(("text", "message"), BAD_NOTATIONS)
def test_bad_notation(each_engine: ModuleType, text: str, message: str) -> None:
    with pytest.raises(NotationError, match="^" + _escape(message)):
        each_engine.Position(text)
    assert issubclass(NotationError, ValueError)


def _escape(message: str) -> str:
    import re

    return re.escape(message)


@pytest.mark.parametrize(
    ("order", "message"),
    [
        ("", "empty notation"),
        ("WRBX", "unknown button 'X' at index 3"),
        ("W/RB", "unknown button '/' at index 1"),
        ("RRBB", "no white button"),
        ("W" * 40, "too many buttons"),
        ("WRé", "non-ASCII character U+00E9 at index 2"),
    ],
)
def test_bad_start_order(each_engine: ModuleType, order: str, message: str) -> None:
    with pytest.raises(NotationError, match="^" + _escape(message)):
        each_engine.Position.start(order)


START = "W/R/B/W/B/R/R/W/B r"


@pytest.mark.parametrize(
    ("move", "message"),
    [
        (9, "there is no pile 9: the piles are numbered 0 to 8"),
        (-1, "there is no pile -1: the piles are numbered 0 to 8"),
        (2**63, "there is no pile 9223372036854775808: the piles"),
        (10**40, "there is no pile 10000000000000000000...: the piles"),
        (1, r"pile 1 \(R\) has no white button, so it cannot be lifted"),
        (8, r"pile 8 \(B\) has no white button"),
    ],
)
def test_illegal_moves(each_engine: ModuleType, move: int, message: str) -> None:
    position = each_engine.Position(START)
    with pytest.raises(IllegalMoveError, match="^" + message):
        position.play(move)
    assert not position.is_legal(move)
    assert str(position) == START  # nothing lost


def test_no_move_after_the_battle(each_engine: ModuleType) -> None:
    final = each_engine.Position("RBWWBRWBR b")
    for move in (0, 1, -5):
        with pytest.raises(IllegalMoveError, match="the battle is over"):
            final.play(move)
    assert final.legal_moves() == []


@pytest.mark.parametrize("move", ["0", 0.0, None, True, [0], 3.5])
def test_non_integer_moves_are_type_errors(each_engine: ModuleType, move: object) -> None:
    position = each_engine.Position(START)
    with pytest.raises(TypeError, match="a move must be an int"):
        position.play(move)


def test_sums_before_the_end(each_engine: ModuleType) -> None:
    with pytest.raises(ValueError, match="the battle is not over"):
        each_engine.Position(START).sums()
    with pytest.raises(each_engine.BattleNotOverError):
        each_engine.Position(START).scoring()


def test_bad_arguments_to_constructors(each_engine: ModuleType) -> None:
    with pytest.raises(TypeError):
        each_engine.Position(42)
    # (tests/rules/test_arguments.py checks that both engines say the same.)
    with pytest.raises(TypeError, match=r"^to_move must be a Player or .*'r' or 'b', not int$"):
        each_engine.Position.start("WRB", to_move=1)
    with pytest.raises(ValueError, match=r"^to_move must be a Player or .*'r' or 'b', not 'red'$"):
        each_engine.Position.start("WRB", to_move="red")
    with pytest.raises(ValueError, match="per_colour must be from 1 to 10"):
        each_engine.Position.random(1, to_move=Player.RED, per_colour=11)
    with pytest.raises(ValueError, match="per_colour must be from 1 to 10"):
        each_engine.Position.random(1, per_colour=0)
    with pytest.raises(ValueError, match="seed must be an int from 0 to 2\\*\\*64 - 1"):
        each_engine.Position.random(-1)
    with pytest.raises(ValueError, match="seed must be an int"):
        each_engine.Position.random(2**64)
    # A seed of the wrong type is a TypeError in both engines, with the same words.
    assert each_engine.Position.random(np.int64(3)) == each_engine.Position.random(3)
    for wrong, kind in (("x", "str"), (True, "bool"), (1.0, "float")):
        expected = rf"^seed must be an int from 0 to 2\*\*64 - 1 or None, not {kind}$"
        with pytest.raises(TypeError, match=expected):
            each_engine.Position.random(wrong)


def test_a_start_order_with_a_slash_is_named_for_what_it_is(each_engine: ModuleType) -> None:
    """A start order has one letter a pile and no '/': the error says so, not that '/'
    was expected."""
    with pytest.raises(each_engine.NotationError) as raised:
        each_engine.Position.start("W/RBWBRRWB")
    assert str(raised.value) == (
        "unknown button '/' at index 1: a start order is one letter a pile, 'R', 'B' or 'W'"
    )


def _fails(call: Callable[[], object], cls: type[Exception], words: str, whole: bool) -> None:
    """`call` raises `cls` whose message is `words` (`whole`) or begins with them."""
    with pytest.raises(cls) as caught:
        call()
    message = str(caught.value)
    assert message == words if whole else message.startswith(words), message


def test_the_same_failures_as_the_c_door() -> None:
    """The literals of capi/tests/same_as_python.rs, for the Python door: each call, the
    class, and the whole message (or, ending in "...", its beginning)."""
    from buttonup import BattleNotOverError, Match, MatchStateError, Position, RecordError, ai

    won = Match(target=1, per_colour=1, seed=0)
    while won.winner is None:
        won.play(won.position.legal_moves()[0])
    choosing = Match(target=15, per_colour=3, seed=1)
    while choosing.chooser is None:
        choosing.play(choosing.position.legal_moves()[0])
    cases: list[tuple[Callable[[], object], type[Exception], str]] = [
        (lambda: won.play(0), IllegalMoveError, "the match is over: Black won"),
        (
            won.undo,
            MatchStateError,
            "there is no move of the current battle to take back",
        ),
        (
            lambda: choosing.play(0),
            IllegalMoveError,
            "Red must first choose who starts the next battle",
        ),
        (
            lambda: Position("W/R/B/W/B/R/R/W/B r").scoring(),
            BattleNotOverError,
            "the battle is not over: it has more than one pile",
        ),
        (
            lambda: ai.bot(3).choose(Position("RBWWBRWBR b")),
            IllegalMoveError,
            "the battle is over: there is no move to choose",
        ),
        (
            lambda: Match(deals=["RBXWBRRWB"]),
            NotationError,
            "deal 1: unknown button 'X' at index 2: a start order is one letter a pile, "
            "'R', 'B' or 'W'",
        ),
        (
            lambda: Position.random(1, per_colour=0),
            ValueError,
            "per_colour must be from 1 to 10, not 0",
        ),
        (
            lambda: Match.from_record("garbage"),
            RecordError,
            "line 1, at 'garbage': unknown token 'garbage': ...",
        ),
    ]
    for call, cls, words in cases:
        _fails(call, cls, words.removesuffix("..."), whole=not words.endswith("..."))


def test_choose_starter_checks_its_argument_before_the_match(each_engine: ModuleType) -> None:
    # No choice is due at the start: the argument's type is still what is wrong first.
    game = each_engine.Match(target=5)
    with pytest.raises(TypeError, match=r"^starter must be a Player or 'r' or 'b', not None$"):
        game.choose_starter(None)
