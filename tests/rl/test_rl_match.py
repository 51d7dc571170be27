"""The whole-match environment, ``buttonup/Match-v0``: Gymnasium's and SB3's checkers,
then matches whose every battle is replayed on the engine's ``Position`` from the
match's own record (who moved, which pile, the opponent's rule, the starters of the
tie rule) and whose rewards are checked against the scores. CI installs the ``rl`` and
``sb3`` extras and sets ``BUTTONUP_REQUIRE_RL``, so that nothing here is skipped there."""

from __future__ import annotations

import os
import sys
import warnings
from typing import Any

import pytest
from buttonup import Player, Position

if os.environ.get("BUTTONUP_REQUIRE_RL"):
    import gymnasium
    import numpy as np
else:
    np = pytest.importorskip("numpy")
    gymnasium = pytest.importorskip("gymnasium")

import buttonup.envs.gymnasium  # noqa: F401 (registers the environments)
from buttonup.envs import observation
from buttonup.envs.match import MatchEnv
from processes import run


def last_pile(position: Position) -> int:
    return position.legal_moves()[-1]


def test_the_checkers_pass_without_a_warning() -> None:
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gymnasium.make("buttonup/Match-v0", opponent=3).unwrapped)
        check_env(MatchEnv(last_pile, colour="black", reward="points", render_mode="ansi"))
    if os.environ.get("BUTTONUP_REQUIRE_RL"):
        import stable_baselines3  # noqa: F401
    else:
        pytest.importorskip("stable_baselines3", reason="stable_baselines3 is in the sb3 extra")
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sb3_check_env(MatchEnv(2, target=5))


def test_maskable_ppo_learns_and_plays_a_match() -> None:
    # SB3 takes the Dict observation with MultiInputPolicy, the mask by action_masks().
    if os.environ.get("BUTTONUP_REQUIRE_RL"):
        import sb3_contrib
        import torch
    else:
        sb3_contrib = pytest.importorskip("sb3_contrib", reason="sb3_contrib is in the sb3 extra")
        torch = pytest.importorskip("torch", reason="torch is in the sb3 extra")
    torch.set_num_threads(1)
    game = MatchEnv(1, target=5)
    model = sb3_contrib.MaskablePPO(
        "MultiInputPolicy", game, n_steps=64, batch_size=64, n_epochs=1, seed=0
    )
    model.learn(256)
    seen, _ = game.reset(seed=1)
    done, steps = False, 0
    while not done:
        action, _ = model.predict(seen, action_masks=game.action_masks(), deterministic=True)
        seen, _, done, _, info = game.step(action)
        assert "illegal_action" not in info
        steps += 1
    assert game.match.is_over and steps >= 4


def test_the_module_alone_makes_the_environment() -> None:
    # Its spec comes from the registry, which the battle's module fills.
    code = "from buttonup.envs.match import MatchEnv; print(MatchEnv(1).spec.id)"
    done = run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout == "buttonup/Match-v0\n", done.stderr


def play(game: MatchEnv, seed: int) -> dict[str, Any]:
    """One match with random legal actions, checking each observation against the
    match; what the agent did and was paid."""
    rng = np.random.default_rng(seed)
    seen, info = game.reset(seed=seed)
    agent, other = game.agent, game.agent.other
    done, rewards, moves, choices = False, [], [], []
    while not done:
        match = game.match
        assert game.observation_space.contains(seen)
        assert seen["score"].tolist() == [match.score(agent), match.score(other)]
        assert (seen["board"] == observation(match.position, agent)).all()
        mask = info["action_mask"]
        if seen["choosing"]:
            assert match.chooser is agent and mask.tolist() == [True, True] + [False] * 7
        else:
            assert match.chooser is None and match.to_move is agent
            assert np.flatnonzero(mask).tolist() == match.position.legal_moves()
        action = int(rng.choice(np.flatnonzero(mask)))
        if seen["choosing"]:
            choices.append((len(match.battles), agent if action == 0 else other))
        else:
            moves.append(action)
        seen, reward, done, truncated, info = game.step(action)
        assert not truncated
        rewards.append(reward)
    return {"rewards": rewards, "moves": moves, "choices": choices}


@pytest.mark.parametrize("colour", ["red", "black"])
@pytest.mark.parametrize("reward", ["win", "points"])
def test_matches_replay_on_the_engine(colour: str, reward: str) -> None:
    game = MatchEnv(last_pile, colour=colour, target=5, reward=reward)
    agent = game.agent
    chosen = 0
    for seed in range(12):
        played = play(game, seed)
        match = game.match
        assert match.is_over and max(match.scores) >= 5 > min(match.scores)
        # Every battle again, move by move: the agent's piles are those it chose, in
        # order, and the opponent's follow its rule.
        mine = []
        for battle in match.battles:
            position = battle.start
            for move in battle.moves:
                if position.to_move is agent:
                    mine.append(move)
                else:
                    assert move == last_pile(position)
                position = position.play(move)
            assert position == battle.final_position and position.is_over
        assert mine == played["moves"]
        # The agent's starter choices started the battles after them.
        for index, starter in played["choices"]:
            assert match.battles[index].starter is starter
        chosen += len(played["choices"])
        gained = sum(
            (1 if b.scoring.winner is agent else -1) * b.scoring.points
            for b in match.battles
            if b.scoring.winner is not None
        )
        assert gained == match.score(agent) - match.score(agent.other)
        if reward == "points":
            assert sum(played["rewards"]) == gained
        else:
            won = 1.0 if match.winner is agent else -1.0
            assert played["rewards"] == [0.0] * (len(played["rewards"]) - 1) + [won]
    assert chosen > 0  # the tie rule came to the agent


def test_a_level_opponent_chooses_its_starters_and_plays_legally() -> None:
    game = gymnasium.make("buttonup/Match-v0", opponent=9, target=3)
    for seed in range(3):
        played = play(game.unwrapped, seed)
        assert played["rewards"][-1] in (1.0, -1.0)


def test_an_illegal_action_forfeits() -> None:
    for reward, worst in (("win", -1.0), ("points", -15.0)):
        game = MatchEnv(1, reward=reward)
        _, info = game.reset(seed=0)
        illegal = int(np.flatnonzero(~info["action_mask"])[0])
        _, paid, done, _, info = game.step(illegal)
        assert done and paid == worst and info["illegal_action"]
        assert game.step(99)[1] == worst


def test_the_first_starter_is_a_fair_coin_and_seeds_repeat() -> None:
    game = MatchEnv(1)
    starters = []
    for seed in range(40):
        game.reset(seed=seed)
        match = game.match
        starters.append(match.battles[0].starter if match.battles else match.starter)
    assert set(starters) == {Player.RED, Player.BLACK}
    first, second = MatchEnv(1), MatchEnv(1)
    assert play(first, 3) == play(second, 3)
    assert first.match.record() == second.match.record()


@pytest.mark.parametrize(
    "arguments",
    [{"colour": "white"}, {"reward": "margin"}, {"render_mode": "human"}, {"target": 0}],
)
def test_bad_arguments_are_value_errors(arguments: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        MatchEnv(**arguments)
