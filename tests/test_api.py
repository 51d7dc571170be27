"""The polished API: results that compare and pickle, search progress, typed playout
summaries, one name for who starts a battle, and what ``Match.play`` returns."""

from __future__ import annotations

import pickle

import buttonup
import pytest
from buttonup import Match, Player, Position, SearchResult, search

START = Position("W/R/B/W/B/R/R/W/B r")


def test_search_results_compare_repr_and_pickle() -> None:
    result = search(START)
    assert SearchResult(*result.__reduce__()[1]) == result
    assert pickle.loads(pickle.dumps(result)) == result
    assert result != search(START, depth=2)
    assert repr(result).startswith("SearchResult(best_move=3, value=1, exact=True")
    made = SearchResult(3, 1, True, 8, 10, [3, 0], 0.5)
    assert (made.best_move, made.pv, made.elapsed) == (3, [3, 0], 0.5)


def test_search_reports_every_iteration() -> None:
    seen: list[SearchResult] = []
    result = search(START, on_iteration=seen.append)
    assert [it.depth for it in seen] == list(range(1, 9))
    assert seen[-1].exact and seen[-1].value == result.value == 1
    assert all(it.pv and it.pv[0] == it.best_move for it in seen)
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


def test_playout_summaries_are_typed() -> None:
    summary = buttonup.random_playouts(2000, seed=3)
    assert isinstance(summary, buttonup.PlayoutSummary)
    assert summary.battles == summary["battles"] == 2000
    assert sum(summary.margins.values()) == 2000
    assert sum(m * n for m, n in summary.margins.items()) == summary.margin_sum
    assert summary.draws == summary.margins.get(0, 0)
    assert summary.mean_margin == summary.margin_sum / 2000
    with pytest.raises(KeyError):
        summary["nope"]


def test_starter_is_the_one_name_with_older_aliases() -> None:
    assert Match(starter=Player.BLACK, seed=1).starter is Player.BLACK
    assert Match(first=Player.BLACK, seed=1).starter is Player.BLACK
    assert Match(Player.BLACK, seed=1).position == Match(first=Player.BLACK, seed=1).position
    with pytest.raises(TypeError, match="give starter or first, not both"):
        Match(Player.RED, first=Player.RED)


def test_play_returns_the_position_the_move_led_to() -> None:
    match = Match(Player.RED, deals=["WRBWBRRWB"] * 2)
    for move in [3, 0, 0, 1, 3, 3, 2]:
        match.play(move)
    last = match.play(0)
    assert str(last) == "RBWWBRWBR b" and last.is_over
    assert match.battles[0].final == last
    # The match has already moved on: Black, behind, starts the second battle.
    assert str(match.position) == "W/R/B/W/B/R/R/W/B b"
    assert match.battles[0].scoring.red_strengths == (1, 6, 9)


def test_match_analyze_is_exported_and_typed() -> None:
    from buttonup import match_analyze

    odds = match_analyze(START, 0, 0, Player.RED)
    assert set(odds) == set(START.legal_moves())


def test_every_public_item_of_the_extension_has_a_docstring() -> None:
    core = buttonup._core
    for name in core.__all__:
        item = getattr(core, name)
        if callable(item):
            assert item.__doc__, name
    for cls in (core.Position, core.Match, core.Searcher):
        for attr, member in vars(cls).items():
            if not attr.startswith("_") and callable(getattr(member, "__get__", None)):
                assert member.__doc__, f"{cls.__name__}.{attr}"
