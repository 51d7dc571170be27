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
    assert set(figures["refused"]) <= {409}, figures
    assert figures["server_cpu_per_action"] > 0
