"""``buttonup solve-all``: the perfect-play value of every start of a variant, both
sides to move, solved on every core (or on a Ray cluster), with a progress bar.

Only one start of each class of starts that the rules cannot tell apart is solved
(``start_classes``: turning the circle, and swapping red and black with the side to
move), with Red to move; every row of the output takes its class's value. The classes
are solved in the order the rows first need them, in large batches, and as soon as the
batches before it are in, every row whose class is known is written. With ``--csv``
those rows are appended to the file at once, so an interrupted run loses at most the
batches in progress: run the same command again and it goes on where the file ends.

Nothing holds the whole table: the rows are streamed to the file and only counted
(34 million rows for six of each colour)."""

from __future__ import annotations

import contextlib
import os
from array import array
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO

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

from buttonup._core import Position, solve_many, start_classes, start_orders_from
from buttonup.player import Player

HEADER = ["start", "to_move", "value"]
# Classes solved in one call (one table for all of them; one write to the file): all the
# classes of 3 and 4 of each colour at once, those of 5 in seven batches of seconds each.
BATCH = 8192
# Start orders asked of the core at a time while streaming the rows.
CHUNK = 65_536
# Rows formatted before each write to the file.
WRITE_EVERY = 65_536
# The side letters of a start order's two rows, in the order of the output.
SIDES = [side.letter for side in Player]

# A batch of classes: the number of its first class and the start orders to solve with
# Red to move.
Batch = tuple[int, list[str]]
# Solves batches, yielding each batch's first class and its values (in any order).
Solver = Callable[[Iterable[Batch]], Generator[tuple[int, list[int]], None, None]]


def orders_from(per_colour: int, first: int) -> Iterator[str]:
    """The start orders from the ``first``-th on, a chunk at a time from the core."""
    while True:
        chunk = start_orders_from(per_colour, first, CHUNK)
        yield from chunk
        if len(chunk) < CHUNK:
            return
        first += CHUNK


def solve_locally(threads: int | None) -> Solver:
    """Every batch in order on this machine, ``solve_many`` on ``threads`` threads."""

    def solve(batches: Iterable[Batch]) -> Generator[tuple[int, list[int]], None, None]:
        for first, orders in batches:
            positions = [Position.start(order, to_move=Player.RED) for order in orders]
            yield first, solve_many(positions, threads=threads)

    return solve


