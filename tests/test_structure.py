"""The tree shows the architecture: no import cycle among the Python modules, no
library module importing an application, no cycle among the files of each Rust crate,
and no test or bench starting a process but through ``buttonup.testing.processes``.
Read from the sources alone (ast for Python, a small scanner for Rust): nothing is
imported or built."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYTHON = ROOT / "python"
# The structure is the source tree's: an installed package's run (.ci/test-installed)
# has only tests/ beside it.
pytestmark = pytest.mark.skipif(
    not (PYTHON / "buttonup").is_dir(), reason="needs the source tree (python/, src/)"
)
PACKAGE = "buttonup"
APPLICATIONS = ("cli", "engine", "web", "conformance")
# The ``buttonup`` command is the front door of every application (``buttonup serve``,
# ``buttonup engine``, ``buttonup conformance``...): it may start another application,
# nothing else may.
FRONT_DOORS = {"buttonup.cli.main": APPLICATIONS}
# The crate roots, each read as its own module graph.
CRATES = {
    "buttonup": ROOT / "src" / "lib.rs",
    "buttonup-engine": ROOT / "engine" / "src" / "main.rs",
    "buttonup-capi": ROOT / "capi" / "src" / "lib.rs",
    "buttonup-wasm": ROOT / "wasm" / "src" / "lib.rs",
}


# --- graphs ---------------------------------------------------------------------------


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected part of more than one node (Tarjan), each as a shortest
    cycle through its first node followed by all its nodes, sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    parts: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            part = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                part.append(top)
                if top == node:
                    break
            if len(part) > 1:
                parts.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(one_cycle(graph, part) + part for part in parts)


def one_cycle(graph: dict[str, set[str]], part: list[str]) -> list[str]:
    """A shortest cycle through the first node of a strongly connected part."""
    members = set(part)
    start = part[0]
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for nxt in sorted(graph.get(node, ())):
            if nxt == start:
                return paths[node] + [start]
            if nxt in members and nxt not in paths:
                paths[nxt] = paths[node] + [nxt]
                queue.append(nxt)
    return part  # pragma: no cover - a strongly connected part always closes


def describe(found: list[list[str]]) -> str:
    lines = []
    for found_cycle in found:
        length = found_cycle.index(found_cycle[0], 1) + 1
        cycle, part = found_cycle[:length], found_cycle[length:]
        lines.append(" -> ".join(cycle) + f"  (all in the cycle: {', '.join(part)})")
    return "\n".join(lines)


# --- Python ---------------------------------------------------------------------------


def python_modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    modules = {}
    for path in sorted((PYTHON / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(PYTHON).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def python_imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules that ``name`` imports anywhere in its file (at the top, in
    a function or under ``TYPE_CHECKING``): each import resolved to a module file."""
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    found = set()

    def deepest(dotted: str) -> str | None:
        while dotted and dotted not in modules:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = deepest(alias.name)
                if target:
                    found.add(target)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                target = submodule if submodule in modules else deepest(source)
                if target:
                    found.add(target)
    found.discard(name)
    return found


def python_graph() -> dict[str, set[str]]:
    modules = python_modules()
    return {name: python_imports(name, path, modules) for name, path in modules.items()}


def application_of(module: str) -> str | None:
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in APPLICATIONS:
        return parts[1]
    if parts[1:] == ["__main__"]:
        return "__main__"  # ``python -m buttonup`` is the command line's entry point
    return None


def test_python_modules_import_no_cycle() -> None:
    found = cycles(python_graph())
    assert not found, f"import cycles among the Python modules:\n{describe(found)}"


def test_the_library_imports_no_application() -> None:
    wrong = [
        f"{module} imports {target}"
        for module, targets in sorted(python_graph().items())
        if application_of(module) is None
        for target in sorted(targets)
        if application_of(target) is not None
    ]
    assert not wrong, "library modules importing an application:\n" + "\n".join(wrong)


def test_no_application_reaches_into_another() -> None:
    wrong = [
        f"{module} imports {target}"
        for module, targets in sorted(python_graph().items())
        if application_of(module) not in (None, "__main__")
        for target in sorted(targets)
        if application_of(target) not in (None, application_of(module))
        and application_of(target) not in FRONT_DOORS.get(module, ())
    ]
    assert not wrong, "applications importing another application:\n" + "\n".join(wrong)


