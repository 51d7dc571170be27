"""Match win probabilities and the AI players."""

from __future__ import annotations

import buttonup
import buttonup.reference as ref
import pytest
from buttonup import Player, win_probability
from buttonup._core import match_analyze
from buttonup.ai import LEVELS, AlphaBetaBot, GreedyBot, MatchBot, PerfectBot, RandomBot, bot
from buttonup.cli.tournament import play_match, play_series
from test_match import line_with_margin

from conftest import all_start_orders

RED, BLACK = Player.RED, Player.BLACK


def won_and_drawn_shares(starter: Player) -> tuple[float, float]:
    """Shares of starts that Red wins and draws under perfect margin play, by the
    reference minimax."""
    won = drawn = 0
    orders = all_start_orders()
    for order in orders:
        value = ref.solve(ref.Position.start(order, starter))
        red = value if starter is RED else -value
        won += red > 0
        drawn += red == 0
    return won / len(orders), drawn / len(orders)


def test_fourteen_all_against_a_direct_computation() -> None:
    (wr, dr), (wb, db) = won_and_drawn_shares(RED), won_and_drawn_shares(BLACK)
    # A drawn battle at 14-14 gives the chooser the choice again: his value is the
    # better (for him) of the two starters' fixed points x = w + d * x.
    fixed = {RED: wr / (1 - dr), BLACK: wb / (1 - db)}
    for chooser, pick in ((RED, max), (BLACK, min)):
        tie = pick(fixed.values())
        for starter, (w, d) in ((RED, (wr, dr)), (BLACK, (wb, db))):
            direct = w + d * tie
            assert win_probability(14, 14, starter, chooser=chooser) == pytest.approx(
                direct, abs=1e-12
            )


def test_nil_all_against_a_direct_computation() -> None:
    # To one point, 0-0 is decided by the first decided battle; draws repeat with the
    # same starter.
    for starter in Player:
        w, d = won_and_drawn_shares(starter)
        assert win_probability(0, 0, starter, target=1) == pytest.approx(w / (1 - d), abs=1e-12)
    # The standard match: the starter of the first battle has the edge.
    first = win_probability(0, 0, RED)
    assert 0.5 < first < 0.6
    assert win_probability(0, 0, BLACK) == pytest.approx(1 - first, abs=1e-12)


def test_bounds_and_symmetry() -> None:
    for red in range(0, 15, 2):
        for black in range(0, 15, 3):
            for chooser in (None, RED, BLACK):
                p = win_probability(red, black, RED, chooser=chooser)
                q = win_probability(black, red, BLACK, chooser=chooser and chooser.other)
                assert 0.0 <= p <= 1.0
                assert p + q == pytest.approx(1.0, abs=1e-12)
    assert win_probability(14, 0, RED) > win_probability(0, 14, RED)
    # The older keyword for the starter still works.
    assert win_probability(3, 5, to_start=BLACK) == win_probability(3, 5, BLACK)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match=r"red_points \(below the target\) must be from 0 to 14"):
        win_probability(-1, 0, RED)
    # A score at or past the target is no match state (it returned 1.0 before).
    with pytest.raises(ValueError, match=r"red_points \(below the target\) must be from 0 to 14"):
        win_probability(20, 0, RED)
    with pytest.raises(ValueError, match=r"black_points \(below the target\) must be from 0"):
        win_probability(14, 15, RED)
    with pytest.raises(ValueError, match="target must be from 1 to 1000"):
        win_probability(0, 0, RED, target=0)
    with pytest.raises(ValueError, match="buttons of each colour"):
        win_probability(0, 0, RED, per_colour=4)
    with pytest.raises(TypeError, match="starter must be a Player"):
        win_probability(0, 0, "r")  # type: ignore[arg-type]
    # The error names the argument that is wrong (it said "to_move" before).
    with pytest.raises(TypeError, match="chooser must be a Player"):
        win_probability(0, 0, RED, chooser="x")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="missing the argument 'starter'"):
        win_probability(0, 0)


def test_match_analyze_needs_equal_colours() -> None:
    # Six red, no black: odds of such a battle were returned before.
    with pytest.raises(ValueError, match="not 6 red, 0 black and 3 white"):
        buttonup.match_analyze(buttonup.Position("R/R/R/R/R/R/W/W/W r"), 0, 0, RED)
    with pytest.raises(ValueError, match="match odds are computed for 1 to 3 buttons"):
        buttonup.match_analyze(buttonup.Position.random(seed=1, per_colour=4), 0, 0, RED)
    odds = buttonup.match_analyze(buttonup.Position("W/R/B/W/B/R/R/W/B r"), 0, 0, starter=RED)
    assert sorted(odds) == [0, 3, 7] and all(0 <= p <= 1 for p in odds.values())


def test_every_level_plays_legal_moves_in_a_match() -> None:
    assert sorted(LEVELS) == list(range(1, 11))
    for level in range(1, 11):
        player = bot(level, seed=level)
        match = play_match(player, bot(1, seed=0), seed=level)
        assert match.is_over and max(match.scores) >= 15
    with pytest.raises(ValueError, match="level must be an int from 1 to 10"):
        bot(11)


def test_named_bots_choose_legal_moves() -> None:
    position = buttonup.Position.random(seed=4)
    for player in (RandomBot(1), GreedyBot(), AlphaBetaBot(3), PerfectBot(1), MatchBot(1)):
        assert player.choose(position) in position.legal_moves()
    assert PerfectBot(0).choose(buttonup.Position("W/R/B/W/B/R/R/W/B r")) == 3


def test_match_bot_chooses_the_better_starter() -> None:
    for target in (3, 15):
        match = buttonup.Match(RED, target=target, deals=["WRBWBRRWB"] * 9)
        for margin in (+2, -2):  # 2-2, Red lost the last decided battle and chooses
            for move in line_with_margin("WRBWBRRWB", margin):
                match.play(move)
        assert match.chooser is RED
        odds = {s: win_probability(2, 2, s, target=target, chooser=RED) for s in Player}
        pick = MatchBot(0).choose_starter(match)
        assert odds[pick] == max(odds.values())
        assert odds[pick] > odds[pick.other]


def test_match_bot_moves_maximise_the_win_probability() -> None:
    match = buttonup.Match(BLACK, target=3, seed=9)
    position = match.position
    odds = match_analyze(position, 0, 0, match.starter, 3, None)
    move = MatchBot(0).choose(position, match)
    assert odds[move] == min(odds.values())  # Black minimises Red's chances


def test_stronger_levels_beat_weaker_ones() -> None:
    series = play_series(bot(9, seed=1), bot(1, seed=2), 40, seed=7)
    assert series.win_rate >= 0.9
    low, high = series.interval()
    assert low <= series.win_rate <= high


def test_match_bot_does_not_lose_to_the_margin_bot() -> None:
    series = play_series(MatchBot(1), PerfectBot(2), 200, seed=5)
    # Deterministic for these seeds; the large-sample figure is in docs/ai.md.
    assert series.win_rate >= 0.45
