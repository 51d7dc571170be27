"""The reference perft refuses what the Rust core refuses (issue 34, item 12)."""

import buttonup
import pytest
from buttonup.reference import rules


def test_negative_depth_is_refused_by_both_engines() -> None:
    position = rules.Position.random(1)
    with pytest.raises(ValueError):
        rules.perft(position, -64)
    with pytest.raises(ValueError):
        buttonup.perft(buttonup.Position.random(1), -64)


def test_wrong_depth_type_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="depth must be an int"):
        rules.perft(rules.Position.random(1), "3")  # type: ignore[arg-type]
