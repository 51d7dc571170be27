"""pytest at the top of the tree.

- The modules of ``buttonup`` whose frameworks are not installed (the ``rl`` and ``web``
  extras) are not collected for their doctests.
- The ``python`` code blocks of README.md and docs/*.md that are not doctests (no
  ``>>>``) run as tests too, each block on its own; the doctests of those files run
  through ``--doctest-glob`` (pyproject.toml).
- The run ends with one line naming what was skipped, and why, when anything was.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).parent

PACKAGE = ROOT / "python"


def _module_path(name: str) -> Path | None:
    """The file of a module of the package in this checkout, by its dotted name."""
    base = PACKAGE.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.exists():
            return path
    return None


def _missing(names: list[str], seen: set[Path]) -> set[str]:
    """Which of the modules ``names`` (dotted) are not installed, those of ``buttonup``
    standing for what they import."""
    missing: set[str] = set()
    for name in names:
        top = name.split(".")[0]
        if top == "buttonup":
            inner = _module_path(name)
            if inner is not None:
                missing |= _missing_imports(inner, seen)
        elif importlib.util.find_spec(top) is None:
            missing.add(top)
    return missing


def _missing_imports(path: Path, seen: set[Path] | None = None) -> set[str]:
    """The modules that ``path`` imports at its top level, directly or through modules of
    ``buttonup``, and that are not installed."""
    seen = set() if seen is None else seen
    if path in seen:
        return set()
    seen.add(path)
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError):
        return set()  # collected, and the error shown, as usual
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return _missing(names, seen)


def not_installed(missing: set[str]) -> str:
    """The reason for a skip: ``"x is not installed"``, ``"x, y are not installed"``."""
    return f"{', '.join(sorted(missing))} {'is' if len(missing) == 1 else 'are'} not installed"


#: The modules of the package not collected for their doctests because what they
#: import (the frameworks of the ``rl`` and ``web`` extras) is not installed.
MISSING = {
    str(path.relative_to(ROOT)): not_installed(needs)
    for path in sorted((PACKAGE / "buttonup").rglob("*.py"))
    if (needs := _missing_imports(path))
}
collect_ignore = list(MISSING)


# --- the python blocks of the Markdown files ------------------------------------------
FENCE = re.compile(r"^```python[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
#: A line just above a block that keeps it from running, with the reason (for an example
#: that needs a server or a browser): ``<!-- not run: needs a server -->``.
NOT_RUN = re.compile(r"<!--\s*not run:\s*(.*?)\s*-->\s*$")
#: What a block needs installed, from its imports.
MODULES = re.compile(r"^\s*(?:>>> )?(?:import|from)\s+([A-Za-z_][\w.]*)", re.MULTILINE)


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
        missing = _missing(MODULES.findall(self.code), set())
        if missing:
            pytest.skip(not_installed(missing))
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
        missing = _missing(MODULES.findall(source), set())
        if missing:
            item.add_marker(pytest.mark.skip(reason=not_installed(missing)))


# --- one line for what was skipped -----------------------------------------------------
#: pytest's reason for a module skipped by ``importorskip``, said shortly.
NOT_IMPORTED = re.compile(r"could not import '([\w.]+)': No module named '[\w.]+'")


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: Any) -> None:
    """One line: what was not run, where, and why (only when something was not)."""
    places: dict[str, dict[str, set[str]]] = {}
    for report in terminalreporter.stats.get("skipped", []):
        reason = str(report.longrepr[2]) if isinstance(report.longrepr, tuple) else "skipped"
        reason = NOT_IMPORTED.sub(r"\1 is not installed", reason.removeprefix("Skipped: "))
        where = report.nodeid.split("::")[0]
        places.setdefault(reason, {}).setdefault(where, set()).add(report.nodeid)
    for path, reason in MISSING.items():
        places.setdefault(reason, {})[f"{path} doctests"] = set()
    if places:
        parts = []
        for reason, where in sorted(places.items()):
            names = [
                f"{name} ({len(ids)} tests)" if len(ids) > 1 else name
                for name, ids in sorted(where.items())
            ]
            parts.append(f"{', '.join(names)}: {reason}")
        terminalreporter.write_line("not run: " + "; ".join(parts), yellow=True)
