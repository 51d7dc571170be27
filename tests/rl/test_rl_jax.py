"""The JAX environment, a second implementation of the rules, against the Rust engine:
every move of every position reachable in the standard game (112,760 positions, both
players to move), then random battles of every variant from 1 to 5 buttons of each
colour, all batched with ``jax.vmap``. CI installs the ``jax`` extra and sets
``BUTTONUP_REQUIRE_RL``, so that nothing here is skipped there."""

from __future__ import annotations

import os
from typing import Any

import pytest
from buttonup import Player, Position, all_positions
from buttonup._core import encode_observation, max_margin

if os.environ.get("BUTTONUP_REQUIRE_RL"):
    import jax
    import numpy as np
else:
    np = pytest.importorskip("numpy")
    jax = pytest.importorskip("jax", reason="jax is in the jax extra")

import jax.numpy as jnp
from buttonup.envs.jax import Battle

CODE = {"R": 1, "B": 2, "W": 3}
LETTER = {1: "R", 2: "B", 3: "W"}


def as_arrays(positions: list[Position], n: int) -> tuple[Any, Any, Any, Any]:
    """The positions as the JAX state's arrays, written here from the notation."""
    cells = np.zeros((len(positions), n, n), np.int8)
    heights = np.zeros((len(positions), n), np.int8)
    piles = np.zeros(len(positions), np.int8)
    player = np.zeros(len(positions), np.int8)
    for i, position in enumerate(positions):
        for p, pile in enumerate(position.piles):
            cells[i, p, : len(pile)] = [CODE[c] for c in pile]
            heights[i, p] = len(pile)
        piles[i] = len(position.piles)
        player[i] = 0 if position.to_move is Player.RED else 1
    return cells, heights, piles, player


def text_of(states: Any, i: int) -> str:
    """Game ``i`` of a batch of JAX states (fetched to the host) in notation."""
    return as_text(
        states.cells[i], states.heights[i], int(states.piles[i]), int(states.current_player[i])
    )


def as_text(cells: Any, heights: Any, piles: int, player: int) -> str:
    """A JAX state's position in notation (piles beyond ``piles`` must be empty)."""
    assert (heights[piles:] == 0).all() and (cells[piles:] == 0).all()
    written = []
    for p in range(piles):
        h = int(heights[p])
        assert (cells[p, h:] == 0).all() and (cells[p, :h] > 0).all()
        written.append("".join(LETTER[int(c)] for c in cells[p, :h]))
    return "/".join(written) + (" r" if player == 0 else " b")


def test_every_move_of_every_reachable_standard_position() -> None:
    env = Battle()
    positions = sorted(all_positions(3))
    assert len(positions) == 112_760
    cells, heights, piles, player = as_arrays(positions, 9)
    states = jax.jit(jax.vmap(env.from_cells))(cells, heights, piles, player)
    # Legal moves and the observation of each position, against the engine's.
    masks = np.asarray(states.legal_action_mask)
    views = np.asarray(states.observation).reshape(len(positions), -1)
    terminal = np.asarray(states.terminated)
    for i, position in enumerate(positions):
        expected = np.zeros(9, bool)
        expected[position.legal_moves()] = True
        assert (masks[i] == expected).all(), position
        assert (views[i] == encode_observation(position)).all(), position
        assert terminal[i] == position.is_over, position
    # Every legal move: the next position, the extra move and the rewards.
    rows, moves = np.nonzero(masks)
    step = jax.jit(jax.vmap(env.step))
    picked = jax.tree.map(lambda a: a[rows], states)
    after = jax.device_get(step(picked, jnp.asarray(moves, jnp.int32)))
    for j, (i, move) in enumerate(zip(rows.tolist(), moves.tolist())):
        position = positions[i]
        outcome = position.outcome(move)
        child = outcome.position
        text = as_text(
            after.cells[j], after.heights[j], int(after.piles[j]), after.current_player[j]
        )
        assert text == str(child), (position, move)
        assert bool(after.extra_move[j]) == position.gives_extra_move(move), (position, move)
        assert bool(after.terminated[j]) == child.is_over
        margin = child.scoring().margin_for(Player.RED) if child.is_over else 0
        assert tuple(after.rewards[j]) == (margin, -margin), (position, move)
    assert len(rows) > len(positions)


def test_illegal_actions_and_finished_battles() -> None:
    env = Battle()
    start = env.from_order(jnp.array([3, 1, 2, 3, 2, 1, 1, 3, 2]), jnp.int8(0))
    fouled = env.step(start, jnp.int32(1))  # pile 1 is red only
    worst = float(max_margin(3))
    assert bool(fouled.terminated) and tuple(fouled.rewards.tolist()) == (-worst, worst)
    again = env.step(fouled, jnp.int32(0))
    assert tuple(again.rewards.tolist()) == (0.0, 0.0) and int(again.step_count) == 1
    assert tuple(env.step(start, jnp.int32(99)).rewards.tolist()) == (-worst, worst)
    win = Battle(reward="win")
    assert tuple(win.step(start, jnp.int32(1)).rewards.tolist()) == (-1.0, 1.0)
    assert (env.observe(start, 1)[..., 0] == (start.cells == 2)).all()
    with pytest.raises(ValueError, match="per_colour"):
        Battle(per_colour=6)


