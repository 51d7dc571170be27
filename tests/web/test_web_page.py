"""The page's scripts as files: whatever the server answers is shown as text, never parsed
as markup (the browser tests, tests/web/test_web_browser.py, drive the page itself)."""

from __future__ import annotations

import re
from pathlib import Path

import buttonup
from buttonup.web.pages import PAGE_NAMES, piece, render, slots

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


IMPORT = re.compile(r"""^\s*import\s[^'"]*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]""", re.M)


def test_the_page_is_small_modules_served_from_the_package() -> None:
    """Every script is an ES module of the package, none over 400 lines, importing only
    its siblings (nothing from elsewhere: no CDN, no build step)."""
    page = render("index")
    assert '<script type="module" src="/static/app.js">' in page
    for name in PAGE_NAMES:
        assert not re.search(r"""(src|href)=["']https?:""", render(name)), name
    for script in sorted(STATIC.glob("*.js")):
        text = script.read_text(encoding="utf-8")
        assert len(text.splitlines()) <= 400, script.name
        for found in IMPORT.finditer(text):
            target = found.group(1) or found.group(2)
            assert target.startswith("./"), f"{script.name} imports {target}"
            assert (STATIC / target[2:]).is_file(), f"{script.name} imports {target}"


def test_the_engine_interface_is_documented_where_it_is_defined() -> None:
    """engine.js names every method the page calls on its engine, at its top."""
    head = (STATIC / "engine.js").read_text(encoding="utf-8").split("export class")[0]
    called = set()
    for script in STATIC.glob("*.js"):
        called |= set(re.findall(r"\bengine\.(\w+)\(", script.read_text(encoding="utf-8")))
    assert called, "the page calls its engine"
    for method in called:
        assert f"//   {method}(" in head, f"engine.{method} is not documented in engine.js"


PLACED = re.compile(r"\$(\w+)")


def test_each_page_is_whole_and_every_slot_it_gives_is_placed() -> None:
    """The pages made from pages/ (layout.html round each, play.html in those that play):
    one document each, its script a file of static/, its ids unique, no ``$`` left, and
    no slot of a page's file that no piece places (a misspelt one would vanish)."""
    placeholders = set(PLACED.findall(piece("layout") + piece("play"))) | {"play"}
    for name in PAGE_NAMES:
        html = render(name)
        assert html.startswith("<!doctype html>\n") and html.count("<main>") == 1, name
        assert "$" not in html, name
        script = re.search(r'<script type="module" src="/static/([\w.]+)">', html)
        assert script is not None and (STATIC / script.group(1)).is_file(), name
        ids = re.findall(r'\sid="([^"]+)"', html)
        assert len(ids) == len(set(ids)), f"{name}: an id stands twice"
        assert not set(slots(name)) - placeholders, name
    # The match's area is the same markup in both pages that play one.
    for shared in ('id="board"', 'id="moves"', 'id="nav-last"', 'id="me-first"'):
        assert shared in render("index") and shared in render("online")
    assert 'id="setup"' in render("index") and 'id="invite-card"' in render("online")
