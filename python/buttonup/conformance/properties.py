"""The property-based part: positions drawn by hypothesis.

Hypothesis draws positions of two families: positions reached by random play from
variant starts (2 to 10 buttons of each colour), and odd circles of any piles that are
not reachable from a start (single piles, tall piles that overflow the circle, several
whites, anything up to 32 buttons). Each position drawn is asked every question
(``oracle.questions``, illegal moves included). Each kind of disagreement found, here
or in the exhaustive sweep, is then shrunk (``buttonup.conformance.shrink``).
"""

from __future__ import annotations

import random
import tempfile
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from buttonup._core import MAX_BUTTONS, Position
from buttonup.conformance.oracle import Question, engine_position, questions

if TYPE_CHECKING:
    from pathlib import Path

    from hypothesis.strategies import SearchStrategy


def require_hypothesis() -> None:
    """A clear error when hypothesis is not installed."""
    try:
        import hypothesis  # noqa: F401
    except ImportError:
        raise ValueError(
            "the property-based checks need hypothesis: pip install hypothesis"
            " (or give --examples 0 to leave them out)"
        ) from None


def positions() -> SearchStrategy[str]:
    """The piles of a position to check, as the protocol writes them."""
    from hypothesis import strategies as st

    most = MAX_BUTTONS // 3
    variants = st.tuples(st.integers(2, most), st.integers(0, 2**64 - 1), st.integers(0, 30))
    circles = st.binary(min_size=2, max_size=MAX_BUTTONS + 1)
    return st.one_of(variants.map(reached), circles.map(circle))


def reached(drawn: tuple[int, int, int]) -> str:
    """A position of the variant with ``per_colour`` buttons of each colour, reached by
    ``moves`` random moves; the start and the moves come from ``seed`` (the Rust
    engine's shuffle, a Python generator): cheaper for hypothesis than lists of choices."""
    per_colour, seed, moves = drawn
    position = Position.random(seed, per_colour=per_colour)
    walk = random.Random(seed)
    for _ in range(min(moves, 3 * per_colour - 1)):
        position = position.play(walk.choice(position.legal_moves()))
    return "/".join(position.piles)


def circle(data: bytes) -> str:
    """Any circle of piles, from bytes: the first sets how often a new pile starts (from
    never, one tall pile, to always, one-button piles); each other byte is a button of
    the colour its value gives, which starts a new pile when its top bits are under
    that threshold. A button is made white if none is (rule 2 needs one)."""
    threshold = data[0] % 9
    piles: list[str] = []
    for byte in data[1:]:
        button = "RBW"[byte % 3]
        if piles and (byte >> 5) >= threshold:
            piles[-1] += button
        else:
            piles.append(button)
    if not any("W" in pile for pile in piles):
        piles[-1] = piles[-1][:-1] + "W"
    return "/".join(piles)


def draw(examples: int, seed: int, on_example: Callable[[int], None] | None = None) -> list[str]:
    """``examples`` positions drawn by hypothesis from ``seed``, without repeats."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as with_seed
    from hypothesis.configuration import set_hypothesis_home_dir, storage_directory

    drawn: dict[str, None] = {}

    @with_seed(seed)
    @settings(
        max_examples=examples,
        phases=[Phase.generate],
        database=None,
        deadline=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.filter_too_much,
            HealthCheck.data_too_large,
            HealthCheck.large_base_example,
        ],
    )
    @given(positions())
    def collect(piles: str) -> None:
        drawn[piles] = None
        if on_example is not None and len(drawn) % 64 == 0:
            on_example(len(drawn))

    # hypothesis only draws here (no database): its cache of constants goes to a folder
    # that is removed afterwards, never a .hypothesis/ in the user's current folder.
    where = storage_directory(intent_to_write=False)
    before = cast("Path", getattr(where, "home_directory", where))  # a Path in older ones
    with tempfile.TemporaryDirectory(prefix="buttonup-hypothesis-") as home:
        set_hypothesis_home_dir(home)
        try:
            collect()
        finally:
            set_hypothesis_home_dir(before)
    if on_example is not None:
        on_example(examples)
    return list(drawn)


def variant_questions(drawn: list[str]) -> list[Question]:
    """Every question about each position of ``drawn``, illegal moves included (asked
    in one pipelined run: the drawing never depends on the answers)."""
    return [q for piles in drawn for q in questions(engine_position(piles), illegal=True)]
