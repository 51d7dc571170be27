"""Match records in plain Python, part two: a record read into a match, every move
checked by the rules, and a match written as a record: the oracle for the Rust core's
``src/game/record`` (docs/notation.md, "Match records"), with the same text and the
same error messages."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from buttonup.constants import MAX_TARGET, STANDARD_PER_COLOUR, STANDARD_TARGET
from buttonup.errors import IllegalMoveError, NotationError, RecordError
from buttonup.player import Player
from buttonup.reference.notation import parse_start, shorten
from buttonup.reference.record_text import TagLine, Token, fault, lex, split, strip
from buttonup.reference.rules import Position
from buttonup.results import Battle, MoveOutcome

MAX_PER_COLOUR = 10
#: The longest record read, in bytes (the core's ``MAX_RECORD_BYTES``).
MAX_RECORD_BYTES = 1 << 20

Notes = tuple[dict[tuple[int, int], list[str]], dict[tuple[int, int], float]]

__all__ = ["RecordedMatch", "letters", "read", "result_text"]


class RecordedMatch(Protocol):
    """What reading and writing a record use of a match: ``buttonup.reference.Match``,
    which gives its own class to :func:`read` (the records know no match class)."""

    _positions: list[Position]
    _deals: list[Position]
    _seed: int
    target: int
    per_colour: int

    @property
    def position(self) -> Position: ...
    @property
    def starter(self) -> Player: ...
    @property
    def moves(self) -> tuple[int, ...]: ...
    @property
    def scores(self) -> tuple[int, int]: ...
    @property
    def battles(self) -> tuple[Battle[Position], ...]: ...
    @property
    def chooser(self) -> Player | None: ...
    @property
    def winner(self) -> Player | None: ...
    def play(self, move: int) -> MoveOutcome[Position]: ...
    def choose_starter(self, starter: Player) -> None: ...


M = TypeVar("M", bound=RecordedMatch)


@dataclass
class BattleText:
    number: Token
    order: Token | None = None
    side: tuple[Token, Player] | None = None
    moves: list[Token] = field(default_factory=list)
    last: Token | None = None
    result: tuple[Token, int] | None = None
    score: tuple[Token, tuple[int, int]] | None = None

    def ending(self) -> Token | None:
        for part in (self.last, self.result and self.result[0], self.score and self.score[0]):
            if part is not None:
                return part
        return None


def letters(position: object) -> str:
    return "".join(position.piles)  # type: ignore[attr-defined]


def result_text(margin: int) -> str:
    return f"R+{margin}" if margin > 0 else f"B+{-margin}" if margin < 0 else "="


def _integer(text: str, signed: bool) -> int | None:
    """An integer as Rust's ``str::parse`` reads one (a sign, ASCII digits), in range."""
    body = text[1:] if text[:1] == "+" or (signed and text[:1] == "-") else text
    if not body or not all("0" <= c <= "9" for c in body):
        return None
    number = -int(body) if text[:1] == "-" else int(body)
    low, high = (-(2**63), 2**63 - 1) if signed else (0, 2**64 - 1)
    return number if low <= number <= high else None


# --- reading ---------------------------------------------------------------------------
def read(
    text: str, new_match: Callable[..., M], first_line: int = 1
) -> tuple[M, list[tuple[str, str]], Notes]:
    """The match of a record (made by ``new_match``, called as the match class is, then
    played), its tags (all but those written from the match) and the comments and
    values of its moves keyed by ``(battle, move)``."""
    size = len(text.encode("utf-8"))
    if size > MAX_RECORD_BYTES:  # refused before it is read, as the core does
        raise RecordError(f"a record is at most {MAX_RECORD_BYTES} bytes (1 MiB), not {size}")
    tag_lines, tokens = lex(text, first_line)
    end_line = tokens[-1].line if tokens else tag_lines[-1].line if tag_lines else first_line
    header = Header(tag_lines)
    comments: dict[tuple[int, int], list[str]] = {}
    values: dict[tuple[int, int], float] = {}
    battles = shape(tokens, comments, values, end_line)
    game = replay(new_match, header, battles, end_line)
    header.check_standing(game)
    return game, header.tags, (comments, values)


# The tags that give a count of the match: its attribute of ``Header`` (the argument's
# name in messages) and its largest value.
_COUNTS = {"Target": ("target", MAX_TARGET), "PerColour": ("per_colour", MAX_PER_COLOUR)}


