"""The answers of the Python engines that the WebAssembly engine is checked against
(tests/js/wasm.test.js, run by tests/doors/test_wasm.py): written at test time, never by the
engine under test.

The rules (legal moves, each move's outcome, scoring) and the errors come from the
pure-Python reference engine (``buttonup.reference``); solved values from its solver up
to nine buttons and from the Rust-backed ``buttonup`` beyond (where pure Python takes
seconds a position); match odds from ``buttonup``.
"""

from __future__ import annotations

import random
from typing import Any

import buttonup
from buttonup import reference as ref

#: Positions of at most this many buttons are solved by the pure-Python solver.
REFERENCE_SOLVE_BUTTONS = 9
#: Positions of at most this many buttons are solved at all (beyond, a solve takes
#: seconds even in Rust); larger ones are checked on the rules.
SOLVE_BUTTONS = 15

BAD_NOTATIONS = [
    "",
    "   ",
    "W/R/B r",  # fine: a control case, no error
    "W/X/B r",
    "W/R/B",
    "W/R/B x",
    "W/R/B r extra",
    "W//B r",
    "/W r",
    "W/ r",
    "R/B r",
    "W/R/B/é r",
    "W/R/B\u00a0r",
    "/".join(["W"] * 33) + " r",
    "W/R/B rb",
]
BAD_ORDERS = ["WRBX", "", "W/R", "WRBé", "RB"]


def buttons(position: Any) -> int:
    return sum(len(pile) for pile in position.piles)


def error_of(call: Any) -> dict[str, str] | None:
    """The class and message of the exception ``call()`` raises, or ``None``."""
    try:
        call()
    except Exception as error:  # every class is recorded as it is
        return {"name": type(error).__name__, "message": str(error)}
    return None


def position_case(notation: str, *, solve: bool, analyze: bool) -> dict[str, Any]:
    """Everything the reference says of one position."""
    position = ref.Position(notation)
    case: dict[str, Any] = {
        "notation": notation,
        "piles": list(position.piles),
        "toMove": position.to_move.letter,
        "isOver": position.is_over,
        "legalMoves": position.legal_moves(),
        "outcomes": {},
        "illegal": {},
    }
    for move in position.legal_moves():
        outcome = position.outcome(move)
        case["outcomes"][str(move)] = {
            "position": str(outcome.position),
            "extraMove": outcome.extra_move,
            "drops": list(outcome.drops),
        }
    for move in [-1, len(position.piles), *range(len(position.piles))]:
        if move not in position.legal_moves():
            case["illegal"][str(move)] = error_of(lambda move=move: position.outcome(move))
    if position.is_over:
        scoring = position.scoring()
        case["scoring"] = {
            "tower": scoring.tower,
            "redStrengths": list(scoring.red_strengths),
            "blackStrengths": list(scoring.black_strengths),
            "red": scoring.red,
            "black": scoring.black,
            "winner": scoring.winner.letter if scoring.winner else None,
            "points": scoring.points,
        }
    else:
        case["scoringError"] = error_of(position.scoring)
    if solve and buttons(position) <= SOLVE_BUTTONS:
        small = buttons(position) <= REFERENCE_SOLVE_BUTTONS
        engine: Any = ref if small else buttonup
        same = position if small else buttonup.Position(notation)
        case["solve"] = engine.solve(same)
        if analyze:
            case["analyze"] = {str(m): v for m, v in engine.analyze(same).items()}
    return case


def walk_positions(rng: random.Random, count: int) -> list[str]:
    """Positions met on random games from shuffled starts of 1 to 8 buttons of each
    colour (most of them of 2 to 4), both players starting."""
    found: list[str] = []
    seen: set[str] = set()
    while len(found) < count:
        per_colour = rng.choice([1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 6, 8])
        to_move = rng.choice("rb")
        position = ref.Position.random(rng.getrandbits(64), to_move=to_move, per_colour=per_colour)
        while True:
            text = str(position)
            if text not in seen:
                seen.add(text)
                found.append(text)
            if position.is_over:
                break
            position = position.play(rng.choice(position.legal_moves()))
    return found[:count]


