"""``buttonup solve-all``: the perfect-play value of every start of a variant, both
sides to move, solved on every core, with a progress bar.

Only one start of each class of starts that the rules cannot tell apart is solved
(``start_classes``: turning the circle, and swapping red and black with the side to
move), with Red to move; every row of the output takes its class's value. The classes
are solved in the order the rows first need them, in large batches, and after each batch
every row whose class is known is written. With ``--csv`` those rows are appended to the
file at once, so an interrupted run loses at most one batch: run the same command again
and it goes on where the file ends."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from buttonup._core import Position, solve_many, start_classes, start_orders
from buttonup.player import Player

HEADER = ["start", "to_move", "value"]
# Classes solved in one call (one table for all of them; one write to the file): all the
# classes of 3 and 4 of each colour at once, those of 5 in seven batches of seconds each.
BATCH = 8192

Row = tuple[str, Player, int]


def wanted(per_colour: int) -> Iterator[tuple[str, Player]]:
    """Every start order with each side to move, in the order of the output."""
    for order in start_orders(per_colour):
        for side in Player:
            yield order, side


def read_done(path: Path, expected: list[tuple[str, Player]]) -> list[Row]:
    """The rows an earlier run wrote to ``path``: they must be the first of ``expected``,
    in order. A last line cut off in the middle (no newline) is dropped and rewritten."""
    text = path.read_text()
    if not text:
        return []
    complete = text if text.endswith("\n") else text[: text.rfind("\n") + 1]
    lines = complete.splitlines()
    if not lines or lines[0].split(",") != HEADER:
        raise ValueError(f"{path}: not a solve-all file (its first line is not {','.join(HEADER)})")
    rows: list[Row] = []
    for number, line in enumerate(lines[1:], start=2):
        fields = line.split(",")
        index = number - 2
        if index >= len(expected):
            raise ValueError(f"{path} line {number}: more rows than this variant has starts")
        order, side = expected[index]
        try:
            value = int(fields[2]) if len(fields) == 3 else None
        except ValueError:
            value = None
        if value is None or fields[0] != order or fields[1] != side.letter:
            raise ValueError(
                f"{path} line {number}: expected {order},{side.letter},<value>, found {line!r} "
                "(is it from another variant? use another file or delete it)"
            )
        rows.append((order, side, value))
    if complete != text:
        path.write_text(complete)
    return rows


def solve_all_rows(
    console: Console, csv_path: Path | None, per_colour: int, threads: int | None
) -> list[Row]:
    """Every row, reading what ``csv_path`` already has and appending the rest to it."""
    expected = list(wanted(per_colour))
    representatives, row_class = start_classes(per_colour)
    # The first row of each class: classes are numbered in the order rows first need them.
    first_row = [0] * len(representatives)
    seen = 0
    for row, class_ in enumerate(row_class):
        if class_ == seen:
            first_row[class_] = row
            seen += 1
    rows: list[Row] = []
    if csv_path is not None and csv_path.exists():
        rows = read_done(csv_path, expected)
        if rows:
            console.print(
                f"Resuming: {len(rows):,} of {len(expected):,} rows already in {csv_path}"
            )
    # What the rows already written say of their classes: every class first needed by
    # one of them, which is all the classes before the first one still to solve.
    values: list[int] = []
    for row in first_row:
        if row >= len(rows):
            break
        values.append(rows[row][2])
    handle = None
    if csv_path is not None:
        handle = csv_path.open("a", newline="")
        if not rows and csv_path.stat().st_size == 0:
            handle.write(",".join(HEADER) + "\n")
            handle.flush()
    errors = Console(stderr=True, no_color=console.no_color)
    try:
        with Progress(
            TextColumn("solving"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("classes"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=errors,
            transient=True,
            disable=not errors.is_terminal,  # a bar only for a person watching
        ) as progress:
            task = progress.add_task("solving", total=len(representatives), completed=len(values))

            def write_known() -> None:
                """Every row before the first row of the next class to solve."""
                end = first_row[len(values)] if len(values) < len(first_row) else len(expected)
                new = [
                    (order, side, values[row_class[row]])
                    for row, (order, side) in enumerate(expected[len(rows) : end], start=len(rows))
                ]
                if handle is not None:
                    handle.writelines(f"{o},{s.letter},{v}\n" for o, s, v in new)
                    handle.flush()
                rows.extend(new)

            # A resumed file may already name every class before its last row.
            write_known()
            for first in range(len(values), len(representatives), BATCH):
                batch = representatives[first : first + BATCH]
                values.extend(
                    solve_many(
                        [Position.start(order, to_move=Player.RED) for order in batch],
                        threads=threads,
                    )
                )
                write_known()
                progress.advance(task, len(batch))
    finally:
        if handle is not None:
            handle.close()
    return rows


def solve_all_report(
    console: Console, csv_path: Path | None, per_colour: int = 3, threads: int | None = None
) -> None:
    """The perfect-play value of every start of a variant, both sides to move."""
    rows = solve_all_rows(console, csv_path, per_colour, threads)
    counts = Counter(value for _, _, value in rows)
    # Each row is a start order with one side to move: twice as many as the orders.
    table = Table(
        title=f"Perfect-play value of {len(rows):,} start positions",
        caption=f"{len(rows) // 2:,} start orders, either side to move",
    )
    table.add_column("value for the first player", justify="right")
    table.add_column("positions", justify="right")
    table.add_column("share", justify="right")
    for value in sorted(counts):
        table.add_row(f"{value:+d}", str(counts[value]), f"{counts[value] / len(rows):.1%}")
    console.print(table)
    mean = sum(value for _, _, value in rows) / len(rows)
    won = sum(value > 0 for _, _, value in rows) / len(rows)
    lost = sum(value < 0 for _, _, value in rows) / len(rows)
    console.print(f"First player's average edge: {mean:+.4f} points per battle")
    console.print(f"First player wins {won:.1%}, draws {1 - won - lost:.1%}, loses {lost:.1%}")
    if csv_path is not None:
        console.print(f"{csv_path} holds all {len(rows):,} rows")
