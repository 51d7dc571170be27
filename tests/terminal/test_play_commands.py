"""The terminal game's commands beyond moving (hint, moves, save, load), its board
with fixed places, and the review after each battle, driven without a person."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from buttonup import Match, Player, match_analyze, svg, win_probability
from buttonup import reference as ref
from buttonup.cli.board import circle, slot_cells
from buttonup.cli.play import Game, Settings
from buttonup.cli.review import review, review_lines
from rich.console import Console

#: The perfect battle of docs/rules.md from the start W/R/B/W/B/R/R/W/B.
PERFECT = (3, 0, 0, 1, 3, 3, 2, 0)


def game_with(script: list[str], match: Match | None = None) -> tuple[Game, io.StringIO]:
    out = io.StringIO()
    cons = Console(file=out, no_color=True, color_system=None, width=400)
    game = Game(Settings(level=9, seed=1), cons, lambda prompt: script.pop(0))
    if match is not None:
        game.match = match
    return game, out


def test_hint_names_extra_moves_and_the_match_odds() -> None:
    match = Match(Player.RED, deals=["WRBWBRRWB"], seed=3)
    match.play(3)
    match.play(0)  # RW/B/BW/R/R/W/B r: in the perfect line Red's 0 gives an extra move
    game, out = game_with(["hint", "quit"], match)
    game.run()
    text = out.getvalue()
    # Pile 0 (RW) stands where the start's pile 1 stood: place B. docs/rules.md's perfect
    # line plays it, for a win by 1, and the white lands on the white of BW.
    assert "pile 0 (B, RW): +1  extra move" in text
    odds = match_analyze(match)
    assert f"match {odds[0]:.1%}" in text
    now = win_probability(match).of(Player.RED)
    assert f"Your chance of winning the match now, both playing perfectly: {now:.1%}" in text


def test_moves_lists_the_match_in_the_record_notation() -> None:
    match = Match(Player.RED, deals=["WRBWBRRWB"], seed=3)
    for move in (3, 0, 0):
        match.play(move)
    game, out = game_with(["moves", "quit"], match)
    game.run()
    assert "\n1. WRBWBRRWB r 3 0 0+\n" in out.getvalue()


def test_save_then_load_goes_on_from_the_same_match(tmp_path: Path) -> None:
    match = Match(Player.RED, deals=["WRBWBRRWB"], seed=3)
    for move in (3, 0, 0):
        match.play(move)
    path = tmp_path / "saved.txt"
    game, out = game_with([f"save {path}", "quit"], match)
    game.run()
    assert f"Saved the match to {path}." in out.getvalue()
    saved = Match.from_record(path.read_text())
    assert saved.position == match.position
    assert saved.moves == (3, 0, 0)
    # The level as a player reads it, not a Python repr.
    assert '[Black "buttonup AI, level 9 (perfect play for the battle margin)"]' in path.read_text()

    other, out = game_with([f"load {tmp_path / 'missing.txt'}", f"load {path}", "quit"])
    other.run()
    text = out.getvalue()
    assert "Could not read" in text and "missing.txt" in text
    assert f"Loaded {path}: battle 1, Red 0 Black 0 to 15; you still play Red." in text
    assert other.match.position == match.position


def test_load_refuses_a_bad_record_naming_the_fault(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("1. WRBWBRRWB r 3 0 0\n")
    game, out = game_with([f"load {path}", "save", "quit"])
    before = game.match.position
    game.run()
    text = out.getvalue()
    assert f"{path} is not a match record: line 1, at '0': 0 gives an extra move" in text
    assert "Type 'save FILE'" in text
    assert game.match.position == before


def test_piles_keep_their_places_and_the_lift_empties_its_own() -> None:
    match = Match(Player.RED, deals=["WRBWBRRWB"], seed=3)
    match.play(3)  # the W at place D lands on the B at place E
    shown = circle(svg.board(match)).plain
    assert "D x" in shown  # the lifted pile's place, marked
    assert "E 3:BW*" in shown  # the pile at E is pile 3 now, and keeps its place
    assert "I 7:B" in shown
    match.play(0)  # the W at place A lands on the R at place B
    shown = circle(svg.board(match)).plain
    assert "A x" in shown and "D ." in shown
    assert "B 0:RW*" in shown and "E 2:BW*" in shown


@pytest.mark.parametrize("slot_count", range(2, 31))
def test_the_circle_is_even_for_any_count_of_piles(slot_count: int) -> None:
    cells = slot_cells(slot_count, 60)
    assert cells[0] == (0, 0)  # place A at the top, in the middle
    for k in range(1, slot_count):
        row, column = cells[k]
        mirror_row, mirror_column = cells[slot_count - k]
        assert (row, column) == (mirror_row, -mirror_column)  # left and right alike
        assert (column > 0) == (k < slot_count / 2) or column == 0
    # Going round, the places go down the right side and up the left one.
    right = [cells[k][0] for k in range(slot_count) if 0 < k < slot_count / 2]
    assert right == sorted(right)
    assert len(set(cells)) == slot_count


def test_the_review_of_the_perfect_battle_finds_no_mistake() -> None:
    match = Match(Player.RED, deals=["WRBWBRRWB"], target=1)
    for move in PERFECT:
        match.play(move)
    lines = review_lines(match.battles[0], Player.RED)
    assert all(line.endswith("best") for line in lines[2:10]), lines
    assert lines[4].split()[3:5] == ["0+", "+1"]  # Red's third move: the extra move
    # Red moves 1, 3, 4, 5, 7 and 8 (three extra moves), Black 2 and 6.
    assert lines[-2:] == [
        "You (Red): 6 moves, 0 mistakes, 0 points given up.",
        "The AI (Black): 2 moves, 0 mistakes, 0 points given up.",
    ]


def test_the_review_agrees_with_the_reference_solver() -> None:
    match = Match(Player.RED, seed=5, target=50)
    while not match.battles:
        match.play(match.legal_moves()[-1])
    battle = match.battles[0]
    position = ref.Position(str(battle.start))
    for reviewed, move in zip(review(battle), battle.moves):
        values = ref.analyze(position)
        assert reviewed.value == values[move]
        assert reviewed.loss == max(values.values()) - values[move]
        assert (reviewed.mark != "") == (reviewed.loss > 0)
        position = position.play(move)


def test_a_battle_ends_with_its_review_on_screen() -> None:
    match = Match(Player.RED, deals=["WRBWBRRWB"], target=1)
    for move in PERFECT[:-1]:
        match.play(move)
    game, out = game_with(["0"], match)
    game.run()
    text = out.getvalue()
    assert "Review of battle 1:" in text
    assert "You (Red): 6 moves, 0 mistakes, 0 points given up." in text


def test_a_place_letter_lifts_the_pile_standing_there() -> None:
    """The board shows fixed letters, and typing one lifts that pile (not "Unknown command")."""
    match = Match(Player.RED, deals=["WRBWBRRWB"], seed=3)
    match.play(3)  # W/R/B/BW/R/R/W/B b: place D is gone, the piles after it renumbered
    match.play(0)  # Black lifts place A's pile: RW/B/BW/R/R/W/B r
    # Place H holds pile 5 now (W): "H" lifts it, as "5" would; "f" is place F's pile 3.
    game, out = game_with(["f", "H", "quit"], match)
    game.run()
    text = out.getvalue()
    assert "Pile 3 (R) has no white button" in text
    assert game.match.moves[:3] == (3, 0, 5)
    assert "Unknown command" not in text
