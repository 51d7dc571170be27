"""The pictures of ``buttonup.svg`` as a reader of the SVG sees them: every button drawn
once, inside the picture, none over another; liftable piles marked where the rules
say; piles kept at their slots across a battle; the last move marked."""

from __future__ import annotations

import ast
import json
import math
import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from buttonup import BattleNotOverError, IllegalMoveError, Match, Position, svg
from hypothesis import given, settings
from hypothesis import strategies as st
from source_scripts import load

NS = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parents[2]


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{NS}svg"
    return root


def classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


def find(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in classes(e)]


def discs(root: ET.Element) -> list[tuple[float, float, float]]:
    """Each button's painted disc: centre and radius (face radius plus half its rim)."""
    found = []
    for button in find(root, "button"):
        face = button[0]
        assert face.tag == f"{NS}circle" and "face" in classes(face)
        radius = float(face.get("r", "0")) + float(face.get("stroke-width", "0")) / 2
        found.append((float(face.get("cx", "nan")), float(face.get("cy", "nan")), radius))
    return found


def view_box(root: ET.Element) -> tuple[float, float, float, float]:
    x, y, width, height = map(float, root.get("viewBox", "").split())
    return x, y, width, height


def check_picture(position: Position, text: str) -> ET.Element:
    """What every picture promises, computed from the SVG alone."""
    root = parse(text)
    piles = position.piles
    # One button element per button, pile by pile, bottom first, in their colours.
    pile_elements = find(root, "pile")
    assert [p.get("data-pile") for p in pile_elements] == [str(i) for i in range(len(piles))]
    assert len(find(root, "button")) == sum(map(len, piles))
    for index, (element, pile) in enumerate(zip(pile_elements, piles)):
        assert element.get("data-buttons") == pile
        buttons = [e for e in element.iter() if "button" in classes(e)]
        assert "".join(b.get("data-colour", "?") for b in buttons) == pile
        assert [b.get("data-level") for b in buttons] == [str(i) for i in range(len(pile))]
        assert all(b.get("data-pile") == str(index) for b in buttons)
        assert "top" in classes(buttons[-1]) and not any("top" in classes(b) for b in buttons[:-1])
        # Liftable exactly when the pile holds a white and the battle goes on (rule 2).
        liftable = "W" in pile and len(piles) > 1
        assert ("liftable" in classes(element)) == liftable
        assert element.get("data-liftable") == str(liftable).lower()
        title = element.find(f"{NS}title")
        assert title is not None and title.text and title.text.startswith(f"pile {index}:")
    # Inside the picture, and apart.
    x0, y0, width, height = view_box(root)
    circles = discs(root)
    for cx, cy, r in circles:
        assert x0 <= cx - r and cx + r <= x0 + width, (cx, r)
        assert y0 <= cy - r and cy + r <= y0 + height, (cy, r)
    for i, (ax, ay, ar) in enumerate(circles):
        for bx, by, br in circles[i + 1 :]:
            assert math.hypot(ax - bx, ay - by) >= ar + br, "two buttons overlap"
            # Nor do their bounding boxes, the squares a browser reports.
            assert max(abs(ax - bx), abs(ay - by)) >= ar + br, "two buttons' boxes overlap"
    assert root.get("data-position") == str(position)
    return root


def bearing_of(x: float, y: float, root: ET.Element) -> float:
    """The bearing in degrees, clockwise from the top, of a point seen from the centre."""
    x0, y0, width, height = view_box(root)
    return math.degrees(math.atan2(x - (x0 + width / 2), (y0 + height / 2) - y)) % 360


def angle_apart(a: float, b: float) -> float:
    return abs((a - b + 180) % 360 - 180)


@st.composite
def battles(draw: st.DrawFn) -> tuple[Position, list[int]]:
    """A start of 1 to 9 buttons of each colour and some legal moves from it."""
    per_colour = draw(st.integers(1, 9))
    start = Position.random(draw(st.integers(0, 2**32)), per_colour=per_colour)
    moves: list[int] = []
    position = start
    for _ in range(draw(st.integers(0, 3 * per_colour))):
        if position.is_over:
            break
        move = draw(st.sampled_from(position.legal_moves()))
        moves.append(move)
        position = position.play(move)
    return start, moves