def test_tests_import_their_helpers_by_bare_name() -> None:
    # tests/ is no package: pytest puts it on the path, and a helper is imported by its
    # own name. ``tests.helper`` would find an installed package named ``tests`` first
    # (pgx, of the jax extra, ships one), and the suite would not even be collected.
    wrong = []
    for path in sorted((ROOT / "tests").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else []
            )
            wrong += [f"{path.name}: {n}" for n in names if n == "tests" or n.startswith("tests.")]
    assert not wrong, "tests importing through a `tests` package:\n" + "\n".join(wrong)


# --- processes ------------------------------------------------------------------------

#: The calls of the ``subprocess`` module that start a process.
STARTERS = frozenset({"run", "Popen", "check_output", "call", "check_call"})
#: The comment that keeps a direct call on purpose, saying why (``# raw: <why>``).
RAW = "# raw:"


def direct_starts(source: str) -> list[int]:
    """The lines where a call of ``subprocess`` itself starts a process, not marked
    ``# raw:``: ``subprocess.run(...)``, ``sp.Popen(...)`` after ``import subprocess as
    sp``, ``call(...)`` after ``from subprocess import call``. A call's mark is a comment
    on its first line; a program in a string (one that a child runs) is no call here."""
    tree = ast.parse(source)
    modules, names = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules |= {a.asname or a.name for a in node.names if a.name == "subprocess"}
        elif isinstance(node, ast.ImportFrom) and node.module == "subprocess" and not node.level:
            names |= {a.asname or a.name for a in node.names if a.name in STARTERS}
    marked = {
        token.start[0]
        for token in tokenize.generate_tokens(io.StringIO(source).readline)
        if token.type == tokenize.COMMENT and token.string.startswith(RAW)
    }
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        call = node.func
        direct = (
            isinstance(call, ast.Attribute)
            and call.attr in STARTERS
            and isinstance(call.value, ast.Name)
            and call.value.id in modules
        ) or (isinstance(call, ast.Name) and call.id in names)
        if direct and node.lineno not in marked:
            found.append(node.lineno)
    return sorted(found)


def test_tests_and_benches_start_processes_through_the_helper() -> None:
    # Issue 34: every process a test or bench starts is ended with its group on every
    # outcome, which buttonup.testing.processes does (run, started, popen and end).
    wrong = [
        f"{path.relative_to(ROOT)}:{line}"
        for folder in ("tests", "benches")
        for path in sorted((ROOT / folder).glob("*.py"))
        for line in direct_starts(path.read_text(encoding="utf-8"))
    ]
    assert not wrong, (
        "processes started with subprocess directly (use buttonup.testing.processes, "
        f"or mark the line '{RAW} <why>'):\n" + "\n".join(wrong)
    )


def test_the_process_start_finder() -> None:
    source = (
        "import subprocess\n"
        "import subprocess as sp\n"
        "from subprocess import PIPE, check_output as out\n"
        "import processes\n"
        "subprocess.run(['true'])\n"  # 5
        "sp.Popen(\n    ['true'], stdout=PIPE\n)\n"  # 6
        "out(['true'])\n"  # 9
        "subprocess.check_call(['true'])  # raw: the helper's own test\n"
        "subprocess.call(  # raw: in the caller's group, for its signal\n    ['true']\n)\n"
        "processes.run(['true'])\n"
        "code = \"subprocess.Popen(['sleep', '1'])\"  # a child's program\n"
        "subprocess.CompletedProcess(['true'], 0)\n"
        "x = subprocess.run  # raw: no call here\n"
        "subprocess.run(['true'])  # not raw: a mark is a comment that starts so\n"  # 18
    )
    assert direct_starts(source) == [5, 6, 9, 18]


# --- Rust -----------------------------------------------------------------------------


RAW_STRING = re.compile(r'b?r(#*)"')
CHAR = re.compile(r"b?'(\\.[^']*|[^\\'])'")


