"""The ``buttonup`` command."""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console

from buttonup import __version__
from buttonup._core import STANDARD_PER_COLOUR, STANDARD_TARGET
from buttonup.conformance.command import add_arguments as add_conformance_arguments
from buttonup.ending import run_command
from buttonup.errors import NotationError
from buttonup.player import Player
from buttonup.players import BOT_NAMES
from buttonup.text import describe_position, draw_piles, scoring_lines

#: What ``buttonup show`` draws without a position: the start of docs/rules.md's examples.
SHOWN_START = "W/R/B/W/B/R/R/W/B r"
#: ``solve-all --ray`` without an address: a Ray started in this process.
LOCAL_RAY = "local"


def show(args: argparse.Namespace) -> int:
    from buttonup import Position

    if args.position is None:
        print("No position given: the start of the worked examples of docs/rules.md.")
    position = Position(args.position if args.position is not None else SHOWN_START)
    print(f"Position: {position}")
    print(describe_position(position))
    return 0


def demo(args: argparse.Namespace) -> int:
    """Plays one battle of random moves from a random start."""
    from buttonup import Position

    rng = random.Random(args.seed)
    position = Position.random(rng.getrandbits(64), per_colour=args.per_colour)
    print(f"Start: {position}")
    print(draw_piles(position))
    print()
    number = 0
    while not position.is_over:
        number += 1
        move = rng.choice(position.legal_moves())
        mover = position.to_move
        lifted = position.piles[move]
        outcome = position.outcome(move)
        extra = "  (extra move)" if outcome.extra_move else ""
        position = outcome.position
        print(f"{number}. {mover} lifts pile {move} ({lifted}) -> {position}{extra}")
    scoring = position.scoring()
    print()
    print("Final pile, bottom (strength 1) first: " + scoring.tower)
    for line in scoring_lines(scoring):
        print(line)
    return 0


def play(args: argparse.Namespace) -> int:
    from buttonup.cli.play import Game, Settings

    human = Player.RED if args.colour == "red" else Player.BLACK
    starter = {"red": Player.RED, "black": Player.BLACK, "me": human, "ai": human.other}[args.first]
    settings = Settings(args.level, human, starter, args.seed, args.target, args.opponent)
    Game(settings, console_for(args), input).run()
    return 0


class _Console(Console):
    """A rich console that leaves a closed pipe to :func:`main` (rich would exit 1)."""

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError


#: The width of output that goes to no terminal (a pipe, a file) and sets no COLUMNS:
#: rich's 80 would wrap the tables' rows, which scripts and logs read line by line.
PIPED_WIDTH = 200


def console_for(args: argparse.Namespace) -> Console:
    no_color = getattr(args, "no_color", False)
    width = None if sys.stdout.isatty() or os.environ.get("COLUMNS") else PIPED_WIDTH
    return _Console(
        no_color=no_color,
        highlight=False,
        color_system=None if no_color else "auto",
        width=width,
    )


def analyze_command(args: argparse.Namespace) -> int:
    from buttonup import Position
    from buttonup.cli.reports import analyze_report

    analyze_report(Position(args.position), console_for(args))
    return 0


def solve_all(args: argparse.Namespace) -> int:
    from buttonup.cli.solve_all import BATCH, solve_all_report

    if args.threads is not None and args.threads < 1:
        raise ValueError("--threads must be at least 1")
    if args.ray is None:
        batch = BATCH if args.batch is None else args.batch
        solve_all_report(console_for(args), args.csv, args.per_colour, args.threads, batch=batch)
        return 0
    try:
        from buttonup.cli.solve_all_ray import RAY_BATCH, ClusterError, solve_on_ray
    except ImportError as error:
        if error.name != "ray":
            raise
        raise ValueError("--ray needs Ray: pip install ray (the cluster extra)") from None
    solver = solve_on_ray(None if args.ray == LOCAL_RAY else args.ray, threads=args.threads or 1)
    try:
        batch = RAY_BATCH if args.batch is None else args.batch
        solve_all_report(console_for(args), args.csv, args.per_colour, batch=batch, solver=solver)
    except ClusterError as error:
        print(f"buttonup: error: {error}", file=sys.stderr)
        return 1
    return 0


def tournament_command(args: argparse.Namespace) -> int:
    from buttonup.cli.reports import tournament_report

    specs = [spec for spec in args.bots.split(",") if spec.strip()]
    if len(specs) < 2:
        raise ValueError("--bots needs at least two bots, e.g. --bots 1,5,9")
    threads = args.threads if args.threads is not None else os.cpu_count() or 1
    if args.matches < 1 or threads < 1:
        raise ValueError("--matches and --threads must be at least 1")
    if args.movetime is not None and args.movetime < 1:
        raise ValueError(f"--movetime must be at least 1 (milliseconds), not {args.movetime}")
    tournament_report(
        specs,
        args.matches,
        args.seed,
        threads,
        args.json,
        console_for(args),
        args.records,
        per_colour=args.per_colour,
        movetime_ms=args.movetime,
    )
    return 0