@settings(max_examples=300, deadline=None)
@given(battles())
def test_a_battle_drawn_with_stable_slots(battle: tuple[Position, list[int]]) -> None:
    start, moves = battle
    count = len(start.piles)
    # The slots as the notation implies them: a lift takes its pile out of the list.
    slots = list(range(count))
    position = start
    lifted = None
    drops: list[int] = []
    for move in moves:
        outcome = position.outcome(move)
        lifted = slots.pop(move)
        drops = [pile - 1 if pile > move else pile for pile in outcome.drops]
        position = outcome.position
    board = svg.walk(start, moves)
    assert board.position == position and list(board.slots) == slots
    assert board.slot_count == count
    # The buttons keep one size: never larger than at any earlier move of the battle.
    earlier = svg.walk(start, moves[:-1]).radius if moves else board.radius
    assert board.radius <= earlier
    root = check_picture(position, board.svg())
    assert all(abs(r - board.radius) < 0.02 for _, _, r in discs(root))
    assert root.get("data-slot-count") == str(count)
    for element, slot in zip(find(root, "pile"), slots):
        assert element.get("data-slot") == str(slot)
        # The pile stands at its slot: the anchor on the slot's bearing, and its bottom
        # button within the slot's share of the circle.
        anchor = bearing_of(
            float(element.get("data-x", "0")), float(element.get("data-y", "0")), root
        )
        assert angle_apart(anchor, 360 * slot / count) < 0.5
        bottom = next(e for e in element.iter() if e.get("data-level") == "0")[0]
        seen = bearing_of(float(bottom.get("cx", "0")), float(bottom.get("cy", "0")), root)
        gaps = [(other - slot) % count or count for other in slots if other != slot]
        assert angle_apart(seen, 360 * slot / count) <= 180 * min(gaps, default=count) / count
    marks = find(root, "lifted")
    if lifted is None:
        assert marks == [] and find(root, "dropped") == []
    else:
        assert [m.get("data-slot") for m in marks] == [str(lifted)]
        for index, element in enumerate(find(root, "pile")):
            received = drops.count(index)
            assert ("dropped" in classes(element)) == (received > 0)
            dropped = [e for e in element.iter() if {"button", "dropped"} <= classes(e)]
            assert len(dropped) == received
            if received:
                levels = [int(e.get("data-level", "-1")) for e in dropped]
                assert levels == list(
                    range(
                        len(element.get("data-buttons", "")) - received,
                        len(element.get("data-buttons", "")),
                    )
                )


piles_text = st.lists(st.text("RBW", min_size=1, max_size=27), min_size=1, max_size=12).filter(
    lambda piles: sum(map(len, piles)) <= 32 and any("W" in p for p in piles)
)


@settings(max_examples=200, deadline=None)
@given(piles_text, st.sampled_from("rb"))
def test_any_position_is_drawn_whole(piles: list[str], side: str) -> None:
    position = Position(f"{'/'.join(piles)} {side}")
    check_picture(position, svg.position(position))
    # With room to spare on a larger circle too.
    slots = sorted(random.Random(str(position)).sample(range(32), len(piles)))
    check_picture(position, svg.position(position, slots=slots, slot_count=32))


@pytest.mark.parametrize(
    "text",
    [
        "W" * 9 + "R" * 9 + "B" * 9 + " b",  # one pile of 27
        "RWBBWW/BRR r",  # the tall pile of the issue
        "/".join("RBW" * 9) + " r",  # a start of 9 per colour
        "/".join(["RBWRBWRBWR", "BWRBWRBWRB", "W", "R"] + ["B"] * 10) + " r",
    ],
)
def test_tall_piles_and_large_variants(text: str) -> None:
    position = Position(text)
    root = check_picture(position, svg.position(position))
    # Every button at least a few units across: shrunk, never clipped to nothing.
    assert min(r for _, _, r in discs(root)) > 3


