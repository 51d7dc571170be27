"""The vector forms: Gymnasium's ``make_vec`` entry point and the self-play batch against
the engine's own ``Position``, and the Stable-Baselines3 adapter through SB3's wrappers
and a short MaskablePPO run. CI installs the ``rl`` and ``sb3`` extras and sets
``BUTTONUP_REQUIRE_RL``, so that nothing here is skipped there."""

from __future__ import annotations

import os
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

import buttonup.envs.gymnasium
from buttonup.envs import observation
from buttonup.envs.vector import BattleVectorEnv, SelfPlayVectorEnv


def needs(module: str) -> Any:
    """``module``, or a skip naming it (never in CI, which installs it)."""
    if os.environ.get("BUTTONUP_REQUIRE_RL"):
        return __import__(module)
    return pytest.importorskip(module, reason=f"{module} is in the sb3 extra")


def first_legal(masks: Any) -> Any:
    return np.where(masks.any(axis=1), masks.argmax(axis=1), 0)


def random_legal(masks: Any, rng: Any) -> Any:
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])


def seeded(envs: Any, seed: int) -> tuple[Any, Any, Any]:
    """``envs`` reset from ``seed``: its observations and infos, and a generator of
    random moves from the same seed."""
    observations, infos = envs.reset(seed=seed)
    return observations, infos, np.random.default_rng(seed)


@pytest.mark.parametrize("opponent, colour", [(1, "red"), (5, "black"), (9, "red")])
def test_make_vec_steps_as_the_engine_plays(opponent: int, colour: str) -> None:
    envs = gymnasium.make_vec(
        "buttonup/Battle-v0",
        num_envs=16,
        opponent=opponent,
        colour=colour,
        vectorization_mode="vector_entry_point",
    )
    assert isinstance(envs.unwrapped, BattleVectorEnv)
    assert envs.metadata["autoreset_mode"] is gymnasium.vector.AutoresetMode.NEXT_STEP
    agent = Player.RED if colour == "red" else Player.BLACK
    observations, infos = envs.reset(seed=3)
    rng = np.random.default_rng(opponent)
    finished = np.zeros(16, bool)
    endings = 0
    for _ in range(40):
        assert envs.observation_space.contains(observations)
        positions = envs.unwrapped.env.positions()
        for i, position in enumerate(positions):
            assert (observations[i] == observation(position, agent)).all()
            mask = np.zeros(9, bool)
            if position.to_move is agent:
                mask[position.legal_moves()] = True
            if position.is_over:  # waiting for its next-step reset: any action goes
                assert infos["action_mask"][i].all() and not infos["final_mask"][i].any()
            else:
                assert (infos["action_mask"][i] == mask).all()
            # The opponent has played: the agent is to move, or the battle is over.
            assert position.is_over or position.to_move is agent
        actions = random_legal(infos["action_mask"], rng)
        observations, rewards, terminated, truncated, infos = envs.step(actions)
        after = envs.unwrapped.env.positions()
        for i, position in enumerate(after):
            if finished[i]:  # next-step reset: a new battle, nothing paid
                assert not terminated[i] and rewards[i] == 0 and not position.is_over
            else:
                assert terminated[i] == position.is_over
                margin = position.scoring().margin_for(agent) if position.is_over else 0
                assert rewards[i] == margin
        assert not truncated.any()
        endings += int(terminated.sum())
        finished = terminated
    assert endings > 10


def test_the_vector_env_against_a_level_is_the_same_on_any_threads() -> None:
    one = BattleVectorEnv(2100, opponent=5, threads=1)
    two = BattleVectorEnv(2100, opponent=5, threads=2)
    a, infos = one.reset(seed=11)
    b, _ = two.reset(seed=11)
    rng = np.random.default_rng(0)
    for _ in range(12):
        assert (a == b).all()
        actions = random_legal(infos["action_mask"], rng)
        a, ra, _, _, infos = one.step(actions)
        b, rb, _, _, _ = two.step(actions)
        assert (ra == rb).all()


