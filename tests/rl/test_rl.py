"""The learning-agent adapters, each through its framework's own checks, and the batched
environment against ``Position.play``. CI installs the ``rl`` extra and sets
``BUTTONUP_REQUIRE_RL``, so that nothing here is skipped there."""

from __future__ import annotations

import os
import warnings
from typing import Any

import pytest
from buttonup import IllegalMoveError, Player, Position, VecEnv
from harness import encoded_by_the_docs

if os.environ.get("BUTTONUP_REQUIRE_RL"):
    import gymnasium
    import numpy as np
    import pettingzoo
    import pyspiel
else:
    np = pytest.importorskip("numpy")
    gymnasium = pytest.importorskip("gymnasium")
    pettingzoo = pytest.importorskip("pettingzoo")
    pyspiel = pytest.importorskip("pyspiel")

from buttonup import max_margin
from buttonup._core import encode_observation
from buttonup.envs import observation

warnings.filterwarnings("ignore", category=UserWarning, module="pettingzoo|gymnasium")

RED = Player.RED


# --- the observation encoding, worked out by hand from docs/rl.md ----------------------
# (harness.encoded_by_the_docs)


# Positions, observers and the channel of each button, worked out by hand: a pile a
# "/", bottom first, as the position's text (0 the observer's, 1 his opponent's, 2 white).
OBSERVATION_GOLDENS = [
    # A start: one button a pile, Red's own buttons in channel 0.
    ("W/R/B/W/B/R/R/W/B r", RED, "2/0/1/2/1/0/0/2/1"),
    # Eight buttons in five piles, seen by Black: Red's buttons are the opponent's.
    ("RW/B/WWB/R/W b", Player.BLACK, "12/0/220/1/2"),
    # The same seen by Red (not to move): channels 0 and 1 swap, white stays.
    ("RW/B/WWB/R/W b", RED, "02/1/221/0/2"),
    # A finished battle (docs/rules.md's final pile), bottom R first, seen by Black.
    ("RBWWBRWBR b", Player.BLACK, "102201201"),
    # Two buttons.
    ("WR r", RED, "20"),
]


@pytest.mark.parametrize(("text", "player", "channels"), OBSERVATION_GOLDENS)
def test_the_observation_encoding_against_hand_worked_cells(
    text: str, player: Player, channels: str
) -> None:
    # The cells set to 1: (pile, height, channel).
    cells = [
        (p, h, int(c)) for p, pile in enumerate(channels.split("/")) for h, c in enumerate(pile)
    ]
    position = Position(text)
    n = sum(len(pile) for pile in position.piles)
    seen = observation(position, player)
    assert seen.shape == (n, n, 3) and seen.dtype == np.int8
    assert sorted(map(tuple, np.argwhere(seen).tolist())) == sorted(cells)
    assert (encoded_by_the_docs(position, player) == seen).all()
    if player is position.to_move:
        # Flat, from the mover's side: cell (p, h, c) at p * 3N + h * 3 + c.
        flat = encode_observation(position)
        assert flat.shape == (n * n * 3,)
        assert sorted(np.flatnonzero(flat).tolist()) == sorted(
            p * 3 * n + h * 3 + c for p, h, c in cells
        )


# --- VecEnv ---------------------------------------------------------------------------
def random_actions(env: VecEnv, rng: Any) -> Any:
    return np.array(
        [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in env.legal_action_mask]
    )


@pytest.mark.parametrize("per_colour, threads", [(3, 1), (3, 2), (5, 2), (1, 1)])
def test_vecenv_steps_as_position_play(per_colour: int, threads: int) -> None:
    env = VecEnv(37, per_colour=per_colour, seed=5, threads=threads)
    rng = np.random.default_rng(per_colour)
    positions = env.positions()
    finished = [False] * env.num_envs
    endings = 0
    for _ in range(6 * per_colour * 3):
        actions = random_actions(env, rng)
        env.step(actions)
        after = env.positions()
        for i, (before, now) in enumerate(zip(positions, after)):
            if finished[i]:
                # A finished game starts a new battle, whatever its action.
                assert len(now.piles) == 3 * per_colour and not env.terminated[i]
                assert tuple(env.rewards[i]) == (0.0, 0.0)
                finished[i] = False
            else:
                assert now == before.play(int(actions[i]))
                margin = now.scoring().margin_for(RED) if now.is_over else 0
                assert tuple(env.rewards[i]) == (margin, -margin)
                assert env.terminated[i] == now.is_over
                finished[i] = now.is_over
                endings += now.is_over
            assert env.current_player[i] == (0 if now.to_move is Player.RED else 1)
            mask = np.zeros(3 * per_colour, bool)
            mask[now.legal_moves()] = True
            assert (env.legal_action_mask[i] == mask).all()
            n = 3 * per_colour
            mover_view = encoded_by_the_docs(now, now.to_move)
            assert (env.observation[i].reshape(n, n, 3) == mover_view).all()
        positions = after
    assert endings > 0


