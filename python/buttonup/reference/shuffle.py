"""Reproducible shuffles: SplitMix64 and a Fisher-Yates shuffle with unbiased draws.

The Rust core runs the same steps, so a seed gives the same start in both engines.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1


class SplitMix64:
    """The SplitMix64 generator of 64-bit numbers."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """A uniform draw from ``range(bound)``: the high word of ``x * bound``, rejecting
        the few ``x`` that would bias it (Lemire's method)."""
        m = self.next_u64() * bound
        if m & _MASK < bound:
            threshold = ((1 << 64) - bound) % bound
            while m & _MASK < threshold:
                m = self.next_u64() * bound
        return m >> 64


def shuffled_buttons(per_colour: int, rng: SplitMix64) -> str:
    """``per_colour`` buttons of each colour in a uniformly random order."""
    buttons = list("R" * per_colour + "B" * per_colour + "W" * per_colour)
    for i in range(len(buttons) - 1, 0, -1):
        j = rng.below(i + 1)
        buttons[i], buttons[j] = buttons[j], buttons[i]
    return "".join(buttons)
