"""Copy the docstrings of the built extension into its type stubs.

The extension's docstrings are its Rust doc comments (``python-ext/src``); an editor and
the API reference read the stubs (``python/buttonup/_core.pyi``), so the stubs carry the
same text. Run this after changing a doc comment and rebuilding the extension::

    python scripts/stub_docs.py          # rewrite the stubs' docstrings
    python scripts/stub_docs.py --check  # exit 1, naming them, if any differ

Every public class, function, method and property of the stubs gets the docstring of
the object it describes; dunder methods and private names are left alone.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import inspect
import sys
from collections.abc import Iterator
from pathlib import Path

STUBS = Path(__file__).resolve().parent.parent / "python" / "buttonup" / "_core.pyi"

Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def runtime_doc(module: object, path: tuple[str, ...]) -> str | None:
    """The cleaned docstring of ``module.path``, or None where it has none."""
    target: object = module
    for name in path:
        target = getattr(target, name, None)
        if target is None:
            return None
    doc = getattr(target, "__doc__", None)
    return inspect.cleandoc(doc) if isinstance(doc, str) and doc.strip() else None


def documented(tree: ast.Module) -> Iterator[tuple[tuple[str, ...], Definition]]:
    """The stubs' public definitions, with their path from the module; of overloads,
    the first only."""

    def public(name: str) -> bool:
        return not name.startswith("_")

    def walk(
        body: list[ast.stmt], prefix: tuple[str, ...]
    ) -> Iterator[tuple[tuple[str, ...], Definition]]:
        seen: set[str] = set()
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if not public(node.name) or node.name in seen:
                    continue
                seen.add(node.name)
                yield (*prefix, node.name), node
                if isinstance(node, ast.ClassDef) and not prefix:
                    yield from walk(node.body, (node.name,))

    yield from walk(tree.body, ())


def literal(doc: str, indent: str) -> list[str]:
    """``doc`` as the lines of a triple-quoted docstring indented by ``indent``."""
    text = doc.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    lines = text.split("\n")
    if len(lines) == 1:
        return [f'{indent}"""{lines[0]}"""']
    body = [f"{indent}{line}" if line else "" for line in lines[1:]]
    return [f'{indent}"""{lines[0]}', *body, f'{indent}"""']


def existing_docstring(node: Definition) -> ast.Expr | None:
    first = node.body[0] if node.body else None
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        return first
    return None


def rewrite(source: str, module: object) -> tuple[str, list[str]]:
    """The stubs with every public definition's docstring set to the runtime one, and
    the names the runtime has no docstring for."""
    tree = ast.parse(source)
    lines = source.split("\n")
    undocumented: list[str] = []
    edits: list[tuple[int, int, list[str]]] = []  # (first line, end line, replacement)
    for path, node in documented(tree):
        doc = runtime_doc(module, path)
        if doc is None:
            undocumented.append(".".join(path))
            continue
        body_indent = " " * (node.col_offset + 4)
        old = existing_docstring(node)
        if old is not None:
            assert old.end_lineno is not None
            edits.append((old.lineno - 1, old.end_lineno, literal(doc, body_indent)))
            continue
        first = node.body[0]
        if isinstance(node, ast.ClassDef):
            stmt_line = min(
                [first.lineno, *(d.lineno for d in getattr(first, "decorator_list", []))]
            )
            edits.append((stmt_line - 1, stmt_line - 1, literal(doc, body_indent)))
        else:
            # A stub's body is `...`, on the signature's last line: the docstring
            # replaces it, on lines of its own.
            row = first.lineno - 1
            line = lines[row]
            head = line[: first.col_offset].rstrip()
            tail = line[first.end_col_offset :]
            edits.append(
                (
                    row,
                    row + 1,
                    [head, *literal(doc, body_indent)[:-1], literal(doc, body_indent)[-1] + tail],
                )
            )
    for start, end, replacement in sorted(edits, reverse=True):
        lines[start:end] = replacement
    return "\n".join(lines), undocumented


def differences(source: str, module: object) -> list[str]:
    """The public definitions whose docstring in the stubs is not the runtime one."""
    wrong = []
    for path, node in documented(ast.parse(source)):
        if ast.get_docstring(node) != runtime_doc(module, path):
            wrong.append(".".join(path))
    return wrong


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="only check; exit 1 on a difference")
    args = parser.parse_args()
    module = importlib.import_module("buttonup._core")
    source = STUBS.read_text(encoding="utf-8")
    if args.check:
        wrong = differences(source, module)
        for name in wrong:
            print(f"{STUBS.name}: the docstring of {name} is not the extension's", file=sys.stderr)
        return 1 if wrong else 0
    new, undocumented = rewrite(source, module)
    for name in undocumented:
        print(f"the extension has no docstring for {name}", file=sys.stderr)
    STUBS.write_text(new, encoding="utf-8")
    remaining = differences(new, module)
    for name in remaining:
        print(f"{STUBS.name}: could not set the docstring of {name}", file=sys.stderr)
    return 1 if remaining or undocumented else 0


if __name__ == "__main__":
    sys.exit(main())
