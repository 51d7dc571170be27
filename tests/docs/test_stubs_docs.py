"""The type stubs carry the extension's documentation: every public class, function,
method and property of ``buttonup/_core.pyi`` has a docstring, the same text as the
built extension's ``__doc__`` (the Rust doc comments), so an editor shows what
``help()`` does; and the examples in those docstrings run."""

from __future__ import annotations

import ast
import doctest
import inspect
from collections.abc import Iterator
from pathlib import Path

import buttonup
import pytest
from buttonup import _core

STUBS = Path(buttonup.__file__).parent / "_core.pyi"


def stub_definitions() -> Iterator[tuple[str, ast.AST]]:
    """The stubs' public classes and functions and their classes' public methods and
    properties, by dotted name; of overloads, the first."""
    tree = ast.parse(STUBS.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
            yield node.name, node
            if isinstance(node, ast.ClassDef):
                seen: set[str] = set()
                for member in node.body:
                    if (
                        isinstance(member, ast.FunctionDef)
                        and not member.name.startswith("_")
                        and member.name not in seen
                    ):
                        seen.add(member.name)
                        yield f"{node.name}.{member.name}", member


def runtime(name: str) -> object:
    target: object = _core
    for part in name.split("."):
        target = getattr(target, part)
    return target


DEFINITIONS = dict(stub_definitions())


def test_the_stubs_describe_the_extensions_public_names() -> None:
    # Some 160 names: a parse that found few would make the checks below say little.
    assert len(DEFINITIONS) > 150
    for name in DEFINITIONS:
        runtime(name)  # each one exists in the built extension


@pytest.mark.parametrize("name", sorted(DEFINITIONS))
def test_a_stub_docstring_is_the_extensions(name: str) -> None:
    node = DEFINITIONS[name]
    assert isinstance(node, (ast.FunctionDef, ast.ClassDef))
    in_stubs = ast.get_docstring(node)
    doc = runtime(name).__doc__
    assert doc and doc.strip(), f"the extension has no docstring for {name}"
    assert in_stubs is not None, (
        f"{name} has no docstring in _core.pyi: python scripts/stub_docs.py"
    )
    assert in_stubs == inspect.cleandoc(doc), f"{name}: run python scripts/stub_docs.py"


def documented_objects() -> Iterator[tuple[str, object]]:
    for name in DEFINITIONS:
        yield name, runtime(name)


@pytest.mark.parametrize(
    "name", sorted(name for name, obj in documented_objects() if ">>>" in (obj.__doc__ or ""))
)
def test_the_examples_in_the_extensions_docstrings_run(name: str) -> None:
    doc = inspect.cleandoc(runtime(name).__doc__ or "")
    globs = {"buttonup": buttonup, **{n: getattr(buttonup, n) for n in buttonup.__all__}}
    test = doctest.DocTestParser().get_doctest(doc, globs, name, str(STUBS), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    result = runner.run(test, out=lambda text: pytest.fail(text, pytrace=False))
    assert result.attempted > 0 and result.failed == 0