def rust_code(text: str) -> str:
    """The text with comments, strings and character literals blanked out (their line
    breaks kept), so that only code is scanned for paths."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    out.append("\n" if text[i] == "\n" else "")
                    i += 1
        elif raw := RAW_STRING.match(text, i):
            close = '"' + raw.group(1)
            end = text.find(close, raw.end())
            end = n if end < 0 else end + len(close)
            out.append('""' + "\n" * text.count("\n", i, end))
            i = end
        elif c == '"' or text.startswith('b"', i):
            j = i + 1 + (c == "b")
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j + 1
        elif char := CHAR.match(text, i):
            out.append("' '")
            i = char.end()
        else:
            out.append(c)
            i += 1
    return "".join(out)


def use_paths(tree: str) -> Iterator[tuple[list[str], str | None]]:
    """The paths of one ``use`` tree (``a::{b, c::d as e}``), each with the name it
    binds (``None`` for a glob or ``self``-less group)."""
    tree = re.sub(r"\s+", "", re.sub(r"\s+as\s+", "@", tree))

    def expand(prefix: list[str], text: str) -> Iterator[tuple[list[str], str | None]]:
        if "{" in text and (text.find("{") < text.find("}") or "}" not in text):
            head, _, rest = text.partition("{")
            assert rest.endswith("}"), text
            base = prefix + [p for p in head.split("::") if p]
            for item in split_top(rest[:-1]):
                yield from expand(base, item)
            return
        text, _, alias = text.partition("@")
        parts = [p for p in text.split("::") if p]
        if parts and parts[-1] == "self":
            parts.pop()
        path = prefix + parts
        if path and path[-1] != "*":
            yield path, (alias or path[-1])
        elif path:
            yield path[:-1], None

    yield from expand([], tree)


def split_top(text: str) -> list[str]:
    items, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += c == "{"
        depth -= c == "}"
        if c == "," and not depth:
            items.append(text[start:i])
            start = i + 1
    items.append(text[start:])
    return [item for item in items if item]


class RustCrate:
    """The modules of one crate: each module path (a tuple) to its file, with the
    names that each module's ``use`` items bind, to follow re-exports."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files: dict[tuple[str, ...], Path] = {}
        self.code: dict[Path, str] = {}
        # every module (file or inline) -> its span in its file's code
        self.spans: dict[tuple[str, ...], tuple[Path, int, int]] = {}
        self.bindings: dict[tuple[str, ...], dict[str, list[str]]] = {}
        self.load((), root, is_dir_module=True)

    def load(self, path: tuple[str, ...], file: Path, is_dir_module: bool) -> None:
        code = rust_code(file.read_text())
        self.files[path] = file
        self.code[file] = code
        self.spans[path] = (file, 0, len(code))
        directory = file.parent if is_dir_module else file.parent / file.stem
        self.scan_modules(path, file, code, 0, len(code), directory)

    def scan_modules(
        self, path: tuple[str, ...], file: Path, code: str, start: int, end: int, directory: Path
    ) -> None:
        pattern = re.compile(r"\bmod\s+(\w+)\s*([;{])")
        i = start
        while match := pattern.search(code, i, end):
            name, kind = match.groups()
            child = (*path, name)
            if kind == ";":
                single, nested = directory / f"{name}.rs", directory / name / "mod.rs"
                if single.exists():
                    self.load(child, single, is_dir_module=False)
                elif nested.exists():
                    self.load(child, nested, is_dir_module=True)
                i = match.end()
            else:
                close = matching_brace(code, match.end() - 1)
                self.files[child] = file
                self.spans[child] = (file, match.end(), close)
                self.scan_modules(child, file, code, match.end(), close, directory / name)
                i = close + 1

    def module_at(self, file: Path, offset: int) -> tuple[str, ...]:
        """The innermost module whose span holds this offset of this file."""
        best: tuple[str, ...] = ()
        best_size = None
        for module, (where, start, end) in self.spans.items():
            if where == file and start <= offset <= end:
                if best_size is None or end - start < best_size:
                    best, best_size = module, end - start
        return best

    def absolute(self, module: tuple[str, ...], path: list[str]) -> list[str] | None:
        """A path as written in ``module`` made absolute from the crate root, or
        ``None`` for a path outside the crate (another crate, std, a local name)."""
        if not path:
            return None
        head, rest = path[0], path[1:]
        if head == "crate":
            return rest
        if head in ("self", "super"):
            base = list(module)
            while path and path[0] in ("self", "super"):
                if path[0] == "super":
                    if not base:
                        return None
                    base.pop()
                path = path[1:]
            return base + path
        if (*tuple(module), head) in self.files:
            return list(module) + path
        return None

    def resolve(self, path: list[str], depth: int = 0) -> tuple[str, ...]:
        """The file module that an absolute path names, following ``use`` bindings."""
        module: tuple[str, ...] = ()
        for i, segment in enumerate(path):
            if (*module, segment) in self.files:
                module = (*module, segment)
                continue
            target = self.bindings.get(module, {}).get(segment)
            if target is not None and depth < 16:
                return self.resolve(target + path[i + 1 :], depth + 1)
            break
        return module

    def references(self) -> Iterator[tuple[tuple[str, ...], list[str]]]:
        """Every (module, absolute path) that a ``use`` or a path in code names, after
        reading every module's bindings."""
        uses = re.compile(r"\buse\s+([^;]+);")
        found = []
        for file, code in self.code.items():
            for match in uses.finditer(code):
                module = self.module_at(file, match.start())
                for path, name in use_paths(match.group(1)):
                    full = self.absolute(module, path)
                    if full is None:
                        continue
                    if name is not None:
                        self.bindings.setdefault(module, {})[name] = full
                    found.append((module, full))
            bare = uses.sub(lambda m: " " * len(m.group(0)), code)
            for match in re.finditer(r"(?<![\w:])(\w+)((?:\s*::\s*\w+)+)", bare):
                module = self.module_at(file, match.start())
                path = [match.group(1), *re.findall(r"\w+", match.group(2))]
                full = self.absolute(module, path)
                if full is not None:
                    found.append((module, full))
        yield from found

    def graph(self) -> dict[str, set[str]]:
        """Each file to the files it names, at file granularity, leaving out a file's
        own ancestors and descendants (a ``mod.rs`` and what it declares)."""
        edges: dict[str, set[str]] = {self.label(m): set() for m in self.file_modules()}
        for module, path in self.references():
            source = file_module(self, module)
            target = file_module(self, self.resolve(path))
            if is_prefix(source, target) or is_prefix(target, source):
                continue
            edges[self.label(source)].add(self.label(target))
        return edges

    def file_modules(self) -> list[tuple[str, ...]]:
        return [m for m in self.files if file_module(self, m) == m]

    def label(self, module: tuple[str, ...]) -> str:
        return str(self.files[module].relative_to(ROOT).with_suffix(""))


