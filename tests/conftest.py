"""Shared fixtures. ``each_engine`` runs a test on both engines (the harness is
tests/harness.py: ``agree`` for "both engines answer the same")."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from types import ModuleType

import pytest
from harness import ENGINES
from hypothesis import HealthCheck, settings
from ugi_engines import NAMES as UGI_NAMES
from ugi_engines import command as ugi_engine_command

settings.register_profile(
    "ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# The web app keeps its matches in the user's data folder when given no --db: the tests'
# apps and servers (and the processes they start) use a folder of the run's own instead.
_DATA_HOME = tempfile.mkdtemp(prefix="buttonup-tests-data-")
os.environ["XDG_DATA_HOME"] = _DATA_HOME
atexit.register(shutil.rmtree, _DATA_HOME, ignore_errors=True)


@pytest.fixture(params=list(ENGINES))
def each_engine(request: pytest.FixtureRequest) -> ModuleType:
    """The Rust-backed ``buttonup``, then the pure-Python ``buttonup.reference``."""
    return ENGINES[request.param]


@pytest.fixture(params=UGI_NAMES)
def ugi_command(request: pytest.FixtureRequest) -> list[str]:
    """The command line of each UGI engine: ``buttonup engine``, then the native
    ``buttonup-engine`` (tests/ugi_engines.py)."""
    return ugi_engine_command(request.param)
