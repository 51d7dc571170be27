"""The C library as a front-end author gets it: capi/include/buttonup.h and
target/release/libbuttonup_c.{so,a} (built by ``cargo build --release``), the example
examples/c/battle.c compiled by ``cc`` against each, run, its every answer checked
against the Python library, and run again under valgrind (no errors, no leaks).

Skips, naming why, where the library is not built or ``cc``/valgrind is missing, unless
``BUTTONUP_REQUIRE_NATIVE=1`` (CI) makes that a failure."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import processes
import pytest
from buttonup import Match, Player, Position, solve, win_probability

ROOT = Path(__file__).resolve().parents[2]
HEADER = ROOT / "capi" / "include" / "buttonup.h"
LIBRARY = ROOT / "target" / "release"
EXAMPLE = ROOT / "examples" / "c" / "battle.c"


def need(condition: bool, reason: str) -> None:
    if not condition:
        if os.environ.get("BUTTONUP_REQUIRE_NATIVE"):
            pytest.fail(reason)
        pytest.skip(reason)


@pytest.fixture(scope="module", params=["shared", "static"])
def battle(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """examples/c/battle.c built against the shared or the static library."""
    need(EXAMPLE.is_file(), "examples/c is not in this tree")
    need(shutil.which("cc") is not None, "no C compiler (cc)")
    library = LIBRARY / ("libbuttonup_c.so" if request.param == "shared" else "libbuttonup_c.a")
    need(library.is_file(), f"{library.name} is not built (cargo build --release -p buttonup-c)")
    out = tmp_path_factory.mktemp("c") / "battle"
    flags = ["cc", "-O2", "-Wall", "-Wextra", "-Werror", "-o", str(out), str(EXAMPLE)]
    flags += ["-I", str(HEADER.parent)]
    if request.param == "shared":
        flags += [f"-L{LIBRARY}", "-lbuttonup_c", f"-Wl,-rpath,{LIBRARY}"]
    else:
        flags += [str(library), "-lpthread", "-ldl", "-lm"]
    processes.run(flags, check=True, capture_output=True, text=True)
    return out


def run(command: list[str]) -> subprocess.CompletedProcess[str]:
    return processes.run(command, capture_output=True, text=True, timeout=120)


MOVE = re.compile(
    r"(Red|Black) +lifts pile (\d+)( \(\+ extra move\))?, drops on([\d ]*): (\S+ [rb])"
)


def test_the_c_example_plays_a_battle_as_the_python_library_says(battle: Path) -> None:
    done = run([str(battle), "5", "3"])
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "buttonup 0.1.0, AI level 5"
    assert lines[1].startswith("parse \"W/R/X r\": status 2, unknown button 'X'")
    start = Position.random(3)
    assert lines[2] == f"start {start} (value for Red under perfect play: {solve(start):+d})"
    position = start
    moves = [MOVE.fullmatch(line) for line in lines[3:] if "lifts pile" in line]
    assert moves and all(moves)
    for found in moves:
        assert found is not None
        mover, pile = found.group(1), int(found.group(2))
        assert (position.to_move is Player.RED) == (mover == "Red")
        outcome = position.outcome(pile)
        assert bool(found.group(3)) == outcome.extra_move
        assert [int(d) for d in found.group(4).split()] == list(outcome.drops)
        position = outcome.position
        assert found.group(5) == str(position)
    assert position.is_over
    red, black = position.sums()
    final = next(line for line in lines if line.startswith("final: "))
    assert final.startswith(f"final: red {red}, black {black}: ")
    refused = next(line for line in lines if line.startswith("play on the final pile"))
    assert refused == "play on the final pile: status 3, the battle is over: no pile can be lifted"
    chance = next(line for line in lines if line.startswith("match: Red's chance"))
    expected = win_probability(Match(seed=3)).red
    assert chance.startswith(f"match: Red's chance {expected:.4f} before the first move")
    assert lines[-1] == "the record reads back to the same record"
    record = done.stdout[done.stdout.index("[Event") : done.stdout.index("the record reads")]
    replayed = Match.from_record(record)
    assert replayed.target == Match().target and len(replayed.moves) == 1


def test_the_c_example_runs_clean_under_valgrind(battle: Path) -> None:
    need(shutil.which("valgrind") is not None, "valgrind is not installed")
    done = run(
        [
            "valgrind",
            "--error-exitcode=99",
            "--leak-check=full",
            "--show-leak-kinds=all",
            "--errors-for-leak-kinds=all",
            str(battle),
            "9",
            "2",
        ]
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "ERROR SUMMARY: 0 errors" in done.stderr
    assert "All heap blocks were freed -- no leaks are possible" in done.stderr


def test_the_header_is_what_cbindgen_makes_of_the_sources() -> None:
    need(HEADER.is_file(), "capi/ is not in this tree")
    need(shutil.which("cbindgen") is not None, "cbindgen is not installed (cargo install cbindgen)")
    done = run(["bash", str(ROOT / "capi" / "header.sh"), "--check"])
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_shared_library_names_itself() -> None:
    library = LIBRARY / "libbuttonup_c.so"
    need(library.is_file(), "libbuttonup_c.so is not built (cargo build --release -p buttonup-c)")
    need(shutil.which("readelf") is not None, "no readelf (binutils)")
    dynamic = run(["readelf", "-d", str(library)]).stdout
    assert "Library soname: [libbuttonup_c.so]" in dynamic, dynamic


def test_installed_with_pkg_config_the_example_builds_and_plays(tmp_path: Path) -> None:
    need((LIBRARY / "libbuttonup_c.so").is_file(), "libbuttonup_c.so is not built")
    need(shutil.which("cc") is not None, "no C compiler (cc)")
    need(shutil.which("pkg-config") is not None, "no pkg-config")
    prefix = tmp_path / "prefix"
    installed = run(["bash", str(ROOT / "capi" / "install.sh"), str(prefix)])
    assert installed.returncode == 0, installed.stderr
    env = {**os.environ, "PKG_CONFIG_PATH": str(prefix / "lib" / "pkgconfig")}
    flags = processes.run(
        ["pkg-config", "--cflags", "--libs", "buttonup"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout.split()
    program = tmp_path / "battle"
    processes.run(
        ["cc", "-O2", "-o", str(program), str(EXAMPLE), *flags],
        check=True,
        capture_output=True,
        text=True,
    )
    # As built, with nothing said to the loader: the library is found all the same.
    loader_env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
    played = processes.run(
        [str(program)], capture_output=True, text=True, env=loader_env, timeout=60
    )
    assert played.returncode == 0, played.stderr
    assert MOVE.search(played.stdout), played.stdout
    needed = run(["readelf", "-d", str(program)]).stdout
    assert "Shared library: [libbuttonup_c.so]" in needed, needed
