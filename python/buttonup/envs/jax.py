"""Button Up! in JAX, in the manner of pgx: the position as fixed-shape arrays and pure
``init``/``step``/``observe`` functions that ``jax.jit`` and ``jax.vmap`` take, so that a
batch of battles runs on an accelerator next to the network (mctx's AlphaZero and
MuZero, for instance). It is a second implementation of the rules of docs/rules.md,
tested against the Rust engine on every reachable position of the standard game and on
random battles of every variant up to five buttons of each colour
(tests/rl/test_rl_jax.py). Needs the ``jax`` extra (``pip install '.[jax]'``).

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
``step_count``, ``truncated`` (always false: a battle of ``N`` buttons ends within
``N - 1`` moves; there for pgx's tooling, with ``State.replace``, so that
``pgx.experimental.auto_reset(env.step, env.init)`` runs on it) and ``stacks`` (each
pile as one uint32, two bits a button from the bottom: what a move works on). Stepping a
finished battle changes nothing and pays nothing; an illegal action ends the battle, the
mover losing the largest margin (or 1) to the other. ``auto_reset_step(state, action,
key)`` is pgx's auto-reset built in (a finished battle starts again from ``init(key)``,
keeping the ending step's rewards and ``terminated``), about three times as fast as the
wrapper.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from buttonup._core import max_margin, start_orders
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
    stacks: jax.Array

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
        self._orders = jnp.asarray(_order_table(per_colour))

    @property
    def observation_shape(self) -> tuple[int, int, int]:
        """The shape of one observation, ``(N, N, 3)``."""
        return (self.buttons, self.buttons, 3)

    def init(self, key: jax.Array) -> State:
        """A shuffled start, every order equally likely, its starter a fair coin."""
        return self._build(self._start(key))

    def _start(self, key: jax.Array) -> _Raw:
        # One draw among (start order, starter) pairs from the core's table of orders:
        # a shuffle (a sort of random keys) cost more than the step itself, and pgx-style
        # auto-reset runs ``init`` for every game at every step.
        pick = jax.random.randint(key, (), 0, 2 * self._orders.shape[0])
        order = self._orders[pick >> 1]
        return self._raw_start(order.astype(jnp.uint32), (pick & 1).astype(jnp.int8))

    def _raw_start(self, stacks: jax.Array, starter: jax.Array) -> _Raw:
        n = self.buttons
        return _Raw(
            stacks,
            jnp.ones(n, jnp.int8),
            jnp.int8(n),
            starter,
            True,
            jnp.zeros(2, jnp.float32),
            jnp.bool_(n <= 1),
            jnp.bool_(False),
            jnp.int32(0),
            jnp.bool_(False),
        )

    def from_order(self, order: jax.Array, starter: jax.Array) -> State:
        """The start of one-button piles ``order`` (colour codes) with ``starter`` to
        move."""
        stacks = jnp.asarray(order).astype(jnp.uint32)
        return self._build(self._raw_start(stacks, jnp.asarray(starter, jnp.int8)))

    def from_cells(
        self, cells: jax.Array, heights: jax.Array, piles: jax.Array, player: jax.Array
    ) -> State:
        """The state of a position given as arrays (as in :class:`State`)."""
        return self._build(
            _Raw(
                _stacks(jnp.asarray(cells)),
                jnp.asarray(heights, jnp.int8),
                jnp.asarray(piles, jnp.int8),
                jnp.asarray(player, jnp.int8),
                True,
                jnp.zeros(2, jnp.float32),
                jnp.asarray(piles) <= 1,
                jnp.bool_(False),
                jnp.int32(0),
                jnp.bool_(False),
            )
        )

    def _build(self, raw: _Raw) -> State:
        # The fields derived from the piles (cells, mask, observation), made once.
        stacks, piles = raw.stacks, raw.piles
        stands = (jnp.arange(self.buttons) < piles) & raw.playable
        # A white button is the code 0b11: both of its bits set.
        white = (stacks & (stacks >> 1) & jnp.uint32(0x15555555)) != 0
        cells = _cells(stacks)
        return State(
            cells=cells,
            heights=raw.heights,
            piles=piles,
            current_player=raw.player,
            legal_action_mask=stands & white & (piles > 1),
            observation=_view(cells, raw.player),
            rewards=raw.rewards,
            terminated=raw.terminated,
            extra_move=raw.extra_move,
            step_count=raw.step_count,
            truncated=raw.truncated,
            stacks=stacks,
        )

    def observe(self, state: State, player_id: jax.Array) -> jax.Array:
        """The observation of ``state`` from ``player_id``'s side (0 Red, 1 Black)."""
        return _view(state.cells, jnp.asarray(player_id, jnp.int8))

    def step(self, state: State, action: jax.Array, key: jax.Array | None = None) -> State:
        """Lifts pile ``action`` and sows it (rules 3 and 4); ``key`` is unused (the game
        has no chance after the shuffle), taken as pgx's ``step`` takes it."""
        return self._build(self._advance(state, action))

    def auto_reset_step(self, state: State, action: jax.Array, key: jax.Array) -> State:
        """``step``, then a battle that ended starts again from ``init(key)``, keeping
        the ending step's ``rewards``, ``terminated`` and ``truncated``: what
        ``pgx.experimental.auto_reset(env.step, env.init)`` does (a terminated state
        given back is played on as the fresh start it is), at about three times its
        speed, since the state's derived fields are made once."""
        live = state._replace(terminated=state.terminated & False)
        after = self._advance(live, action)
        fresh = self._start(key)
        ended = after.terminated | after.truncated
        kept = _Raw(*(jnp.where(ended, f, a) for a, f in zip(after, fresh)))
        return self._build(
            kept._replace(
                rewards=after.rewards, terminated=after.terminated, truncated=after.truncated
            )
        )

    def _advance(self, state: State, action: jax.Array) -> _Raw:
        action = jnp.asarray(action, jnp.int32)
        pile = jnp.clip(action, 0, self.buttons - 1)
        legal = jnp.any(state.legal_action_mask & (jnp.arange(self.buttons) == action))
        moved = self._sow(state, pile)
        # An illegal action ends the battle, the mover losing the most; a finished battle
        # stays as it is, paying nothing. Each field is chosen once, from the move's
        # outcome or the state before it.
        plays = legal & ~state.terminated
        loss = jnp.where(state.current_player == 0, -self._worst, self._worst)
        foul_rewards = jnp.array([1.0, -1.0], jnp.float32) * loss
        rewards = jnp.where(plays, moved.rewards, jnp.where(state.terminated, 0.0, foul_rewards))

        def pick(after: jax.Array, before: jax.Array) -> jax.Array:
            return jnp.where(plays, after, before)

        return _Raw(
            pick(moved.stacks, state.stacks),
            pick(moved.heights, state.heights),
            pick(moved.piles, state.piles),
            pick(moved.player, state.current_player),
            plays,
            rewards.astype(jnp.float32),
            ~plays | moved.over,
            pick(moved.extra, jnp.where(state.terminated, state.extra_move, False)),
            jnp.where(state.terminated, state.step_count, state.step_count + 1),
            state.truncated,
        )

    def _sow(self, state: State, i: jax.Array) -> _Sown:
        # Each pile is a 2-bit code a button, bottom first, in one uint32 (15 buttons fit
        # in 30 bits), so that a move is shifts and masks on every pile at once: the
        # gathers of an array of cells (a pile's buttons to its receivers, the piles down
        # one place) were most of the step on a CPU.
        n = self.buttons
        q = jnp.arange(n)
        stacks = state.stacks
        heights = state.heights.astype(jnp.int32)
        piles = state.piles.astype(jnp.int32)
        here = q == i
        k = jnp.sum(jnp.where(here, heights, 0))
        lifted = jnp.sum(jnp.where(here, stacks, jnp.uint32(0)), dtype=jnp.uint32)
        others = piles - 1
        overflow = k > others
        # Distance clockwise from the lifted pile: 0 for the pile after it.
        d = jnp.mod(q - i - 1, jnp.maximum(piles, 1))
        receives = (q < piles) & (q != i)
        one_each = jnp.where(d < k, 1, 0)
        with_overflow = jnp.where(d < others - 1, 1, jnp.where(d == others - 1, k - others + 1, 0))
        count = jnp.where(receives, jnp.where(overflow, with_overflow, one_each), 0)
        # Pile q receives the lifted buttons d, d + 1, ... on top of its own.
        bits = (2 * count).astype(jnp.uint32)
        chunk = (lifted >> (2 * d).astype(jnp.uint32)) & ((jnp.uint32(1) << bits) - 1)
        sown = stacks | (chunk << (2 * heights).astype(jnp.uint32))
        grown = heights + count
        # Rule 4: no overflow, more than one pile left, the last button on its colour.
        below = (2 * jnp.maximum(heights - 1, 0)).astype(jnp.uint32)
        top = (stacks >> below) & 3
        under = jnp.sum(jnp.where(receives & (d == k - 1), top, jnp.uint32(0)), dtype=jnp.uint32)
        last_sown = (lifted >> (2 * jnp.maximum(k - 1, 0)).astype(jnp.uint32)) & 3
        extra = (~overflow) & (others > 1) & (under == last_sown)

        # The lifted pile goes: the piles after it move down one place.
        def close_up(a: jax.Array) -> jax.Array:
            return jnp.where(q < i, a, jnp.concatenate([a[1:], jnp.zeros(1, a.dtype)]))

        new_stacks, new_heights = close_up(sown), close_up(grown)
        new_piles = piles - 1
        player = jnp.where(extra, state.current_player, 1 - state.current_player)
        over = new_piles <= 1
        values = jnp.arange(1, n + 1)
        first = (new_stacks[0] >> (2 * q).astype(jnp.uint32)) & 3
        red = jnp.sum(jnp.where(first == RED, values, 0))
        black = jnp.sum(jnp.where(first == BLACK, values, 0))
        margin = (red - black).astype(jnp.float32)
        if self.reward == "win":
            margin = jnp.sign(margin)
        margin = jnp.where(over, margin, 0.0)
        return _Sown(
            new_stacks,
            new_heights.astype(jnp.int8),
            new_piles.astype(jnp.int8),
            player.astype(jnp.int8),
            jnp.stack([margin, -margin]).astype(jnp.float32),
            over,
            extra,
        )