def test_highlight_labels_size_and_words() -> None:
    position = Position("W/R/B/W/B/R/R/W/B r")
    root = parse(svg.position(position, highlight=[2, 5], size=200))
    assert root.get("width") == "200" and root.get("height") == "200"
    assert [p.get("data-pile") for p in find(root, "highlight")] == ["2", "5"]
    assert [t.text for t in find(root, "label")] == [str(i) for i in range(9)]
    assert find(parse(svg.position(position, labels=False)), "label") == []
    responsive = parse(svg.position(position, size=None))
    assert responsive.get("width") is None and responsive.get("height") is None
    assert "Red to move" in (root.get("aria-label") or "")
    title = root.find(f"{NS}title")
    assert title is not None and title.text == root.get("aria-label")


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"slots": [0, 1]}, "one slot for each of the 3 piles"),
        ({"slots": [2, 1, 0]}, "strictly increasing"),
        ({"slots": [0, 1, 5], "slot_count": 4}, "slot 5 is outside a circle of 4 slots"),
        ({"slots": [-1, 0, 1]}, "a slot must be from 0 to 63, not -1"),
        ({"highlight": [3]}, "highlight names pile 3"),
        ({"lastmove": svg.LastMove(1, ())}, "slot 1 holds a pile"),
        ({"lastmove": svg.LastMove(5, (7,))}, "drops names pile 7"),
        ({"max_radius": 0}, "max_radius must be a positive number, not 0"),
        ({"max_radius": float("nan")}, "max_radius must be a positive number, not NaN"),
        ({"size": 0}, "size must be a number from 1 to 10000"),
        ({"slots": [0, 1, 2], "slot_count": 65}, "slot_count must be from 1 to 64, not 65"),
        ({"size": float("inf")}, "size must be a number from 1 to 10000"),
    ],
)
def test_bad_options_are_value_errors(options: dict[str, object], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        svg.position(Position("W/R/B r"), **options)  # type: ignore[arg-type]


def test_walk_refuses_illegal_moves() -> None:
    start = Position("W/R/B/W/B/R/R/W/B r")
    with pytest.raises(IllegalMoveError):
        svg.walk(start, [1])
    with pytest.raises(IllegalMoveError):
        svg.walk(start, [0, 99])
    with pytest.raises(TypeError):
        svg.walk(start, ["0"])  # type: ignore[list-item]


def test_walks_is_walk_of_every_prefix() -> None:
    start = Position.random(5, per_colour=5)
    moves, position = [], start
    while not position.is_over:
        moves.append(position.legal_moves()[len(moves) % len(position.legal_moves())])
        position = position.play(moves[-1])
    boards = svg.walks(start, moves)
    assert len(boards) == len(moves) + 1
    assert boards == [svg.walk(start, moves[:n]) for n in range(len(moves) + 1)]
    with pytest.raises(IllegalMoveError):
        svg.walks(start, [*moves[:2], 99])


def test_the_tower_from_bottom_to_top() -> None:
    final = Position("RBWWBRWBR b")
    root = parse(svg.tower(final, size=300))
    buttons = find(root, "button")
    assert [b.get("data-strength") for b in buttons] == [str(s) for s in range(1, 10)]
    assert "".join(b.get("data-colour", "?") for b in buttons) == "RBWWBRWBR"
    heights = [float(b[0].get("y", "0")) for b in buttons]
    assert heights == sorted(heights, reverse=True), "strength 1 at the bottom"
    red, black = final.sums()
    sums = {s.get("data-player"): s.text for s in find(root, "sum")}
    assert sums == {"red": str(red), "black": str(black)}
    assert root.get("height") == "300"
    with pytest.raises(BattleNotOverError):
        svg.tower(Position("W/R r"))


def test_a_match_keeps_its_piles_in_place_to_the_end() -> None:
    game = Match(seed=5, target=1)
    rng = random.Random(5)
    slots = list(range(9))
    while not game.battles:
        move = rng.choice(game.legal_moves())
        lifted = slots.pop(move)
        game.play(move)
        board = svg.board(game)
        if not game.battles:
            assert list(board.slots) == slots and board.position == game.position
    # Target 1: the battle ended the match or left a starter to choose; the board
    # shows its final pile, the last move marked.
    assert board.position == game.battles[-1].final_position and list(board.slots) == slots
    assert board.lastmove is not None and board.lastmove.slot == lifted
    assert game._repr_svg_() == board.svg() == svg.match_board(game)
    check_picture(board.position, game._repr_svg_())
    # The HTML of Jupyter: the same picture and the score.
    figure = ET.fromstring(game._repr_html_())
    assert figure.tag == "figure" and ET.tostring(figure[0]) == ET.tostring(parse(board.svg()))
    red, black = game.scores
    caption = figure.find("figcaption")
    assert caption is not None and caption.text is not None
    assert caption.text.startswith(f"Battle 1: Red {red}, Black {black} (to 1).")
    assert caption.text.endswith(" Moves: " + " ".join(map(str, game.battles[0].moves)) + ".")


def test_repr_svg_of_a_position() -> None:
    position = Position("RW/B/W/B/R/R/W/B r")
    assert position._repr_svg_() == svg.position(position)


def test_the_pictures_of_the_docs_are_current() -> None:
    script = load("docs/make_pictures.py")
    made = script.pictures()
    assert {"board.svg", "board-tall.svg", "tower.svg"} <= set(made)
    for name, text in made.items():
        committed = (ROOT / "docs" / name).read_text(encoding="utf-8")
        assert committed == text, f"docs/{name} is out of date: python docs/make_pictures.py"
        parse(text)


def test_the_notebook_runs_and_draws(capsys: pytest.CaptureFixture[str]) -> None:
    path = ROOT / "examples" / "pictures.ipynb"
    if not path.exists():
        pytest.skip("examples/ is absent")
    notebook = json.loads(path.read_text(encoding="utf-8"))
    assert notebook["nbformat"] == 4 and notebook["metadata"]["kernelspec"]["language"] == "python"
    namespace: dict[str, object] = {}
    drawn = []
    for cell in notebook["cells"]:
        assert cell["cell_type"] in ("markdown", "code") and "metadata" in cell
        if cell["cell_type"] != "code":
            continue
        assert cell["outputs"] == [] and cell["execution_count"] is None
        tree = ast.parse("".join(cell["source"]))
        # As Jupyter does: run the cell, and show its last expression's value.
        last = tree.body[-1]
        if isinstance(last, ast.Expr):
            tree.body.pop()
        exec(compile(tree, str(path), "exec"), namespace)
        if isinstance(last, ast.Expr):
            value = eval(compile(ast.Expression(last.value), str(path), "eval"), namespace)
            if hasattr(value, "_repr_svg_"):
                drawn.append(parse(value._repr_svg_()).get("class"))
    assert drawn.count("buttonup-board") == 6 and drawn.count("buttonup-tower") == 1
    # The last cell lists the start's piles from the SVG: number, slot, buttons, classes.
    start = Position("W/R/B/W/B/R/R/W/B r")
    listed = [
        f"{i} {i} {pile} pile{' liftable' if 'W' in pile else ''}"
        for i, pile in enumerate(start.piles)
    ]
    assert capsys.readouterr().out.splitlines()[-9:] == listed
