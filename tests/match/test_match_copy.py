"""A Match pickles and copies with everything that decides its future: the battles so
far, the current battle, the seed and the deals still to come (so the next shuffles
are the same), and a copy is independent of its original."""

from __future__ import annotations

import copy
import pickle

import pytest
from buttonup import Match
from hypothesis import given
from hypothesis import strategies as st
from test_record import matches, same_future

COPIES = {
    "pickle": lambda game: pickle.loads(pickle.dumps(game)),
    "pickle-0": lambda game: pickle.loads(pickle.dumps(game, protocol=0)),
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
}


@pytest.mark.parametrize("how", list(COPIES))
@given(drawn=matches(), future=st.lists(st.integers(0, 1000), max_size=60))
def test_a_copy_is_the_same_match_with_the_same_future(
    how: str, drawn: tuple[Match, object], future: list[int]
) -> None:
    game, _ = drawn
    twin = COPIES[how](game)
    assert type(twin) is Match
    same_future(game, twin, future)


@pytest.mark.parametrize("how", list(COPIES))
def test_a_copy_is_independent(how: str) -> None:
    game = Match(seed=11)
    game.play(game.legal_moves()[0])
    twin = COPIES[how](game)
    twin.play(twin.legal_moves()[0])
    assert len(game.moves) == 1
    assert len(twin.moves) == 2
    twin.undo()
    twin.undo()
    assert twin.moves == ()
    assert len(game.moves) == 1


def test_shuffled_deals_of_a_seed_survive_a_pickle() -> None:
    """Battle 2 onward is shuffled from the seed; a pickled match deals the same ones as
    a fresh match of that seed played the same way (not a new shuffle)."""
    fresh, pickled = Match(seed=2026, target=40), Match(seed=2026, target=40)
    starts_fresh: list[str] = []
    starts_pickled: list[str] = []
    while len(fresh.battles) < 4:
        pickled = pickle.loads(pickle.dumps(pickled))
        for game, starts in ((fresh, starts_fresh), (pickled, starts_pickled)):
            if game.chooser is not None:
                game.choose_starter(game.chooser)
            if not game.moves:
                starts.append(str(game.position))
            game.play(game.legal_moves()[-1])
    assert starts_pickled == starts_fresh
    assert len(set(starts_fresh)) > 1
