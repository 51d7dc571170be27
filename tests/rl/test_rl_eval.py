"""Exact evaluation (``buttonup.envs.evaluate``) against an independent oracle, a plain
negamax over the pure-Python reference rules, and from each adapter's policy form; the
OpenSpiel state's compact serialisation. CI sets ``BUTTONUP_REQUIRE_RL``."""

from __future__ import annotations

import os
from typing import Any

import pytest
from buttonup import Player, Position
from buttonup.reference import Position as ReferencePosition

if os.environ.get("BUTTONUP_REQUIRE_RL"):
    import numpy as np
    import pyspiel
else:
    np = pytest.importorskip("numpy")
    pyspiel = pytest.importorskip("pyspiel")

from buttonup.envs import evaluate
from buttonup.envs.evaluation import _share


def exact(position: ReferencePosition) -> int:
    """The mover's margin under perfect play, by plain negamax on the reference rules."""
    if position.is_over:
        return position.scoring().margin_for(position.to_move)
    best = None
    for move in position.legal_moves():
        value = worth(position, move)
        best = value if best is None else max(best, value)
    assert best is not None
    return best


def worth(position: ReferencePosition, move: int) -> int:
    """The mover's margin after ``move`` and perfect play (an extra move keeps him on)."""
    child = position.play(move)
    same = child.to_move is position.to_move and not child.is_over
    if child.is_over:
        return child.scoring().margin_for(position.to_move)
    return exact(child) if same else -exact(child)


def lowest(position: Any) -> int:
    return min(position.legal_moves())


def highest(position: Any) -> int:
    return max(position.legal_moves())


def test_level_nine_gives_away_nothing() -> None:
    report = evaluate(9, episodes=40, opponents=[1, 5, 9], seed=3)
    assert report.regret.mean == report.regret.low == report.regret.high == 0.0
    assert report.optimal.mean == 1.0 and report.optimal.count == len(report.regrets) > 200
    assert report.battles == 120 and set(report.win_rate) == {"level 1", "level 5", "level 9"}
    assert report.as_colour["red"].count == report.as_colour["black"].count == 60


@pytest.mark.parametrize(
    "start", ["W/R/B/W/B/R r", "B/W/R/R/W/B b", "W/B/R/B/W/R/W/B/R r", "R/W/B/W/B/W/R/R/B b"]
)
def test_a_fixed_policy_against_an_independent_negamax(start: str) -> None:
    # The lowest legal pile against the highest one, once as Red and once as Black.
    report = evaluate(lowest, episodes=2, opponents={"highest": highest}, starts=[start])
    regrets, wins = [], []
    for side in (Player.RED, Player.BLACK):
        position = ReferencePosition(start)
        while not position.is_over:
            if position.to_move is side:
                values = {m: worth(position, m) for m in position.legal_moves()}
                move = lowest(position)
                regrets.append(max(values.values()) - values[move])
            else:
                move = highest(position)
            position = position.play(move)
        wins.append(position.scoring().margin_for(side) > 0)
    assert list(report.regrets) == regrets and len(regrets) >= 4
    assert report.regret.mean == pytest.approx(sum(regrets) / len(regrets))
    assert report.optimal.mean == pytest.approx(sum(r == 0 for r in regrets) / len(regrets))
    assert report.win_rate["highest"].mean == sum(wins) / 2
    assert report.as_colour["red"].mean == wins[0] and report.as_colour["black"].mean == wins[1]


def test_the_first_move_of_the_rules_page_start() -> None:
    # docs/rules.md: perfect play from this start lifts pile 3 and wins by 1, so a policy
    # lifting pile 3 first and then playing perfectly (level 9) has no regret at all.
    start = "W/R/B/W/B/R/R/W/B r"
    assert exact(ReferencePosition(start)) == 1 == worth(ReferencePosition(start), 3)
    first = {"done": False}

    def three_then_perfect(position: Position) -> int:
        if not first["done"]:
            first["done"] = True
            return 3
        return _perfect(position)

    def _perfect(position: Position) -> int:
        reference = ReferencePosition(str(position))
        return max(position.legal_moves(), key=lambda m: worth(reference, m))

    report = evaluate(three_then_perfect, episodes=1, opponents=[9], starts=[start])
    assert report.regret.mean == 0.0 and report.margin.mean == 1.0


def test_wilson_intervals_match_the_textbook() -> None:
    # 8 successes in 10 at 95%: Wilson's interval is 0.490 to 0.943.
    share = _share(8, 10, 1.96)
    assert (round(share.low, 3), round(share.high, 3)) == (0.490, 0.943)
    assert _share(0, 5, 1.96).low == 0.0 and _share(5, 5, 1.96).high == 1.0


def test_every_policy_form_is_evaluated_alike() -> None:
    def first_by_mask(observation: Any, mask: Any) -> int:
        assert observation.shape == (9, 9, 3) and mask.dtype == bool
        return int(np.flatnonzero(mask)[0])

    by_mask = evaluate(first_by_mask, episodes=20, opponents=[5], seed=1)
    by_position = evaluate(lowest, episodes=20, opponents=[5], seed=1)
    assert by_mask.regrets == by_position.regrets and by_mask.regret.mean > 0
    with pytest.raises(ValueError, match="episodes"):
        evaluate(lowest, episodes=0)
    with pytest.raises(TypeError, match="a player is"):
        evaluate(object(), episodes=1)
    # A text is a policy spec (buttonup.players): one that names none is refused.
    with pytest.raises(ValueError, match="bad policy 'nobody'"):
        evaluate("nobody", episodes=1)


def test_an_openspiel_bot_is_evaluated() -> None:
    import buttonup.envs.openspiel  # noqa: F401 (registers the game)
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("python_button_up")
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, 2.0, 30, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    report = evaluate(bot, episodes=4, opponents=[1])
    assert report.battles == 4 and 0.0 <= report.regret.mean <= 36.0
    assert report.optimal.count == len(report.regrets) > 0


def test_openspiel_states_serialise_compactly() -> None:
    import buttonup.envs.openspiel  # noqa: F401 (registers the game)

    game = pyspiel.load_game("python_button_up")
    state = game.new_initial_state()
    state.apply_action(1234)  # the shuffle
    state.apply_action(state.legal_actions()[0])
    text = pyspiel.serialize_game_and_state(game, state)
    # The position and history (27,178 characters when the state held the start orders).
    assert len(text) < 400, len(text)
    _, again = pyspiel.deserialize_game_and_state(text)
    assert str(again) == str(state) and again.legal_actions() == state.legal_actions()
    assert again.history() == state.history()


def test_the_evaluation_table_script_runs() -> None:
    import sys
    from pathlib import Path

    import processes

    script = Path(__file__).resolve().parents[2] / "benches" / "rl_eval.py"
    if not script.exists():
        pytest.skip("benches/ is not beside tests/ here")
    done = processes.run(
        [sys.executable, str(script), "--episodes", "4"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    rows = [line for line in done.stdout.splitlines() if line.startswith("| level")]
    assert len(rows) == 9 and rows[-1].startswith("| level 9 | 0.000 (0.000 to 0.000) | 1.000")
    # Each row is a Markdown table row as it is pasted into docs/rl.md: nothing after it.
    assert all(row.endswith(" |") and "<!--" not in row for row in rows), rows
    assert "level 9:" in done.stderr
