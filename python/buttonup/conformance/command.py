"""``buttonup conformance``: the options and the run (docs/conformance.md).

    buttonup conformance [options] -- COMMAND [ARGS...]     the line protocol
    buttonup conformance --ugi [options] -- COMMAND          a UGI engine
    buttonup conformance --export DIR                        the static corpus

Exit status 0 when everything checked agrees, 1 on any disagreement, 2 when the command
cannot be started or the options are bad.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from buttonup.conformance.report import PROTOCOL_KINDS, Report

if TYPE_CHECKING:
    from buttonup._core import Position
    from buttonup.conformance.checker import Checker
    from buttonup.conformance.process import Process

#: The position every run starts with: an implementation that cannot answer this one
#: question without dying is one that cannot be started.
FIRST = "W/R/B/W/B/R/R/W/B"
#: The whole run's default deadline, in seconds: a full run of a correct implementation
#: takes well under a minute (docs/conformance.md), a slow one may take ten.
DEADLINE = 1800.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Check an implementation of Button Up! in any language against buttonup: it "
        "speaks the kit's line protocol (or UGI, with --ugi) on its standard input and "
        "output. Exit status 0 when everything agrees, 1 on any disagreement, 2 when the "
        "command cannot be started. The protocol and the report: docs/conformance.md."
    )
    parser.usage = (
        "buttonup conformance [options] -- COMMAND [ARGS...]\n"
        "       buttonup conformance --ugi [options] -- COMMAND [ARGS...]\n"
        "       buttonup conformance --export DIR"
    )
    parser.add_argument(
        "command", nargs=argparse.REMAINDER, metavar="-- COMMAND", help="the implementation"
    )
    parser.add_argument(
        "--timeout", type=float, default=5.0, metavar="S", help="seconds to wait for an answer (5)"
    )
    parser.add_argument(
        "--deadline",
        type=float,
        default=DEADLINE,
        metavar="S",
        help=f"seconds the whole run may take, past which it stops ({DEADLINE:g})",
    )
    parser.add_argument(
        "--examples",
        type=int,
        default=3000,
        metavar="N",
        help="positions drawn by hypothesis on variants and odd circles (3000; 0: none)",
    )
    parser.add_argument("--seed", type=int, default=0, metavar="N", help="the draws' seed (0)")
    parser.add_argument(
        "--limit",
        type=int,
        default=None,
        metavar="N",
        help="check only the N smallest standard positions (default: all 56,380)",
    )
    parser.add_argument(
        "--json", type=Path, default=None, metavar="FILE", help="also write the report here"
    )
    parser.add_argument(
        "--max-restarts",
        type=int,
        default=20,
        metavar="N",
        help="restarts after crashes, time-outs or garbage before giving up (20)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument(
        "--export", type=Path, default=None, metavar="DIR", help="write the static corpus here"
    )
    ugi = parser.add_argument_group("UGI engines")
    ugi.add_argument("--ugi", action="store_true", help="check a UGI engine (docs/protocol.md)")
    ugi.add_argument(
        "--battles", type=int, default=6, metavar="N", help="battles against buttonup's AI (6)"
    )
    ugi.add_argument(
        "--movetime", type=int, default=100, metavar="MS", help="each 'go movetime' (100)"
    )
    ugi.add_argument(
        "--tolerance",
        type=int,
        default=250,
        metavar="MS",
        help="how much longer a 'go movetime' may take (250)",
    )


def run(args: argparse.Namespace) -> int:
    """Runs the command line's mode; ``ValueError`` for bad options (status 2)."""
    command = list(args.command)
    if command[:1] == ["--"]:
        command = command[1:]
    if args.export is not None:
        if command or args.ugi:
            raise ValueError("--export takes no command and no --ugi")
        from buttonup.conformance.corpus import export

        manifest = export(args.export)
        for name, entry in manifest["files"].items():
            print(f"{args.export / name}: {entry['lines']:,} lines")
        return 0
    if not command:
        raise ValueError("no command given: buttonup conformance [options] -- COMMAND [ARGS...]")
    if args.timeout <= 0 or args.max_restarts < 0 or args.examples < 0:
        raise ValueError("--timeout must be positive, --max-restarts and --examples at least 0")
    if not args.deadline > 0:
        raise ValueError("--deadline must be positive")
    if args.limit is not None and args.limit < 1:
        raise ValueError("--limit must be at least 1")
    if args.json is not None and not args.json.parent.is_dir():
        raise ValueError(f"--json: there is no folder {args.json.parent}")
    if args.ugi:
        if args.battles < 1 or args.movetime < 1 or args.tolerance < 0:
            raise ValueError("--battles and --movetime must be at least 1, --tolerance 0")
        from buttonup.conformance.ugi import check_engine as check
    else:
        from buttonup.conformance.properties import require_hypothesis

        if args.examples:
            require_hypothesis()
        check = check_protocol
    from buttonup.conformance.process import Process, StartError

    try:
        process = Process(command, args.timeout, time.monotonic() + args.deadline)
    except StartError as error:
        print(f"buttonup: error: {error}", file=sys.stderr)
        return 2
    try:
        report = check(process, args)
    finally:
        process.close()
    if report is None:
        return 2
    report.print(sys.stdout)
    if args.json is not None:
        report.write_json(args.json)
    return report.exit_status()


