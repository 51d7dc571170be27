"""A learned opponent on the batch path: ``BattleVectorEnv(opponent=...)`` with a
``BatchPolicy``, an SB3 model or any other player, its moves played in Rust between
the agent's (``VecEnv.step(actions, waiting=...)``), checked game by game against the
engine's ``Position`` replaying the same moves. CI installs the ``rl`` and ``sb3``
extras and sets ``BUTTONUP_REQUIRE_RL``, so that nothing here is skipped there."""

from __future__ import annotations

import os
from typing import Any

import pytest
from buttonup import Player, Position, VecEnv

if os.environ.get("BUTTONUP_REQUIRE_RL"):
    import gymnasium
    import numpy as np
else:
    np = pytest.importorskip("numpy")
    gymnasium = pytest.importorskip("gymnasium")

import buttonup.envs.gymnasium  # noqa: F401 (registers buttonup/Battle-v0)
from buttonup.envs import observation
from buttonup.envs.batch_players import BatchPolicy
from buttonup.envs.vector import BattleVectorEnv
from buttonup.players import PolicyError


def last_legal(observations: Any, masks: Any) -> Any:
    """The opponent: the last legal pile of each game (written for the batch)."""
    n = masks.shape[1]
    return n - 1 - masks[:, ::-1].argmax(axis=1)


def replay_opponent(position: Position, agent: Player) -> Position:
    """``position`` after the opponent's moves (the last legal pile each time) until the
    agent is to move or the battle is over: what the batch should have played."""
    while not position.is_over and position.to_move is not agent:
        position = position.play(position.legal_moves()[-1])
    return position


def test_waiting_games_sit_the_step_out() -> None:
    env = VecEnv(6, seed=3)
    before = env.positions()
    observations = env.observation.copy()
    waiting = np.array([True, False, True, False, True, False])
    actions = env.legal_action_mask.argmax(axis=1)
    env.step(actions, waiting=waiting)
    after = env.positions()
    for i in range(6):
        if waiting[i]:
            assert str(after[i]) == str(before[i])
            assert (env.observation[i] == observations[i]).all()
            assert tuple(env.rewards[i]) == (0.0, 0.0) and not env.terminated[i]
        else:
            assert str(after[i]) == str(before[i].play(int(actions[i])))
    # A waiting game's action is not looked at, a moving one's is.
    env.step(np.full(6, 99), waiting=np.ones(6, bool))
    with pytest.raises(ValueError, match="game 1"):
        env.step(np.full(6, 99), waiting=waiting)
    with pytest.raises(ValueError, match="waiting: 2 flags for 6 games"):
        env.step(actions, waiting=np.ones(2, bool))
    # A finished game that waits stays finished (terminated) and does not start again.
    env = VecEnv(1, per_colour=1, seed=0)
    while not env.terminated[0]:
        env.step(env.legal_action_mask.argmax(axis=1))
    ended = str(env.positions()[0])
    env.step(np.zeros(1, np.int64), waiting=np.ones(1, bool))
    assert env.terminated[0] and str(env.positions()[0]) == ended
    assert tuple(env.rewards[0]) == (0.0, 0.0)
    env.step(np.zeros(1, np.int64))
    assert not env.terminated[0] and not env.positions()[0].is_over


@pytest.mark.parametrize("colour", ["red", "black"])
@pytest.mark.parametrize("autoreset_mode", ["next_step", "same_step"])
def test_a_batch_policy_opponent_plays_as_the_engine_replays(
    colour: str, autoreset_mode: str
) -> None:
    agent = Player.RED if colour == "red" else Player.BLACK
    side = 0 if agent is Player.RED else 1
    games = 64
    envs = BattleVectorEnv(
        games, opponent=BatchPolicy(last_legal), colour=colour, autoreset_mode=autoreset_mode
    )
    observations, infos = envs.reset(seed=7)
    rng = np.random.default_rng(7)
    positions = envs.env.positions()
    finished = 0
    for _ in range(60):
        for i, position in enumerate(positions):
            if not envs._waiting()[i]:
                assert position.to_move is agent and not position.is_over
                assert (observations[i] == observation(position, agent)).all()
        masks = envs.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        waiting = envs._waiting()
        observations, rewards, terminations, _, infos = envs.step(actions)
        now = envs.env.positions()
        finals = infos.get("final_obs")
        for i, position in enumerate(positions):
            if waiting[i]:
                # The next battle, dealt this step: the opponent's opening moves played.
                assert rewards[i] == 0.0 and not terminations[i]
                assert now[i].to_move is agent and not now[i].is_over
                continue
            expected = replay_opponent(position.play(int(actions[i])), agent)
            assert bool(terminations[i]) == expected.is_over
            if expected.is_over:
                finished += 1
                assert rewards[i] == expected.scoring().margin_for(agent)
                final = finals[i] if autoreset_mode == "same_step" else observations[i]
                assert (final == observation(expected, agent)).all()
                if autoreset_mode == "same_step":
                    assert now[i].to_move is agent and not now[i].is_over
                else:
                    assert str(now[i]) == str(expected)
            else:
                assert rewards[i] == 0.0 and str(now[i]) == str(expected)
        positions = now
        assert (envs.env.current_player[~envs._waiting()] == side).all()
    assert finished > games


