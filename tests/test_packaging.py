"""The package's shape: the reference stands alone, the stubs match the extension."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import buttonup
import buttonup._core as core

PACKAGE = Path(buttonup.__file__).parent


def test_reference_never_imports_the_extension() -> None:
    code = (
        "import sys, buttonup.reference as r, buttonup.testing.strategies;"
        "r.perft(r.Position('W/R/B/W/B/R/R/W/B r'), 3);"
        "r.Match(seed=1);"
        "print('buttonup._core' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_stub_names_match_the_extension() -> None:
    tree = ast.parse((PACKAGE / "_core.pyi").read_text())
    stub_names = set()
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            stub_names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            stub_names.add(node.target.id)
    module_names = {name for name in dir(core) if not name.startswith("_")}
    assert stub_names == module_names
    position_stub = next(n for n in tree.body if isinstance(n, ast.ClassDef))
    methods = {n.name for n in position_stub.body if isinstance(n, ast.FunctionDef)}
    public = {name for name in dir(core.Position) if not name.startswith("_")}
    assert public <= methods


def test_public_api() -> None:
    for name in buttonup.__all__:
        assert getattr(buttonup, name) is not None
    assert buttonup.Position is core.Position
    assert issubclass(buttonup.NotationError, ValueError)
    assert issubclass(buttonup.IllegalMoveError, ValueError)
    assert (PACKAGE / "py.typed").exists()


def test_one_version() -> None:
    import importlib.metadata

    assert buttonup.__version__ == importlib.metadata.version("buttonup")
    cargo = Path(__file__).parents[1] / "Cargo.toml"
    if cargo.exists():  # in a checkout; the installed-package runs have no Cargo.toml
        assert f'version = "{buttonup.__version__}"' in cargo.read_text()
    done = subprocess.run(
        [sys.executable, "-m", "buttonup", "--version"], capture_output=True, text=True
    )
    assert done.stdout == f"buttonup {buttonup.__version__}\n"
