"""The notation ``PILES SIDE``, read and checked the way the Rust core does it, with the
same error messages."""

from __future__ import annotations

from buttonup.errors import NotationError

MAX_BUTTONS = 32
BLANKS = " \t\r\n"


def describe(character: str) -> str:
    """Names a character in a message: itself when printable ASCII, else its code point."""
    if "!" <= character <= "~":
        return f"'{character}'"
    return f"U+{ord(character):04X}"


def shorten(text: str) -> str:
    """At most 20 characters of user text."""
    return text if len(text) <= 20 else text[:20] + "..."


def check_ascii(text: str) -> None:
    if text.isascii():
        return
    for index, character in enumerate(text):
        if not character.isascii():
            raise NotationError(f"non-ASCII character {describe(character)} at index {index}")


def bad_button(character: str, index: int, *, start: bool = False) -> NotationError:
    expected = (
        "a start order is one letter a pile, 'R', 'B' or 'W'"
        if start
        else ("expected 'R', 'B', 'W' or '/'")
    )
    return NotationError(f"unknown button {describe(character)} at index {index}: {expected}")


def empty_pile(pile: int) -> NotationError:
    return NotationError(
        f"pile {pile} is empty (two '/' in a row, or a '/' at either end of the piles)"
    )


def check_buttons(piles: list[str]) -> None:
    """The checks of a whole position: not too many buttons, at least one white."""
    if sum(len(pile) for pile in piles) > MAX_BUTTONS:
        raise NotationError(f"too many buttons: a position holds at most {MAX_BUTTONS}")
    if not any("W" in pile for pile in piles):
        raise NotationError("no white button: a position needs at least one W")


def parse(text: str) -> tuple[list[str], str]:
    """The piles and the side letter of a position's notation."""
    check_ascii(text)
    trimmed = text.strip(BLANKS)
    if not trimmed:
        raise NotationError(
            "empty notation: expected 'PILES SIDE', for example 'W/R/B/W/B/R/R/W/B r'"
        )
    offset = len(text) - len(text.lstrip(BLANKS))
    fields = [field for field in _split_blanks(trimmed) if field]
    if len(fields) < 2:
        raise NotationError("missing side to move: expected the piles, a space, then 'r' or 'b'")
    if len(fields) > 2:
        raise NotationError(f"unexpected text after the side to move: '{shorten(fields[2])}'")
    piles_text, side = fields
    piles = piles_text.split("/")
    count = 0
    index = offset
    for number, pile in enumerate(piles):
        if not pile:
            raise empty_pile(number)
        for character in pile:
            if character not in "RBW":
                raise bad_button(character, index)
            count += 1
            if count > MAX_BUTTONS:
                raise NotationError(f"too many buttons: a position holds at most {MAX_BUTTONS}")
            index += 1
        index += 1  # the '/'
    if side not in ("r", "b"):
        raise NotationError(f"bad side to move '{shorten(side)}': expected 'r' or 'b'")
    check_buttons(piles)
    return piles, side


def parse_start(order: str) -> list[str]:
    """The one-button piles of a start order such as ``WRBWBRRWB``."""
    check_ascii(order)
    for index, character in enumerate(order):
        if character not in "RBW":
            raise bad_button(character, index, start=True)
        if index >= MAX_BUTTONS:
            raise NotationError(f"too many buttons: a position holds at most {MAX_BUTTONS}")
    if not order:
        raise NotationError(
            "empty notation: expected 'PILES SIDE', for example 'W/R/B/W/B/R/R/W/B r'"
        )
    piles = list(order)
    check_buttons(piles)
    return piles


def _split_blanks(text: str) -> list[str]:
    for blank in BLANKS[1:]:
        text = text.replace(blank, " ")
    return text.split(" ")