def test_opponents_of_every_form_and_their_mistakes() -> None:
    # A policy of one game, asked game by game, plays the same games as its batch form.
    one = BattleVectorEnv(16, opponent=lambda observation, mask: int(np.flatnonzero(mask)[-1]))
    many = BattleVectorEnv(16, opponent=BatchPolicy(last_legal))
    a, _ = one.reset(seed=2)
    b, _ = many.reset(seed=2)
    for _ in range(20):
        assert (a == b).all()
        actions = one.action_masks().argmax(axis=1)
        a, ra, ta, _, _ = one.step(actions)
        b, rb, tb, _, _ = many.step(actions)
        assert (ra == rb).all() and (ta == tb).all()
    # Through make_vec, as the single environment's arguments.
    envs = gymnasium.make_vec(
        "buttonup/Battle-v0",
        num_envs=4,
        opponent=BatchPolicy(last_legal),
        vectorization_mode="vector_entry_point",
    )
    assert envs.reset(seed=0)[0].shape == (4, 9, 9, 3)
    # An illegal pile of the opponent is a PolicyError naming the game and the pile.
    envs = BattleVectorEnv(4, opponent=BatchPolicy(lambda o, m: np.full(len(m), 99)))
    with pytest.raises(PolicyError, match="pile 99 in game"):
        for _ in range(10):
            envs.step(envs.action_masks().argmax(axis=1))
    with pytest.raises(PolicyError, match="gave 1 piles for"):
        envs = BattleVectorEnv(4, opponent=BatchPolicy(lambda o, m: [0]), colour="black")
        envs.reset(seed=1)
    with pytest.raises(TypeError, match="a player is"):
        BattleVectorEnv(4, opponent=object())


def test_an_sb3_model_as_the_opponent_is_asked_once_a_step() -> None:
    if os.environ.get("BUTTONUP_REQUIRE_RL"):
        from sb3_contrib import MaskablePPO
    else:
        MaskablePPO = pytest.importorskip("sb3_contrib").MaskablePPO
    from buttonup.envs.sb3 import BattleVecEnv
    from buttonup.players import chooser as player_chooser

    model = MaskablePPO("MlpPolicy", BattleVecEnv(4, opponent=1, seed=0), seed=0, n_steps=8)
    asked: list[int] = []
    predict = model.policy.obs_to_tensor

    def counted(observations: Any) -> Any:
        asked.append(len(observations))
        return predict(observations)

    model.policy.obs_to_tensor = counted  # type: ignore[method-assign]
    envs = BattleVectorEnv(32, opponent=model, colour="black")
    envs.reset(seed=5)
    single = player_chooser(model)
    calls = moves = 0
    for _ in range(10):
        positions = envs.env.positions()
        actions = envs.action_masks().argmax(axis=1)
        waiting = envs._waiting()
        before = len(asked)
        envs.step(actions)
        calls += len(asked) - before
        now = envs.env.positions()
        for i, position in enumerate(positions):
            if waiting[i]:
                continue
            after = position.play(int(actions[i]))
            while not after.is_over and after.to_move is Player.RED:
                after = after.play(single(after))
                moves += 1
            if not after.is_over:
                assert str(now[i]) == str(after)
    # One call a round of the opponent's moves, for every game where it is to move.
    assert moves > 4 * calls > 0
