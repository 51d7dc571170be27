"""Bots asked for by rating: at a level's rating they are that level, move for move;
between two levels their chance of a random move lies between the levels' in the same
proportion, at every size; out of range is a ValueError naming the range."""

from __future__ import annotations

import pytest
from buttonup import RATINGS, Match, Position
from buttonup.ai import EPSILON, bot
from buttonup.players import bot_factory


def moves_of(player_rating: float | None, level: int | None, seed: int) -> list[int]:
    """The moves of a whole match against level 5, the bot under test as Red."""
    player = bot(rating=player_rating, seed=seed) if level is None else bot(level, seed=seed)
    other = bot(5, seed=seed + 1)
    match = Match(seed=seed)
    played = []
    while not match.is_over:
        if match.chooser is not None:
            match.choose_starter(match.chooser)
            continue
        mover = player if match.to_move.letter == "r" else other
        move = mover.choose(match.position, match)
        played.append(move)
        match.play(move)
    return played


def test_the_ratings_rise_with_the_levels() -> None:
    assert len(RATINGS) == 10 and RATINGS[0] == 1000
    assert all(low < high for low, high in zip(RATINGS, RATINGS[1:]))


@pytest.mark.parametrize("level", range(1, 11))
def test_at_a_levels_rating_the_bot_is_that_level(level: int) -> None:
    rated = bot(rating=RATINGS[level - 1], seed=3)
    assert rated.level == level and rated.rating == RATINGS[level - 1]
    assert rated.epsilon == EPSILON[level]
    assert rated.core.epsilon_for(7) == bot(level).core.epsilon_for(7)
    assert moves_of(RATINGS[level - 1], None, 11) == moves_of(None, level, 11)


def test_between_two_levels_the_chance_of_a_random_move_is_between_theirs() -> None:
    for level in range(1, 9):
        low, high = RATINGS[level - 1], RATINGS[level]
        for share in (0.25, 0.5, 0.75):
            rated = bot(rating=low + share * (high - low), seed=1)
            for per_colour in (3, 7):
                below = bot(level).core.epsilon_for(per_colour)
                above = bot(level + 1).core.epsilon_for(per_colour)
                expected = below + share * (above - below)
                assert rated.core.epsilon_for(per_colour) == pytest.approx(expected, abs=1e-12)
            assert rated.level == (level if share < 0.5 else level + 1)


def test_from_halfway_between_9_and_10_it_plays_for_the_match() -> None:
    middle = (RATINGS[8] + RATINGS[9]) / 2
    assert bot(rating=middle - 1).level == 9 and bot(rating=middle + 1).level == 10
    assert bot(rating=middle + 1).epsilon == 0.0


def test_a_rating_out_of_range_or_not_alone_is_refused() -> None:
    for rating in (RATINGS[0] - 1, RATINGS[-1] + 1, float("nan"), float("inf")):
        with pytest.raises(ValueError, match=f"rating must be from 1000 to {RATINGS[-1]:g}"):
            bot(rating=rating)
    with pytest.raises(ValueError, match="give a level or a rating"):
        bot(5, rating=1500)
    with pytest.raises(ValueError, match="give a level or a rating"):
        bot()
    with pytest.raises(TypeError):
        bot(rating="1500")  # type: ignore[arg-type]


def test_a_rated_bot_by_name_prints_and_plays() -> None:
    made = bot_factory("rating-1600")(4)
    assert repr(made) == "LevelBot(rating=1600, seed=4)"
    assert made.name == "rating-1600"
    assert made.choose(Position("W/R/B/W/B/R/R/W/B r")) in (0, 3, 7)
    with pytest.raises(ValueError, match="bad bot 'rating-99'"):
        bot_factory("rating-99")
