"""``benches/online_load.py`` still measures what docs/http.md says it does: a short
load on a real ``buttonup serve`` (SQLite) through the script's own HTTP/1.1 client
(keep-alive requests, the event streams' chunks) plays moves, hears the other
player's moves on his stream, and refuses nothing but the races it names."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from source_scripts import load

if not os.environ.get("BUTTONUP_REQUIRE_WEB"):
    pytest.importorskip("fastapi")
    pytest.importorskip("uvicorn")


def test_a_short_load_plays_and_hears_moves(tmp_path: Path) -> None:
    bench = load("benches/online_load.py")
    figures = bench.one_load(f"sqlite://{tmp_path}/load.sqlite3", 3, 3.0, None)
    assert figures["actions"] > 10, figures
    assert figures["heard_count"] > 0, figures
    # Every match's two streams opened (before its first move): at least the 3 first.
    assert figures["opening_count"] >= 6, figures
    assert set(figures["refused"]) <= {409}, figures
    assert figures["server_cpu_per_action"] > 0


def test_players_that_think_offer_fewer_actions(tmp_path: Path) -> None:
    """``--think``: each player pauses before each action (a mean of half a second here:
    three matches for three seconds make about 18 actions, and 60 would need 20
    pauses in a row of a sixth of that). A move's latencies are timed from its sending,
    after the pause."""
    bench = load("benches/online_load.py")
    figures = bench.one_load(f"sqlite://{tmp_path}/load.sqlite3", 3, 3.0, None, think=0.5)
    assert 0 < figures["actions"] < 60, figures
    assert set(figures["refused"]) <= {409}, figures
