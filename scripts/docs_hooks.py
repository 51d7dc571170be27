"""MkDocs hooks (mkdocs.yml): the API reference documents every public name.

Before the build, every object the reference pages name (``::: buttonup.X``), every
public member of the modules among them and every public method and property of their
classes must have a docstring, and every name of ``buttonup.__all__`` must have an entry
of its own. A miss is a warning, which ``mkdocs build --strict`` turns into a failure.
The objects are read as mkdocstrings reads them (griffe, from the sources and the type
stubs), so what is checked is what the pages show.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

import griffe

log = logging.getLogger("mkdocs.hooks.buttonup")

ROOT = Path(__file__).resolve().parent.parent
ENTRY = re.compile(r"^::: ([\w.]+)", re.MULTILINE)


def reference_entries(docs: Path) -> list[str]:
    """The identifiers the reference pages document, in page order."""
    entries: list[str] = []
    for page in sorted((docs / "reference").glob("*.md")):
        entries += ENTRY.findall(page.read_text(encoding="utf-8"))
    return entries


def undocumented(obj: Any, seen: set[str]) -> list[str]:
    """The public names under ``obj`` (itself included) without a docstring."""
    target = obj.final_target if obj.is_alias else obj
    if target.path in seen:
        return []
    seen.add(target.path)
    missing = [] if target.docstring and target.docstring.value.strip() else [obj.path]
    if target.is_module or target.is_class:
        for name, member in target.members.items():
            if name.startswith("_") or not member.is_public or member.is_module:
                continue  # (a submodule has a reference entry of its own, if any)
            if target.is_module and member.is_alias and name not in (target.exports or ()):
                continue  # an import, not a name of this module
            if member.is_attribute and target.is_class:
                continue  # fields are described by their class's docstring
            missing += undocumented(member, seen)
    return missing


def on_pre_build(config: Any) -> None:
    docs = Path(config["docs_dir"])
    entries = reference_entries(docs)
    loader = griffe.GriffeLoader(search_paths=[str(ROOT / "python")])
    package = loader.load("buttonup")
    loader.resolve_aliases(implicit=False, external=None)
    seen: set[str] = set()
    for entry in entries:
        try:
            obj = package if entry == "buttonup" else package[entry.removeprefix("buttonup.")]
        except KeyError:
            log.warning("the API reference names %s, which buttonup does not have", entry)
            continue
        for name in undocumented(obj, seen):
            log.warning("the public name %s has no docstring", name)
    listed = set(entries)
    for name in package.exports or ():
        if f"buttonup.{name}" not in listed:
            log.warning("buttonup.%s is in buttonup.__all__ but not in the API reference", name)
