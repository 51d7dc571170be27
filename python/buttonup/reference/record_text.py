"""Match records in plain Python, part one: the text cut into tag lines and tokens,
read the way the Rust core does it (``src/game/record/lex.rs``), with the same error
messages."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from buttonup.errors import RecordError
from buttonup.player import Player
from buttonup.reference.notation import shorten

MAX_WHOLE_DIGITS = 15
MAX_DECIMALS = 24

#: What separates a record's tokens: Unicode's White_Space, as Rust's ``is_whitespace``
#: and ``trim`` read it. Python's ``isspace``, ``strip`` and ``split`` also take the
#: information separators U+001C to U+001F, which the core reads as characters.
WHITESPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


def is_space(character: str) -> bool:
    return character in WHITESPACE


def strip(text: str) -> str:
    return text.strip(WHITESPACE)


def split(text: str) -> list[str]:
    """The words of ``text`` between whitespace (Rust's ``split_whitespace``)."""
    words: list[str] = []
    word: list[str] = []
    for c in text:
        if is_space(c):
            if word:
                words.append("".join(word))
            word = []
        else:
            word.append(c)
    return [*words, "".join(word)] if word else words


def fault(line: int, token: str | None, message: str) -> RecordError:
    """The error of a record's fault, worded as the core words it."""
    if token is None:
        return RecordError(f"line {line}, at the end of the record: {message}")
    return RecordError(f"line {line}, at '{shorten(strip(token))}': {message}")


def is_control(character: str) -> bool:
    return unicodedata.category(character) == "Cc"


def digits(text: str) -> bool:
    return bool(text) and all("0" <= c <= "9" for c in text)


@dataclass
class TagLine:
    line: int
    name: str
    value: str


@dataclass
class Token:
    """A token: its kind and what it holds, its text as written and its line."""

    kind: str  # number, pile, side, move, value, comment, result, score
    text: str
    line: int
    data: object = None


def check_tag_name(name: str) -> str | None:
    """Why ``name`` is not a tag name, or ``None``."""
    ok = (
        bool(name)
        and "A" <= name[0] <= "Z"
        and all(c.isascii() and (c.isalnum() or c == "_") for c in name[1:])
    )
    if ok:
        return None
    return f"bad tag name '{shorten(name)}': a capital letter, then letters, digits or '_'"


def tag_line(line: str, number: int) -> TagLine:
    def bad(message: str) -> RecordError:
        return fault(number, line, message)

    if not (line.startswith("[") and line[1:].endswith("]")):
        raise bad('a tag line is written [Name "value"], on one line')
    inner = line[1:-1]
    gap = next((i for i, c in enumerate(inner) if is_space(c)), None)
    if gap is None:
        raise bad("a tag needs a name, a space, then its value in double quotes")
    name, rest = inner[:gap], inner[gap + 1 :]
    why = check_tag_name(name)
    if why is not None:
        raise fault(number, line, why)
    quoted = strip(rest)
    if not (quoted.startswith('"') and quoted[1:].endswith('"')):
        raise bad("a tag's value is written in double quotes")
    body = quoted[1:-1]
    value = []
    characters = iter(body)
    for c in characters:
        if c == "\\":
            escaped = next(characters, None)
            if escaped not in ('"', "\\"):
                raise bad("in a tag's value '\\' is written before '\"' or '\\' only")
            value.append(escaped)
        elif c == '"':
            raise bad("a '\"' inside a tag's value is written '\\\"'")
        elif is_control(c):
            raise bad("a tag's value holds no control character")
        else:
            value.append(c)
    return TagLine(number, name, "".join(value))


def lex(text: str, first_line: int) -> tuple[list[TagLine], list[Token]]:
    """The tag lines and the tokens of one record."""
    lines = text.split("\n")
    tags = []
    k = 0
    while k < len(lines):
        trimmed = strip(lines[k])
        if not trimmed:
            k += 1
            continue
        if not trimmed.startswith("["):
            break
        tags.append(tag_line(trimmed, first_line + k))
        k += 1
    return tags, tokens("\n".join(lines[k:]), first_line + k)


def tokens(body: str, line: int) -> list[Token]:
    out = []
    i, n = 0, len(body)
    while i < n:
        c = body[i]
        if c == "\n":
            line += 1
            i += 1
            continue
        if is_space(c):
            i += 1
            continue
        if c == "{":
            token_line = line
            i += 1
            text = []
            while True:
                if i >= n:
                    raise fault(token_line, "{", "this comment has no closing '}'")
                ch = body[i]
                i += 1
                if ch == "}":
                    break
                if ch == "{":
                    raise fault(line, "{", "a comment holds no '{' (it ends at the first '}')")
                if ch == "\n":
                    line += 1
                text.append(ch)
            out.append(Token("comment", "{", token_line, strip("".join(text))))
            continue
        start = i
        while i < n and not is_space(body[i]) and not (body[i] == "{" and i > start):
            i += 1
        word = body[start:i]
        kind, data = token_kind(word, line)
        out.append(Token(kind, word, line, data))
    return out


def token_kind(text: str, line: int) -> tuple[str, object]:
    """A token's kind by its shape (and what it holds), or its fault."""
    if text.endswith(".") and digits(text[:-1]):
        return "number", min(int(text[:-1]), 2**64 - 1)
    if all(c in "RBW" for c in text):
        return "pile", None
    if text == "r":
        return "side", Player.RED
    if text == "b":
        return "side", Player.BLACK
    if text == "=":
        return "result", 0
    pile, plus = (text[:-1], True) if text.endswith("+") else (text, False)
    if digits(pile):
        return "move", (int(pile) if int(pile) < 2**64 else None, plus)
    if text.startswith("(") and text[1:].endswith(")"):
        return "value", value(text[1:-1], line, text)
    for prefix, sign in (("R+", 1), ("B+", -1)):
        if text.startswith(prefix) and digits(text[2:]):
            points = int(text[2:])
            if 0 < points < 1 << 20:
                return "result", sign * points
            raise fault(
                line,
                text,
                f"a battle's result is R+N or B+N with N from 1 up, or '=': not '{shorten(text)}'",
            )
    red, dash, black = text.partition("-")
    if dash and digits(red) and digits(black):
        return "score", (min(int(red), 2**64 - 1), min(int(black), 2**64 - 1))
    raise fault(
        line,
        text,
        f"unknown token '{shorten(text)}': expected a battle number such as '2.', a start "
        "order, 'r' or 'b', a move such as '3' or '0+', a value such as '(+1)', a comment "
        "in braces, a result such as 'R+1', 'B+2' or '=', or a score such as '5-3'",
    )


def parse_value(inner: str) -> float | None:
    """A value's number, or ``None`` when it is not one (the grammar of the core)."""
    cut = next((i for i, c in enumerate(inner) if c in "eE"), None)
    mantissa, exponent = (inner, None) if cut is None else (inner[:cut], inner[cut + 1 :])
    body = mantissa[1:] if mantissa[:1] in ("+", "-") else mantissa
    whole, dot, decimals = body.partition(".")
    if not dot:
        decimals = "0"

    def ok(s: str, most: int) -> bool:
        return digits(s) and len(s) <= most

    exponent_ok = exponent is None or ok(
        exponent[1:] if exponent[:1] in ("+", "-") else exponent, 3
    )
    if ok(whole, MAX_WHOLE_DIGITS) and ok(decimals, MAX_DECIMALS) and exponent_ok:
        number = float(inner)
        if number not in (float("inf"), float("-inf")):
            return number
    return None


def value(inner: str, line: int, text: str) -> float:
    number = parse_value(inner)
    if number is None:
        raise fault(
            line,
            text,
            "a value is a number in parentheses, such as '(+1)', '(-0.25)' or '(+1.5e-7)': "
            f"not '({shorten(inner)})'",
        )
    return number