class Header:
    """What the tags say about the match."""

    def __init__(self, tag_lines: list[TagLine]) -> None:
        self.tags: list[tuple[str, str]] = []
        self.target, self.per_colour = STANDARD_TARGET, STANDARD_PER_COLOUR
        self.seed: int | None = None
        self.deals: list[tuple[int, str]] = []
        self.score: TagLine | None = None
        self.result: TagLine | None = None
        seen = set()
        for tag in tag_lines:

            def bad(message: str, tag: TagLine = tag) -> RecordError:
                return fault(tag.line, tag.name, message)

            if tag.name in seen:
                raise bad(f"the tag {tag.name} is given twice")
            seen.add(tag.name)
            number = _integer(strip(tag.value), True)
            if tag.name in _COUNTS:
                attribute, most = _COUNTS[tag.name]
                if number is None or not 1 <= number <= most:
                    given = strip(tag.value) if number is None else number
                    raise bad(
                        f"{attribute} must be from 1 to {most}, not {given} "
                        f"(the tag {tag.name} is '{tag.value}')"
                    )
                setattr(self, attribute, number)
            elif tag.name == "Seed":
                self.seed = _integer(strip(tag.value), False)
                if self.seed is None:
                    raise bad(f"the seed is a whole number from 0 to 2^64 - 1, not '{tag.value}'")
            elif tag.name == "Deals":
                self.deals = [(tag.line, order) for order in split(tag.value)]
            elif tag.name == "Score":
                self.score = tag
            elif tag.name == "Result":
                self.result = tag
            else:
                self.tags.append((tag.name, tag.value))

    def check_standing(self, game: RecordedMatch) -> None:
        red, black = game.scores
        score = f"{red}-{black}"
        if self.score is not None and strip(self.score.value) != score:
            message = f"the battles make the score {score}, not '{self.score.value}'"
            raise fault(self.score.line, self.score.name, message)
        result = "*" if game.winner is None else str(game.winner)
        if self.result is not None and strip(self.result.value) != result:
            if game.winner is not None:
                message = f'{game.winner} won the match: the tag Result is "{result}"'
            else:
                message = 'the match is not over: the tag Result is "*"'
            raise fault(self.result.line, self.result.name, message)


def shape(
    tokens: list[Token],
    comments: dict[tuple[int, int], list[str]],
    values: dict[tuple[int, int], float],
    end_line: int,
) -> list[BattleText]:
    """The battles as written; the comments and values of moves go to their dicts."""
    battles: list[BattleText] = []
    place: tuple[int, int] | None = None
    after_move = False
    for token in tokens:

        def bad(message: str, token: Token = token) -> RecordError:
            return fault(token.line, token.text, message)

        number = len(battles)
        if token.kind == "comment":
            if place is not None:
                comments.setdefault(place, []).append(str(token.data))
            continue
        was_after_move, after_move = after_move, False
        battle = battles[-1] if battles else None
        if battle is None or battle.side is None:
            if battle is None:
                if token.kind != "number":
                    raise bad("a record's battles start with '1.', after the tags")
                battles.append(BattleText(token))
            elif battle.order is None:
                if token.kind != "pile":
                    raise bad(
                        f"battle {number}'s start order comes here, one letter a pile, "
                        "such as WRBWBRRWB"
                    )
                battle.order = token
            elif token.kind == "side":
                battle.side = (token, token.data)  # type: ignore[assignment]
                place = None
            else:
                raise bad(f"battle {number}'s starter comes here, 'r' or 'b'")
            continue
        ended = battle.ending() is not None
        kind = token.kind
        if kind == "number":
            battles.append(BattleText(token))
            place = None
        elif kind == "move" and not ended:
            place = (number, len(battle.moves))
            battle.moves.append(token)
            after_move = True
        elif kind == "move":
            raise bad(f"a move cannot follow battle {number}'s result")
        elif kind == "value" and was_after_move:
            values[(number, len(battle.moves) - 1)] = token.data  # type: ignore[assignment]
        elif kind == "value":
            raise bad("a value in parentheses comes right after its move")
        elif kind == "pile" and not ended:
            battle.last = token
            place = None
        elif kind == "result" and battle.result is None and battle.score is None:
            battle.result = (token, token.data)  # type: ignore[assignment]
            place = None
        elif kind == "score" and battle.result is not None and battle.score is None:
            battle.score = (token, token.data)  # type: ignore[assignment]
        elif kind == "score":
            raise bad(f"the score comes after battle {number}'s result, once")
        elif kind == "side":
            raise bad("a starter, 'r' or 'b', follows a start order only")
        else:
            raise bad(f"this cannot follow the moves of battle {number}")
    if not battles:
        raise fault(
            end_line,
            None,
            "a record holds at least the start of battle 1, such as '1. WRBWBRRWB r'",
        )
    if battles[-1].side is None:
        raise fault(
            end_line,
            None,
            f"battle {len(battles)}'s start is cut short: its start order and starter",
        )
    return battles