def test_vecenv_games_do_not_depend_on_threads() -> None:
    one, two = VecEnv(1100, seed=9, threads=1), VecEnv(1100, seed=9, threads=2)
    rng = np.random.default_rng(0)
    for _ in range(30):
        actions = random_actions(one, rng)
        one.step(actions)
        two.step(actions)
        assert one.positions() == two.positions()
        assert (one.observation == two.observation).all() and (one.rewards == two.rewards).all()


def test_an_illegal_action_names_the_game_and_changes_nothing() -> None:
    env = VecEnv(4, seed=1)
    before = env.positions()
    actions = random_actions(env, np.random.default_rng(0))
    bad = int(np.flatnonzero(~env.legal_action_mask[2])[0])
    actions[2] = bad
    with pytest.raises(ValueError, match=f"game 2: pile {bad}: "):
        env.step(actions)
    assert env.positions() == before
    with pytest.raises(ValueError, match=r"3 actions for 4 games"):
        env.step(actions[:3])
    env.reset(seed=1)
    assert env.positions() == before
    assert VecEnv(4, seed=1, observations=False).observation.shape == (4, 0)


# --- PettingZoo -----------------------------------------------------------------------
def test_pettingzoo_api_and_seed_tests() -> None:
    from buttonup.envs.pettingzoo import env
    from pettingzoo.test import api_test, seed_test

    api_test(env(), num_cycles=300, verbose_progress=False)
    api_test(env(per_colour=2, reward="win"), num_cycles=100, verbose_progress=False)
    seed_test(env, num_cycles=50)


def test_pettingzoo_extra_moves_and_rewards() -> None:
    from buttonup.envs.pettingzoo import raw_env

    game = raw_env(render_mode=None)
    extra_moves = 0
    for seed in range(30):
        game.reset(seed=seed)
        while not all(game.terminations.values()):
            agent = game.agent_selection
            position = game.position
            assert agent == position.to_move.name.lower()
            move = int(np.flatnonzero(game.observe(agent)["action_mask"])[0])
            extra = position.gives_extra_move(move)
            game.step(move)
            if extra:
                extra_moves += 1
                assert game.agent_selection == agent
        scoring = game.position.scoring()
        assert game.rewards == {
            "red": scoring.margin_for(RED),
            "black": scoring.margin_for(Player.BLACK),
        }
    assert extra_moves > 0
    assert "W" in raw_env(render_mode="ansi").render()


# --- Gymnasium ------------------------------------------------------------------------
def test_gymnasium_check_env_and_episodes() -> None:
    import buttonup.envs.gymnasium  # noqa: F401 (registers the environment)
    from gymnasium.utils.env_checker import check_env

    game = gymnasium.make("buttonup/Battle-v0", opponent=3)
    check_env(game.unwrapped)
    for seed in range(10):
        _, info = game.reset(seed=seed)
        done, reward = False, 0.0
        while not done:
            move = int(np.flatnonzero(info["action_mask"])[0])
            _, reward, done, _, info = game.step(move)
        position = game.unwrapped.position
        assert reward == position.scoring().margin_for(RED)  # the agent plays Red
    game.reset(seed=0)
    illegal = int(np.flatnonzero(game.unwrapped._observe()[1]["action_mask"] == 0)[0])
    _, reward, done, _, info = game.step(illegal)
    # The worst reward: the largest margin against, Black's 7 + 8 + 9 against 1 + 2 + 3.
    assert done and reward == -18.0 == -max_margin(3) and info["illegal_action"]


# --- OpenSpiel ------------------------------------------------------------------------
def test_openspiel_random_sims_with_serialisation() -> None:
    import buttonup.envs.openspiel  # noqa: F401 (registers the game)

    for params in ({}, {"per_colour": 2}, {"start": "W/R/B/W/B/R/R/W/B r"}):
        game = pyspiel.load_game("python_button_up", params)
        pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)
    state = pyspiel.load_game("python_button_up").new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 1680
    state.apply_action(0)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert str(state) != str(clone) and len(state.observation_tensor(0)) == 243