def test_same_step_resets_and_gymnasium_wrappers() -> None:
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    envs = RecordEpisodeStatistics(
        BattleVectorEnv(32, opponent=1, reward="win", autoreset_mode="same_step")
    )
    _, infos = envs.reset(seed=0)
    episodes = 0
    for _ in range(30):
        _observations, rewards, terminated, _, infos = envs.step(first_legal(infos["action_mask"]))
        assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
        # Every game has a move at once: finished ones started again within the step.
        assert infos["action_mask"].any(axis=1).all()
        if terminated.any():
            assert (infos["_final_obs"] == terminated).all()
            assert infos["final_obs"][terminated].sum() == 9 * terminated.sum()  # 9 buttons
            episodes += int(terminated.sum())
            assert (infos["episode"]["l"][terminated] >= 1).all()
    assert episodes > 0


def test_the_vector_env_refuses_what_it_cannot_play() -> None:
    # A level is played in Rust, any other player from Python (test_rl_batch_opponent.py);
    # what is neither is refused, and so is replacing a level.
    with pytest.raises(TypeError, match="a player is"):
        BattleVectorEnv(4, opponent=object())
    with pytest.raises(ValueError, match="opponent"):
        BattleVectorEnv(4, opponent=11)
    envs = BattleVectorEnv(4, opponent=1)
    with pytest.raises(ValueError, match="a batch against a level keeps it"):
        envs.set_opponent(lambda position: position.legal_moves()[0])
    _, infos = envs.reset(seed=1)
    actions = first_legal(infos["action_mask"])
    actions[2] = int(np.flatnonzero(~infos["action_mask"][2])[0])
    with pytest.raises(ValueError, match="game 2: pile"):
        envs.step(actions)


def test_self_play_batches_both_sides() -> None:
    envs = SelfPlayVectorEnv(24, per_colour=2)
    observations, infos, rng = seeded(envs, 2)
    endings = 0
    for _ in range(30):
        positions = envs.env.positions()
        for i, position in enumerate(positions):
            assert (observations[i] == observation(position, position.to_move)).all()
            assert infos["current_player"][i] == (0 if position.to_move is Player.RED else 1)
        movers = infos["current_player"].copy()
        observations, rewards, terminated, _, infos = envs.step(
            random_legal(infos["action_mask"], rng)
        )
        both = infos["rewards"]
        assert (both[:, 0] == -both[:, 1]).all()
        assert (rewards == both[np.arange(24), movers]).all()
        for i in np.flatnonzero(terminated):
            final = envs.env.positions()[i]
            assert both[i, 0] == final.scoring().margin_for(Player.RED)
        endings += int(terminated.sum())
    assert endings > 0


def test_single_env_opponent_forms_and_action_masks() -> None:
    from buttonup.ai import bot
    from gymnasium.utils.env_checker import check_env

    last = lambda position: position.legal_moves()[-1]  # noqa: E731
    policy = lambda observation, mask: int(np.flatnonzero(mask)[0])  # noqa: E731
    for opponent in (4, bot(2, seed=1), last, policy):
        game = gymnasium.make("buttonup/Battle-v0", opponent=opponent, colour="black")
        if not hasattr(opponent, "choose"):  # a bot object's draws go on across seeds
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                check_env(game.unwrapped)
        _, info = game.reset(seed=5)
        done = False
        while not done:
            masks = game.unwrapped.action_masks()
            assert masks.dtype == bool and (masks == info["action_mask"].astype(bool)).all()
            _, _, done, _, info = game.step(int(np.flatnonzero(masks)[0]))
    with pytest.raises(TypeError, match="takes 3 arguments"):
        buttonup.envs.gymnasium.BattleEnv(opponent=lambda a, b, c: 0)


def test_sb3_adapter_with_sb3_wrappers_and_maskable_ppo() -> None:
    needs("torch")
    sb3 = needs("stable_baselines3")
    contrib = needs("sb3_contrib")
    from buttonup.envs.sb3 import BattleVecEnv
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.env_checker import check_env
    from stable_baselines3.common.vec_env import VecCheckNan, VecMonitor

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # SB3's checker on the single env: no warning
        check_env(buttonup.envs.gymnasium.BattleEnv(opponent=2))
    envs = VecCheckNan(VecMonitor(BattleVecEnv(16, opponent=1, seed=0)), raise_exception=True)
    assert is_masking_supported(envs)
    observations = envs.reset()
    assert observations.shape == (16, 9, 9, 3)
    ends = 0
    for _ in range(20):
        masks = get_action_masks(envs)
        assert masks.shape == (16, 9) and masks.any(axis=1).all()
        observations, _rewards, dones, infos = envs.step(first_legal(masks))
        for i in np.flatnonzero(dones):
            assert infos[i]["terminal_observation"].sum() == 9
            assert "episode" in infos[i]
            ends += 1
    assert ends > 0
    model = contrib.MaskablePPO(
        "MlpPolicy", BattleVecEnv(32, opponent=1, seed=1), n_steps=64, batch_size=256, seed=0
    )
    model.learn(4096)
    assert model.num_timesteps >= 4096
    action, _ = model.predict(observations[:1], action_masks=masks[:1], deterministic=True)
    assert masks[0, int(action[0])]
    assert sb3.__version__


