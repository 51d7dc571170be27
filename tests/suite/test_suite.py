"""The test suite's own machinery (the top-level conftest.py): the one line naming what
was not run, and the python blocks of the Markdown files run as tests."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import processes
import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    not (ROOT / "conftest.py").exists(),
    reason="the checkout's top-level conftest.py is not here (a run of the installed package)",
)


def run_pytest(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    (folder / "conftest.py").write_text((ROOT / "conftest.py").read_text())
    (folder / "pytest.ini").write_text("[pytest]\n")
    return processes.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_one_line_names_what_was_skipped_and_why(tmp_path: Path) -> None:
    (tmp_path / "test_some.py").write_text(
        "import pytest\n"
        "def test_runs():\n    assert True\n"
        "@pytest.mark.skip(reason='tmux is not installed')\n"
        "def test_terminal():\n    pass\n"
        "def test_browser():\n    pytest.skip('chromium-driver is not installed')\n"
    )
    (tmp_path / "test_framework.py").write_text(
        "import pytest\n"
        "pytest.importorskip('no_such_framework_here')\n"
        "def test_never():\n    pass\n"
    )
    done = run_pytest(tmp_path, "-q")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = [line for line in done.stdout.splitlines() if line.startswith("not run: ")]
    assert len(lines) == 1, done.stdout
    (line,) = lines
    assert "test_some.py: chromium-driver is not installed" in line
    assert "test_some.py: tmux is not installed" in line
    assert "test_framework.py: no_such_framework_here is not installed" in line


def test_nothing_skipped_no_line(tmp_path: Path) -> None:
    (tmp_path / "test_all.py").write_text("def test_runs():\n    assert True\n")
    done = run_pytest(tmp_path, "-q")
    assert done.returncode == 0 and "not run:" not in done.stdout, done.stdout


def test_markdown_python_blocks_run_and_fail_at_their_line(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text(
        "# A page\n"
        "\n"
        "```python\n"
        "x = 1 + 1\n"
        "assert x == 2\n"
        "```\n"
        "\n"
        "```python\n"
        "y = 3\n"
        "assert y == 4, 'wrong'\n"
        "```\n"
        "\n"
        "<!-- not run: needs a server -->\n"
        "```python\n"
        "raise SystemExit('never')\n"
        "```\n"
        "\n"
        "```python\n"
        "import no_such_framework_here\n"
        "```\n"
    )
    done = run_pytest(tmp_path, "-q", "README.md")
    out = done.stdout
    assert "1 failed, 1 passed, 2 skipped" in out, out
    assert "README.md, line 10: AssertionError: wrong" in out, out
    assert "needs a server" in out and "no_such_framework_here is not installed" in out
