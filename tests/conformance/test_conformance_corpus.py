"""``buttonup conformance --export DIR``: the corpus read back and checked, line by line,
against the Rust engine, its sums against the manifest, and its positions against a
sweep of the pure-Python reference engine made here."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import buttonup.reference as ref
import pytest
from buttonup import Position, perft_many, solve_many, start_orders
from buttonup.cli.main import main

FILES = {
    "positions.v1.jsonl": 56_380,
    "moves.v1.jsonl": 130_180,
    "scores.v1.jsonl": 1_460,
    "perft.v1.jsonl": 1_680,
    "values.v1.jsonl": 3_360,
}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("corpus")
    assert main(["conformance", "--export", str(directory)]) == 0
    return directory


def records(corpus: Path, name: str) -> list[dict[str, Any]]:
    lines = (corpus / name).read_text(encoding="ascii").splitlines()
    return [json.loads(line) for line in lines]


def test_the_manifest_counts_and_sums_every_file(corpus: Path) -> None:
    manifest = json.loads((corpus / "manifest.json").read_text(encoding="ascii"))
    assert manifest["format"] == "buttonup-conformance-corpus" and manifest["version"] == 1
    assert {name: entry["lines"] for name, entry in manifest["files"].items()} == FILES
    for name, entry in manifest["files"].items():
        data = (corpus / name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"]
        assert len(data) == entry["bytes"] and data.count(b"\n") == entry["lines"]
    assert sorted(path.name for path in corpus.iterdir()) == sorted([*FILES, "manifest.json"])


def test_the_positions_are_those_the_reference_reaches(corpus: Path) -> None:
    reached: set[str] = set()
    frontier = [ref.Position.start(order) for order in start_orders(3)]
    while frontier:
        position = frontier.pop()
        piles = "/".join(position.piles)
        if piles not in reached:
            reached.add(piles)
            frontier.extend(position.play(move) for move in position.legal_moves())
    written = records(corpus, "positions.v1.jsonl")
    assert {record["piles"] for record in written} == reached
    for record in written:
        assert record["legal"] == Position(record["piles"] + " r").legal_moves()


def test_every_move_and_score_is_the_engine_s(corpus: Path) -> None:
    moves = records(corpus, "moves.v1.jsonl")
    for record in moves:
        outcome = Position(record["piles"] + " r").outcome(record["move"])
        assert "/".join(outcome.position.piles) == record["after"]
        assert (outcome.extra_move, tuple(outcome.drops)) == (
            record["extra"],
            tuple(record["drops"]),
        )
    # and, for a sample, the reference engine's
    for record in random.Random(18).sample(moves, 2000):
        outcome = ref.Position(record["piles"] + " r").outcome(record["move"])
        assert ("/".join(outcome.position.piles), outcome.extra_move) == (
            record["after"],
            record["extra"],
        )
        assert list(outcome.drops) == record["drops"]
    for record in records(corpus, "scores.v1.jsonl"):
        assert ref.Position(record["pile"] + " r").sums() == (record["red"], record["black"])


def test_the_perft_counts_and_values_are_the_engine_s(corpus: Path) -> None:
    perft = records(corpus, "perft.v1.jsonl")
    assert [record["start"] for record in perft] == start_orders(3)
    starts = [Position.start(record["start"]) for record in perft]
    for depth in range(1, 9):
        assert [record["perft"][depth - 1] for record in perft] == perft_many(starts, depth)
    assert sum(record["perft"][7] for record in perft) == 2_088_900  # README's figure
    values = records(corpus, "values.v1.jsonl")
    assert [record["value"] for record in values] == solve_many(
        [Position(record["position"]) for record in values]
    )
    assert values[0]["position"].endswith(" r") and values[1]["position"].endswith(" b")
    assert ref.solve(ref.Position(values[0]["position"])) == values[0]["value"]