def test_openspiel_alpha_beta_agrees_with_solve() -> None:
    import buttonup.envs.openspiel
    from open_spiel.python.algorithms import minimax

    for seed in range(6):
        start = Position.random(seed=seed, to_move=Player.RED if seed % 2 else Player.BLACK)
        game = pyspiel.load_game("python_button_up", {"start": str(start)})
        value, _ = minimax.alpha_beta_search(game, maximizing_player_id=0)
        red_value = buttonup.solve(start) * (1 if start.to_move is Player.RED else -1)
        assert value == red_value


def test_openspiel_mcts_plays_whole_battles_against_the_bots() -> None:
    import buttonup.envs.openspiel  # noqa: F401
    from buttonup.ai import bot
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("python_button_up")
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    for level in (1, 9):
        searcher = mcts.MCTSBot(game, 2.0, 40, evaluator, random_state=rng)
        opponent = bot(level, seed=level)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(rng.randint(len(state.chance_outcomes()))))
            elif state.current_player() == 0:
                state.apply_action(searcher.step(state))
            else:
                state.apply_action(opponent.choose(state.position))
        returns = state.returns()
        assert returns[0] == -returns[1] == state.position.scoring().margin_for(RED)


def test_illegal_moves_in_the_adapters_are_clear() -> None:
    from buttonup.envs.pettingzoo import raw_env

    game = raw_env()
    game.reset(seed=1)
    bad = int(np.flatnonzero(game.observe(game.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalMoveError):
        game.step(bad)


def test_pettingzoo_render_test_and_ansi_prints_nothing(capsys: Any) -> None:
    from buttonup.envs.pettingzoo import env, raw_env
    from pettingzoo.test import render_test

    render_test(env)
    capsys.readouterr()
    game = raw_env(render_mode="ansi")
    game.reset(seed=3)
    game.step(int(np.flatnonzero(game.observe(game.agent_selection)["action_mask"])[0]))
    text = game.render()
    assert isinstance(text, str) and "^" in text
    assert capsys.readouterr().out == ""  # "ansi" returns the text; it prints nothing
    shown = raw_env(render_mode="human")
    shown.reset(seed=3)
    shown.step(int(np.flatnonzero(shown.observe(shown.agent_selection)["action_mask"])[0]))
    assert shown.render() is None
    assert str(shown.position) in capsys.readouterr().out  # "human" prints


def test_openspiel_fair_starter_draws_both_starters() -> None:
    import buttonup.envs.openspiel  # noqa: F401

    game = pyspiel.load_game("python_button_up", {"fair_starter": True})
    assert game.max_chance_outcomes() == 2 * 1680
    outcomes = game.new_initial_state().chance_outcomes()
    assert len(outcomes) == 3360 and abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    rng = np.random.default_rng(0)
    starters = set()
    for _ in range(40):
        state = game.new_initial_state()
        state.apply_action(int(rng.integers(len(outcomes))))
        starters.add(state.current_player())
        assert state.position.to_move is (RED if state.current_player() == 0 else Player.BLACK)
    assert starters == {0, 1}
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)
    # The default keeps Red starting every battle.
    plain = pyspiel.load_game("python_button_up").new_initial_state()
    plain.apply_action(1679)
    assert plain.current_player() == 0


def test_vecenv_reset_takes_one_seed_a_game() -> None:
    env = VecEnv(3, seed=0)
    env.reset(seed=[5, 6, 7])
    for position, seed in zip(env.positions(), [5, 6, 7]):
        assert position == VecEnv(1, seed=seed).positions()[0]
    env.reset(seed=np.array([5, 6, 7], np.uint64))
    assert [str(p) for p in env.positions()] == [
        str(VecEnv(1, seed=s).positions()[0]) for s in (5, 6, 7)
    ]
    with pytest.raises(ValueError, match="2 seeds for 3 games"):
        env.reset(seed=(1, 2))
    with pytest.raises(ValueError, match="seed must be an int from 0"):
        env.reset(seed=[1, 2, -3])
    with pytest.raises(TypeError, match="seed"):
        env.reset(seed=["a", "b", "c"])
    with pytest.raises(TypeError, match="seed"):
        env.reset(seed="abc")
