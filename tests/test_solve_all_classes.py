"""``buttonup solve-all`` solves one start per class of symmetric starts and writes every
row: checked against a plain solve of every start, row by row and byte for byte."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from buttonup import Player, Position, solve_many, start_orders
from buttonup._core import start_classes
from buttonup.cli.main import main


def brute_force_csv(per_colour: int) -> str:
    """The table as the plain way makes it: every start, each side to move, solved."""
    starts = [(order, side) for order in start_orders(per_colour) for side in Player]
    values = solve_many([Position.start(order, to_move=side) for order, side in starts])
    lines = ["start,to_move,value"]
    lines += [f"{order},{side.letter},{value}" for (order, side), value in zip(starts, values)]
    return "\n".join(lines) + "\n"


def rotations(order: str) -> set[str]:
    return {order[i:] + order[:i] for i in range(len(order))}


def test_class_counts_are_the_circles_up_to_rotation() -> None:
    # Burnside's counts of the circles of k of each colour up to rotation.
    for per_colour, count in [(1, 2), (2, 16), (3, 188), (4, 2896)]:
        representatives, rows = start_classes(per_colour)
        assert len(representatives) == count
        assert len(rows) == 2 * len(start_orders(per_colour))


def test_each_start_is_in_the_class_of_its_rotations_and_colour_swap() -> None:
    representatives, rows = start_classes(3)
    swap = str.maketrans("RB", "BR")
    for i, order in enumerate(start_orders(3)):
        assert representatives[rows[2 * i]] in rotations(order)
        assert representatives[rows[2 * i + 1]] in rotations(order.translate(swap))


@pytest.mark.parametrize("per_colour", [3, 4])
def test_solve_all_writes_the_plain_table_byte_for_byte(tmp_path: Path, per_colour: int) -> None:
    target = tmp_path / "values.csv"
    assert main(["solve-all", "--per-colour", str(per_colour), "--csv", str(target)]) == 0
    written = target.read_bytes()
    assert written.decode() == brute_force_csv(per_colour)
    if per_colour == 4:
        # The file published in docs/ai.md, solved without the symmetries.
        digest = hashlib.sha256(written).hexdigest()
        assert digest.startswith("7de6a185") and digest.endswith("30cf996d2854")


def test_an_interrupted_file_is_completed_to_the_same_table(tmp_path: Path) -> None:
    whole = brute_force_csv(4)
    target = tmp_path / "values.csv"
    for cut in [10, 20_000, 69_000]:
        lines = whole.splitlines(keepends=True)
        # The rows written so far and half of the next line, as a killed run leaves it.
        target.write_text("".join(lines[: 1 + cut]) + lines[1 + cut][:5])
        assert main(["solve-all", "--per-colour", "4", "--csv", str(target)]) == 0
        assert target.read_text() == whole