def serve(args: argparse.Namespace) -> int:
    try:
        from buttonup.web.server import serve as run
    except ImportError as error:
        raise ValueError(
            "buttonup serve needs the web extra: pip install fastapi uvicorn fastapi-offline "
            f"({error.name})"
        ) from None
    from buttonup.players import bot_factory

    opponents = {}
    for spec in args.opponent:
        made = bot_factory(spec)
        if made.name in opponents:
            raise ValueError(f"--opponent: two opponents named {made.name}")
        opponents[made.name] = made
    return run(
        args.host,
        args.port,
        args.open,
        tuple(args.cors_origin),
        args.db,
        args.expire_days,
        opponents=opponents,
    )


def export_site(args: argparse.Namespace) -> int:
    from buttonup.web.export import SERVE_HINT, NoWasmPackage, checkout_at
    from buttonup.web.export import export_site as export

    try:
        written = export(args.directory, args.wasm)
    except NoWasmPackage:
        # An installed wheel built without the package, run from a clone: build it there.
        checkout = checkout_at(Path.cwd()) if args.wasm is None else None
        if checkout is None:
            raise
        print(
            f"this installation has no WebAssembly package: building it in {checkout} "
            "with scripts/build-wasm.sh (a few minutes the first time)",
            file=sys.stderr,
        )
        built = subprocess.run(["bash", str(checkout / "scripts" / "build-wasm.sh")])
        if built.returncode != 0:
            raise ValueError(f"scripts/build-wasm.sh failed (exit {built.returncode})") from None
        written = export(args.directory, checkout / "target" / "wasm-pkg")
    print(f"wrote {len(written)} files to {args.directory}: {SERVE_HINT}")
    return 0


def engine(args: argparse.Namespace) -> int:
    from buttonup.ugi import command as ugi

    return ugi.main(policy=args.policy)


def conformance(args: argparse.Namespace) -> int:
    from buttonup.conformance.command import run

    return run(args)


def add_per_colour(parser: argparse.ArgumentParser, what: str = "") -> None:
    parser.add_argument(
        "--per-colour",
        "--per-color",
        type=int,
        default=STANDARD_PER_COLOUR,
        help=f"buttons of each colour{what} (default {STANDARD_PER_COLOUR})",
    )


def add_seed(parser: argparse.ArgumentParser, default: int | None, what: str) -> None:
    parser.add_argument("--seed", type=int, default=default, help=f"for a reproducible {what}")


