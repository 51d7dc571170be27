"""Random playouts, step for step as the Rust core runs them (same generator, same
draws), so that a seed gives the same games in both engines."""

from __future__ import annotations

from buttonup.player import Player
from buttonup.reference.rules import Position
from buttonup.shuffle import SplitMix64, shuffled_buttons


def random_playouts(battles: int, seed: int | None = None, per_colour: int = 3) -> dict[str, int]:
    """Plays ``battles`` battles from shuffled starts (Red first in even battles, Black
    in odd ones) with uniformly random legal moves, and sums them up."""
    if seed is None:
        import secrets

        seed = secrets.randbits(64)
    Position.random(0, Player.RED, per_colour)  # checks per_colour
    rng = SplitMix64(seed)
    summary = dict(battles=0, moves=0, red_wins=0, black_wins=0, draws=0, margin_sum=0)
    for i in range(battles):
        first = Player.RED if i % 2 == 0 else Player.BLACK
        position = Position.start(shuffled_buttons(per_colour, rng), first)
        while not position.is_over:
            legal = position.legal_moves()
            position = position.play(legal[rng.below(len(legal))])
            summary["moves"] += 1
        margin = position.margin()
        summary["battles"] += 1
        summary["margin_sum"] += margin
        key = "red_wins" if margin > 0 else "black_wins" if margin < 0 else "draws"
        summary[key] += 1
    return summary
