"""pytest at the top of the tree: the adapters of ``buttonup.envs`` are collected for
their doctests only where their frameworks are installed (the ``rl`` extra)."""

from __future__ import annotations

import importlib.util

collect_ignore = [
    f"python/buttonup/envs/{module}.py"
    for module, needs in (
        ("pettingzoo", "pettingzoo"),
        ("gymnasium", "gymnasium"),
        ("openspiel", "pyspiel"),
    )
    if importlib.util.find_spec(needs) is None
]