def add_plain(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-color", "--no-colour", action="store_true", help="plain text")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="buttonup", description="Button Up! (Bruno Cathala, 2012): rules engine and AI."
    )
    parser.add_argument("--version", action="version", version=f"buttonup {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    show_parser = commands.add_parser(
        "show", help="draw a position, its side to move and its legal moves"
    )
    show_parser.add_argument(
        "position",
        nargs="?",
        default=None,
        help=f"a position, e.g. '{SHOWN_START}' (that start when none is given)",
    )
    show_parser.set_defaults(run=show)
    demo_parser = commands.add_parser("demo", help="play one random battle and score it")
    add_seed(demo_parser, None, "battle")
    add_per_colour(demo_parser)
    demo_parser.set_defaults(run=demo)
    play_parser = commands.add_parser("play", help="play a match against the AI")
    play_parser.add_argument(
        "--level",
        type=int,
        default=5,
        metavar="1..10",
        help="AI strength, 1 (random) to 10 (perfect match play); default 5",
    )
    play_parser.add_argument(
        "--opponent",
        default=None,
        metavar="SPEC",
        help="play this bot instead of --level: a name, or a policy "
        "(module:attribute, PATH.zip, PATH.onnx; docs/rl.md)",
    )
    play_parser.add_argument(
        "--colour",
        "--color",
        choices=("red", "black"),
        default="red",
        help="the colour you play (default red)",
    )
    play_parser.add_argument(
        "--first",
        choices=("red", "black", "me", "ai"),
        default="me",
        help="who starts the first battle (default: you)",
    )
    add_seed(play_parser, None, "match")
    play_parser.add_argument(
        "--target",
        type=int,
        default=STANDARD_TARGET,
        help=f"victory points to win (default {STANDARD_TARGET})",
    )
    add_plain(play_parser)
    play_parser.set_defaults(run=play)
    analyze_parser = commands.add_parser(
        "analyze", help="exact value of every move, the best line and the verdict"
    )
    analyze_parser.add_argument("position", help="a position, e.g. 'W/R/B/W/B/R/R/W/B r'")
    add_plain(analyze_parser)
    analyze_parser.set_defaults(run=analyze_command)
    tournament_parser = commands.add_parser("tournament", help="bots against each other")
    tournament_parser.add_argument(
        "--bots",
        default="1,5,9,10",
        help=f"comma-separated levels 1..10, names ({', '.join(BOT_NAMES)}) or policies "
        "(module:attribute, PATH.zip, PATH.onnx; NAME=SPEC names one) (default 1,5,9,10)",
    )
    tournament_parser.add_argument("--matches", type=int, default=100, help="per pairing")
    add_per_colour(tournament_parser, " in every battle (a variant)")
    add_seed(tournament_parser, 0, "tournament (default 0)")
    tournament_parser.add_argument(
        "--threads",
        type=int,
        default=None,
        help="matches played at once (default: one a core)",
    )
    tournament_parser.add_argument(
        "--movetime",
        type=int,
        default=None,
        metavar="MS",
        help="the level scale's bots search within MS milliseconds a move, one thread each "
        "(as the page plays), instead of solving every move (default: exact)",
    )
    tournament_parser.add_argument("--json", type=Path, default=None, help="also write JSON here")
    tournament_parser.add_argument(
        "--records",
        type=Path,
        default=None,
        metavar="FILE",
        help="also write every match's record here (docs/notation.md, 'Match records')",
    )
    add_plain(tournament_parser)
    tournament_parser.set_defaults(run=tournament_command)
    solve_parser = commands.add_parser(
        "solve-all", help="perfect-play value of every start of a variant, both sides to move"
    )
    solve_parser.add_argument(
        "--csv",
        type=Path,
        default=None,
        help="also write every value here; an existing file is resumed where it ends",
    )
    solve_parser.add_argument(
        "--threads",
        type=int,
        default=None,
        help="threads (default: every core; with --ray, threads a task, default 1)",
    )
    solve_parser.add_argument(
        "--batch",
        type=int,
        default=None,
        metavar="N",
        help="classes of starts solved in one call or Ray task (default 8192; 1024 with --ray)",
    )
    solve_parser.add_argument(
        "--ray",
        nargs="?",
        const=LOCAL_RAY,
        default=None,
        metavar="ADDRESS",
        help="solve on a Ray cluster (ray start's address, or ray://host:10001); without "
        "ADDRESS on a Ray started here (needs Ray: pip install ray)",
    )
    add_per_colour(solve_parser)
    add_plain(solve_parser)
    solve_parser.set_defaults(run=solve_all)
    serve_parser = commands.add_parser(
        "serve", help="play and analyse in the browser; a JSON API for other front ends"
    )
    serve_parser.add_argument("--host", default="127.0.0.1", help="default 127.0.0.1")
    serve_parser.add_argument("--port", type=int, default=8000, help="default 8000")
    serve_parser.add_argument("--open", action="store_true", help="open the page in a browser")
    serve_parser.add_argument(
        "--cors-origin", action="append", default=[], help="an origin allowed to call the API"
    )
    serve_parser.add_argument(
        "--db",
        default=None,
        help="the online matches' database: sqlite:///path or postgresql://... "
        "(default: matches.sqlite3 in the user's data folder)",
    )
    serve_parser.add_argument(
        "--expire-days",
        type=float,
        default=30.0,
        help="unfinished online matches without a move this long are deleted (default 30)",
    )
    serve_parser.add_argument(
        "--opponent",
        action="append",
        default=[],
        metavar="NAME=SPEC",
        help="offer this player besides the levels (GET /api/opponents; the page's menu; "
        "POST /api/bestmove's and /api/matches' opponent): a policy (module:attribute, "
        "PATH.zip, PATH.onnx) or a named bot",
    )
    serve_parser.set_defaults(run=serve)
    export_parser = commands.add_parser(
        "export-site", help="the page as static files that play offline (WebAssembly)"
    )
    export_parser.add_argument("directory", type=Path, help="the folder to write")
    export_parser.add_argument(
        "--wasm", type=Path, default=None, help="the package of scripts/build-wasm.sh"
    )
    export_parser.set_defaults(run=export_site)
    engine_parser = commands.add_parser(
        "engine", help="speak the UGI protocol on stdin/stdout (docs/protocol.md)"
    )
    engine_parser.add_argument(
        "--policy",
        default=None,
        metavar="SPEC",
        help="answer every 'go' with this bot or policy (module:attribute, PATH.zip, "
        "PATH.onnx) instead of the Level option's search",
    )
    engine_parser.set_defaults(run=engine)
    conformance_parser = commands.add_parser(
        "conformance", help="check another implementation against buttonup (docs/conformance.md)"
    )
    add_conformance_arguments(conformance_parser)
    conformance_parser.set_defaults(run=conformance)
    return parser


def system_error(error: OSError) -> str:
    """What the system refused, without Python's ``[Errno N]``."""
    if error.strerror and error.filename is not None:
        return f"{error.filename}: {error.strerror}"
    return error.strerror or str(error)


def main(argv: Sequence[str] | None = None) -> int:
    """Runs one command. Bad input is one line and status 2, Ctrl-C one line and status
    130, a closed output pipe (``buttonup solve-all | head``) a quiet end."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0

    def body() -> int:
        try:
            code: int = args.run(args)
        except (NotationError, ValueError) as error:
            print(f"buttonup: error: {error}", file=sys.stderr)
            return 2
        except BrokenPipeError:
            raise  # a quiet end (run_command)
        except OSError as error:  # a path or an address the system refused
            print(f"buttonup: error: {system_error(error)}", file=sys.stderr)
            return 2
        return code

    return run_command(body, "buttonup")


if __name__ == "__main__":
    sys.exit(main())
