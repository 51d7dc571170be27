"""Each kind of disagreement, shrunk to a smallest example.

Two stages. Greedy steps first, from the smallest example found: a pile taken away, two
neighbours merged, a button taken away, a button of a simpler colour, the lifted pile
turned to the front; each step keeps the first smaller case that still shows the same
kind of disagreement, until none does. Then every circle of fewer buttons than that,
up to ``SMALL`` buttons, is asked the same question in one pipelined run, smallest
first; the first that shows the kind is the example. So an example of up to ``SMALL``
buttons, if there is one, is always found, and it is a smallest one: fewest buttons,
then fewest piles, then the lowest move. A crash is shrunk by the greedy steps only (each
try restarts the implementation), and a time-out not at all (each try could cost the
whole time-out).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, product

from buttonup.conformance.checker import Checker, example_of
from buttonup.conformance.oracle import Question, engine_position, question_for, questions
from buttonup.conformance.report import Example

#: Colours from the simplest: a shrunk example prefers red buttons to black to white.
RANK = {"R": 0, "B": 1, "W": 2}
#: The circles of up to this many buttons are all tried (3,900 or so of 5 buttons).
SMALL = 5


def shrink(checker: Checker, example: Example, budget: int = 400) -> Example:
    """The smallest example of ``example``'s kind that the two stages find."""
    if example.kind == "timeout":
        return example
    best = _greedy(checker, example, budget)
    if best.kind == "crash":
        return best
    smaller = _search(checker, best)
    return best if smaller is None else smaller


def _request(example: Example) -> str:
    # A bad answer to 'state' comes with any question: ask 'legal'.
    return "legal" if example.request.startswith("state ") else example.request


def _refused(example: Example) -> bool:
    """Whether the question is a move that must be refused."""
    return example.move is not None and example.expected.startswith("error")


def _greedy(checker: Checker, example: Example, budget: int) -> Example:
    case = (example.position, _request(example))
    refused = _refused(example)
    best = example
    progress = True
    while progress and budget > 0:
        progress = False
        for candidate in _smaller(*case):
            question = question_for(*candidate)
            if question is None or (question.expected == "error") != refused:
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
    move = int(words[1]) if words[0] == "play" else None

    def case(new: list[str], new_move: int | None) -> tuple[str, str]:
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


def circles(buttons: int) -> list[str]:
    """Every circle of ``buttons`` buttons with a white one, fewest piles first."""
    found: list[tuple[int, str]] = []
    for letters in product("RBW", repeat=buttons):
        if "W" not in letters:
            continue
        text = "".join(letters)
        for cuts in range(buttons):
            for where in combinations(range(1, buttons), cuts):
                edges = (0, *where, buttons)
                piles = [text[a:b] for a, b in zip(edges, edges[1:])]
                found.append((cuts, "/".join(piles)))
    return [piles for _, piles in sorted(found)]


def _like(question: Question, example: Example, refused: bool) -> bool:
    """Whether ``question`` asks what ``example`` asked (a legal move for a legal move)."""
    request = _request(example)
    if request in ("legal", "score"):
        return question.request == request
    return question.move is not None and (question.expected == "error") == refused


def _search(checker: Checker, best: Example) -> Example | None:
    """The first circle of fewer buttons than ``best`` showing its kind, if any."""
    refused = _refused(best)
    fewer = min(best.size()[0] - 1, SMALL)
    for buttons in range(1, fewer + 1):
        asked = [
            question
            for piles in circles(buttons)
            for question in questions(engine_position(piles), illegal=True)
            if _like(question, best, refused)
        ]
        asked.sort(key=lambda q: (q.position.count("/"), -1 if q.move is None else q.move))
        for question, verdict in zip(asked, checker.run(asked, tally=False)):
            if verdict.kind == best.kind:
                return example_of(question, best.kind, verdict.got, verdict.request)
    return None
