"""``buttonup tournament --records FILE``: every match of the tournament as a record,
read back as the matches that were played."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import buttonup
import pytest
from buttonup import Match, Player
from buttonup.ai import Limits
from buttonup.cli.main import main
from buttonup.matches import play_match, tournament
from buttonup.players import bot_factory


def chunks(text: str) -> list[str]:
    """The records of a file, cut at each record's first tag line."""
    parts = text.split("\n[Event ")
    return [parts[0]] + ["[Event " + part for part in parts[1:]]


def test_the_records_file_holds_every_match_as_played(tmp_path: Path) -> None:
    records, results = tmp_path / "t.txt", tmp_path / "t.json"
    args = ["tournament", "--bots", "1,9", "--matches", "4", "--threads", "1", "--seed", "7"]
    assert main([*args, "--records", str(records), "--json", str(results), "--no-color"]) == 0
    text = records.read_text()
    matches = [Match.from_record(chunk) for chunk in chunks(text)]
    assert len(matches) == 4
    assert [m.battles for m in buttonup.read_records(text)] == [m.battles for m in matches]
    assert all(m.is_over for m in matches)
    # Level 1 (the first bot) plays Red in even-numbered matches.
    first_colours = [Player.RED, Player.BLACK, Player.RED, Player.BLACK]
    wins = sum(m.winner is colour for m, colour in zip(matches, first_colours))
    assert wins == json.loads(results.read_text())["pairings"][0]["wins"]
    assert '[Round "1.1"]' in text and '[Round "1.4"]' in text
    assert '[Red "LevelBot(level=1, seed=' in text
    # The same bots and seed play the same match again.
    seed = 7 * 1_000_003  # the seed of match 0 of pairing 0 (matches.play_one)
    again = play_match(bot_factory("1")(2 * seed), bot_factory("9")(2 * seed + 1), seed=seed)
    assert [b.moves for b in again.battles] == [b.moves for b in matches[0].battles]


def test_records_are_the_same_from_worker_processes(tmp_path: Path) -> None:
    texts = []
    for threads in ("1", "2"):
        path = tmp_path / f"records-{threads}.txt"
        args = ["tournament", "--bots", "1,random", "--matches", "64", "--threads", threads]
        assert main([*args, "--records", str(path), "--no-color"]) == 0
        texts.append(path.read_text())
    assert texts[0] == texts[1]
    assert len(buttonup.read_records(texts[0])) == 64


def test_a_tournament_of_a_variant_plays_its_size(tmp_path: Path) -> None:
    """``--per-colour N``: every battle of every match has N buttons of each colour (the
    level scale measured on a variant), and the JSON says the size."""
    records, results = tmp_path / "v.txt", tmp_path / "v.json"
    args = ["tournament", "--bots", "1,9", "--matches", "2", "--threads", "1", "--seed", "3"]
    args += ["--per-colour", "4", "--records", str(records), "--json", str(results)]
    assert main([*args, "--no-color"]) == 0
    matches = [Match.from_record(chunk) for chunk in chunks(records.read_text())]
    assert len(matches) == 2 and all(m.is_over for m in matches)
    assert {m.per_colour for m in matches} == {4}
    assert all(len(b.start.piles) == 12 for m in matches for b in m.battles)
    assert json.loads(results.read_text())["per_colour"] == 4


def test_a_tournament_within_a_time_a_move(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--movetime MS``: the level scale's bots play their perfect moves as one search
    within MS milliseconds on one thread (where exact moves cost too much: the scale at 10
    of each colour); the bots that do not search by level are as they were."""
    records, results = tmp_path / "m.txt", tmp_path / "m.json"
    args = ["tournament", "--bots", "9,noisy-0.5,greedy", "--matches", "2", "--threads", "1"]
    args += ["--per-colour", "4", "--movetime", "5", "--records", str(records)]
    assert main([*args, "--json", str(results), "--no-color"]) == 0
    assert "searches within 5 ms a move" in capsys.readouterr().out
    text = records.read_text()
    matches = [Match.from_record(chunk) for chunk in chunks(text)]
    assert len(matches) == 6 and all(m.is_over for m in matches)
    within = "limits=Limits(depth=None, nodes=None, time_limit=0.005))"
    assert f'[Red "LevelBot(level=9, seed=0, {within}"]' in text
    assert "LevelBot(epsilon=0.5, seed=1, " in text and text.count(within) == 8
    assert '"GreedyBot()"' in text
    assert json.loads(results.read_text())["movetime_ms"] == 5
    made = replace(bot_factory("match"), movetime=0.02)(seed=1)
    assert made.limits == Limits(time_limit=0.02)
    assert main(["tournament", "--bots", "9,8", "--movetime", "0"]) == 2
    assert "--movetime must be at least 1 (milliseconds), not 0" in capsys.readouterr().err
    with pytest.raises(ValueError, match="movetime must be a number of seconds above 0"):
        tournament(["9", "8"], 1, movetime=0)