def file_module(crate: RustCrate, module: tuple[str, ...]) -> tuple[str, ...]:
    """The outermost module of the file that holds ``module`` (inline modules are their
    file's)."""
    file = crate.files[module]
    while module and crate.files.get(module[:-1]) == file:
        module = module[:-1]
    return module


def is_prefix(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    return b[: len(a)] == a


def matching_brace(code: str, open_at: int) -> int:
    depth = 0
    for i in range(open_at, len(code)):
        depth += code[i] == "{"
        depth -= code[i] == "}"
        if not depth:
            return i
    return len(code)


@pytest.mark.parametrize(
    "crate",
    sorted(CRATES),
)
def test_rust_files_use_no_cycle(crate: str) -> None:
    found = cycles(RustCrate(CRATES[crate]).graph())
    assert not found, f"cycles among the files of {crate}:\n{describe(found)}"


def test_the_rust_scanner_reads_the_whole_crate() -> None:
    """Every .rs file of each crate's folder is reached through its ``mod`` items, so a
    cycle cannot hide in a file the scanner never read."""
    for root in CRATES.values():
        reached = set(RustCrate(root).files.values())
        present = set(root.parent.rglob("*.rs"))
        assert present <= reached, sorted(str(p) for p in present - reached)


def _paths(tree: str) -> Iterable[tuple[list[str], str | None]]:
    return list(use_paths(tree))


def test_the_use_tree_reader() -> None:
    assert _paths("crate::a::{b, c::{d as e, self}, f::*}") == [
        (["crate", "a", "b"], "b"),
        (["crate", "a", "c", "d"], "e"),
        (["crate", "a", "c"], "c"),
        (["crate", "a", "f"], None),
    ]
    assert rust_code("let s = \"use crate::x;\"; // crate::y\nlet c = '{';") == (
        "let s = \"\"; \nlet c = ' ';"
    )
