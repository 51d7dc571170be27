"""No Rust panic reaches Python: NumPy missing is an ImportError naming the
extra, a VecEnv's bad actions and outputs are clear errors, a Searcher used again by its
own progress callback is a RuntimeError (it used to wait for ever), and the bindings
hold no panicking call on what a caller sends."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import buttonup
import processes
import pytest
from buttonup import Position, Searcher

BINDINGS = Path(__file__).resolve().parents[2] / "python-ext" / "src"
START = Position("W/R/B/W/B/R/R/W/B r")

#: Calls that panic when what they are given (or the state of NumPy) is not as they
#: assume: an unwrap, an assertion, an index past the end; NumPy's unchecked borrows and
#: its array constructors that panic when NumPy cannot be loaded or memory is short.
PANICKING = re.compile(
    r"\.unwrap\(\)|\.expect\(|\b(panic|unreachable|todo|unimplemented|assert|assert_eq)!"
    r"|\.readwrite\(\)|\.readonly\(\)|PyArray\d?::zeros|::from_owned_ptr\("
)


def child(code: str) -> subprocess.CompletedProcess[str]:
    return processes.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.skipif(not BINDINGS.is_dir(), reason="needs the source tree (python-ext/src/)")
def test_the_bindings_hold_no_panicking_call() -> None:
    files = sorted(BINDINGS.glob("*.rs"))
    assert len(files) > 10  # the extension's crate, file by file: not an empty folder
    found = [
        f"{path.name}:{number}: {line.strip()}"
        for path in files
        # A file's unit tests (from its `#[cfg(test)]` on) run under cargo, not Python.
        for number, line in enumerate(path.read_text().split("#[cfg(test)]")[0].splitlines(), 1)
        if PANICKING.search(line.split("//")[0])
    ]
    assert found == []


def test_without_numpy_the_arrays_are_an_import_error() -> None:
    done = child(
        """
        import sys
        sys.modules["numpy"] = None  # as if it were not installed
        import buttonup
        from buttonup._core import encode_observation, legal_action_mask
        start = buttonup.Position("W/R/B/W/B/R/R/W/B r")
        for call in (lambda: buttonup.VecEnv(2), lambda: legal_action_mask(start),
                     lambda: encode_observation(start)):
            try:
                call()
            except ImportError as error:
                print("ImportError", error)
        print(buttonup.solve(start))  # the rest works
        """
    )
    lines = done.stdout.splitlines()
    assert len(lines) == 4 and lines[-1] == "1", done.stdout + done.stderr
    assert all(line.startswith("ImportError") and "pip install numpy" in line for line in lines[:3])
    assert "panicked" not in done.stderr and "PanicException" not in done.stderr


@pytest.mark.parametrize("use", ["s.search(q)", "s.solve(q)", "s.clear()"])
def test_a_searcher_used_by_its_own_callback_is_an_error(use: str) -> None:
    # In a child: before the fix this waited for ever, deaf to Ctrl-C.
    done = child(
        f"""
        import buttonup
        s = buttonup.Searcher(tt_mb=1)
        p = buttonup.Position.random(seed=0, per_colour=8)
        q = buttonup.Position("W/R/B/W/B/R/R/W/B r")
        try:
            s.search(p, time_limit=1.0, on_iteration=lambda r: {use})
        except RuntimeError as error:
            print("RuntimeError", error)
        print(s.search(q).value, s.solve(q))  # still usable
        """
    )
    assert done.stdout.splitlines()[0].startswith("RuntimeError this Searcher is busy"), (
        done.stdout + done.stderr
    )
    assert done.stdout.splitlines()[1] == "1 1"


def test_another_searcher_from_a_callback_works() -> None:
    outer, inner = Searcher(tt_mb=1), Searcher(tt_mb=1)
    values: list[int] = []
    outer.search(START, on_iteration=lambda r: values.append(inner.solve(START)))
    assert values == [1] * len(values) and values


@pytest.mark.parametrize(
    ("actions", "error", "message"),
    [
        ([10**30, 0], TypeError, "actions must be ints (pile indices) that fit in 64 bits"),
        ([0.5, 0.5], TypeError, "not an array of float64"),
        ([float("nan"), 0], TypeError, "not an array of float64"),
        ([True, False], TypeError, "not an array of bool"),
        ([0], ValueError, "1 actions for 2 games: actions must be one pile for each game"),
        ([[0, 0]], ValueError, "one pile for each of the 2 games, not an array of shape [1, 2]"),
        (["0", "0"], TypeError, "not an array of"),
    ],
)
def test_bad_actions_are_clear_errors(actions: object, error: type, message: str) -> None:
    pytest.importorskip("numpy")
    env = buttonup.VecEnv(2, seed=1)
    before = env.positions()
    with pytest.raises(error) as raised:
        env.step(actions)
    assert message in str(raised.value)
    assert env.positions() == before


def test_outputs_made_read_only_are_an_error() -> None:
    pytest.importorskip("numpy")
    env = buttonup.VecEnv(2, seed=1)
    env.rewards.flags.writeable = False
    with pytest.raises(ValueError, match=r"VecEnv\.rewards: The given array is not writeable"):
        env.step(env.legal_action_mask.argmax(axis=1))


def test_a_score_needs_a_player(each_engine: ModuleType) -> None:
    with pytest.raises(TypeError, match="player must be a Player or 'r' or 'b', not None"):
        each_engine.Match(seed=1).score(None)
    assert each_engine.Match(seed=1).score("r") == 0
