"""Button Up! in JAX, in the manner of pgx: the position as fixed-shape arrays and pure
``init``/``step``/``observe`` functions that ``jax.jit`` and ``jax.vmap`` take, so that a
batch of battles runs on an accelerator next to the network (mctx's AlphaZero and
MuZero, for instance). It is a second implementation of the rules of docs/rules.md,
tested against the Rust engine on every reachable position of the standard game and on
random battles of every variant up to five buttons of each colour
(tests/test_rl_jax.py). Needs the ``jax`` extra (``pip install '.[jax]'``).

>>> import jax
>>> from buttonup.envs.jax import Battle
>>> env = Battle()
>>> keys = jax.random.split(jax.random.PRNGKey(0), 4)
>>> state = jax.jit(jax.vmap(env.init))(keys)
>>> state.legal_action_mask.shape, state.observation.shape
((4, 9), (4, 9, 9, 3))
>>> state = jax.jit(jax.vmap(env.step))(state, state.legal_action_mask.argmax(axis=1))
>>> int(state.step_count.sum())
4

A state holds ``cells`` (piles x heights, 0 empty, 1 red, 2 black, 3 white; piles in
notation order, bottom first), ``heights``, ``piles`` (how many stand),
``current_player`` (0 Red, 1 Black: the colour to move, the same after an extra move),
``legal_action_mask``, ``observation`` (the mover's view, docs/rl.md's encoding),
``rewards`` (Red's and Black's, on the step that ends the battle: the margin, or +1/0/-1
with ``reward="win"``), ``terminated``, ``extra_move`` (the last move gave one),
``step_count`` and ``truncated`` (always false: a battle of ``N`` buttons ends within
``N - 1`` moves; there for pgx's tooling, with ``State.replace``, so that
``pgx.experimental.auto_reset(env.step, env.init)`` runs on it). Stepping a finished
battle changes nothing and pays nothing; an illegal action ends the battle, the mover
losing the largest margin (or 1) to the other.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp

from buttonup._core import max_margin
from buttonup.envs.arguments import one_of

__all__ = ["EMPTY", "Battle", "State"]

EMPTY, RED, BLACK, WHITE = 0, 1, 2, 3


class State(NamedTuple):
    """One battle (a pytree: every field an array, batched along a first axis by vmap)."""

    cells: jax.Array
    heights: jax.Array
    piles: jax.Array
    current_player: jax.Array
    legal_action_mask: jax.Array
    observation: jax.Array
    rewards: jax.Array
    terminated: jax.Array
    extra_move: jax.Array
    step_count: jax.Array
    truncated: jax.Array

    def replace(self, **changes: Any) -> State:
        """The state with ``changes`` (pgx's and flax's name for ``_replace``, which
        pgx's tooling, ``pgx.experimental.auto_reset`` among it, calls)."""
        return self._replace(**changes)


class Battle:
    """The battle of ``per_colour`` buttons of each colour (1 to 5; 3 is the standard
    game), with rewards ``"margin"`` or ``"win"``."""

    def __init__(self, per_colour: int = 3, reward: str = "margin") -> None:
        if not 1 <= per_colour <= 5:
            raise ValueError(f"per_colour must be 1 to 5 in the JAX environment, not {per_colour}")
        one_of("reward", reward, ("margin", "win"))
        self.per_colour = per_colour
        self.reward = reward
        self.num_actions = self.buttons = 3 * per_colour
        self.num_players = 2
        worst = 1.0 if reward == "win" else float(max_margin(per_colour))
        self._worst = worst

    @property
    def observation_shape(self) -> tuple[int, int, int]:
        """The shape of one observation, ``(N, N, 3)``."""
        return (self.buttons, self.buttons, 3)

    def init(self, key: jax.Array) -> State:
        """A shuffled start, every order equally likely, its starter a fair coin."""
        order_key, starter_key = jax.random.split(key)
        colours = jnp.repeat(jnp.array([RED, BLACK, WHITE], jnp.int8), self.per_colour)
        order = jax.random.permutation(order_key, colours)
        starter = jax.random.bernoulli(starter_key).astype(jnp.int8)
        return self.from_order(order, starter)

    def from_order(self, order: jax.Array, starter: jax.Array) -> State:
        """The start of one-button piles ``order`` (colour codes) with ``starter`` to
        move."""
        n = self.buttons
        cells = jnp.zeros((n, n), jnp.int8).at[:, 0].set(jnp.asarray(order, jnp.int8))
        return self.from_cells(cells, jnp.ones(n, jnp.int8), jnp.int8(n), starter)

    def from_cells(
        self, cells: jax.Array, heights: jax.Array, piles: jax.Array, player: jax.Array
    ) -> State:
        """The state of a position given as arrays (as in :class:`State`)."""
        player = jnp.asarray(player, jnp.int8)
        return self._state(
            cells,
            heights,
            jnp.asarray(piles, jnp.int8),
            player,
            rewards=jnp.zeros(2, jnp.float32),
            terminated=jnp.asarray(piles) <= 1,
            extra_move=jnp.bool_(False),
            step_count=jnp.int32(0),
            truncated=jnp.bool_(False),
        )

    def _state(self, cells: Any, heights: Any, piles: Any, player: Any, **rest: Any) -> State:
        stands = jnp.arange(self.buttons) < piles
        legal = stands & (cells == WHITE).any(axis=1) & (piles > 1)
        return State(
            cells=cells,
            heights=heights,
            piles=piles,
            current_player=player,
            legal_action_mask=legal,
            observation=_view(cells, player),
            **rest,
        )

    def observe(self, state: State, player_id: jax.Array) -> jax.Array:
        """The observation of ``state`` from ``player_id``'s side (0 Red, 1 Black)."""
        return _view(state.cells, jnp.asarray(player_id, jnp.int8))

    def step(self, state: State, action: jax.Array, key: jax.Array | None = None) -> State:
        """Lifts pile ``action`` and sows it (rules 3 and 4); ``key`` is unused (the game
        has no chance after the shuffle), taken as pgx's ``step`` takes it."""
        action = jnp.asarray(action, jnp.int32)
        legal = state.legal_action_mask[jnp.clip(action, 0, self.buttons - 1)] & (
            (action >= 0) & (action < self.buttons)
        )
        moved = self._sow(state, jnp.clip(action, 0, self.buttons - 1))
        fouled = self._foul(state)
        after = jax.tree.map(lambda a, b: jnp.where(legal, a, b), moved, fouled)
        # A finished battle stays as it is, paying nothing.
        still = state._replace(rewards=jnp.zeros(2, jnp.float32))
        stepped: State = jax.tree.map(lambda a, b: jnp.where(state.terminated, a, b), still, after)
        return stepped

    def _foul(self, state: State) -> State:
        loss = jnp.where(state.current_player == 0, -self._worst, self._worst)
        return state._replace(
            rewards=jnp.array([1.0, -1.0], jnp.float32) * loss,
            terminated=jnp.bool_(True),
            legal_action_mask=jnp.zeros(self.buttons, bool),
            extra_move=jnp.bool_(False),
            step_count=state.step_count + 1,
        )

    def _sow(self, state: State, i: jax.Array) -> State:
        n = self.buttons
        cells, heights = state.cells, state.heights.astype(jnp.int32)
        piles = state.piles.astype(jnp.int32)
        k = heights[i]
        others = piles - 1
        lifted = cells[i]
        overflow = k > others
        q = jnp.arange(n)
        # Distance clockwise from the lifted pile: 0 for the pile after it.
        d = jnp.mod(q - i - 1, jnp.maximum(piles, 1))
        receives = (q < piles) & (q != i)
        one_each = jnp.where(d < k, 1, 0)
        with_overflow = jnp.where(d < others - 1, 1, jnp.where(d == others - 1, k - others + 1, 0))
        count = jnp.where(receives, jnp.where(overflow, with_overflow, one_each), 0)
        # Pile q receives lifted[d], lifted[d + 1], ... on top of its heights[q] buttons.
        h = jnp.arange(n)[None, :]
        offset = h - heights[:, None]
        dropped = (offset >= 0) & (offset < count[:, None])
        source = jnp.clip(d[:, None] + offset, 0, n - 1)
        sown = jnp.where(dropped, lifted[source], cells)
        grown = heights + count
        # Rule 4: no overflow, more than one pile left, the last button on its colour.
        last = jnp.mod(i + k, jnp.maximum(piles, 1))
        under = cells[last, jnp.clip(heights[last] - 1, 0, n - 1)]
        extra = (~overflow) & (others > 1) & (under == lifted[jnp.clip(k - 1, 0, n - 1)])
        # The lifted pile goes: the piles after it move down one place.
        source_pile = jnp.where(q < i, q, q + 1)
        kept = source_pile < n
        new_cells = jnp.where(kept[:, None], sown[jnp.clip(source_pile, 0, n - 1)], EMPTY)
        new_heights = jnp.where(kept, grown[jnp.clip(source_pile, 0, n - 1)], 0)
        new_piles = piles - 1
        player = jnp.where(extra, state.current_player, 1 - state.current_player)
        over = new_piles <= 1
        values = jnp.arange(1, n + 1)
        red = jnp.sum(jnp.where(new_cells[0] == RED, values, 0))
        black = jnp.sum(jnp.where(new_cells[0] == BLACK, values, 0))
        margin = (red - black).astype(jnp.float32)
        if self.reward == "win":
            margin = jnp.sign(margin)
        margin = jnp.where(over, margin, 0.0)
        return self._state(
            new_cells.astype(jnp.int8),
            new_heights.astype(jnp.int8),
            new_piles.astype(jnp.int8),
            player.astype(jnp.int8),
            rewards=jnp.stack([margin, -margin]).astype(jnp.float32),
            terminated=over,
            extra_move=extra,
            step_count=state.step_count + 1,
            truncated=state.truncated,
        )


def _view(cells: jax.Array, player: jax.Array) -> jax.Array:
    own = jnp.where(player == 0, RED, BLACK)
    other = jnp.where(player == 0, BLACK, RED)
    return jnp.stack([cells == own, cells == other, cells == WHITE], axis=-1).astype(jnp.int8)
