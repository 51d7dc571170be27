"""A griffe extension (mkdocs.yml) that lets the API reference read the package's
docstrings as they are written: Sphinx roles (``:class:`Match```) become code, and
interpreter sessions (``>>>`` lines at the margin, or under ``Example:``) become
highlighted code blocks, so
that Markdown neither shows the roles' markup nor takes the prompts for quotes."""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:class|func|mod|meth|data|attr|exc|obj|const):`~?([^`]+)`")


def markdown(text: str) -> str:
    """``text`` with its roles as code spans and its sessions fenced."""
    text = ROLE.sub(lambda match: f"`{match.group(1)}`", text)
    # Google style's section of sessions is "Examples:"; "Example:" would be a note.
    text = re.sub(r"^Example:$", "Examples:", text, flags=re.MULTILINE)
    out: list[str] = []
    session = False
    fence = False
    for line in text.split("\n"):
        if line.startswith("```"):
            fence = not fence
        if not fence and not session and line.startswith(">>>"):
            out.append("```pycon")
            session = True
        elif session and not line.strip():
            out.append("```")
            session = False
        out.append(line)
    if session:
        out.append("```")
    return "\n".join(out)


class Docstrings(griffe.Extension):
    """Rewrites every docstring once the objects are loaded."""

    def on_object(self, *, obj: griffe.Object, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)
