"""The battle field in colour for the terminal: the piles around a circle, numbered as the
player types them, with the legal ones marked."""

from __future__ import annotations

import math

from rich.text import Text

from buttonup.player import Player
from buttonup.results import Scoring
from buttonup.text import AnyPosition

STYLES = {"R": "bold red1", "B": "bold black on grey62", "W": "bold grey93 on grey35"}
PLAYER_STYLES = {Player.RED: "bold red1", Player.BLACK: "bold grey62"}


def buttons(pile: str) -> Text:
    """A pile, bottom first, one coloured letter a button."""
    text = Text()
    for button in pile:
        text.append(button, style=STYLES[button])
    return text


def player_name(player: Player) -> Text:
    return Text(str(player), style=PLAYER_STYLES[player])


def pile_label(index: int, pile: str, legal: bool) -> Text:
    """``3:RWB*``: the number to type, the buttons bottom first, ``*`` when liftable."""
    label = Text(f"{index}:", style="bold cyan" if legal else "dim")
    label.append_text(buttons(pile))
    label.append("*" if legal else " ", style="bold cyan")
    return label


def circle(position: AnyPosition, width: int = 64) -> Text:
    """The piles around an ellipse, clockwise from the top, read bottom first."""
    piles = position.piles
    if len(piles) == 1:
        return Text("  tower (bottom first): ").append_text(buttons(piles[0]))
    legal = set(position.legal_moves())
    labels = [pile_label(i, pile, i in legal) for i, pile in enumerate(piles)]
    longest = max(len(label) for label in labels)
    height = 5 if len(piles) <= 4 else 7
    rows: list[list[tuple[int, Text]]] = [[] for _ in range(height)]
    rx = (width - longest) / 2
    ry = (height - 1) / 2
    for i, label in enumerate(labels):
        angle = -math.pi / 2 + 2 * math.pi * i / len(piles)
        x = round(rx + rx * math.cos(angle) - len(label) / 2 + longest / 2)
        y = round(ry + ry * math.sin(angle))
        rows[y].append((max(0, x), label))
    out = Text()
    for row in rows:
        line = Text()
        for x, label in sorted(row, key=lambda item: item[0]):
            line.append(" " * max(1 if len(line) else 0, x - len(line)))
            line.append_text(label)
        out.append_text(line)
        out.append("\n")
    out.append(
        "  (clockwise from the top; piles written bottom first; * may be lifted)", style="dim"
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
