"""The package's shape: the reference stands alone, the stubs match the extension."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import buttonup
import buttonup._core as core
import processes
import pytest

PACKAGE = Path(buttonup.__file__).parent


def test_reference_never_imports_the_extension() -> None:
    code = (
        "import sys, buttonup.reference as r, buttonup.testing.strategies;"
        "r.perft(r.Position('W/R/B/W/B/R/R/W/B r'), 3);"
        "r.Match(seed=1);"
        "print('buttonup._core' in sys.modules)"
    )
    done = processes.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_stub_names_match_the_extension() -> None:
    tree = ast.parse((PACKAGE / "_core.pyi").read_text())
    stub_names = set()
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            stub_names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            stub_names.add(node.target.id)
    stub_names = {name for name in stub_names if not name.startswith("_")}  # type aliases
    module_names = {name for name in dir(core) if not name.startswith("_")}
    assert stub_names == module_names
    position_stub = next(n for n in tree.body if isinstance(n, ast.ClassDef))
    methods = {n.name for n in position_stub.body if isinstance(n, ast.FunctionDef)}
    public = {name for name in dir(core.Position) if not name.startswith("_")}
    assert public <= methods


def test_public_api() -> None:
    for name in buttonup.__all__:
        assert getattr(buttonup, name) is not None
    # The names of buttonup.__all__ not defined in Python come from the extension.
    # (PyO3 writes the extension's __all__ as names are added: no list is kept by hand)
    assert set(core.__all__) == {name for name in dir(core) if not name.startswith("_")}
    assert buttonup._CORE_NAMES <= set(core.__all__)
    for name in buttonup._CORE_NAMES:
        assert getattr(buttonup, name) is getattr(core, name)
    assert buttonup.Position is core.Position
    for error in ("NotationError", "IllegalMoveError", "MatchStateError", "BattleNotOverError"):
        assert issubclass(getattr(buttonup, error), ValueError)
    assert (PACKAGE / "py.typed").exists()


def public(item: object) -> set[str]:
    return {name for name in dir(item) if not name.startswith("_")}


def test_the_reference_has_the_cores_api() -> None:
    import buttonup.constants
    import buttonup.reference as ref

    assert public(ref.Position) == public(core.Position)
    assert public(ref.Position("W/R b")) == public(core.Position("W/R b"))
    assert public(ref.Match(seed=1)) == public(core.Match(seed=1))
    # The reference exports what it has of the core's API, and nothing else (the names
    # it must have are looked up here and in the next test).
    assert set(ref.__all__) == {name for name in buttonup.__all__ if hasattr(ref, name)}
    for name in ("MAX_TARGET", "STANDARD_PER_COLOUR", "STANDARD_TARGET"):
        assert getattr(ref, name) == getattr(buttonup, name) == getattr(buttonup.constants, name)


def test_one_version() -> None:
    import importlib.metadata

    assert buttonup.__version__ == importlib.metadata.version("buttonup")
    cargo = Path(__file__).resolve().parents[2] / "Cargo.toml"
    if cargo.exists():  # in a checkout; the installed-package runs have no Cargo.toml
        assert f'version = "{buttonup.__version__}"' in cargo.read_text()
    done = processes.run(
        [sys.executable, "-m", "buttonup", "--version"], capture_output=True, text=True
    )
    assert done.stdout == f"buttonup {buttonup.__version__}\n"


def signature(call: object) -> list[tuple[str, object, object]]:
    """Each parameter's name, kind and default (the extension's from its text signature)."""
    import inspect

    return [
        (p.name, p.kind, p.default)
        for p in inspect.signature(call).parameters.values()  # type: ignore[arg-type]
        if p.name not in ("self", "cls")
    ]


def test_the_reference_takes_the_same_arguments() -> None:
    import buttonup.reference as ref

    for name in ("perft", "solve", "analyze", "random_playouts", "max_margin"):
        assert signature(getattr(ref, name)) == signature(getattr(core, name)), name
    for method in ("start", "random", "play", "outcome", "gives_extra_move", "sums"):
        ours, theirs = getattr(core.Position, method), getattr(ref.Position, method)
        assert signature(theirs) == signature(ours), method
    for method in ("play", "undo", "choose_starter", "legal_moves"):
        assert signature(getattr(ref.Match, method)) == signature(getattr(core.Match, method))
    if sys.version_info >= (3, 10):  # 3.9's inspect cannot read an extension class's
        assert signature(ref.Match) == signature(core.Match)


def test_the_rl_docs_install_as_a_newcomer_can() -> None:
    """buttonup is not on PyPI: docs/rl.md's install lines are from a clone (with Rust) or a
    built wheel, never the distribution's name alone."""
    docs = Path(__file__).resolve().parents[2] / "docs" / "rl.md"
    if not docs.exists():
        pytest.skip("the installed-package runs have no docs/")
    text = docs.read_text()
    assert "pip install -e '.[rl]'" in text and "maturin build --release" in text
    assert "Rust" in text.split("## ")[0]  # said before the first section
    for line in text.splitlines():
        assert "install 'buttonup[" not in line or "finds nothing" in line, line
