"""What the code and the tests say of the docs holds: every ``docs/PAGE.md`` they name is
a page of the site, and every section they name with it (``docs/notation.md, "Match
records"``) is a heading of that page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# An installed package's run (.ci/test-installed) has the tests and the docs, not the code.
pytestmark = pytest.mark.skipif(
    not (ROOT / "src").is_dir(), reason="needs the source tree (src/, python/)"
)
SOURCES = ("src", "python-ext/src", "python", "engine", "capi", "wasm", "benches", "scripts")
SUFFIXES = {".rs", ".py", ".pyi", ".js", ".h", ".ts", ".sh", ".toml"}
REFERENCE = re.compile(r'docs/([a-z0-9_/-]+\.md)(?:,? \(?"([^"]+)")?')


def headings(page: Path) -> list[str]:
    text = page.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.DOTALL)  # no comment lines of code
    return [line.lstrip("#").strip() for line in text.splitlines() if line.startswith("#")]


def references() -> list[tuple[str, str, str | None]]:
    found = []
    for folder in SOURCES:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in SUFFIXES or not path.is_file() or "target" in path.parts:
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            # A reference may be cut by a comment's line break: join the lines first.
            joined = re.sub(r"\n\s*(?://[!/]?|#|\*)?\s*", " ", text)
            for page, section in REFERENCE.findall(joined):
                found.append((str(path.relative_to(ROOT)), page, section or None))
    return found


def test_the_code_names_pages_and_sections_that_exist() -> None:
    found = references()
    assert len(found) > 50  # the code cites the docs often: a scan that found few is broken
    wrong = []
    for source, page, section in found:
        target = ROOT / "docs" / page
        if not target.is_file():
            wrong.append(f"{source}: docs/{page} does not exist")
        elif section is not None:
            names = headings(target)
            if not any(name.startswith(section) or section in name for name in names):
                wrong.append(f'{source}: docs/{page} has no section "{section}"')
    assert not wrong, "\n".join(sorted(set(wrong)))
