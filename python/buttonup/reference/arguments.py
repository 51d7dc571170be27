"""The reference's checks of its arguments, in the core's words: a wrong type is a
``TypeError``, a number out of range a ``ValueError`` naming the range."""

from __future__ import annotations

import operator

#: The core's bounds of a count given as an int: 64-bit signed, and 32-bit unsigned.
I64_MAX = 2**63 - 1
U32_MAX = 2**32 - 1


def int_arg(name: str, value: object, low: int, high: int) -> int:
    """``value`` as an int from ``low`` to ``high`` (NumPy's integers too, as the core
    takes them; never a bool)."""
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    number = operator.index(value)  # type: ignore[arg-type]
    if not low <= number <= high:
        raise ValueError(f"{name} must be from {low} to {high}, not {number}")
    return number


def seed_arg(seed: object) -> int:
    """A seed from 0 to 2**64 - 1; ``None`` draws one at random."""
    if seed is None:
        import secrets

        return secrets.randbits(64)
    if isinstance(seed, bool) or not hasattr(type(seed), "__index__"):
        kind = type(seed).__name__
        raise TypeError(f"seed must be an int from 0 to 2**64 - 1 or None, not {kind}")
    number = operator.index(seed)  # type: ignore[arg-type]
    if not 0 <= number < 1 << 64:
        raise ValueError(f"seed must be an int from 0 to 2**64 - 1, not {number}")
    return number