def check_protocol(process: Process, args: argparse.Namespace) -> Report | None:
    """The exhaustive sweep, then the property-based part, then the shrinking, all
    before ``process``'s deadline; ``None`` when the implementation cannot be started."""
    from buttonup.conformance import oracle
    from buttonup.conformance.checker import Checker
    from buttonup.conformance.process import DeadlineError

    positions = oracle.standard_positions(args.limit)
    report = Report(PROTOCOL_KINDS, command=process.name)
    checker = Checker(process, report, max_restarts=args.max_restarts)
    try:
        if not _check(checker, positions, args):
            return None
    except DeadlineError:
        report.stop(f"stopped at the deadline of {args.deadline:g} s: the rest was not checked")
    return report


def _check(checker: Checker, positions: list[Position], args: argparse.Namespace) -> bool:
    """:func:`check_protocol`'s questions; ``False`` when the implementation dies before
    its first answer (said on standard error)."""
    from buttonup.conformance import oracle
    from buttonup.conformance.checker import example_of
    from buttonup.conformance.properties import draw, variant_questions
    from buttonup.conformance.shrink import shrink

    process, report = checker.process, checker.report
    question = oracle.legal_question(oracle.engine_position(FIRST))
    first = checker.ask(question)
    if first.kind == "crash" and process.lines_read == 0:
        print(f"buttonup: error: cannot start '{process.name}': {first.got}", file=sys.stderr)
        return False
    if first.kind == "timeout" and process.lines_read == 0:
        report.add(example_of(question, "timeout", first.got, question.request))
        report.notes.append(
            "no answer to the first request, so nothing else was asked: does the "
            "implementation flush its output after each answer?"
        )
        return True
    show = not args.no_progress and sys.stderr.isatty()
    with progress_bar(show) as bar:
        checker.progress = bar("standard game", oracle.count_questions(positions))
        checker.run(oracle.standard_questions(positions))
        if args.examples and not checker.gave_up:
            drawn = draw(args.examples, args.seed, bar("drawing", args.examples))
            report.notes.append(
                f"hypothesis drew {len(drawn):,} distinct positions (seed {args.seed})"
            )
            asked = variant_questions(drawn)
            checker.progress = bar("variants", len(asked))
            report.part = "variants"
            checker.run(asked)
        checker.progress = None
        found = list(report.examples.values())
        step = bar("shrinking", len(found)) if found else lambda done: None
        for number, example in enumerate(found, 1):
            report.examples[example.kind] = shrink(checker, example)
            step(number)
    return True


@contextmanager
def progress_bar(show: bool) -> Iterator[Callable[[str, int], Callable[[int], None]]]:
    """``bar(label, total)`` makes a task and returns its ``update(done)``; nothing is
    drawn unless ``show`` (standard error is a terminal)."""
    if not show:
        yield lambda label, total: lambda done: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    columns = ("{task.description}", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:

        def bar(label: str, total: int) -> Callable[[int], None]:
            task = progress.add_task(label, total=total)
            return lambda done: progress.update(task, completed=done)

        yield bar