def match_case(seed: int, per_colour: int, target: int, rng: random.Random) -> dict[str, Any]:
    """A whole match of random moves on the reference's match rules, with its state after
    every step (a move, or a choice of starter)."""
    match = ref.Match(rng.choice("rb"), target=target, per_colour=per_colour, seed=seed)
    case: dict[str, Any] = {
        "options": {"starter": match.starter.letter, "target": target, "perColour": per_colour},
        "seed": seed,
        "steps": [],
    }
    while not match.is_over:
        if match.chooser is not None:
            starter = rng.choice("rb")
            step: dict[str, Any] = {"choose": starter}
            match.choose_starter(starter)
        else:
            move = rng.choice(match.legal_moves())
            outcome = match.play(move)
            step = {"play": move, "extraMove": outcome.extra_move, "after": str(outcome.position)}
        red, black = match.scores
        step.update(
            {
                "position": str(match.position),
                "battleStart": str(match.battle_start),
                "scores": [red, black],
                "chooser": match.chooser.letter if match.chooser else None,
                "winner": match.winner.letter if match.winner else None,
                "battles": len(match.battles),
            }
        )
        case["steps"].append(step)
    return case


def match_errors() -> list[dict[str, Any]]:
    """Requests the match rules refuse, with the reference's error for each."""
    cases: list[dict[str, Any]] = []
    for options in [{"target": 0}, {"target": 1001}, {"perColour": 0}, {"perColour": 11}]:
        kwargs = {"target" if k == "target" else "per_colour": v for k, v in options.items()}
        cases.append({"options": options, "error": error_of(lambda kw=kwargs: ref.Match(**kw))})
    fresh = ref.Match(seed=1)
    cases.append({"options": {"seed": 1}, "undo": True, "error": error_of(fresh.undo)})
    cases.append(
        {
            "options": {"seed": 1},
            "choose": "r",
            "error": error_of(lambda: fresh.choose_starter("r")),
        }
    )
    return cases


def odds_cases() -> list[dict[str, Any]]:
    """Match odds of standings between battles, from ``buttonup``."""
    cases = []
    for red, black, last_loser, starter in [
        (0, 0, None, "r"),
        (0, 0, None, "b"),
        (3, 1, "b", "b"),
        (1, 3, "r", "r"),
        (14, 0, "b", "b"),
        (7, 7, "r", "b"),
    ]:
        standing = buttonup.Standing(red, black, last_loser=last_loser, starter=starter)
        chances = buttonup.win_probability(standing)
        cases.append(
            {
                "standing": {
                    "red": red,
                    "black": black,
                    "lastLoser": last_loser,
                    "starter": starter,
                },
                "red": chances.red,
            }
        )
    return cases


def playout_cases() -> list[dict[str, Any]]:
    """Batches of random battles played by the reference from a seed."""
    cases = []
    for seed, per_colour in [(1, 3), (2, 1), (3, 4), (4, 6)]:
        summary = ref.random_playouts(300, seed, per_colour=per_colour)
        cases.append(
            {
                "seed": seed,
                "perColour": per_colour,
                "summary": {
                    "battles": summary.battles,
                    "moves": summary.moves,
                    "redWins": summary.red_wins,
                    "blackWins": summary.black_wins,
                    "draws": summary.draws,
                    "redMarginSum": summary.red_margin_sum,
                },
            }
        )
    return cases


def all_cases(count: int = 2400, seed: int = 20261201) -> dict[str, Any]:
    """The file the Node test reads."""
    rng = random.Random(seed)
    notations = walk_positions(rng, count)
    positions = [
        position_case(text, solve=True, analyze=i % 4 == 0) for i, text in enumerate(notations)
    ]
    starts = []
    for i in range(60):
        start_seed = rng.getrandbits(64)
        per_colour = 1 + i % 6
        starts.append(
            {
                "seed": str(start_seed),
                "perColour": per_colour,
                "toMove": "rb"[i % 2],
                "notation": str(
                    ref.Position.random(start_seed, per_colour=per_colour, to_move="rb"[i % 2])
                ),
            }
        )
    orders = [
        {"order": o, "error": error_of(lambda o=o: ref.Position.start(o))} for o in BAD_ORDERS
    ]
    return {
        "positions": positions,
        "starts": starts,
        "notationErrors": [
            {"notation": t, "error": error_of(lambda t=t: ref.Position(t))} for t in BAD_NOTATIONS
        ],
        "orderErrors": orders,
        "matches": [match_case(100 + i, 1 + i % 4, 3 + 4 * (i % 3), rng) for i in range(24)],
        "matchErrors": match_errors(),
        "odds": odds_cases(),
        "playouts": playout_cases(),
        "variantLimits": dict(buttonup.VARIANT_LIMITS),
        "ratings": {str(level): rating for level, rating in enumerate(buttonup.RATINGS, 1)},
    }
