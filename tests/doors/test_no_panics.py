"""No argument makes the extension panic: every public function and method
of ``buttonup._core`` is called with random arguments of every kind (ints at and past
every machine limit, NaN and infinite floats, any text, notation-like text, lists,
tuples, positions, matches, ``None``, bools) and must answer or raise ``ValueError`` or
``TypeError`` (or ``SearchStoppedError`` when a time limit runs out, as documented),
never pyo3's ``PanicException`` (a ``BaseException``, so that nothing
here would catch it by accident).

A call that is valid but long (a million playouts, a deep perft) is ended by a timer
whose signal handler raises ``Slow``: the extension checks for signals in its long
loops, so that is the same path as Ctrl-C.
"""

from __future__ import annotations

import inspect
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

import buttonup
import pytest
from buttonup import (
    NotationError,
    Player,
    RecordError,
    SearchStoppedError,
    Standing,
    _core,
    reference,
)
from hypothesis import given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.skipif(
    not hasattr(signal, "setitimer"), reason="needs signal.setitimer (not on Windows)"
)


class Slow(Exception):
    """Raised by the timer: the call was valid and still running."""


@contextmanager
def at_most(seconds: float) -> Iterator[None]:
    """Raises ``Slow`` after ``seconds``, and every 50 ms after that until the block
    ends. A tick that lands in a finalizer (say while a call's large answer is freed)
    cannot propagate and is dropped here: the timer's doing, not the extension's, and
    pytest's own hook for such exceptions would itself be cut by the next tick."""

    def stop(signum: int, frame: object) -> None:
        raise Slow

    def unraisable(info: Any) -> None:
        if not isinstance(info.exc_value, Slow):
            old_hook(info)

    old_hook = sys.unraisablehook
    sys.unraisablehook = unraisable
    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds, 0.05)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        sys.unraisablehook = old_hook


LIMITS = [
    -(2**64),
    -(2**63) - 1,
    -(2**63),
    -(2**31),
    -1,
    0,
    2**31 - 1,
    2**31,
    2**32,
    2**53 + 1,
    2**63 - 1,
    2**63,
    2**64,
    10**30,
]

ints = st.one_of(st.integers(-3, 70), st.sampled_from(LIMITS))
floats = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, 1e-300, 1e300, 2.0**64, float("nan"), float("inf")]),
)
notation = st.text(alphabet="RBWrb/ 0123456789", max_size=40)
RECORD = (
    '[Event "x"]\n[Target "5"]\n[PerColour "3"]\n[Seed "3"]\n[Score "0-9"]\n'
    '[Result "Black"]\n\n1. RRBRBWWBW r 8 6 6 5 1 2+ 0 1 BRRBRWBWW B+2 0-2\n'
    "2. RBBRWWRWB r 7 7 5 5+ 4 1+ 2 1 RBRWWRBBW B+7 0-9\n"
)
RECORDS = [
    RECORD,
    '[Target "99999999999999999999"]\n\n*\n',
    '[PerColour "10"]\n\n1. 99 *\n',
    "1. 2 2 2 2 2 2 2 2 2 2 2 2 2 2 *",
]
NOTATIONS = [
    "W/R/B/W/B/R/R/W/B r",
    "RWBBWW/BRR r",
    "RBWRBW b",
    "W/R/B/W/B/R/R/W/B/W/R/B/W/B/R/R/W/B r",
]


@st.composite
def mangled(draw: st.DrawFn) -> str:
    """The record above cut and with characters changed."""
    text = RECORD[: draw(st.integers(0, len(RECORD)))]
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(text)))
        text = (
            text[:at]
            + draw(st.text(alphabet='0123456789+-*"[] .RBWrb\n', max_size=3))
            + text[at + 1 :]
        )
    return text


def positions() -> st.SearchStrategy[Any]:
    return st.sampled_from(NOTATIONS).map(_core.Position)


def matches() -> st.SearchStrategy[Any]:
    return st.builds(lambda moves: _played(moves), st.lists(st.integers(0, 9), max_size=12))


def _played(moves: list[int]) -> Any:
    game = _core.Match("r", seed=1)
    for move in moves:
        if game.is_over:
            break
        if game.chooser is not None:
            game.choose_starter("r")
        legal = game.legal_moves()
        if legal:
            game.play(legal[move % len(legal)])
    return game