class _Raw(NamedTuple):
    """A state's own fields, before the derived ones (cells, mask, observation) are
    made from them; ``playable`` is false where no move may be taken (after a foul)."""

    stacks: Any
    heights: Any
    piles: Any
    player: Any
    playable: Any
    rewards: Any
    terminated: Any
    extra_move: Any
    step_count: Any
    truncated: Any


class _Sown(NamedTuple):
    """What a legal move makes of the piles (before the step picks each field)."""

    stacks: jax.Array
    heights: jax.Array
    piles: jax.Array
    player: jax.Array
    rewards: jax.Array
    over: jax.Array
    extra: jax.Array


def _order_table(per_colour: int) -> np.ndarray:
    """The start orders of ``per_colour`` buttons of each colour (the core's, in its
    order) as colour codes, one row an order."""
    codes = np.zeros(256, np.int8)
    codes[[ord("R"), ord("B"), ord("W")]] = [RED, BLACK, WHITE]
    text = "".join(start_orders(per_colour)).encode("ascii")
    return codes[np.frombuffer(text, np.uint8)].reshape(-1, 3 * per_colour)


def _stacks(cells: jax.Array) -> jax.Array:
    """Each pile of ``cells`` (piles x heights, colour codes) as one uint32, two bits a
    button from the bottom."""
    levels = (2 * jnp.arange(cells.shape[-1])).astype(jnp.uint32)
    return jnp.sum(cells.astype(jnp.uint32) << levels, axis=-1, dtype=jnp.uint32)


def _cells(stacks: jax.Array) -> jax.Array:
    """The cells of piles given as :func:`_stacks` gives them."""
    levels = (2 * jnp.arange(stacks.shape[-1])).astype(jnp.uint32)
    return ((stacks[..., None] >> levels) & 3).astype(jnp.int8)


def _view(cells: jax.Array, player: jax.Array) -> jax.Array:
    own = jnp.where(player == 0, RED, BLACK)
    other = jnp.where(player == 0, BLACK, RED)
    return jnp.stack([cells == own, cells == other, cells == WHITE], axis=-1).astype(jnp.int8)
