"""The reporting commands ``analyze`` and ``tournament`` (``solve-all`` has its own
module)."""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from buttonup._core import STANDARD_PER_COLOUR, Position, analyze, search
from buttonup.matches import tournament


def verdict(value: int) -> str:
    if value > 0:
        return f"won by {value}"
    if value < 0:
        return f"lost by {-value}"
    return "drawn"


def analyze_report(position: Position, console: Console) -> None:
    """The exact value of every legal move, best first, and the best line."""
    console.print(f"Position: {position}")
    if position.is_over:
        red, black = position.sums()
        console.print(f"The battle is over: Red {red}, Black {black}.")
        return
    mover = position.to_move
    values = sorted(analyze(position).items(), key=lambda item: (-item[1], item[0]))
    table = Table(title=f"{mover} to move")
    table.add_column("move", justify="right")
    table.add_column("pile")
    table.add_column(f"value for {mover}", justify="right")
    for move, value in values:
        table.add_row(str(move), position.piles[move], f"{value:+d}")
    console.print(table)
    result = search(position)
    line, current = [], position
    for move in result.pv:
        outcome = current.outcome(move)
        line.append(f"{move}{'+' if outcome.extra_move else ''}")
        current = outcome.position
    console.print(f"Best line: {' '.join(line)}   (+ marks an extra move)")
    red, black = current.sums()
    console.print(f"Final pile: {current.piles[0]}   Red {red}, Black {black}")
    console.print(f"Under perfect play the position is {verdict(result.value)} for {mover}.")


def tournament_report(
    specs: list[str],
    matches: int,
    seed: int,
    jobs: int,
    json_path: Path | None,
    console: Console,
    records_path: Path | None = None,
    per_colour: int = STANDARD_PER_COLOUR,
    movetime_ms: int | None = None,
) -> None:
    """Every pairing of the bots, with a progress bar, then the table; the records of
    the matches to ``records_path`` (one after another) when given; ``movetime_ms``:
    the level scale's bots search within that time a move."""
    pairings = len(specs) * (len(specs) - 1) // 2
    with Progress(
        TextColumn("matches"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True, no_color=console.no_color),
        transient=True,
    ) as progress:
        task = progress.add_task("matches", total=pairings * matches)
        results = tournament(
            specs,
            matches,
            seed=seed,
            threads=jobs,
            progress=lambda: progress.advance(task),
            records=records_path is not None,
            per_colour=per_colour,
            movetime=None if movetime_ms is None else movetime_ms / 1000,
        )
    size = "" if per_colour == STANDARD_PER_COLOUR else f", {per_colour} buttons of each colour"
    if movetime_ms is not None:
        size += f", searches within {movetime_ms} ms a move"
    table = Table(title=f"{matches} matches per pairing (colours alternated), seed {seed}{size}")
    for column in (
        "pairing",
        "W-L",
        "win rate",
        "95% CI",
        "margin",
        "battles",
        "starter",
    ):
        table.add_column(column, justify="left" if column == "pairing" else "right")
    for series in results:
        low, high = series.interval()
        table.add_row(
            f"{series.first} vs {series.second}",
            f"{series.wins}-{series.matches - series.wins}",
            f"{series.win_rate:.3f}",
            f"{low:.3f}-{high:.3f}",
            f"{series.mean_margin:+.2f}",
            f"{series.battles_per_match:.2f}",
            f"{series.first_player_win_rate:.3f}",
        )
    console.print(table)
    console.print(
        "win rate: of the first bot; margin: its mean battle margin; battles: per match; "
        "starter: share of decided battles won by the player who started them",
        style="dim",
    )
    if json_path is not None:
        data = {
            "matches": matches,
            "seed": seed,
            "per_colour": per_colour,
            "movetime_ms": movetime_ms,
            "pairings": [s.as_dict() for s in results],
        }
        json_path.write_text(json.dumps(data, indent=2) + "\n")
        console.print(f"Wrote {json_path}")
    if records_path is not None:
        texts = [text for series in results for text in series.records]
        records_path.write_text("\n".join(texts), encoding="utf-8")
        console.print(f"Wrote the {len(texts)} match records to {records_path}")
