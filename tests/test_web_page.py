"""The page's scripts as files: whatever the server answers is shown as text, never parsed
as markup (the browser tests, tests/test_web_browser.py, drive the page itself)."""

from __future__ import annotations

import re
from pathlib import Path

import buttonup

STATIC = Path(buttonup.__file__).parent / "web" / "static"

MARKUP_SINKS = re.compile(r"\b(innerHTML|outerHTML|insertAdjacentHTML|document\.write)\b")


def test_no_script_of_the_page_writes_markup() -> None:
    scripts = sorted(STATIC.glob("*.js"))
    assert scripts, "the page has scripts"
    for script in scripts:
        for number, line in enumerate(script.read_text(encoding="utf-8").splitlines(), 1):
            assert not MARKUP_SINKS.search(line), f"{script.name}:{number}: {line.strip()}"


def test_the_sink_pattern_finds_what_it_is_for() -> None:
    assert MARKUP_SINKS.search("out.innerHTML = `<p>${data}</p>`;")
    assert not MARKUP_SINKS.search("out.replaceChildren(h('p', null, data));")