def test_an_sb3_model_plays_as_an_opponent() -> None:
    needs("torch")
    contrib = needs("sb3_contrib")
    from buttonup.envs.sb3 import BattleVecEnv
    from buttonup.players import chooser

    model = contrib.MaskablePPO("MlpPolicy", BattleVecEnv(4, opponent=1, seed=0), n_steps=8)
    choose = chooser(model)
    for text in ("W/R/B/W/B/R/R/W/B r", "RW/B/W/B/R/R/W/B b", "BRW/RB/RW/BW b"):
        position = Position(text)  # fewer piles than buttons after the first move
        assert choose(position) in position.legal_moves()
    from buttonup.envs import evaluate

    report = evaluate(model, episodes=4, opponents=[1, 9])  # an SB3 model, as a policy
    assert report.battles == 8 and report.optimal.count == len(report.regrets) > 8


def test_maskable_ppo_trains_in_self_play_against_a_pool() -> None:
    needs("torch")
    contrib = needs("sb3_contrib")
    from buttonup.envs.selfplay import OpponentPool, SelfPlayEnv
    from stable_baselines3.common.env_checker import check_env

    pool = OpponentPool([1, 9])
    game = SelfPlayEnv(pool)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(game)  # SB3's own checker, without a warning
    model = contrib.MaskablePPO("MlpPolicy", game, n_steps=128, batch_size=64, seed=0)
    model.learn(512)
    pool.add(model, name="snapshot")  # the learner joins the pool as an opponent
    colours, opponents = set(), set()
    for seed in range(12):
        _, info = game.reset(seed=seed)
        colours.add(info["colour"])
        opponents.add(info["opponent"])
        done = False
        while not done:
            action, _ = model.predict(
                game._observe()[0], action_masks=game.action_masks(), deterministic=True
            )
            _, _, done, _, info = game.step(int(action))
    assert colours == {"red", "black"} and "snapshot" in opponents


def test_make_vec_defaults_to_the_vector_form_with_the_single_envs_defaults() -> None:
    envs = gymnasium.make_vec("buttonup/Battle-v0", num_envs=2)
    single = gymnasium.make("buttonup/Battle-v0").unwrapped
    assert isinstance(envs.unwrapped, BattleVectorEnv)
    assert envs.unwrapped.opponent == single._level == 5
    assert envs.unwrapped.agent is single.agent is Player.RED
    assert envs.single_observation_space == single.observation_space
    assert envs.single_action_space == single.action_space


def test_a_seed_list_seeds_each_game_by_its_own_seed() -> None:
    envs = BattleVectorEnv(4, opponent=1)
    first, _ = envs.reset(seed=[1, 2, 3, 4])
    starts = [str(p) for p in envs.env.positions()]
    other, _ = envs.reset(seed=[1, 99, 98, 97])
    again = [str(p) for p in envs.env.positions()]
    # Game 0 has seed 1 both times; games 1 to 3 have other seeds, so other battles.
    assert again[0] == starts[0] and (first[0] == other[0]).all()
    assert all(a != b for a, b in zip(again[1:], starts[1:])), (starts, again)
    # Game i is the battle of a batch of one seeded with seed[i].
    for i, seed in enumerate([1, 99, 98, 97]):
        alone = BattleVectorEnv(1, opponent=1)
        alone.reset(seed=[seed])
        assert str(alone.env.positions()[0]) == again[i]
    with pytest.raises(ValueError, match="3 seeds for 4 games"):
        envs.reset(seed=[1, 2, 3])


