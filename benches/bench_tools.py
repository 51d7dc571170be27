"""What the benchmarks share: the process helpers of tests/processes.py (every process a
bench starts is ended with its group; re-exported here), a function of a bench run in a
fresh Python on this build or on another one (a checkout's ``python/`` folder with its
built ``_core``: the code before a change), builds alternated in rounds, and a median
with its spread.

A bench that compares builds takes the other one's folder as ``--before`` and measures
in a child process each time::

    rounds = alternated(5, {"before": args.before, "after": None},
                        lambda path: in_process(__file__, "timings", [], path))
"""

from __future__ import annotations

import json
import os
import statistics
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

BENCHES = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCHES.parent / "tests"))
import processes  # noqa: E402
from processes import end, free_port, popen, run, started  # noqa: E402

__all__ = [
    "alternated",
    "build_env",
    "end",
    "free_port",
    "in_process",
    "popen",
    "processes",
    "run",
    "spread",
    "started",
]

T = TypeVar("T")

#: The child's program: a bench module's function called with JSON arguments, its result
#: printed as JSON on the last line.
_CHILD = (
    "import importlib, json, sys; sys.path.insert(0, sys.argv[1]); "
    "module = importlib.import_module(sys.argv[2]); "
    "print(json.dumps(getattr(module, sys.argv[3])(*json.loads(sys.argv[4]))))"
)


def build_env(pythonpath: str | None) -> dict[str, str]:
    """This environment with Python looking first in ``pythonpath`` (another build's
    ``python/`` folder), or with no ``PYTHONPATH`` at all (``None``: this build)."""
    env = dict(os.environ)
    if pythonpath is None:
        env.pop("PYTHONPATH", None)
    else:
        env["PYTHONPATH"] = str(Path(pythonpath).resolve())
    return env


def in_process(
    script: str | Path, function: str, arguments: Sequence[Any], pythonpath: str | None
) -> Any:
    """``function(*arguments)`` of the bench ``script`` (a file of benches/), called in a
    fresh Python on the build at ``pythonpath`` (``None``: this one): its result, through
    JSON."""
    path = Path(script).resolve()
    command = [sys.executable, "-c", _CHILD, str(path.parent), path.stem, function]
    done = processes.run(
        [*command, json.dumps(list(arguments))],
        env=build_env(pythonpath),
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.splitlines()[-1])


def alternated(
    rounds: int, builds: dict[str, str | None], measure: Callable[[str | None], T]
) -> dict[str, list[T]]:
    """``measure(pythonpath)`` of each build (name to ``PYTHONPATH``, ``None`` for this
    one), ``rounds`` times, the order of the builds turned round each round, so that
    neither always runs first on a machine that warms up or slows down."""
    found: dict[str, list[T]] = {name: [] for name in builds}
    for number in range(rounds):
        order = list(builds) if number % 2 == 0 else list(reversed(builds))
        for name in order:
            found[name].append(measure(builds[name]))
    return found


def spread(values: Sequence[float], scale: float = 1.0, fmt: str = "{:,.2f}") -> str:
    """``median (min-max)`` of ``values`` divided by ``scale``."""
    show = [v / scale for v in values]
    median = statistics.median(show)
    return f"{fmt.format(median)} ({fmt.format(min(show))}-{fmt.format(max(show))})"
