"""Shared fixtures: every test that takes ``engine`` runs on both engines."""

from __future__ import annotations

import os
from pathlib import Path
from types import ModuleType

import buttonup
import buttonup.reference
import pytest
from hypothesis import HealthCheck, settings

DATA = Path(__file__).parent / "data"

settings.register_profile(
    "ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(params=["rust", "reference"])
def engine(request: pytest.FixtureRequest) -> ModuleType:
    """The Rust-backed ``buttonup`` or the pure-Python ``buttonup.reference``."""
    return buttonup if request.param == "rust" else buttonup.reference


def all_start_orders(per_colour: int = 3) -> list[str]:
    """Every distinct start order (1,680 for three buttons of each colour), from the
    engine (tests/test_variants.py checks it against an enumeration of its own)."""
    return buttonup.start_orders(per_colour)
