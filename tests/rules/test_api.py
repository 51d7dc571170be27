"""API 1.0 as a whole: results as plain data (compare, pickle, frozen), search progress,
one name for who starts a battle, what ``Match.play`` returns, the constants, and the
names removed."""

from __future__ import annotations

import dataclasses
import itertools
import pickle
from types import ModuleType

import buttonup
import independent_perft
import pytest
from buttonup import Player, Position, SearchResult, search

START = Position("W/R/B/W/B/R/R/W/B r")


def test_search_results_compare_repr_and_pickle() -> None:
    result = search(START)
    assert dataclasses.is_dataclass(result) and SearchResult is buttonup.results.SearchResult
    assert pickle.loads(pickle.dumps(result)) == result
    assert dataclasses.replace(result) == result
    assert result != search(START, depth=2)
    assert repr(result).startswith("SearchResult(best_move=3, value=1, exact=True")
    made = SearchResult(3, 1, True, 8, 10, (3, 0), 0.5)
    assert (made.best_move, made.pv, made.elapsed) == (3, (3, 0), 0.5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.pv = ()  # type: ignore[misc]


def test_search_reports_every_iteration() -> None:
    seen: list[SearchResult] = []
    result = search(START, on_iteration=seen.append)
    assert [it.depth for it in seen] == list(range(1, 9))  # a battle of 8 moves
    assert seen[-1].exact and seen[-1].value == result.value == 1
    assert all(it.pv and it.pv[0] == it.best_move for it in seen)
    assert all(isinstance(it.pv, tuple) for it in seen)
    assert [it.nodes for it in seen] == sorted(it.nodes for it in seen)


def test_a_callback_can_end_the_search_or_fail_it() -> None:
    seen: list[int] = []

    def two_iterations(it: SearchResult) -> bool:
        seen.append(it.depth)
        return it.depth < 2

    result = buttonup.Searcher().search(START, on_iteration=two_iterations)
    assert seen == [1, 2] and result.depth == 2 and not result.exact

    def broken(it: SearchResult) -> None:
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        search(START, on_iteration=broken)
    # A callback may search again on the same thread.
    inner: list[int] = []
    search(START, depth=2, on_iteration=lambda it: inner.append(buttonup.solve(START)))
    assert inner == [1, 1]


def test_playout_summaries_are_plain_data_named_for_red() -> None:
    summary = buttonup.random_playouts(2000, seed=3)
    assert isinstance(summary, buttonup.PlayoutSummary)
    assert summary.battles == 2000 and summary.moves == 2000 * 8
    assert sum(summary.red_margins.values()) == 2000
    assert sum(m * n for m, n in summary.red_margins.items()) == summary.red_margin_sum
    assert summary.draws == summary.red_margins.get(0, 0)
    assert summary.red_wins == sum(n for m, n in summary.red_margins.items() if m > 0)
    assert summary.black_wins == sum(n for m, n in summary.red_margins.items() if m < 0)
    assert summary.mean_red_margin == summary.red_margin_sum / 2000
    with pytest.raises(TypeError):
        summary["battles"]  # type: ignore[index]  # no dictionary view any more
    for gone in ("margin_sum", "margins", "mean_margin"):
        assert not hasattr(summary, gone)


def test_starter_is_the_one_name(each_engine: ModuleType) -> None:
    assert each_engine.Match(starter=Player.BLACK, seed=1).starter is Player.BLACK
    assert each_engine.Match(Player.BLACK, seed=1).starter is Player.BLACK
    assert (
        each_engine.Match("b", seed=1).position == each_engine.Match(Player.BLACK, seed=1).position
    )
    with pytest.raises(TypeError):
        each_engine.Match(first=Player.BLACK)


def test_play_returns_a_move_outcome(each_engine: ModuleType) -> None:
    match = each_engine.Match(Player.RED, deals=["WRBWBRRWB"] * 2)
    for move in [3, 0, 0, 1, 3, 3, 2]:
        assert isinstance(match.play(move), buttonup.results.MoveOutcome)
    last = match.play(0)
    assert str(last.position) == "RBWWBRWBR b" and last.position.is_over
    assert match.battles[0].final_position == last.position
    assert not hasattr(match.battles[0], "final")


def test_constants(each_engine: ModuleType) -> None:
    assert each_engine.STANDARD_TARGET == 15  # rule 8
    assert each_engine.STANDARD_PER_COLOUR == 3  # docs/rules.md: three of each colour
    assert each_engine.MAX_TARGET == 1000
    assert each_engine.Match(seed=1).target == each_engine.STANDARD_TARGET
    assert each_engine.Match(target=each_engine.MAX_TARGET, seed=1).target == 1000
    with pytest.raises(ValueError):
        each_engine.Match(target=each_engine.MAX_TARGET + 1)


def red_margin(tower: str) -> int:
    """Rule 6 on a final pile: Red's sum minus Black's, the bottom button worth 1."""
    return sum(
        height if button == "R" else -height if button == "B" else 0
        for height, button in enumerate(tower, 1)
    )


def brute_force_max_margin(per_colour: int) -> int:
    """The largest final margin over every final pile of ``per_colour`` buttons of each
    colour, by enumerating the piles."""
    return max(red_margin(tower) for tower in set(itertools.permutations("RBW" * per_colour)))


def largest_margin_in_play(per_colour: int) -> int:
    """The largest final margin of the battles that can be played, by playing every
    battle from every start (tests/independent_perft.py's rules, not an engine's)."""
    frontier = {tuple(order) for order in set(itertools.permutations("RBW" * per_colour))}
    seen = set(frontier)
    while frontier:
        frontier = {
            tuple(independent_perft.lift(list(piles), i)[0])
            for piles in frontier
            if len(piles) > 1
            for i, pile in enumerate(piles)
            if "W" in pile
        } - seen
        seen |= frontier
    return max(red_margin(piles[0]) for piles in seen if len(piles) == 1)


@pytest.mark.parametrize("per_colour", [1, 2, 3])
def test_max_margin_is_the_largest_final_margin(each_engine: ModuleType, per_colour: int) -> None:
    # API 1.0: exact, 2 k k (one colour's buttons all on top, the other's at the bottom).
    assert each_engine.max_margin(per_colour) == brute_force_max_margin(per_colour)


@pytest.mark.parametrize(("per_colour", "largest"), [(1, 1), (2, 8), (3, 18)])
def test_the_largest_margin_in_play(per_colour: int, largest: int) -> None:
    # With one button of each colour the white one always ends on top (its pile is the
    # only one that can be lifted, onto a coloured one, and then onto the last pile):
    # so 1, not 2. From two of each, a battle reaches 2 k k.
    assert largest_margin_in_play(per_colour) == largest
    assert largest <= brute_force_max_margin(per_colour)


def test_max_margin(each_engine: ModuleType) -> None:
    assert each_engine.max_margin(3) == 18  # Red 7 + 8 + 9 against Black 1 + 2 + 3
    assert [each_engine.max_margin(k) for k in (4, 10)] == [32, 200]  # 2 k k
    for bad in (0, -1):
        with pytest.raises(ValueError, match="per_colour"):
            each_engine.max_margin(bad)


def test_positions_are_ordered_by_their_notation(each_engine: ModuleType) -> None:
    texts = ["W/R b", "RW/B/W r", "W/R r", "B/W r", "RBWWBRWBR b", "W/R/B/W/B/R/R/W/B r"]
    positions = [each_engine.Position(text) for text in texts]
    assert [str(p) for p in sorted(positions)] == sorted(texts)
    assert [str(p) for p in sorted(positions, reverse=True)] == sorted(texts, reverse=True)
    a, b = each_engine.Position("B/W r"), each_engine.Position("W/R r")
    assert a < b and b > a and a <= a and a >= a and not a < a
    assert max(positions) == each_engine.Position("W/R/B/W/B/R/R/W/B r")
    with pytest.raises(TypeError):
        _ = a < "B/W r"  # type: ignore[operator]


def test_removed_names(each_engine: ModuleType) -> None:
    position = each_engine.Position("RBWWBRWBR b")
    for gone in ("drops", "strengths", "margin"):
        assert not hasattr(position, gone), gone
    assert not hasattr(position.scoring(), "margin")


def test_library_modules_moved() -> None:
    import buttonup.matches
    import buttonup.reference.shuffle
    import buttonup.text

    assert callable(buttonup.matches.play_match) and callable(buttonup.matches.tournament)
    for name in ("Series", "MatchRecord", "play_series"):
        assert hasattr(buttonup.matches, name)
    assert hasattr(buttonup.reference.shuffle, "SplitMix64")
    assert buttonup.SearchStoppedError is buttonup.errors.SearchStoppedError
    with pytest.raises(ImportError):
        import buttonup.cli.tournament
    with pytest.raises(ImportError):
        import buttonup.cli.text
    with pytest.raises(ImportError):
        import buttonup.shuffle


def test_bots_and_limits() -> None:
    from buttonup.ai import Limits, bot
    from buttonup.players import bot_factory

    limited = bot(9, limits=Limits(depth=2))
    assert limited.choose(START) in START.legal_moves()
    assert bot(9, tt_mb=1).choose(START) == 3  # docs/rules.md
    assert bot(9, tt_mb=1).tt_bytes == 2**20
    with pytest.raises(ValueError):
        Limits(depth=0)
    make = bot_factory("7")
    assert make.name == "level-7"
    assert make(1).choose(START) in START.legal_moves()
    assert make(5).choose(START) == make(5).choose(START)  # a seed fixes a bot's choices


def test_every_public_item_of_the_extension_has_a_docstring() -> None:
    core = buttonup._core
    for name in (name for name in dir(core) if not name.startswith("_")):
        item = getattr(core, name)
        if callable(item):
            assert item.__doc__, name
    for cls in (core.Position, core.Match, core.Searcher):
        for attr, member in vars(cls).items():
            if not attr.startswith("_") and callable(getattr(member, "__get__", None)):
                assert member.__doc__, f"{cls.__name__}.{attr}"
