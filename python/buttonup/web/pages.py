"""The HTML pages of ``buttonup serve`` (and of ``buttonup export-site``), each made of
the pieces in ``pages/``: ``layout.html`` (head, header, error line, ``<main>``) round
every page, and ``play.html`` (the board, the player bars and the moves) in the pages
that play a match. A page's file gives its slots, each after a line ``<!-- name -->``;
the pieces name them as ``$name`` (:class:`string.Template`), and a page's ``main`` may
place the match's area with ``$play``. A slot a page leaves out is empty, and its line
goes. Made once a process; no template engine, as the offline export needs no web
framework."""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from string import Template

#: The pages there are, by the name of their file in ``pages/``.
PAGE_NAMES = ("index", "online", "mine")
#: The slots a page may leave empty.
OPTIONAL = ("skip", "moves_end")
SLOT = re.compile(r"^<!-- (\w+) -->\n", re.MULTILINE)


def piece(name: str) -> str:
    return (resources.files("buttonup.web") / "pages" / f"{name}.html").read_text(encoding="utf-8")


def slots(name: str) -> dict[str, str]:
    """A page's slots: what follows each ``<!-- name -->`` line up to the next one."""
    parts = SLOT.split(piece(name))
    if parts[0].strip():
        raise ValueError(f"pages/{name}.html: text before its first slot")
    found = dict.fromkeys(OPTIONAL, "")
    for key, value in zip(parts[1::2], parts[2::2]):
        found[key] = value.removesuffix("\n")
    return found


@cache
def render(name: str) -> str:
    """The whole HTML of the page ``name`` (one of :data:`PAGE_NAMES`)."""
    if name not in PAGE_NAMES:
        raise ValueError(f"no page {name!r}: the pages are {', '.join(PAGE_NAMES)}")
    page = slots(name)
    if "$play" in page["main"]:
        page["main"] = Template(page["main"]).substitute(
            play=Template(piece("play")).substitute(page).removesuffix("\n")
        )
    html = Template(piece("layout")).substitute(page)
    return "".join(line for line in html.splitlines(keepends=True) if line.strip())