def standings() -> st.SearchStrategy[Any]:
    sides = st.sampled_from([None, Player.RED, Player.BLACK])
    return st.builds(
        Standing,
        red=ints,
        black=ints,
        target=ints,
        last_loser=sides,
        starter=sides,
        per_colour=per_colour,
    )


def scalars() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.none(),
        st.booleans(),
        ints,
        floats,
        notation,
        st.text(max_size=20),
        st.binary(max_size=8),
        st.sampled_from(["r", "b", "R", "", "\ud800"]),
        positions(),
        st.sampled_from([object(), print, int]),
    )


anything = (
    st.recursive(
        scalars(),
        lambda inner: st.one_of(
            st.lists(inner, max_size=5),
            st.tuples(inner, inner),
            st.dictionaries(st.tuples(ints, ints), inner, max_size=3),
            st.dictionaries(st.text(max_size=5), inner, max_size=3),
        ),
        max_leaves=8,
    )
    | matches()
)


#: per_colour values: 6 is left out because start_orders(6) is 17 million strings (a
#: valid call, too big for a test; the limits around it are in).
per_colour = st.one_of(
    st.sampled_from([-1, 0, 1, 2, 3, 4, 5, 7, 10, 11, 12]), st.sampled_from(LIMITS)
)
players = st.sampled_from(["r", "b", "R", "x", "", None, 0, 1, Player.RED, Player.BLACK])
moves = st.lists(ints, max_size=12)
#: What each parameter name is given (besides, now and then, anything at all).
TYPED: dict[str, st.SearchStrategy[Any]] = {
    "position": positions(),
    "start": positions(),
    "positions": st.lists(positions(), max_size=4),
    "game": matches(),
    "match": matches(),
    "of": st.one_of(matches(), standings()),
    "text": st.one_of(notation, st.text(max_size=60), st.sampled_from(RECORDS), mangled()),
    "order": st.one_of(notation, st.text(alphabet="RBW", max_size=20)),
    "move": ints,
    "moves": moves,
    "highlight": moves,
    "slots": moves,
    "lastmove": st.tuples(ints, moves),
    "actions": st.one_of(
        moves, st.lists(st.integers(-1, 9), min_size=4, max_size=4), st.lists(floats, max_size=4)
    ),
    "per_colour": per_colour,
    "depth": ints,
    "nodes": ints,
    "battles": ints,
    "seed": ints,
    "first": ints,
    "count": ints,
    "target": ints,
    "num_envs": ints,
    "opponent": ints,
    "slot_count": ints,
    "threads": st.sampled_from([None, 1, 2, 0, -1, 257, 2**63, 2**64]),
    "time_limit": st.one_of(st.none(), floats, ints),
    "limit": st.one_of(floats, ints),
    "per_position": st.one_of(floats, ints),
    "budget": st.one_of(floats, ints),
    "number": ints,
    "ply": st.one_of(st.none(), ints),
    "side": players,
    "human": players,
    "players": ints,
    "ai": st.text(max_size=10),
    "tt_mb": st.one_of(floats, ints),
    "size": st.one_of(st.none(), floats, ints),
    "max_radius": st.one_of(st.none(), floats, ints),
    "labels": st.booleans(),
    "observations": st.booleans(),
    "on_iteration": st.sampled_from([None, print, int, lambda result: None, 3]),
    "starter": players,
    "to_move": players,
    "agent": players,
    "player": players,
    "deals": st.lists(st.one_of(notation, st.text(alphabet="RBW", max_size=20)), max_size=3),
    "comments": st.dictionaries(st.tuples(ints, ints), st.text(max_size=10), max_size=3),
    "values": st.dictionaries(st.tuples(ints, ints), floats, max_size=3),
    "tags": st.text(max_size=10),
}


def parameters(call: Callable[..., Any]) -> list[inspect.Parameter]:
    try:
        return list(inspect.signature(call).parameters.values())
    except (ValueError, TypeError):
        return []


def value(draw: st.DrawFn, name: str) -> Any:
    typed = TYPED.get(name)
    if typed is None or draw(st.integers(0, 7)) == 0:
        return draw(anything)
    return draw(typed)


