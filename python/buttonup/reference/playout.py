"""Random playouts, step for step as the Rust core runs them (same generator, same
draws), so that a seed gives the same games in both engines."""

from __future__ import annotations

from collections import Counter

from buttonup.constants import STANDARD_PER_COLOUR
from buttonup.player import Player
from buttonup.reference.arguments import I64_MAX, int_arg
from buttonup.reference.rules import Position
from buttonup.reference.shuffle import SplitMix64, shuffled_buttons
from buttonup.results import PlayoutSummary


def random_playouts(
    battles: int,
    seed: int | None = None,
    *,
    per_colour: int = STANDARD_PER_COLOUR,
    threads: int | None = None,
) -> PlayoutSummary:
    """Plays ``battles`` battles from shuffled starts (Red first in even battles, Black
    in odd ones) with uniformly random legal moves, and sums them up.

    Battle ``i`` draws from its own generator, seeded with the ``i``-th number of a
    generator seeded with ``seed``: first its shuffle, then for each move a choice among
    the legal moves in clockwise order. ``threads`` is accepted for the core's signature
    and ignored (the reference plays on one thread)."""
    battles = int_arg("battles", battles, 0, I64_MAX)
    if seed is None:
        import secrets

        seed = secrets.randbits(64)
    Position.random(seed, per_colour=per_colour)  # checks the seed and per_colour
    seeds = SplitMix64(seed)
    moves = 0
    margins: Counter[int] = Counter()
    for i in range(battles):
        first = Player.RED if i % 2 == 0 else Player.BLACK
        rng = SplitMix64(seeds.next_u64())
        position = Position.start(shuffled_buttons(per_colour, rng), to_move=first)
        while not position.is_over:
            legal = position.legal_moves()
            position = position.play(legal[rng.below(len(legal))])
            moves += 1
        margins[position.scoring().margin_for(Player.RED)] += 1
    return PlayoutSummary(
        battles=battles,
        moves=moves,
        red_wins=sum(n for margin, n in margins.items() if margin > 0),
        black_wins=sum(n for margin, n in margins.items() if margin < 0),
        draws=margins[0],
        red_margin_sum=sum(margin * n for margin, n in margins.items()),
        red_margins=dict(sorted(margins.items())),
    )
