"""pytest at the top of the tree.

- The modules of ``buttonup`` whose frameworks are not installed (the ``rl`` and ``web``
  extras) are not collected for their doctests.
- The ``python`` code blocks of README.md and docs/*.md that are not doctests (no
  ``>>>``) run as tests too, each block on its own; the doctests of those files run
  through ``--doctest-glob`` (pyproject.toml).
- The run ends with one line naming what was skipped, and why, when anything was.
"""

from __future__ import annotations

import importlib.util
import re
import textwrap
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).parent

#: Modules collected for their doctests only where what they import is installed.
NEEDS = {
    "python/buttonup/envs/pettingzoo.py": "pettingzoo",
    "python/buttonup/envs/gymnasium.py": "gymnasium",
    "python/buttonup/envs/openspiel.py": "pyspiel",
    "python/buttonup/web/app.py": "fastapi",
    "python/buttonup/web/server.py": "uvicorn",
}
MISSING = {
    path: needs
    for path, needs in NEEDS.items()
    if (ROOT / path).exists() and importlib.util.find_spec(needs) is None
}
collect_ignore = list(MISSING)


# --- the python blocks of the Markdown files ------------------------------------------
FENCE = re.compile(r"^```python[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
#: A line just above a block that keeps it from running, with the reason (for an example
#: that needs a server or a browser): ``<!-- not run: needs a server -->``.
NOT_RUN = re.compile(r"<!--\s*not run:\s*(.*?)\s*-->\s*$")
#: What a block needs installed, from its imports.
MODULES = re.compile(r"^\s*(?:import|from)\s+([A-Za-z_][\w]*)", re.MULTILINE)


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.suffix == ".md" and (
        file_path == ROOT / "README.md" or file_path.parent == ROOT / "docs"
    ):
        return MarkdownBlocks.from_parent(parent, path=file_path)
    return None


class MarkdownBlocks(pytest.File):
    """The ``python`` blocks of one Markdown file that hold no doctest."""

    def collect(self) -> Iterator[pytest.Item]:
        text = self.path.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            code = match.group(1)
            if ">>>" in code:
                continue  # a doctest: --doctest-glob runs it
            line = text.count("\n", 0, match.start()) + 1
            before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
            not_run = NOT_RUN.search(before)
            yield MarkdownBlock.from_parent(
                self,
                name=f"python block at line {line}",
                code=code,
                line=line,
                not_run=not_run.group(1) if not_run else None,
            )


class MarkdownBlock(pytest.Item):
    def __init__(self, *, code: str, line: int, not_run: str | None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.code, self.line, self.not_run = textwrap.dedent(code), line, not_run

    def runtest(self) -> None:
        if self.not_run:
            pytest.skip(self.not_run)
        for module in MODULES.findall(self.code):
            if importlib.util.find_spec(module) is None:
                pytest.skip(f"{module} is not installed")
        # Line numbers of a failure are those of the Markdown file.
        compiled = compile("\n" * self.line + self.code, str(self.path), "exec")
        exec(compiled, {"__name__": "__main__"})

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException]) -> str:  # type: ignore[override]
        lines = [line for line in excinfo.traceback if str(line.path) == str(self.path)]
        where = f"line {lines[-1].lineno + 1}" if lines else f"the block at line {self.line}"
        return f"{self.path.name}, {where}: {excinfo.exconly()}"

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.line, f"{self.path.name}: {self.name}"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A doctest of a Markdown file that imports a framework not installed is skipped
    (and named in the last line), not failed."""
    for item in items:
        test = getattr(item, "dtest", None)
        if test is None or not str(item.path).endswith(".md"):
            continue
        source = "\n".join(example.source for example in test.examples)
        missing = sorted(
            {m for m in MODULES.findall(source) if importlib.util.find_spec(m) is None}
        )
        if missing:
            item.add_marker(pytest.mark.skip(reason=f"{', '.join(missing)} is not installed"))


# --- one line for what was skipped -----------------------------------------------------
def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: Any) -> None:
    reasons: dict[str, Counter[str]] = {}
    for report in terminalreporter.stats.get("skipped", []):
        reason = str(report.longrepr[2]) if isinstance(report.longrepr, tuple) else "skipped"
        reason = reason.removeprefix("Skipped: ")
        reasons.setdefault(reason, Counter())[report.nodeid.split("::")[0]] += 1
    for path, needs in MISSING.items():
        reasons.setdefault(f"{needs} is not installed", Counter())[f"{path} doctests"] += 0
    if reasons:
        parts = [
            f"{reason}: "
            + ", ".join(f"{where} ({n})" if n else where for where, n in sorted(places.items()))
            for reason, places in sorted(reasons.items())
        ]
        terminalreporter.write_line("not run: " + "; ".join(parts), yellow=True)
