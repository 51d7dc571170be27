"""Match records in plain Python, part three: a match written as a record, the same
text as the Rust core's ``src/game/record/write.rs`` writes."""

from __future__ import annotations

import math
from decimal import Decimal

from buttonup.errors import RecordError
from buttonup.reference.notation import describe
from buttonup.reference.record import RecordedMatch, letters, result_text
from buttonup.reference.record_text import check_tag_name, is_control, parse_value

ROSTER = ("Event", "Date", "Red", "Black")
MATCH_TAGS = ("Target", "PerColour", "Seed", "Deals", "Score", "Result")
WIDTH = 79

__all__ = ["MATCH_TAGS", "ROSTER", "write"]


def refused(message: str) -> RecordError:
    return RecordError(f"cannot write the record: {message}")


def write(
    game: RecordedMatch,
    tags: list[tuple[str, str]],
    comments: dict[tuple[int, int], list[str]],
    values: dict[tuple[int, int], float],
    seed: bool,
) -> str:
    """The record of ``game`` with ``tags``, and the comments and values of moves keyed
    by ``(battle, move)``; ``seed`` writes the tag Seed."""
    out = [f'[{name} "{escape(name, value)}"]\n' for name, value in header(game, tags, seed)]
    out.append("\n")
    check_notes(game, [*comments, *values])
    for (battle, move), texts in comments.items():
        for text in texts:
            bad = next((c for c in text if c in "{}" or is_control(c)), None)
            if bad is not None:
                raise refused(
                    f"a comment after move {move} of battle {battle} holds {describe(bad)}: "
                    "a comment is one line without braces or control characters"
                )
    playing = game.winner is None and game.chooser is None
    lines = [(b.start, b.starter, b.moves) for b in game.battles]
    if playing:
        lines.append((game._positions[0], game.starter, game.moves))
    red = black = 0
    for b, (start, starter, moves) in enumerate(lines):
        number = b + 1
        tokens = [f"{number}.", letters(start), starter.letter]
        position = start
        for ply, move in enumerate(moves):
            outcome = position.outcome(move)
            position = outcome.position
            tokens.append(f"{move}{'+' if outcome.extra_move else ''}")
            if (number, ply) in values:
                tokens.append(f"({value_text(values[(number, ply)])})")
            tokens.extend(f"{{{text.strip()}}}" for text in comments.get((number, ply), []))
        if b < len(game.battles):
            done = game.battles[b]
            margin = done.scoring.red - done.scoring.black
            red += max(margin, 0)
            black += max(-margin, 0)
            tokens += [letters(done.final_position), result_text(margin), f"{red}-{black}"]
        out.append(wrap(tokens))
    return "".join(out)


def header(game: RecordedMatch, tags: list[tuple[str, str]], seed: bool) -> list[tuple[str, str]]:
    seen = set()
    for name, _ in tags:
        why = check_tag_name(name)
        if why is not None:
            raise refused(why)
        if name in MATCH_TAGS:
            raise refused(f"the tag {name} is written from the match itself")
        if name in seen:
            raise refused(f"the tag {name} is given twice")
        seen.add(name)
    given = dict(tags)
    out = [(name, given.get(name, "?")) for name in ROSTER]
    out += [(name, value) for name, value in tags if name not in ROSTER]
    out += [("Target", str(game.target)), ("PerColour", str(game.per_colour))]
    if seed:
        out.append(("Seed", str(game._seed)))
    playing = game.winner is None and game.chooser is None
    begun = len(game.battles) + playing
    to_come = [letters(deal) for deal in game._deals[begun:]]
    if to_come and game.winner is None:
        out.append(("Deals", " ".join(to_come)))
    red, black = game.scores
    out.append(("Score", f"{red}-{black}"))
    out.append(("Result", "*" if game.winner is None else str(game.winner)))
    return out


def escape(name: str, value: str) -> str:
    bad = next((c for c in value if is_control(c)), None)
    if bad is not None:
        raise refused(
            f"the tag {name} holds {describe(bad)}: a tag's value is one line without "
            "control characters"
        )
    return value.replace("\\", "\\\\").replace('"', '\\"')


def check_notes(game: RecordedMatch, places: list[tuple[int, int]]) -> None:
    playing = game.winner is None and game.chooser is None
    battles = len(game.battles) + playing
    for battle, move in places:
        if 1 <= battle <= battles:
            moves = game.battles[battle - 1].moves if battle <= len(game.battles) else game.moves
            if move < len(moves):
                continue
        raise refused(f"a note after move {move} of battle {battle}: the match has no such place")


def plain(value: float) -> str:
    """``value`` as Rust's ``{:+}`` writes a float: the shortest digits, no exponent."""
    sign = "-" if math.copysign(1.0, value) < 0 else "+"
    return sign + format(Decimal(repr(abs(value))).normalize(), "f")


def scientific(value: float) -> str:
    """``value`` as Rust's ``{:+e}`` writes a float (``+1.5e-7``, ``+1e20``)."""
    sign = "-" if math.copysign(1.0, value) < 0 else "+"
    number = Decimal(repr(abs(value))).normalize()
    digits = "".join(map(str, number.as_tuple().digits))
    mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    return f"{sign}{mantissa}e{number.adjusted() if value else 0}"


def value_text(value: float) -> str:
    if math.isfinite(value):
        for text in (plain(value), scientific(value)):
            if parse_value(text) == value:
                return text
    shown = "NaN" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    raise refused(f"the value {shown} cannot be written: it is not finite")


def wrap(tokens: list[str]) -> str:
    out, line = [], ""
    for token in tokens:
        if line.strip() and len(line) + 1 + len(token) > WIDTH:
            out.append(line.rstrip() + "\n")
            line = "  "
        if line.strip():
            line += " "
        line += token
    out.append(line.rstrip() + "\n")
    return "".join(out)
