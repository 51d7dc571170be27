"""``buttonup play``, driven without a person."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable

import processes
import pytest
from buttonup import Match, Player
from buttonup.cli.play import Game, Settings
from harness import line_with_margin
from rich.console import Console


def console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, no_color=True, color_system=None, width=100), out


def answers_from(game_ref: list[Game], script: list[str]) -> Callable[[str], str]:
    """Answers the prompts from ``script``, then with the first legal move (or 'me')."""

    def ask(prompt: str) -> str:
        if script:
            return script.pop(0)
        game = game_ref[0]
        if game.match.chooser is not None:
            return "me"
        return str(game.match.legal_moves()[0])

    return ask


def run(settings: Settings, script: list[str]) -> str:
    cons, out = console()
    holder: list[Game] = []
    game = Game(settings, cons, answers_from(holder, script))
    holder.append(game)
    game.run()
    return out.getvalue()


def test_a_whole_match_against_the_ai() -> None:
    text = run(Settings(level=1, seed=3), [])
    assert "=== Battle 1, started by Red ===" in text
    assert "The battle is over. Final pile" in text
    assert "Red: " in text and "Black: " in text
    assert "You win the match" in text or "The AI wins the match" in text
    assert " gains " in text or "nobody gains" in text


def test_the_board_is_drawn_once_a_turn_of_yours() -> None:
    # It was drawn before the AI's moves too, so that your own move scrolled away.
    cons, out = console()
    holder: list[Game] = []
    script_answers = answers_from(holder, [])
    turns = 0

    def ask(prompt: str) -> str:
        nonlocal turns
        turns += "to move>" in prompt
        return script_answers(prompt)

    game = Game(Settings(level=1, seed=3), cons, ask)
    holder.append(game)
    game.run()
    text = out.getvalue()
    assert turns > 10
    assert text.count("Score: ") == turns
    # Every move of the AI is told, each once.
    assert text.count("The AI (Black) lifts pile") + text.count("The AI (Red) lifts pile") > 10


def test_prompt_errors_hint_undo_and_quit() -> None:
    match = Match(Player.RED, seed=8)
    legal = match.legal_moves()
    illegal = next(i for i, pile in enumerate(match.position.piles) if "W" not in pile)
    script = ["99", str(illegal), "fly", "", "help", "hint", str(legal[0]), "undo", "quit"]
    text = run(Settings(level=5, seed=8), script)
    assert "There is no pile 99: the piles are numbered 0 to 8. Try a pile marked *." in text
    pile = match.position.piles[illegal]
    assert f"Pile {illegal} ({pile}) has no white button, so it cannot be lifted." in text
    assert "Unknown command 'fly'" in text
    assert "Commands:" in text
    assert "Each move for you: its exact value" in text
    assert f"You (Red) lift pile {legal[0]}" in text
    assert "Took back your last move" in text
    assert text.rstrip().endswith("You leave the match. Bye.")


def test_end_of_input_ends_cleanly_and_ctrl_c_goes_through() -> None:
    cons, out = console()

    def end(prompt: str) -> str:
        raise EOFError

    Game(Settings(seed=1), cons, end).run()
    assert out.getvalue().rstrip().endswith("Bye.")

    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    # Ctrl-C is not a goodbye: it reaches the command, which ends with status 130.
    with pytest.raises(KeyboardInterrupt):
        Game(Settings(seed=1), cons, interrupt).run()


def test_extra_move_is_announced() -> None:
    # From the worked example, Red's move 0 at RW/... lands white on white.
    cons, out = console()
    game = Game(Settings(level=9, seed=1), cons, lambda prompt: "quit")
    game.match = Match(Player.RED, deals=["WRBWBRRWB"])
    game.report(Player.RED, 3)
    game.report(Player.BLACK, 0)
    game.report(Player.RED, 0)
    assert "Extra move! Red moves again." in out.getvalue()


def test_the_human_chooses_the_starter_under_the_tie_rule() -> None:
    cons, out = console()
    script = ["who?", "ai", "quit"]
    game = Game(Settings(level=9, seed=1), cons, lambda prompt: script.pop(0))
    game.match = Match(Player.RED, deals=["WRBWBRRWB"] * 5)
    for margin in (+2, -2):  # 2-2: Red (the human) lost the last decided battle
        for move in line_with_margin("WRBWBRRWB", margin):
            game.match.play(move)
    game.run()
    text = out.getvalue()
    assert "you choose who starts" in text
    assert "Please answer 'me' or 'ai'." in text
    assert game.match.starter is Player.BLACK


def test_play_through_stdin_in_a_subprocess() -> None:
    done = processes.run(
        [sys.executable, "-m", "buttonup", "play", "--seed", "2", "--no-color", "--level", "3"],
        input="hint\n42\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0
    assert "Each move for you: its exact value" in done.stdout
    assert "There is no pile 42" in done.stdout
    assert "Bye." in done.stdout
    assert "\x1b[" not in done.stdout  # --no-color
