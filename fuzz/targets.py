"""Fuzz targets for the notation parsers and the engine's line parser (a development
tool of the source tree, not shipped):

    python fuzz/targets.py --minutes 10 [--target notation|engine|all]

Each target takes one input and checks what must hold for every input: the Rust and the
reference notation parsers agree (the same position, or the same error and message);
the UGI engine answers any line without failing and keeps serving. The long run uses
atheris (coverage-guided) where it is installed, and hypothesis otherwise; the test
suite runs the same targets briefly through hypothesis (tests/suite/test_fuzz.py).
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from collections.abc import Callable
from typing import Any

import buttonup
import buttonup.reference as ref
from buttonup._core import UgiEngine

#: The first words of every line the engine may write.
ENGINE_LINES = ("info ", "bestmove ", "readyok", "response ", "id ", "option ", "ugiok")


def _outcome(parse: Callable[[str], object], text: str) -> tuple[str, str]:
    try:
        return "ok", str(parse(text))
    except (ValueError, TypeError) as error:
        return type(error).__name__, str(error)


def check_notation(text: str) -> None:
    """Both engines read ``text`` alike, as a position and as a start order, and a
    position read writes back to a text that reads the same."""
    for rust, oracle in (
        (buttonup.Position, ref.Position),
        (buttonup.Position.start, ref.Position.start),
    ):
        got, expected = _outcome(rust, text), _outcome(oracle, text)
        assert got == expected, (text, got, expected)
    kind, written = _outcome(buttonup.Position, text)
    if kind == "ok":
        assert str(buttonup.Position(written)) == written


class EngineTarget:
    """One engine, fed line after line, its output checked after each."""

    def __init__(self) -> None:
        self.out = io.StringIO()
        self.engine = UgiEngine("buttonup", self.out.write)

    def __call__(self, line: str) -> None:
        if line.lower().split()[:1] == ["quit"]:
            return  # a real quit ends the engine, as it should
        self.engine.handle(line)
        self.engine.handle("stop")  # waits for a search the line may have started
        self.engine.handle("isready")
        # The engine carries lines out on its own thread: reading the position waits for
        # every line handed over to be carried out (the readyok written).
        self.engine.position  # noqa: B018
        written = self.out.getvalue().splitlines()
        self.out.seek(0)
        self.out.truncate()
        assert written and written[-1] == "readyok", (line, written)
        for answer in written:
            assert answer.startswith(ENGINE_LINES), (line, answer)
            assert "internal error" not in answer, (line, answer)


def _run_atheris(target: Callable[[str], None], seconds: float) -> int:
    """Runs libFuzzer through atheris for ``seconds``; libFuzzer prints its figures
    ("Done N runs in S second(s)") and ends the process, so this runs one target."""
    import atheris

    def one(data: bytes) -> None:
        target(atheris.FuzzedDataProvider(data).ConsumeUnicodeNoSurrogates(256))

    atheris.instrument_all()  # coverage of the Python code (the reference, the engine)
    atheris.Setup([sys.argv[0], f"-max_total_time={max(1, int(seconds))}"], one)
    atheris.Fuzz()
    return 0


def _run_hypothesis(target: Callable[[str], None], seconds: float) -> int:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    alphabet = st.sampled_from("RBWrb/ \t\n0123456789-goinfdepthmovestposfenquryx\x00é")
    count = 0

    @settings(
        max_examples=10**9, deadline=None, suppress_health_check=list(HealthCheck), database=None
    )
    @given(st.one_of(st.text(), st.text(alphabet)))
    def one(text: str) -> None:
        nonlocal count
        count += 1
        target(text)

    deadline = time.monotonic() + seconds
    fuzz: Any = one.hypothesis.fuzz_one_input  # type: ignore[attr-defined]
    import random

    rng = random.Random(0)
    while time.monotonic() < deadline:
        fuzz(rng.randbytes(rng.randrange(1, 200)))
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--minutes", type=float, default=1.0, help="per target")
    parser.add_argument("--target", choices=("notation", "engine", "all"), default="all")
    parser.add_argument(
        "--engine", choices=("auto", "atheris", "hypothesis"), default="auto", help="fuzzer"
    )
    args = parser.parse_args(argv)
    targets: dict[str, Callable[[str], None]] = {}
    if args.target in ("notation", "all"):
        targets["notation"] = check_notation
    if args.target in ("engine", "all"):
        targets["engine"] = EngineTarget()
    fuzzer = args.engine
    if fuzzer == "auto":
        try:
            import atheris  # noqa: F401

            # libFuzzer ends the process after one target.
            fuzzer = "atheris" if len(targets) == 1 else "hypothesis"
        except ImportError:
            fuzzer = "hypothesis"
    for name, target in targets.items():
        started = time.monotonic()
        run = _run_atheris if fuzzer == "atheris" else _run_hypothesis
        count = run(target, args.minutes * 60)
        elapsed = time.monotonic() - started
        print(f"{name}: {count} inputs in {elapsed:.0f} s with {fuzzer}, no failure")
    return 0


if __name__ == "__main__":
    sys.exit(main())
