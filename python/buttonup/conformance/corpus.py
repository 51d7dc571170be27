"""``buttonup conformance --export DIR``: the standard game's checks as static files.

For test suites that cannot run Python: JSON Lines files (one JSON object a line), their
format versioned in their names and in ``manifest.json``, which gives each file's line
count and SHA-256. The format is in docs/conformance.md; every value comes from the
Rust engine, the kit's oracle.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from buttonup import __version__
from buttonup._core import Position, perft_many, solve_many, start_orders
from buttonup.conformance.oracle import standard_positions
from buttonup.player import Player

#: The corpus format's version: a change that breaks a reader gets a new one.
VERSION = 1
#: The depths of the perft counts, 1 to the end of the battle.
PERFT_DEPTHS = range(1, 9)


def _positions(positions: list[Position]) -> Iterator[dict[str, Any]]:
    for position in positions:
        yield {"piles": "/".join(position.piles), "legal": position.legal_moves()}


def _moves(positions: list[Position]) -> Iterator[dict[str, Any]]:
    for position in positions:
        piles = "/".join(position.piles)
        for move in position.legal_moves():
            outcome = position.outcome(move)
            yield {
                "piles": piles,
                "move": move,
                "after": "/".join(outcome.position.piles),
                "extra": outcome.extra_move,
                "drops": list(outcome.drops),
            }


def _scores(positions: list[Position]) -> Iterator[dict[str, Any]]:
    for position in positions:
        if position.is_over:
            red, black = position.sums()
            yield {"pile": position.piles[0], "red": red, "black": black}


def _perft(orders: Sequence[str]) -> Iterator[dict[str, Any]]:
    starts = [Position.start(order) for order in orders]
    counts = [perft_many(starts, depth) for depth in PERFT_DEPTHS]
    for number, order in enumerate(orders):
        yield {"start": order, "perft": [by_depth[number] for by_depth in counts]}


def _values(orders: Sequence[str]) -> Iterator[dict[str, Any]]:
    sides = (Player.RED, Player.BLACK)
    starts = [Position.start(order, to_move=side) for order in orders for side in sides]
    for start, value in zip(starts, solve_many(starts)):
        yield {"position": str(start), "value": value}


def file_name(kind: str) -> str:
    return f"{kind}.v{VERSION}.jsonl"


def export(directory: Path) -> dict[str, Any]:
    """Writes the corpus into ``directory`` (made if need be); returns the manifest."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"cannot make {directory}: {error.strerror}") from None
    positions = standard_positions()
    orders = start_orders(3)
    parts = {
        "positions": _positions(positions),
        "moves": _moves(positions),
        "scores": _scores(positions),
        "perft": _perft(orders),
        "values": _values(orders),
    }
    files: dict[str, dict[str, Any]] = {}
    for kind, records in parts.items():
        text = "".join(json.dumps(record, separators=(",", ":")) + "\n" for record in records)
        data = text.encode("ascii")
        name = file_name(kind)
        try:
            (directory / name).write_bytes(data)
        except OSError as error:
            raise ValueError(f"cannot write {directory / name}: {error.strerror}") from None
        files[name] = {
            "lines": text.count("\n"),
            "bytes": len(data),
            "sha256": hashlib.sha256(data).hexdigest(),
        }
    manifest = {
        "format": "buttonup-conformance-corpus",
        "version": VERSION,
        "buttonup": __version__,
        "game": "standard: 3 buttons of each colour, every position reachable from a start",
        "files": files,
    }
    text = json.dumps(manifest, indent=2) + "\n"
    try:
        (directory / "manifest.json").write_text(text, encoding="ascii")
    except OSError as error:
        raise ValueError(f"cannot write {directory / 'manifest.json'}: {error.strerror}") from None
    return manifest
