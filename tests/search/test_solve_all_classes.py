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


def burnside(per_colour: int) -> int:
    """The circles of ``per_colour`` beads of each of 3 colours up to rotation."""
    from math import factorial, gcd

    n = 3 * per_colour
    total = 0
    for turn in range(n):
        cycles = gcd(n, turn)  # a turn by ``turn`` piles splits the circle in these cycles
        if per_colour % (n // cycles) == 0:
            each = per_colour // (n // cycles)
            total += factorial(cycles) // factorial(each) ** 3
    return total // n


def test_six_of_each_colour_has_953056_classes_of_34_million_starts() -> None:
    representatives, rows = start_classes(6)
    assert len(representatives) == burnside(6) == 953_056
    assert len(rows) == 2 * 17_153_136 and rows.itemsize == 4
    assert rows[0] == 0 and max(rows[-1000:]) < len(representatives)
    swap = str.maketrans("RB", "BR")
    # The last start order, WWWWWWRRRRRRBBBBBB, with Black to move.
    assert representatives[rows[-1]] in rotations("WWWWWWRRRRRRBBBBBB".translate(swap))
    assert [burnside(k) for k in range(1, 6)] == [len(start_classes(k)[0]) for k in range(1, 6)]


def test_the_listing_of_starts_in_pieces_is_the_whole_listing() -> None:
    from buttonup._core import start_orders_from

    whole = start_orders(4)
    pieces = [start_orders_from(4, first, 5000) for first in range(0, len(whole), 5000)]
    assert [order for piece in pieces for order in piece] == whole
    assert start_orders_from(4, len(whole), 3) == []
    assert start_orders_from(6, 17_153_135, 9) == ["WWWWWWRRRRRRBBBBBB"]
    with pytest.raises(ValueError, match="start orders are listed for 1 to 6 buttons"):
        start_orders_from(7, 0, 1)


def test_a_file_whose_rows_disagree_on_a_class_is_refused(tmp_path: Path) -> None:
    lines = brute_force_csv(3).splitlines(keepends=True)
    # The second row of the first row's class (a turn of its start, or its colour swap
    # with Black to move): a file that gives that class two values is not solve-all's.
    rows = start_classes(3)[1]
    again = [i for i, class_ in enumerate(rows) if class_ == rows[0]][1]
    order, side, value = lines[1 + again].rstrip("\n").split(",")
    lines[1 + again] = f"{order},{side},{int(value) + 1}\n"
    target = tmp_path / "values.csv"
    target.write_text("".join(lines))
    assert main(["solve-all", "--csv", str(target)]) == 2
    assert target.read_text() == "".join(lines)  # left as it was
