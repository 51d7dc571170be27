"""The battle field in colour for the terminal: the piles around an even circle, each
in a fixed place for the whole battle (marked by a letter), numbered as the player
types them, the liftable ones marked ``*`` and the last lift's place marked ``x``."""

from __future__ import annotations

import math
import string

from rich.text import Text

from buttonup.player import Player
from buttonup.results import Scoring
from buttonup.svg import Board

STYLES = {"R": "bold red1", "B": "bold black on grey62", "W": "bold grey93 on grey35"}
PLAYER_STYLES = {Player.RED: "bold red1", Player.BLACK: "bold grey62"}

#: The letters that mark the places of the circle (a battle has at most 30 piles).
MARKERS = string.ascii_uppercase + string.ascii_lowercase


def buttons(pile: str) -> Text:
    """A pile, bottom first, one coloured letter a button."""
    text = Text()
    for button in pile:
        text.append(button, style=STYLES[button])
    return text


def player_name(player: Player) -> Text:
    return Text(str(player), style=PLAYER_STYLES[player])


def marker(slot: int) -> str:
    """The letter of place ``slot`` of the circle: ``A`` at the top, then clockwise."""
    return MARKERS[slot]


def pile_label(slot: int, index: int, pile: str, legal: bool) -> Text:
    """``C 3:RWB*``: the place's letter, the number to type, the buttons bottom first,
    ``*`` when liftable."""
    label = Text(f"{marker(slot)} ", style="dim")
    label.append(f"{index}:", style="bold cyan" if legal else "dim")
    label.append_text(buttons(pile))
    label.append("*" if legal else " ", style="bold cyan")
    return label


def empty_label(slot: int, lifted: bool) -> Text:
    """An emptied place: ``C x`` where the last move lifted a pile, ``C .`` otherwise."""
    if lifted:
        return Text(f"{marker(slot)} x", style="bold yellow")
    return Text(f"{marker(slot)} .", style="dim")


def _round(value: float) -> int:
    """The nearest integer, halves away from zero (so that mirrored places agree)."""
    return int(math.copysign(math.floor(abs(value) + 0.5), value))


def slot_cells(slot_count: int, width: int) -> list[tuple[int, int]]:
    """The row and the centre column of each place of a circle of ``slot_count``:
    evenly spaced clockwise from the top, place ``k`` and place ``slot_count - k``
    mirror images of each other, on an ellipse ``width`` columns wide (about twice as
    wide as high in rows, as terminal cells are twice as high as wide)."""
    radius_rows = max(2, min(9, slot_count // 2))
    radius_columns = width / 2
    cells = []
    for k in range(slot_count):
        mirror = min(k, slot_count - k)  # the same angle measured the other way round
        angle = 2 * math.pi * mirror / slot_count
        row = radius_rows - _round(radius_rows * math.cos(angle))
        side = 1 if k <= slot_count - k else -1
        column = _round(radius_columns * math.sin(angle)) * side
        cells.append((row, column))
    return cells


def circle(board: Board, width: int = 60) -> Text:
    """The piles of ``board`` in their places around the circle; a finished battle's
    single pile as a line."""
    position = board.position
    piles = position.piles
    if len(piles) == 1:
        return Text("  tower (bottom first): ").append_text(buttons(piles[0]))
    legal = set(position.legal_moves())
    lifted = board.lastmove.slot if board.lastmove is not None else None
    labels = [empty_label(slot, slot == lifted) for slot in range(board.slot_count)]
    for index, (slot, pile) in enumerate(zip(board.slots, piles)):
        labels[slot] = pile_label(slot, index, pile, index in legal)
    longest = max(len(label) for label in labels)
    centre = (width + longest) // 2
    rows: dict[int, list[tuple[int, Text]]] = {}
    for (row, column), label in zip(slot_cells(board.slot_count, width), labels):
        start = centre + column - len(label) // 2
        rows.setdefault(row, []).append((max(0, start), label))
    out = Text()
    for row in range(max(rows) + 1):
        line = Text()
        for start, label in sorted(rows.get(row, []), key=lambda item: item[0]):
            line.append(" " * max(1 if len(line) else 0, start - len(line)))
            line.append_text(label)
        out.append_text(line)
        out.append("\n")
    out.append(
        "  (letters: fixed places clockwise from A; type a letter or a pile's number)\n"
        "  (* may be lifted; x: lifted by the last move; .: emptied earlier)",
        style="dim",
    )
    return out


def tower(scoring: Scoring) -> Text:
    """The final pile upright, each button with its strength."""
    out = Text()
    pile = scoring.tower
    for height in range(len(pile), 0, -1):
        button = pile[height - 1]
        out.append(f"  {height:>2} ")
        out.append(f" {button} ", style=STYLES[button])
        out.append("\n")
    return out
