"""The numbers of the rules in plain Python, for the parts that run without the Rust
core: the reference engine and the defaults of the plain-data results. The core has its
own (``buttonup.STANDARD_TARGET`` and so on); a test holds the two together."""

from __future__ import annotations

STANDARD_TARGET = 15
"""Rule 7: the first player to this many victory points wins the match."""
STANDARD_PER_COLOUR = 3
"""Rule 1: three buttons of each colour."""
MAX_TARGET = 1000
"""The largest target a match may be given (this project's limit, not a rule)."""
