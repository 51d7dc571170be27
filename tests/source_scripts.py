"""A script of the source tree (scripts/, benches/, docs/) loaded as a module by a test;
the test skips where the tree is absent (an installed package's run copies tests/
alone)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load(relative: str) -> ModuleType:
    """The module of ``ROOT / relative``, run once (skips the test where it is absent)."""
    path = ROOT / relative
    if not path.is_file():
        pytest.skip(f"{relative} is absent (an installed package's tests)", allow_module_level=True)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    # Its folder on the path, as when it runs: a bench imports the benches beside it.
    if str(path.parent) not in sys.path:
        sys.path.insert(0, str(path.parent))
    module = importlib.util.module_from_spec(spec)
    # Registered first, as an import would be: dataclasses look their module up.
    sys.modules.setdefault(spec.name, module)
    spec.loader.exec_module(module)
    return module
