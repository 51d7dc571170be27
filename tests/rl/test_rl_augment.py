"""Rotations of the circle (:mod:`buttonup.envs.augment`) as exact symmetries: on 300
random positions, the engine's position turned by hand (its notation's piles rolled)
has the rotated observation and mask, the value (the engine's exact ``analyze``) of
each rotated move is that of the move, and each move leads to a turn of the original
move's result with the same extra move. Mirror images are checked *not* to be
symmetries. CI installs the ``rl`` and ``jax`` extras and sets ``BUTTONUP_REQUIRE_RL``,
so that nothing here is skipped there."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest
from buttonup import Player, Position, analyze, solve

if os.environ.get("BUTTONUP_REQUIRE_RL"):
    import numpy as np
else:
    np = pytest.importorskip("numpy")

from buttonup.envs import action_mask, observation
from buttonup.envs.augment import (
    pile_count,
    rotate,
    rotate_action,
    rotate_mask,
    rotate_observation,
    rotate_position,
    rotate_state,
)


def random_positions(count: int, per_colour: int = 3, seed: int = 0) -> list[Position]:
    """Positions of unfinished battles: a shuffled start, either starter, then 0 to
    ``N - 2`` random moves, each position once."""
    rng = random.Random(seed)
    positions: list[Position] = []
    while len(positions) < count:
        starter = rng.choice([Player.RED, Player.BLACK])
        position = Position.random(rng.randrange(2**32), to_move=starter, per_colour=per_colour)
        for _ in range(rng.randrange(3 * per_colour - 1)):
            position = position.play(rng.choice(position.legal_moves()))
        if position not in positions:
            positions.append(position)
    return positions


def turned_by_hand(position: Position, shift: int) -> Position:
    """``position`` with pile ``p`` moved to ``(p + shift) % m``, from its notation."""
    piles = list(position.piles)
    m = len(piles)
    turned = [piles[(j - shift) % m] for j in range(m)]
    return Position(f"{'/'.join(turned)} {position.to_move.letter}")


def mask_of(position: Position) -> Any:
    return action_mask(position, position.to_move).astype(bool)


POSITIONS = random_positions(300)
SHIFTS = [random.Random(i).randrange(1, len(p.piles)) for i, p in enumerate(POSITIONS)]


def test_the_positions_are_varied() -> None:
    assert len(set(POSITIONS)) == 300
    assert {len(p.piles) for p in POSITIONS} == set(range(2, 10))


def test_rotate_position_turns_the_notation() -> None:
    for position, shift in zip(POSITIONS, SHIFTS):
        assert rotate_position(position, shift) == turned_by_hand(position, shift)
        assert rotate_position(position, shift - len(position.piles)) == turned_by_hand(
            position, shift
        )
    assert str(rotate_position(Position("RW/B/W r"), 1)) == "W/RW/B r"


@pytest.mark.parametrize("per_colour, count", [(3, 300), (2, 60), (4, 60)])
def test_rotations_are_exact_symmetries(per_colour: int, count: int) -> None:
    positions = POSITIONS if per_colour == 3 else random_positions(count, per_colour, seed=1)
    exact = 0
    for i, position in enumerate(positions):
        m = len(position.piles)
        shift = SHIFTS[i] if per_colour == 3 else 1 + i % (m - 1)
        turned = turned_by_hand(position, shift)
        for player in (Player.RED, Player.BLACK):
            assert (
                rotate_observation(observation(position, player), shift)
                == observation(turned, player)
            ).all()
        assert (rotate_mask(mask_of(position), shift, m) == mask_of(turned)).all()
        values, turned_values = analyze(position), analyze(turned)
        assert sorted(turned_values) == sorted(int(rotate_action(a, shift, m)) for a in values)
        for move, value in values.items():
            other = int(rotate_action(move, shift, m))
            assert turned_values[other] == value
            assert turned.gives_extra_move(other) == position.gives_extra_move(move)
            after = position.play(move)
            assert turned.play(other) in {
                turned_by_hand(after, k) for k in range(max(len(after.piles), 1))
            }
        exact += 1
    assert exact == count


def test_a_batch_rotates_item_by_item() -> None:
    observations = np.stack([observation(p, p.to_move) for p in POSITIONS])
    masks = np.stack([mask_of(p) for p in POSITIONS])
    actions = np.array([p.legal_moves()[0] for p in POSITIONS])
    shifts = np.array(SHIFTS)
    assert pile_count(observations).tolist() == [len(p.piles) for p in POSITIONS]
    batch = rotate(observations, masks, actions, shifts)
    for i, (position, shift) in enumerate(zip(POSITIONS, SHIFTS)):
        turned = turned_by_hand(position, shift)
        assert (batch[0][i] == observation(turned, position.to_move)).all()
        assert (batch[1][i] == mask_of(turned)).all()
        assert batch[2][i] == (actions[i] + shift) % len(position.piles)
        assert turned.is_legal(int(batch[2][i]))
    # The inverse turn gives the sample back.
    back = rotate(*batch, -shifts)
    assert all((a == b).all() for a, b in zip(back, (observations, masks, actions)))


def test_a_whole_turn_and_a_single_pile_change_nothing() -> None:
    final = Position("RBWWBRWBR b")
    seen = observation(final, Player.RED)
    assert (rotate_observation(seen, 5) == seen).all()
    position = POSITIONS[0]
    m = len(position.piles)
    seen = observation(position, position.to_move)
    assert (rotate_observation(seen, m) == seen).all()


def test_mirror_images_are_not_symmetries() -> None:
    # Reversing the circle (each pile kept) would need sowing anticlockwise: it changes
    # the value of some positions, so it is no augmentation.
    differ = 0
    for position in POSITIONS:
        mirrored = Position(f"{'/'.join(reversed(position.piles))} {position.to_move.letter}")
        differ += solve(mirrored) != solve(position)
    assert differ > 30


def test_jax_arrays_rotate_as_numpy_ones_and_states_turn() -> None:
    if os.environ.get("BUTTONUP_REQUIRE_RL"):
        import jax
    else:
        jax = pytest.importorskip("jax", reason="jax is in the jax extra")
    import jax.numpy as jnp
    from buttonup.envs.jax import Battle

    observations = np.stack([observation(p, p.to_move) for p in POSITIONS])
    masks = np.stack([mask_of(p) for p in POSITIONS])
    actions = np.array([p.legal_moves()[-1] for p in POSITIONS])
    shifts = np.array(SHIFTS)
    turn = jax.jit(rotate)
    on_jax = turn(jnp.asarray(observations), jnp.asarray(masks), actions, jnp.asarray(shifts))
    assert all(isinstance(a, jax.Array) for a in on_jax)
    on_numpy = rotate(observations, masks, actions, shifts)
    assert all((np.asarray(a) == b).all() for a, b in zip(on_jax, on_numpy))

    env = Battle()
    code = {"R": 1, "B": 2, "W": 3}

    def state_of(positions: list[Position]) -> Any:
        cells = np.zeros((len(positions), 9, 9), np.int8)
        heights = np.zeros((len(positions), 9), np.int8)
        for i, position in enumerate(positions):
            for p, pile in enumerate(position.piles):
                cells[i, p, : len(pile)] = [code[c] for c in pile]
                heights[i, p] = len(pile)
        piles = np.array([len(p.piles) for p in positions], np.int8)
        players = np.array([p.to_move is Player.BLACK for p in positions], np.int8)
        return jax.vmap(env.from_cells)(cells, heights, piles, players)

    turned = jax.jit(rotate_state)(state_of(POSITIONS), jnp.asarray(shifts))
    expected = state_of([turned_by_hand(p, s) for p, s in zip(POSITIONS, SHIFTS)])
    for name in ("cells", "heights", "piles", "legal_action_mask", "observation"):
        assert (np.asarray(getattr(turned, name)) == np.asarray(getattr(expected, name))).all()
    # The JAX environment's own step commutes with the turn: the rotated move leads
    # to a turn of the move's result, with the same player to move and rewards.
    stepped = jax.vmap(env.step)(state_of(POSITIONS), jnp.asarray(actions))
    moved = jax.vmap(env.step)(turned, on_jax[2])
    assert (np.asarray(stepped.rewards) == np.asarray(moved.rewards)).all()
    letter = {1: "R", 2: "B", 3: "W"}

    def text_of(states: Any, i: int) -> Position:
        cells, heights = np.asarray(states.cells[i]), np.asarray(states.heights[i])
        piles = ["".join(letter[int(c)] for c in cells[p, : heights[p]]) for p in range(9)]
        side = "rb"[int(states.current_player[i])]
        return Position(f"{'/'.join(p for p in piles if p)} {side}")

    for i in range(len(POSITIONS)):
        after = text_of(stepped, i)
        assert text_of(moved, i) in {turned_by_hand(after, k) for k in range(len(after.piles))}