def arguments(call: Callable[..., Any]) -> st.SearchStrategy[tuple[list[Any], dict[str, Any]]]:
    """Positional and keyword arguments for `call`: its own parameters, each given a
    value of its kind (now and then anything at all, or left out), now and then one
    too many."""
    named = [p for p in parameters(call) if p.name not in ("self", "cls")]
    positional = [p for p in named if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    keywords = [p.name for p in named if p.kind == p.KEYWORD_ONLY]
    extra = [p.name for p in named if p.kind == p.VAR_KEYWORD]

    @st.composite
    def build(draw: st.DrawFn) -> tuple[list[Any], dict[str, Any]]:
        count = len(positional)
        if draw(st.integers(0, 9)) == 0:
            count = draw(st.integers(0, len(positional) + 1))
        args = [
            value(draw, positional[i].name) if i < len(positional) else draw(anything)
            for i in range(count)
        ]
        chosen = draw(st.lists(st.sampled_from(keywords), unique=True)) if keywords else []
        kwargs = {name: value(draw, name) for name in chosen}
        for name in extra:
            for tag in draw(
                st.lists(st.sampled_from(["event", "site", "Round", "x y", "é"]), unique=True)
            ):
                kwargs[tag] = value(draw, name)
        if draw(st.integers(0, 19)) == 0:
            kwargs["no_such_argument"] = draw(anything)
        return args, kwargs

    return build()


def public(owner: object) -> list[str]:
    return sorted(
        name
        for name in dir(owner)
        if (not name.startswith("_") or name in ("_repr_svg_", "_repr_html_", "_read_record"))
        and callable(getattr(owner, name))
    )


FUNCTIONS = [name for name in public(_core) if not isinstance(getattr(_core, name), type)]
#: Objects whose methods are called, each made afresh for every call.
OBJECTS: dict[str, Callable[[], Any]] = {
    "Position": lambda: _core.Position(NOTATIONS[0]),
    "Match": lambda: _played([3, 0, 1, 2, 0]),
    "Searcher": lambda: _core.Searcher(tt_mb=1),
    "VecEnv": lambda: _core.VecEnv(4, seed=1, threads=1),
    "Chart": lambda: _core.Chart(),
    "Seats": lambda: _core.Seats("r"),
    # A short cap: its searches (the chart, a hint, a review) end within the time checked.
    "Session": lambda: _core.Session(_played([3, 0, 1, 2, 0]), "r", players=2, cap=0.01),
}
METHODS = [(kind, name) for kind, make in OBJECTS.items() for name in public(make())]
CLASSES = ["Position", "Match", "Searcher", "VecEnv", "Chart", "Seats", "Session"]


def survives(call: Callable[..., Any], args: list[Any], kwargs: dict[str, Any]) -> None:
    """Calls `call`; an answer, a ValueError or TypeError, a search that ran out of its
    time limit (SearchStoppedError), or the timer, is fine."""
    try:
        with at_most(0.1):
            call(*args, **kwargs)
    except (ValueError, TypeError, Slow):
        pass
    except SearchStoppedError:
        pass  # a documented answer: a time limit (0 s, say) ran out before the result


def _is_panic(error: BaseException) -> bool:
    return type(error).__name__ == "PanicException"


def check(call: Callable[..., Any], args: list[Any], kwargs: dict[str, Any]) -> None:
    try:
        survives(call, args, kwargs)
    except BaseException as error:  # a PanicException is a BaseException
        if isinstance(error, KeyboardInterrupt) and not _is_panic(error):
            raise
        shown = ", ".join([*map(repr, args), *(f"{k}={v!r}" for k, v in kwargs.items())])
        raise AssertionError(
            f"{getattr(call, '__qualname__', call)}({shown[:400]}) raised "
            f"{type(error).__name__}: {error}"
        ) from error


def check_drawn(call: Callable[..., Any], data: st.DataObject) -> None:
    """``check`` with arguments for ``call`` drawn from ``data``."""
    args, kwargs = data.draw(arguments(call))
    check(call, args, kwargs)


@pytest.mark.parametrize("name", FUNCTIONS)
@settings(max_examples=40)
@given(data=st.data())
def test_functions_answer_or_refuse(name: str, data: st.DataObject) -> None:
    check_drawn(getattr(_core, name), data)


@pytest.mark.parametrize(("kind", "name"), METHODS)
@settings(max_examples=25)
@given(data=st.data())
def test_methods_answer_or_refuse(kind: str, name: str, data: st.DataObject) -> None:
    check_drawn(getattr(OBJECTS[kind](), name), data)


@pytest.mark.parametrize("kind", CLASSES)
@settings(max_examples=60)
@given(data=st.data())
def test_constructors_answer_or_refuse(kind: str, data: st.DataObject) -> None:
    check_drawn(getattr(_core, kind), data)


def test_the_try_everything_test_sees_every_door() -> None:
    # Keep the lists honest: a new public function or method is fuzzed too.
    assert {"perft", "solve", "draw_position", "read_records", "random_playouts"} <= set(FUNCTIONS)
    assert ("Match", "play") in METHODS and ("VecEnv", "step") in METHODS
    assert all(parameters(getattr(_core, name)) for name in ("perft", "draw_position"))


def test_a_panic_would_fail_the_check() -> None:
    # pyo3's PanicException derives from BaseException: the check must not swallow it.
    class PanicException(BaseException):
        pass

    def panics() -> None:
        raise PanicException("index out of bounds")

    with pytest.raises(AssertionError, match="PanicException: index out of bounds"):
        check(panics, [], {})
    check(lambda: int("x"), [], {})  # a ValueError is a fine answer


#: A tag name no identifier can be, passed as ``**TAG_NAME``.
TAG_NAME: dict[str, Any] = {"\ud800": "x"}


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: _core.Match.from_record("\ud800"), "line 1: the text is not valid Unicode"),
        (lambda: _core.read_records('[Event "x"]\n1. \ud800'), "line 2: "),
        (lambda: _core.Match._read_record("1. \ud800"), "lone surrogate U+D800 at index 3"),
        (lambda: _core.Match("r").__setstate__("\ud800"), "not valid Unicode"),
        (lambda: _core.Match("r").record(Event="\ud800"), "the tag Event is not valid"),
        (lambda: _core.Match("r").record(**TAG_NAME), "a tag name is not valid"),
        (lambda: _core.Match("r").record(comments={(1, 0): "\ud800"}), "a comment is not"),
    ],
)
def test_a_lone_surrogate_in_a_record_is_a_record_error(
    call: Callable[[], object], words: str
) -> None:
    # It used to be UnicodeEncodeError, pyo3's failure to make Rust text of it.
    with pytest.raises(RecordError) as caught:
        call()
    assert type(caught.value) is RecordError and words in str(caught.value)


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("\ud800", 1),
        ("1. \ud800", 1),
        ('[Event "x"]\n1. RRRBBBWWW r {\ud800} 1 *', 2),
        ("a\udc80b", 1),
    ],
)
def test_a_lone_surrogate_in_a_record_is_the_same_error_in_both_engines(
    text: str, line: int
) -> None:
    # The reference engine read it as an unknown token.
    messages = []
    for engine in (buttonup, reference):
        with pytest.raises(RecordError) as caught:
            engine.Match.from_record(text)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]
    assert messages[0].startswith(f"line {line}: the text is not valid Unicode: a lone surrogate")


def test_a_record_too_long_is_refused_before_it_is_read() -> None:
    # A 16 MB record took 755 MB before its error.
    text = "1. " * (6 << 20)
    for engine in (buttonup, reference):
        with pytest.raises(RecordError) as caught:
            engine.Match.from_record(text)
        assert str(caught.value) == "a record is at most 1048576 bytes (1 MiB), not 18874368"
    one = buttonup.Match("r", seed=1).record()
    assert len(buttonup.read_records(one * 2000)) == 2000  # a file of many, each small


@pytest.mark.parametrize(
    ("deals", "message"),
    [
        (["\ud800"], "deal 1: non-ASCII character U+D800 at index 0"),
        (["RRRBBBWWW", "a\ud800"], "deal 2: non-ASCII character U+D800 at index 1"),
    ],
)
def test_a_lone_surrogate_in_a_deal_is_a_notation_error_in_both_engines(
    each_engine: ModuleType, deals: list[str], message: str
) -> None:
    # The Rust engine used to raise UnicodeEncodeError.
    with pytest.raises(NotationError) as caught:
        each_engine.Match("r", deals=deals)
    assert str(caught.value) == message
