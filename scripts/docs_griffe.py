"""A griffe extension (mkdocs.yml) that lets the API reference read the package's
docstrings as they are written: Sphinx roles (``:class:`Match```) become code, and
interpreter sessions (``>>>`` lines at the margin, or under ``Example:``) become
highlighted code blocks, so
that Markdown neither shows the roles' markup nor takes the prompts for quotes; and the
Rust-backed classes show their constructor's signature."""

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


def init_from_new(cls: griffe.Class) -> None:
    """Gives a class that the extension builds in ``__new__`` (its stubs have no
    ``__init__``) an ``__init__`` of the same parameters, so that the reference shows the
    constructor's signature and its docstring's arguments find their types."""
    new = cls.members.get("__new__")
    if new is None or "__init__" in cls.members or not isinstance(new, griffe.Function):
        return
    parameters = list(new.parameters)
    if parameters and parameters[0].name == "cls":
        parameters[0] = griffe.Parameter("self", kind=parameters[0].kind)
    init = griffe.Function(
        "__init__",
        lineno=new.lineno,
        endlineno=new.endlineno,
        parameters=griffe.Parameters(*parameters),
        returns=None,
    )
    cls.set_member("__init__", init)


def walk(obj: griffe.Object, seen: set[str]) -> None:
    """Mends ``obj`` and every object defined under it, once each."""
    if obj.path in seen:
        return
    seen.add(obj.path)
    if obj.docstring is not None:
        obj.docstring.value = markdown(obj.docstring.value)
    if isinstance(obj, griffe.Class):
        init_from_new(obj)
    for member in list(obj.members.values()):
        if not member.is_alias:
            walk(member, seen)  # type: ignore[arg-type]


class Docstrings(griffe.Extension):
    """Mends every object of a package once the package is loaded (the objects that the
    package's ``__init__`` imports under ``TYPE_CHECKING`` are not all visited one by
    one)."""

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        walk(pkg, set())