class Rows:
    """The rows of the output, in order, and what is known of their classes: the value
    of every class up to the first one not yet solved, and the count of each value in
    the rows written."""

    def __init__(self, per_colour: int) -> None:
        self.per_colour = per_colour
        representatives, rows = start_classes(per_colour)
        self.representatives: list[str] = representatives
        self.class_of: array[int] = rows
        self.values: list[int] = []
        self.counts: Counter[int] = Counter()
        self.written = 0
        self._orders: Iterator[str] | None = None
        self._order = ""

    @property
    def total(self) -> int:
        return len(self.class_of)

    def _next_order(self) -> str:
        """The start order of row ``written`` (one order for its two rows)."""
        if self._orders is None:
            self._orders = orders_from(self.per_colour, self.written // 2)
            self._order = next(self._orders)
        elif self.written % 2 == 0:
            self._order = next(self._orders)
        return self._order

    def read(self, path: Path) -> None:
        """The rows an earlier run wrote to ``path``: they must be the first of the table,
        in order. A last line cut off in the middle (no newline) is dropped from the
        file, to be written again."""
        with path.open("rb+") as handle:
            end = 0
            for number, raw in enumerate(handle, start=1):
                if not raw.endswith(b"\n"):
                    if number == 1 and not ",".join(HEADER).encode().startswith(raw):
                        raise ValueError(f"{path}: not a solve-all file (no complete first line)")
                    handle.truncate(end)
                    break
                end += len(raw)
                line = raw.decode(errors="replace").rstrip("\n")
                if number == 1:
                    if line.split(",") != HEADER:
                        raise ValueError(
                            f"{path}: not a solve-all file (its first line is not "
                            f"{','.join(HEADER)})"
                        )
                    continue
                self._read_row(path, number, line)

    def _read_row(self, path: Path, number: int, line: str) -> None:
        if self.written >= self.total:
            raise ValueError(f"{path} line {number}: more rows than this variant has starts")
        order, side = self._next_order(), SIDES[self.written % 2]
        fields = line.split(",")
        try:
            value = int(fields[2]) if len(fields) == 3 else None
        except ValueError:
            value = None
        if value is None or fields[0] != order or fields[1] != side:
            raise ValueError(
                f"{path} line {number}: expected {order},{side},<value>, found {line!r} "
                "(is it from another variant? use another file or delete it)"
            )
        class_ = self.class_of[self.written]
        if class_ == len(self.values):
            self.values.append(value)
        elif self.values[class_] != value:
            raise ValueError(
                f"{path} line {number}: {value} for {order},{side}, but line "
                f"{self.class_of.index(class_) + 2} gave its class {self.values[class_]}"
            )
        self.counts[value] += 1
        self.written += 1

    def write_known(self, handle: IO[str] | None) -> None:
        """Every row not yet written whose class is solved, up to the first that is not."""
        known = len(self.values)
        lines: list[str] = []
        while self.written < self.total and self.class_of[self.written] < known:
            order = self._next_order()
            value = self.values[self.class_of[self.written]]
            lines.append(f"{order},{SIDES[self.written % 2]},{value}\n")
            self.counts[value] += 1
            self.written += 1
            if len(lines) >= WRITE_EVERY:
                self._write(handle, lines)
        self._write(handle, lines)

    @staticmethod
    def _write(handle: IO[str] | None, lines: list[str]) -> None:
        if handle is not None and lines:
            handle.writelines(lines)
            handle.flush()
        lines.clear()


def solve_all_counts(
    console: Console,
    csv_path: Path | None,
    per_colour: int,
    solver: Solver,
    batch: int = BATCH,
) -> Counter[int]:
    """The count of each value over every row, reading what ``csv_path`` already has and
    appending the rest to it."""
    if batch < 1:
        raise ValueError(f"--batch must be at least 1, not {batch}")
    table = Rows(per_colour)
    if csv_path is not None and csv_path.exists():
        table.read(csv_path)
        if table.written:
            console.print(
                f"Resuming: {table.written:,} of {table.total:,} rows already in {csv_path}"
            )
    handle = None
    if csv_path is not None:
        handle = csv_path.open("a", newline="")
        if os.fstat(handle.fileno()).st_size == 0:
            handle.write(",".join(HEADER) + "\n")
            handle.flush()
    errors = Console(stderr=True, no_color=console.no_color)
    classes = len(table.representatives)
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
            task = progress.add_task("solving", total=classes, completed=len(table.values))
            # A resumed file may already name every class before its last row.
            table.write_known(handle)
            batches = (
                (first, table.representatives[first : first + batch])
                for first in range(len(table.values), classes, batch)
            )
            done: dict[int, list[int]] = {}
            with contextlib.closing(solver(batches)) as results:
                for first, values in results:
                    progress.advance(task, len(values))
                    done[first] = values
                    # The rows wait for every batch before theirs.
                    while len(table.values) in done:
                        table.values.extend(done.pop(len(table.values)))
                    table.write_known(handle)
    finally:
        if handle is not None:
            handle.close()
    return table.counts


def first_player_edge(counts: Mapping[int, int]) -> tuple[float, float, float]:
    """Of ``counts``, how many starts have each value for the first player: the first
    player's average value, and the shares of starts won and lost.

    >>> first_player_edge({2: 1, 0: 2, -4: 1})
    (-0.5, 0.25, 0.25)
    """
    total = sum(counts.values())
    mean = sum(value * count for value, count in counts.items()) / total
    won = sum(count for value, count in counts.items() if value > 0) / total
    lost = sum(count for value, count in counts.items() if value < 0) / total
    return mean, won, lost


def solve_all_report(
    console: Console,
    csv_path: Path | None,
    per_colour: int = 3,
    threads: int | None = None,
    *,
    batch: int = BATCH,
    solver: Solver | None = None,
) -> None:
    """The perfect-play value of every start of a variant, both sides to move: solved
    here on ``threads`` threads, or by ``solver`` (``solve_on_ray``)."""
    counts = solve_all_counts(
        console, csv_path, per_colour, solver or solve_locally(threads), batch
    )
    total = sum(counts.values())
    # Each row is a start order with one side to move: twice as many as the orders.
    table = Table(
        title=f"Perfect-play value of {total:,} start positions",
        caption=f"{total // 2:,} start orders, either side to move",
    )
    table.add_column("value for the first player", justify="right")
    table.add_column("positions", justify="right")
    table.add_column("share", justify="right")
    for value in sorted(counts):
        table.add_row(f"{value:+d}", str(counts[value]), f"{counts[value] / total:.1%}")
    console.print(table)
    mean, won, lost = first_player_edge(counts)
    console.print(f"First player's average edge: {mean:+.4f} points per battle")
    console.print(f"First player wins {won:.1%}, draws {1 - won - lost:.1%}, loses {lost:.1%}")
    if csv_path is not None:
        console.print(f"{csv_path} holds all {total:,} rows")
