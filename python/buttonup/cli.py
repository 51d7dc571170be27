"""The ``buttonup`` command."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

from buttonup.display import describe_position, draw_piles, scoring_lines
from buttonup.errors import NotationError
from buttonup.player import Player


def show(args: argparse.Namespace) -> int:
    from buttonup import Position

    position = Position(args.position)
    print(f"Position: {position}")
    print(describe_position(position))
    return 0


def demo(args: argparse.Namespace) -> int:
    """Plays one battle of random moves from a random start."""
    from buttonup import Position

    rng = random.Random(args.seed)
    position = Position.random(rng.getrandbits(64), Player.RED, args.per_colour)
    print(f"Start: {position}")
    print(draw_piles(position))
    print()
    number = 0
    while not position.is_over:
        number += 1
        move = rng.choice(position.legal_moves())
        mover = position.to_move
        lifted = position.piles[move]
        position = position.play(move)
        extra = "  (extra move)" if position.to_move == mover and not position.is_over else ""
        print(f"{number}. {mover} lifts pile {move} ({lifted}) -> {position}{extra}")
    tower = position.piles[0]
    print()
    print("Final pile, bottom (strength 1) first: " + tower)
    for line in scoring_lines(tower):
        print(line)
    return 0


def engine(args: argparse.Namespace) -> int:
    from buttonup import ugi

    return ugi.main()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="buttonup", description="Button Up! (Bruno Cathala, 2012): rules engine and AI."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    show_parser = commands.add_parser(
        "show", help="draw a position, its side to move and its legal moves"
    )
    show_parser.add_argument("position", help="a position, e.g. 'W/R/B/W/B/R/R/W/B r'")
    show_parser.set_defaults(run=show)
    demo_parser = commands.add_parser("demo", help="play one random battle and score it")
    demo_parser.add_argument("--seed", type=int, default=None, help="for a reproducible battle")
    demo_parser.add_argument(
        "--per-colour", type=int, default=3, help="buttons of each colour (default 3)"
    )
    demo_parser.set_defaults(run=demo)
    engine_parser = commands.add_parser(
        "engine", help="speak the UGI protocol on stdin/stdout (docs/protocol.md)"
    )
    engine_parser.set_defaults(run=engine)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code: int = args.run(args)
    except (NotationError, ValueError) as error:
        print(f"buttonup: error: {error}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":
    sys.exit(main())
