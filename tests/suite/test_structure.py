"""The tree shows the architecture: no import cycle among the Python modules, no
library module importing an application, each Rust door a crate over the core (which
depends on nothing), and no test or bench starting a process but through
tests/processes.py. Read from the sources alone: nothing is imported or built."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYTHON = ROOT / "python"
# The structure is the source tree's: an installed package's run (.ci/test-installed)
# has only tests/ beside it.
pytestmark = pytest.mark.skipif(
    not (PYTHON / "buttonup").is_dir(), reason="needs the source tree (python/, src/)"
)
PACKAGE = "buttonup"
APPLICATIONS = ("cli", "ugi", "web", "conformance")
# The ``buttonup`` command is the front door of every application (``buttonup serve``,
# ``buttonup engine``, ``buttonup conformance``...): it may start another application,
# nothing else may.
FRONT_DOORS = {"buttonup.cli.main": APPLICATIONS}
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
    # Every process a test or bench starts is ended with its group on every outcome,
    # which tests/processes.py does (run, started, popen and end).
    wrong = [
        f"{path.relative_to(ROOT)}:{line}"
        for folder in ("tests", "benches")
        for path in sorted((ROOT / folder).rglob("*.py"))
        # the helper itself, and the broken implementations the conformance tests run
        if path.name != "processes.py" and "broken" not in path.parts
        for line in direct_starts(path.read_text(encoding="utf-8"))
    ]
    assert not wrong, (
        "processes started with subprocess directly (use tests/processes.py, "
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

#: Each door to the core, a crate of its own that reaches the core through its public API
#: alone (the crate boundary is the layering: a door cannot use what the core keeps).
DOORS = ("python-ext", "engine", "capi", "wasm")


def cargo_section(text: str, name: str) -> str:
    """The lines of the ``[name]`` table of a Cargo.toml."""
    match = re.search(rf"^\[{re.escape(name)}\]\n(.*?)(?=^\[|\Z)", text, re.M | re.S)
    return match.group(1) if match else ""


def test_the_core_depends_on_nothing_and_each_door_is_a_crate_over_it() -> None:
    root = (ROOT / "Cargo.toml").read_text(encoding="utf-8")
    dependencies = [
        line
        for line in cargo_section(root, "dependencies").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    assert dependencies == [], "the core crate has dependencies"
    assert "cdylib" not in cargo_section(root, "lib")
    members = re.search(r"^members = \[(.*?)\]", root, re.M | re.S)
    assert members is not None
    for door in DOORS:
        assert f'"{door}"' in members.group(1), door
        manifest = (ROOT / door / "Cargo.toml").read_text(encoding="utf-8")
        assert re.search(
            r'^buttonup = \{ path = "\.\."', cargo_section(manifest, "dependencies"), re.M
        ), f"{door} does not depend on the core"
    python = (ROOT / "python-ext" / "Cargo.toml").read_text(encoding="utf-8")
    assert "pyo3" in cargo_section(python, "dependencies")
