"""Self-play helpers: :func:`buttonup.envs.vector.credit_sides` against battles replayed
move by move on the engine's own ``Position`` (each move's side and each battle's final
scoring read from the position, never from the helper). CI installs the ``rl`` extra and
sets ``BUTTONUP_REQUIRE_RL``, so that nothing here is skipped there."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

import buttonup
import pytest
from buttonup import Player, Position
from processes import run

if os.environ.get("BUTTONUP_REQUIRE_RL"):
    import numpy as np
else:
    np = pytest.importorskip("numpy")
    pytest.importorskip("gymnasium")

from buttonup.envs.vector import SelfPlayVectorEnv, credit_sides


def side(player: Player) -> int:
    return 0 if player is Player.RED else 1


def test_the_perfect_battle_of_the_rules_is_credited_to_both_sides() -> None:
    # docs/rules.md's battle played perfectly: Red wins by 1, with extra moves, so
    # the turn does not simply alternate.
    position = Position("W/R/B/W/B/R/R/W/B r")
    players, rewards, ended = [], [], []
    for move in (3, 0, 0, 1, 3, 3, 2, 0):
        players.append([side(position.to_move)])
        position = position.play(move)
        red = position.scoring().margin_for(Player.RED) if position.is_over else 0
        rewards.append([[red, -red]])
        ended.append([position.is_over])
    assert position.is_over and position.scoring().margin_for(Player.RED) == 1
    credit = credit_sides(players, rewards, ended)
    movers = [row[0] for row in players]
    assert movers == [0, 1, 0, 0, 0, 1, 0, 0]
    assert credit.own[:, 0].tolist() == [1 if m == 0 else -1 for m in movers]
    assert credit.returns[:, 0].tolist() == [[1, -1]] * 8
    assert credit.moved.all()


def replay(
    envs: SelfPlayVectorEnv, steps: int, seed: int, *, same_step: bool
) -> tuple[dict[str, Any], list[list[dict[str, Any]]]]:
    """Steps ``envs`` with random legal piles while replaying each game on a
    ``Position``; what ``credit_sides`` is given, and each game's battles as the
    positions saw them (the moves' steps and sides, and the final scoring)."""
    rng = np.random.default_rng(seed)
    _, infos = envs.reset(seed=seed)
    positions = envs.env.positions()
    battles: list[list[dict[str, Any]]] = [[{"moves": []}] for _ in positions]
    waiting = np.zeros(envs.num_envs, bool)
    record: dict[str, list[Any]] = {"players": [], "rewards": [], "terminations": []}
    for t in range(steps):
        masks = infos["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        record["players"].append(infos["current_player"].copy())
        _, _, ended, _, infos = envs.step(actions)
        record["rewards"].append(infos["rewards"])
        record["terminations"].append(ended)
        after = envs.env.positions()
        for i, position in enumerate(positions):
            if waiting[i]:  # a next-step restart: the action is ignored
                positions[i] = after[i]
                continue
            mover = position.to_move
            assert side(mover) == record["players"][-1][i]
            position = position.play(int(actions[i]))
            battles[i][-1]["moves"].append((t, mover))
            assert ended[i] == position.is_over
            if position.is_over:
                battles[i][-1]["end"] = (t, position.scoring())
                battles[i].append({"moves": []})
                position = after[i] if same_step else position
            positions[i] = position
            assert same_step or position == after[i]
        waiting = ended & (not same_step)
    arrays = {name: np.array(rows) for name, rows in record.items()}
    return arrays, battles


@pytest.mark.parametrize(
    "mode, reward, gamma",
    [("next_step", "margin", 1.0), ("next_step", "win", 0.9), ("same_step", "margin", 0.8)],
)
def test_credit_sides_gives_each_move_its_sides_final_margin(
    mode: str, reward: str, gamma: float
) -> None:
    envs = SelfPlayVectorEnv(12, per_colour=2, reward=reward, autoreset_mode=mode)
    arrays, battles = replay(envs, 30, seed=7, same_step=mode == "same_step")
    credit = credit_sides(**arrays, gamma=gamma, autoreset_mode=mode)
    expected_moved = np.zeros((30, 12), bool)
    finished = 0
    for i, game in enumerate(battles):
        for battle in game:
            if "end" not in battle:  # unfinished at the last step: no return yet
                for t, _ in battle["moves"]:
                    assert not credit.moved[t, i]
                continue
            finished += 1
            end, scoring = battle["end"]
            for t, mover in battle["moves"]:
                margin = scoring.margin_for(mover)
                value = float(np.sign(margin)) if reward == "win" else float(margin)
                value *= gamma ** (end - t)
                assert credit.own[t, i] == pytest.approx(value)
                red = scoring.margin_for(Player.RED)
                red_value = (float(np.sign(red)) if reward == "win" else red) * gamma ** (end - t)
                assert credit.returns[t, i].tolist() == pytest.approx([red_value, -red_value])
                expected_moved[t, i] = True
    assert finished >= 12 * 3
    # The rest are restarts and the moves of unfinished battles.
    assert (credit.moved == expected_moved).all()


def test_a_restart_before_the_stretch_is_not_a_move() -> None:
    players = np.zeros((3, 2), np.int8)
    rewards = np.zeros((3, 2, 2), np.float32)
    ended = np.array([[False, False], [False, True], [True, False]])
    rewards[1, 1] = [-2, 2]
    rewards[2, 0] = [3, -3]
    credit = credit_sides(players, rewards, ended, waiting=[True, False])
    assert credit.moved.tolist() == [[False, True], [True, True], [True, False]]
    assert credit.own.tolist() == [[0, -2], [3, -2], [3, 0]]


def test_no_steps_credit_nothing() -> None:
    credit = credit_sides(np.zeros((0, 3)), np.zeros((0, 3, 2)), np.zeros((0, 3)))
    assert credit.returns.shape == (0, 3, 2) and credit.own.shape == credit.moved.shape == (0, 3)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"players": np.zeros(3)}, "must both be"),
        ({"rewards": np.zeros((3, 2))}, "rewards must be"),
        ({"players": np.full((3, 2), 2)}, "0 \\(Red\\) or 1"),
        ({"waiting": [True]}, "waiting must be"),
        ({"gamma": 1.5}, "gamma"),
        ({"autoreset_mode": "never"}, "autoreset_mode"),
    ],
)
def test_credit_sides_refuses_bad_input(change: dict[str, Any], message: str) -> None:
    arguments: dict[str, Any] = {
        "players": np.zeros((3, 2), np.int8),
        "rewards": np.zeros((3, 2, 2)),
        "terminations": np.zeros((3, 2), bool),
        **change,
    }
    with pytest.raises(ValueError, match=message):
        credit_sides(**arguments)


EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "selfplay_vector.py"


@pytest.mark.parametrize("arguments", [["--seconds", "0.5"], ["--compare", "--rounds", "1"]])
def test_the_self_play_example_runs(arguments: list[str]) -> None:
    if not EXAMPLE.is_file():
        pytest.skip("examples/ is not in this tree")
    done = run(
        [sys.executable, str(EXAMPLE), "--games", "16", "--seconds", "0.5", *arguments],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(Path(buttonup.__file__).parent.parent)},
    )
    assert done.returncode == 0, done.stderr
    if "--compare" in arguments:
        assert re.fullmatch(
            r"round 1: SelfPlayVectorEnv [\d,]+ moves/s, SyncVectorEnv [\d,]+ moves/s, "
            r"ratio [\d.]+x\n",
            done.stdout,
        )
    else:
        lines = done.stdout.splitlines()
        assert len(lines) == 3
        assert lines[0].startswith("untrained: regret per move ")
        assert re.match(r"trained on [\d,]+ moves in ", lines[1])
        assert lines[2].startswith("trained: regret per move ")