@pytest.mark.parametrize("per_colour", [1, 2, 3, 4, 5])
def test_random_variant_battles_against_the_engine(per_colour: int) -> None:
    env = Battle(per_colour=per_colour, reward="margin")
    n = 3 * per_colour
    batch = 256
    states = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(per_colour), batch))
    step = jax.jit(jax.vmap(env.step))
    host = jax.device_get(states)
    positions = [
        Position(
            as_text(host.cells[i], host.heights[i], int(host.piles[i]), host.current_player[i])
        )
        for i in range(batch)
    ]
    rng = np.random.default_rng(per_colour)
    finished = 0
    for _ in range(n - 1):
        actions = np.array(
            [rng.choice(p.legal_moves()) if not p.is_over else 0 for p in positions], np.int32
        )
        states = step(states, jnp.asarray(actions))
        host = jax.device_get(states)
        for i, position in enumerate(positions):
            if position.is_over:
                assert tuple(host.rewards[i]) == (0.0, 0.0)
                continue
            child = position.play(int(actions[i]))
            text = as_text(
                host.cells[i], host.heights[i], int(host.piles[i]), host.current_player[i]
            )
            assert text == str(child)
            mask = np.zeros(n, bool)
            mask[child.legal_moves()] = True
            assert (host.legal_action_mask[i] == mask).all()
            assert (host.observation[i].reshape(-1) == encode_observation(child)).all()
            margin = child.scoring().margin_for(Player.RED) if child.is_over else 0
            assert tuple(host.rewards[i]) == (margin, -margin)
            positions[i] = child
            finished += child.is_over
    assert finished == batch  # every battle of N buttons ends after N - 1 moves


def test_pgx_auto_reset_runs_on_the_state() -> None:
    """The state has pgx's ``truncated`` and ``replace``, so pgx's own auto-reset wrapper
    steps it (CI installs pgx; elsewhere without pgx, the fields alone are checked)."""
    env = Battle(per_colour=2)
    state = jax.vmap(env.init)(jax.random.split(jax.random.PRNGKey(1), 64))
    assert state.truncated.dtype == jnp.bool_ and not bool(state.truncated.any())
    assert state.replace(truncated=~state.truncated).truncated.all()
    if os.environ.get("BUTTONUP_REQUIRE_RL"):
        from pgx.experimental import auto_reset
    else:
        auto_reset = pytest.importorskip("pgx.experimental", reason="no pgx").auto_reset
    step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))
    key = jax.random.PRNGKey(2)
    ended = 0
    for _ in range(20):
        key, now = jax.random.split(key)
        state = step(state, state.legal_action_mask.argmax(axis=1), jax.random.split(now, 64))
        done = np.asarray(state.terminated)
        ended += int(done.sum())
        # A finished battle shows the next one at once, its rewards those of the end.
        assert np.asarray(state.legal_action_mask)[done].any(axis=1).all()
        assert (np.asarray(state.rewards)[done].sum(axis=1) == 0).all()
        assert not bool(state.truncated.any())
    assert ended > 0


def test_auto_reset_step_is_pgx_auto_reset() -> None:
    """``Battle.auto_reset_step(state, action, key)`` is the state that pgx's wrapper
    makes with the key it passes on to ``init`` (the second of a split), field by field,
    over battles that end, foul (an illegal action now and then) and start again."""
    if os.environ.get("BUTTONUP_REQUIRE_RL"):
        from pgx.experimental import auto_reset
    else:
        auto_reset = pytest.importorskip("pgx.experimental", reason="no pgx").auto_reset
    env = Battle(per_colour=2)
    batch = 128
    theirs = jax.jit(jax.vmap(auto_reset(env.step, env.init)))
    ours = jax.jit(jax.vmap(env.auto_reset_step))
    a = b = jax.vmap(env.init)(jax.random.split(jax.random.PRNGKey(3), batch))
    rng = np.random.default_rng(3)
    key = jax.random.PRNGKey(4)
    ended = fouls = 0
    for _ in range(30):
        mask = np.asarray(a.legal_action_mask)
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
        foul = rng.random(batch) < 0.05
        actions[foul] = rng.integers(0, env.buttons, foul.sum())
        fouls += int((foul & ~mask[np.arange(batch), actions]).sum())
        key, now = jax.random.split(key)
        keys = jax.random.split(now, batch)
        a = theirs(a, jnp.asarray(actions), keys)
        b = ours(b, jnp.asarray(actions), jax.vmap(lambda k: jax.random.split(k)[1])(keys))
        for name, x, y in zip(a._fields, a, b):
            assert np.array_equal(np.asarray(x), np.asarray(y)), name
        ended += int(np.asarray(a.terminated).sum())
    assert ended > batch and fouls > 0


def test_init_draws_every_start_order_and_starter_alike() -> None:
    """One draw from the core's table of start orders and a starter: at one button of
    each colour, the 6 orders x 2 starters each come up about 1/12 of the time."""
    env = Battle(per_colour=1)
    draws = 12_000
    states = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(5), draws))
    host = jax.device_get(states)
    seen: dict[tuple[int, ...], int] = {}
    for cells, player in zip(host.cells[:, :, 0], host.current_player):
        outcome = (*cells.tolist(), int(player))
        seen[outcome] = seen.get(outcome, 0) + 1
    assert len(seen) == 12
    assert all(sorted(o[:3]) == [1, 2, 3] for o in seen)
    # Each count is binomial(12,000, 1/12): 1,000 +- 30 (sd); 5 sd either side.
    assert all(850 < count < 1150 for count in seen.values()), seen
    assert (host.heights == 1).all()