def test_same_step_final_info_is_the_finished_battles_info() -> None:
    envs = SelfPlayVectorEnv(16, per_colour=2, autoreset_mode="same_step")
    _, infos, rng = seeded(envs, 4)
    seen = 0
    for _ in range(12):
        _, _, terminated, _, infos = envs.step(random_legal(infos["action_mask"], rng))
        if not terminated.any():
            assert "final_info" not in infos
            continue
        final = infos["final_info"]
        assert (infos["_final_info"] == terminated).all()
        for name in ("action_mask", "rewards", "current_player"):
            assert (final[f"_{name}"] == terminated).all(), name
        # The finished battles' own info: no legal pile left, their final rewards.
        assert not final["action_mask"][terminated].any()
        assert (final["rewards"][terminated] == infos["rewards"][terminated]).all()
        assert infos["action_mask"][terminated].any(axis=1).all()  # the new battles'
        seen += int(terminated.sum())
    assert seen > 0


def test_next_step_masks_are_never_all_false() -> None:
    envs = BattleVectorEnv(32, opponent=1)
    _, infos, rng = seeded(envs, 6)
    waited = 0
    for _ in range(25):
        masks = envs.action_masks()
        assert masks.dtype == bool and (masks == infos["action_mask"]).all()
        assert masks.any(axis=1).all()  # a masked policy can always sample
        _, _, terminated, _, infos = envs.step(random_legal(infos["action_mask"], rng))
        if terminated.any():
            # The finished games accept any action (ignored); their real mask is empty.
            assert infos["action_mask"][terminated].all()
            assert (infos["_final_mask"] == terminated).all()
            assert not infos["final_mask"][terminated].any()
            waited += int(terminated.sum())
        else:
            assert "final_mask" not in infos
    assert waited > 0


def test_call_get_attr_set_attr_and_render_as_gymnasium_has_them() -> None:
    envs = BattleVectorEnv(3, opponent=2, render_mode="ansi")
    envs.reset(seed=0)
    assert envs.get_attr("opponent") == (2, 2, 2)
    assert envs.call("per_colour") == (3, 3, 3)
    masks = envs.call("action_masks")
    assert len(masks) == 3 and (np.stack(masks) == envs.action_masks()).all()
    rendered = envs.render()
    assert rendered is not None and len(rendered) == 3
    assert rendered == envs.call("render")
    for text, position in zip(rendered, envs.env.positions()):
        assert text.startswith(str(position)) and "^" in text
    envs.set_attr("reward_kind", "win")
    assert envs.get_attr("reward_kind") == ("win",) * 3
    envs.set_attr("reward_kind", ["margin"] * 3)
    assert envs.reward_kind == "margin"
    with pytest.raises(ValueError, match="equal"):
        envs.set_attr("reward_kind", ["margin", "win", "win"])
    with pytest.raises(ValueError, match="fixed"):
        envs.set_attr("opponent", 5)
    with pytest.raises(ValueError, match="reward"):
        envs.set_attr("reward_kind", "loss")
    assert BattleVectorEnv(2, opponent=1).render() is None
    with pytest.raises(ValueError, match="render_mode"):
        BattleVectorEnv(2, opponent=1, render_mode="human")
    made = gymnasium.make_vec(
        "buttonup/Battle-v0",
        num_envs=2,
        opponent=1,
        render_mode="ansi",
        vectorization_mode="vector_entry_point",
    )
    made.reset(seed=1)
    assert len(made.render()) == 2


def test_masks_are_bool_in_the_single_and_the_vector_env() -> None:
    game = buttonup.envs.gymnasium.BattleEnv(opponent=1)
    _, info = game.reset(seed=0)
    _, _, _, _, after = game.step(int(np.flatnonzero(info["action_mask"])[0]))
    envs = BattleVectorEnv(2, opponent=1)
    _, infos = envs.reset(seed=0)
    for mask in (info["action_mask"], after["action_mask"], infos["action_mask"]):
        assert mask.dtype == bool


def test_check_env_warns_of_nothing_on_an_env_made_directly() -> None:
    from buttonup.envs.selfplay import OpponentPool, SelfPlayEnv
    from gymnasium.utils.env_checker import check_env

    for made in (
        buttonup.envs.gymnasium.BattleEnv(opponent=2),
        buttonup.envs.gymnasium.BattleEnv(opponent=2, render_mode="ansi"),
        SelfPlayEnv(OpponentPool([1, 2])),
    ):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # the render modes' warning among them
            check_env(made)
