"""The reference engine refuses what the core refuses, as the core does: every public
call of both engines is given values of the wrong type or out of range, and both must
answer alike (the same exception class, the message may be worded otherwise, or the
same value), never with a raw interpreter error ("'<=' not supported ...", an
``AttributeError``). ``harness.outcome`` lets any other exception through, which fails
the test."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import buttonup
import pytest
from buttonup.reference import rules
from harness import ENGINES, outcome

START = "W/R/B/W/B/R/R/W/B r"
ORDER = "RBWRBWRBW"
WRONG: list[Any] = [None, "x", "3", 1.5, -1, 2**70, [], (), {}, True, object(), b"W/R r"]

CALLS: dict[str, Callable[[Any, Any], Any]] = {
    "Position(v)": lambda e, v: e.Position(v),
    "Position.start(v)": lambda e, v: e.Position.start(v),
    "Position.start(order, to_move=v)": lambda e, v: e.Position.start(ORDER, to_move=v),
    "Position.random(v)": lambda e, v: e.Position.random(v),
    "Position.random(1, to_move=v)": lambda e, v: e.Position.random(1, to_move=v),
    "Position.random(1, per_colour=v)": lambda e, v: e.Position.random(1, per_colour=v),
    "p.play(v)": lambda e, v: e.Position(START).play(v),
    "p.outcome(v)": lambda e, v: e.Position(START).outcome(v),
    "p.is_legal(v)": lambda e, v: e.Position(START).is_legal(v),
    "p.gives_extra_move(v)": lambda e, v: e.Position(START).gives_extra_move(v),
    "perft(p, v)": lambda e, v: e.perft(e.Position(START), v),
    "perft(v, 1)": lambda e, v: e.perft(v, 1),
    "solve(v)": lambda e, v: e.solve(v),
    "analyze(v)": lambda e, v: e.analyze(v),
    "max_margin(v)": lambda e, v: e.max_margin(v),
    "Match(v)": lambda e, v: e.Match(v),
    "Match(target=v)": lambda e, v: e.Match(target=v),
    "Match(per_colour=v)": lambda e, v: e.Match(per_colour=v),
    "Match(seed=v)": lambda e, v: e.Match(seed=v),
    "m.play(v)": lambda e, v: e.Match(seed=1).play(v),
    "m.choose_starter(v)": lambda e, v: e.Match(seed=1).choose_starter(v),
    "Match.from_record(v)": lambda e, v: e.Match.from_record(v),
    "random_playouts(v)": lambda e, v: e.random_playouts(v),
    "random_playouts(1, seed=v)": lambda e, v: e.random_playouts(1, seed=v),
}


@pytest.mark.parametrize("call", CALLS)
def test_both_engines_refuse_wrong_arguments_alike(call: str) -> None:
    differ = []
    for value in WRONG:
        rust = outcome(lambda v=value: CALLS[call](ENGINES["rust"], v))
        reference = outcome(lambda v=value: CALLS[call](ENGINES["reference"], v))
        if rust[0] != reference[0]:  # (values are other tests' work: None seeds differ)
            differ.append(f"{value!r}: rust {rust}, reference {reference}")
    assert not differ, f"{call}:\n" + "\n".join(differ)


def test_negative_depth_is_refused_by_both_engines() -> None:
    position = rules.Position.random(1)
    with pytest.raises(ValueError):
        rules.perft(position, -64)
    with pytest.raises(ValueError):
        buttonup.perft(buttonup.Position.random(1), -64)


def test_wrong_depth_type_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="depth must be an int"):
        rules.perft(rules.Position.random(1), "3")  # type: ignore[arg-type]
