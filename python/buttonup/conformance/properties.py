"""The property-based part: positions drawn by hypothesis, disagreements shrunk.

Hypothesis draws positions of three families: positions reached by random play from
variant starts (2 to 10 buttons of each colour), odd circles of random piles (single
piles, several whites, anything up to 32 buttons), and tall piles that overflow the
circle. Each position drawn is asked every question (``oracle.questions``, illegal moves
included). Then each kind of disagreement found, here or in the exhaustive sweep, is
shrunk: piles and buttons are taken away, piles merged, colours made simpler and the
lifted pile turned to the front, for as long as the same kind of disagreement remains.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from buttonup._core import MAX_BUTTONS, Position
from buttonup.conformance.checker import Checker, example_of
from buttonup.conformance.oracle import Question, engine_position, question_for, questions
from buttonup.conformance.report import Example

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

#: Colours from the simplest: a shrunk example prefers red buttons to black to white.
RANK = {"R": 0, "B": 1, "W": 2}


def require_hypothesis() -> None:
    """A clear error when hypothesis is not installed."""
    try:
        import hypothesis  # noqa: F401
    except ImportError:
        raise ValueError(
            "the property-based checks need hypothesis: pip install 'buttonup[conformance]'"
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

    collect()
    return list(drawn)


def variant_questions(drawn: list[str]) -> list[Question]:
    """Every question about each position of ``drawn``, illegal moves included (asked
    in one pipelined run: the drawing never depends on the answers)."""
    return [q for piles in drawn for q in questions(engine_position(piles), illegal=True)]


def shrink(checker: Checker, example: Example, budget: int = 400) -> Example:
    """The smallest example of the same kind found by greedy steps from ``example``:
    each step takes the first smaller case that still shows the disagreement."""
    if example.kind == "timeout":  # every try could cost the whole time-out
        return example
    request = example.request
    if request.startswith("state "):  # a bad answer to 'state': ask anything
        request = "legal"
    case = (example.position, request)
    illegal = example.expected.startswith("error")  # a move that must be refused
    best = example
    progress = True
    while progress and budget > 0:
        progress = False
        for candidate in _smaller(*case):
            question = question_for(*candidate)
            if question is None or (question.expected == "error") != illegal:
                continue
            budget -= 1
            verdict = checker.ask(question)
            if verdict.kind == example.kind:
                best = example_of(question, example.kind, verdict.got, verdict.request)
                case = candidate
                progress = True
                break
            if budget <= 0:
                break
    return best


def _smaller(piles_text: str, request: str) -> Iterator[tuple[str, str]]:
    """Cases smaller than ``(piles_text, request)``: fewer piles, fewer buttons, then
    simpler colours, then the lifted pile first."""
    piles = piles_text.split("/")
    words = request.split()
    move: Any = int(words[1]) if words[0] == "play" else None

    def case(new: list[str], new_move: Any) -> tuple[str, str]:
        return "/".join(new), request if new_move is None else f"play {new_move}"

    for j in range(len(piles)):  # a pile taken away
        if j != move and len(piles) > 1:
            yield case(piles[:j] + piles[j + 1 :], None if move is None else move - (j < move))
    for j in range(len(piles) - 1):  # two neighbours merged
        if move is None or (j != move and j + 1 != move):
            merged = [*piles[:j], piles[j] + piles[j + 1], *piles[j + 2 :]]
            yield case(merged, None if move is None else move - (j < move))
    for j, pile in enumerate(piles):  # a button taken away
        for b in range(len(pile)):
            if len(pile) > 1:
                yield case([*piles[:j], pile[:b] + pile[b + 1 :], *piles[j + 1 :]], move)
    for j, pile in enumerate(piles):  # a button of a simpler colour
        for b, button in enumerate(pile):
            for simpler in "RB"[: RANK[button]]:
                changed = pile[:b] + simpler + pile[b + 1 :]
                yield case([*piles[:j], changed, *piles[j + 1 :]], move)
    if move:  # the lifted pile turned to the front
        yield case(piles[move:] + piles[:move], 0)
