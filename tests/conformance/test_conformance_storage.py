"""The kit's property-based part leaves nothing in the folder it runs from: hypothesis
only draws positions there, and its cache of constants (which it writes to
``.hypothesis/`` in the current folder) goes to a temporary folder, removed after."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from processes import run

pytest.importorskip("hypothesis")


def test_drawing_writes_no_hypothesis_folder_where_it_runs(tmp_path: Path) -> None:
    drawn = run(
        [
            sys.executable,
            "-c",
            "from buttonup.conformance.properties import draw; print(len(draw(40, 3)))",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert drawn.returncode == 0, drawn.stderr
    assert int(drawn.stdout) > 0
    assert list(tmp_path.iterdir()) == []