def check_order(line: int, order: str, per_colour: int, what: str) -> None:
    try:
        parse_start(order)
    except NotationError as error:
        raise fault(line, order, f"{what}: {error}") from None
    if any(order.count(colour) != per_colour for colour in "RBW"):
        raise fault(
            line,
            order,
            f"{what} does not have {per_colour} buttons of each colour (the tag PerColour)",
        )


def replay(
    new_match: Callable[..., M], header: Header, battles: list[BattleText], end_line: int
) -> M:
    orders: list[str] = []
    for b, battle in enumerate(battles):
        written = battle.order
        assert written is not None and battle.side is not None  # shape() saw to it
        check_order(written.line, written.text, header.per_colour, f"battle {b + 1}'s start")
        orders.append(written.text)
    for line, dealt in header.deals:
        check_order(line, dealt, header.per_colour, "a deal of the tag Deals")
        orders.append(dealt)
    first = battles[0]
    starter = first.side[1] if first.side is not None else Player.RED
    seed = header.seed if header.seed is not None else secrets.randbits(64)
    game = new_match(
        starter, target=header.target, per_colour=header.per_colour, seed=seed, deals=orders
    )
    for b, battle in enumerate(battles):
        start_battle(game, b, battle)
        for ply, move in enumerate(battle.moves):
            play(game, b, ply, move)
        end_battle(game, b, battle, battles[b + 1] if b + 1 < len(battles) else None, end_line)
    return game


def start_battle(game: RecordedMatch, b: int, battle: BattleText) -> None:
    number, token = b + 1, battle.number
    if token.data != number:
        raise fault(token.line, token.text, f"battle {number} comes here, written '{number}.'")
    assert battle.side is not None
    side_token, side = battle.side
    red, black = game.scores
    if game.winner is not None:
        message = (
            f"the match is over: {game.winner} won {red}-{black}, so there is no battle {number}"
        )
        raise fault(token.line, token.text, message)
    if game.chooser is not None:
        game.choose_starter(side)
    elif game.starter is not side:
        starter = game.starter
        if red != black:
            why = f"{starter} is behind {red}-{black}"
        else:
            why = f"no battle has had a winner, so {starter} starts again"
        message = f"{starter} starts battle {number}, not {side} ({why})"
        raise fault(side_token.line, side_token.text, message)


def play(game: RecordedMatch, b: int, ply: int, move: Token) -> None:
    def bad(message: str) -> RecordError:
        return fault(move.line, move.text, message)

    if len(game.battles) > b:
        raise bad(f"battle {b + 1} is over after {ply} moves: its result comes next")
    position = game.position
    data: tuple[int | None, bool] = move.data  # type: ignore[assignment]
    pile, plus = data
    if pile is None:
        shown = shorten(move.text.rstrip("+"))
        count = len(position.piles)
        raise bad(f"there is no pile {shown}: the piles are numbered 0 to {count - 1}")
    try:
        outcome = game.play(pile)
    except IllegalMoveError as error:
        raise bad(f"{error} (in {position})") from None
    if outcome.extra_move and not plus:
        raise bad(f"{pile} gives an extra move in {position}: it is written {pile}+")
    if plus and not outcome.extra_move:
        raise bad(f"{pile} gives no extra move in {position}: it is written {pile}, without '+'")


def end_battle(
    game: RecordedMatch, b: int, battle: BattleText, following: BattleText | None, end_line: int
) -> None:
    number = b + 1
    if len(game.battles) <= b:
        piles = len(game.position.piles)
        ending = battle.ending()
        if ending is not None:
            message = f"battle {number} is not over: {piles} piles are left"
            raise fault(ending.line, ending.text, message)
        if following is not None:
            message = (
                f"battle {number} is not over ({piles} piles are left), "
                f"so battle {number + 1} cannot start"
            )
            raise fault(following.number.line, following.number.text, message)
        return
    done = game.battles[b]
    margin = done.scoring.red - done.scoring.black
    result = result_text(margin)
    if battle.result is None:
        message = f"battle {number} is over: its result, {result}, follows its last move"
        token = following.number if following is not None else battle.ending()
        if token is None:
            raise fault(end_line, None, message)
        raise fault(token.line, token.text, message)
    last = letters(done.final_position)
    if battle.last is not None and battle.last.text != last:
        message = f"battle {number} ends in the pile {last}, not {battle.last.text}"
        raise fault(battle.last.line, battle.last.text, message)
    result_token, written = battle.result
    if written != margin:
        message = (
            f"battle {number} ends with Red {done.scoring.red} and Black "
            f"{done.scoring.black}: its result is {result}"
        )
        raise fault(result_token.line, result_token.text, message)
    red, black = game.scores
    if battle.score is not None and battle.score[1] != (red, black):
        message = f"the score after battle {number} is {red}-{black}"
        raise fault(battle.score[0].line, battle.score[0].text, message)
