"""Match win probabilities (``win_probability`` of a ``Standing`` or a ``Match``,
``match_analyze``) and the AI players that use them."""

from __future__ import annotations

import dataclasses
import math

import buttonup
import buttonup.reference as ref
import pytest
from buttonup import Chances, Match, MatchStateError, Player, Standing, win_probability
from buttonup.ai import LEVELS, AlphaBetaBot, GreedyBot, bot
from buttonup.matches import play_match, play_series
from harness import all_start_orders, line_with_margin

RED, BLACK = Player.RED, Player.BLACK
ORDER = "WRBWBRRWB"


def won_and_drawn_shares(starter: Player) -> tuple[float, float]:
    """Shares of starts that Red wins and draws under perfect margin play, by the
    reference minimax (values for the side to move, so Black's are negated)."""
    won = drawn = 0
    orders = all_start_orders()
    for order in orders:
        value = ref.solve(ref.Position.start(order, to_move=starter))
        red = value if starter is RED else -value
        won += red > 0
        drawn += red == 0
    return won / len(orders), drawn / len(orders)


def red(standing: Standing) -> float:
    chances = win_probability(standing)
    assert isinstance(chances, Chances)
    return chances.red


def test_fourteen_all_against_a_direct_computation() -> None:
    shares = {starter: won_and_drawn_shares(starter) for starter in Player}
    # At 14-14 the next decided battle ends the match; a drawn one gives the last loser
    # the choice again: his value is the better (for him) of the two starters' fixed
    # points x = w + d * x.
    fixed = {starter: w / (1 - d) for starter, (w, d) in shares.items()}
    for last_loser, pick in ((RED, max), (BLACK, min)):
        tie = pick(fixed.values())
        # His choice still due: valued at his better choice.
        assert red(Standing(14, 14, last_loser=last_loser)) == pytest.approx(tie, abs=1e-12)
        for starter, (w, d) in shares.items():
            direct = w + d * tie
            standing = Standing(14, 14, last_loser=last_loser, starter=starter)
            assert red(standing) == pytest.approx(direct, abs=1e-12)


def test_nil_all_against_a_direct_computation() -> None:
    # To one point, 0-0 is decided by the first decided battle; draws repeat with the
    # same starter.
    for starter in Player:
        w, d = won_and_drawn_shares(starter)
        standing = Standing(0, 0, target=1, starter=starter)
        assert red(standing) == pytest.approx(w / (1 - d), abs=1e-12)
    # The standard match: the starter of the first battle has the edge.
    first = red(Standing(0, 0, starter=RED))
    assert 0.5 < first < 0.6
    assert red(Standing(0, 0, starter=BLACK)) == pytest.approx(1 - first, abs=1e-12)


def standings() -> list[Standing]:
    """Standings that matches reach: with unequal scores the player behind starts; a
    last loser has lost a battle to a player with points."""
    out = []
    for r in range(0, 15, 2):
        for b in range(0, 15, 3):
            # Only a player with points has won a battle, so only his opponent can
            # have lost one.
            scored = {RED: r, BLACK: b}
            losers = [None] if r == b == 0 else [p for p in Player if scored[p.other] > 0]
            for last_loser in losers:
                starters: list[Player | None] = [None]
                if r == b:
                    starters = [RED, BLACK] + ([None] if last_loser else [])
                out += [Standing(r, b, last_loser=last_loser, starter=s) for s in starters]
    return out


def mirrored(standing: Standing) -> Standing:
    """The same standing with the colours swapped."""
    other = {None: None, RED: BLACK, BLACK: RED}
    return dataclasses.replace(
        standing,
        red=standing.black,
        black=standing.red,
        last_loser=other[standing.last_loser],
        starter=other[standing.starter],
    )


def test_chances_are_complementary_and_colour_symmetric() -> None:
    cases = standings()
    assert len(cases) > 60
    for standing in cases:
        chances = win_probability(standing)
        assert 0.0 <= chances.red <= 1.0
        assert chances.red + chances.black == pytest.approx(1.0, abs=1e-12), standing
        assert (chances.of(RED), chances.of(BLACK)) == (chances.red, chances.black)
        swapped = win_probability(mirrored(standing))
        assert swapped.black == pytest.approx(chances.red, abs=1e-12), standing
    assert red(Standing(14, 0, last_loser=BLACK)) > red(Standing(0, 14, last_loser=RED))
    assert Chances(0.25, 0.75).of(BLACK) == 0.75


def test_the_player_behind_starts_without_being_told() -> None:
    assert win_probability(Standing(3, 5, last_loser=RED)) == win_probability(
        Standing(3, 5, last_loser=RED, starter=RED)
    )
    assert win_probability(Standing(5, 3, last_loser=RED)) == win_probability(
        Standing(5, 3, last_loser=RED, starter=BLACK)
    )


@pytest.mark.parametrize(
    ("standing", "error", "message"),
    [
        (Standing(-1, 0), ValueError, r"red"),
        (Standing(0, 0, target=0), ValueError, r"target must be from 1 to 1000"),
        (Standing(0, 0, target=1001), ValueError, r"target must be from 1 to 1000"),
        (Standing(0, 0, per_colour=4, starter=RED), ValueError, r"buttons of each colour"),
        (Standing(0, 0, per_colour=0, starter=RED), ValueError, r"per_colour|buttons of each"),
        # No match reaches these: MatchStateError.
        (Standing(15, 15, last_loser=RED), MatchStateError, r"both players"),
        (Standing(40, 0, last_loser=BLACK), MatchStateError, r"Red cannot have 40 points"),
        (Standing(15, 3, last_loser=RED), MatchStateError, r"Black lost the last battle"),
        (Standing(15, 3, last_loser=BLACK, starter=RED), MatchStateError, r"match is over"),
        (Standing(3, 5, last_loser=RED, starter=BLACK), MatchStateError, r"Red is behind"),
        (Standing(0, 0, last_loser=RED), MatchStateError, r"Red cannot have lost"),
        (Standing(4, 0, last_loser=RED), MatchStateError, r"Red cannot have lost"),
        (Standing(0, 0), MatchStateError, r"starter of the first battle must be given"),
        (Standing(0, 0, starter="x"), ValueError, r"starter"),  # type: ignore[arg-type]
        (Standing(2, 1, last_loser=3), TypeError, r"last_loser"),  # type: ignore[arg-type]
    ],
)
def test_standings_that_no_match_reaches_are_refused(
    standing: Standing, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        win_probability(standing)


def test_a_won_match_is_certain() -> None:
    won = win_probability(Standing(15, 3, last_loser=BLACK))
    assert (won.red, won.black) == (1.0, 0.0)
    lost = win_probability(Standing(2, 16, last_loser=RED))
    assert (lost.red, lost.black) == (0.0, 1.0)


def test_player_letters_are_players() -> None:
    assert win_probability(Standing(2, 2, last_loser="b", starter="r")) == win_probability(
        Standing(2, 2, last_loser=BLACK, starter=RED)
    )


def test_old_signatures_are_gone() -> None:
    with pytest.raises(TypeError):
        win_probability(0, 0, RED)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        win_probability(Standing(0, 0), to_start=RED)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        win_probability((3, 5))  # type: ignore[arg-type]


def test_a_match_is_valued_from_its_state() -> None:
    # A match knows its battle's start: the standing's chance, the shuffle being chance,
    # is the mean over every start dealt at that standing.
    orders = all_start_orders()
    dealt = [win_probability(Match(BLACK, target=5, deals=[order])) for order in orders]
    assert sum(c.red for c in dealt) / len(orders) == pytest.approx(
        win_probability(Standing(0, 0, target=5, starter=BLACK)).red, abs=1e-12
    )
    assert min(c.red for c in dealt) < max(c.red for c in dealt)
    match = Match(BLACK, target=5, deals=[ORDER] * 4)
    for move in line_with_margin(ORDER, +2):
        match.play(move)
    assert match.standing == Standing(2, 0, target=5, last_loser=BLACK, starter=BLACK)
    chances = win_probability(match)
    assert chances.black == pytest.approx(max(buttonup.match_analyze(match).values()), abs=1e-12)


def replayed(deals: list[str], target: int, moves: list[int]) -> Match:
    """A fresh match on the same deals with ``moves`` played (Red starting)."""
    match = Match(RED, target=target, deals=deals)
    for move in moves:
        match.play(move)
    return match


@pytest.mark.parametrize("target", [3, 15])
def test_match_analyze_is_the_movers_chance_after_each_move(target: int) -> None:
    deals = [ORDER] * 4
    # Red wins the first battle by 2, so Black (behind) moves first in the second; the
    # second battle's moves are the line of a Black win by 1.
    moves = list(line_with_margin(ORDER, +2))
    second = list(line_with_margin(ORDER, -1))
    checked_black = 0
    for played in range(len(second)):
        match = replayed(deals, target, moves + second[:played])
        mover = match.to_move
        odds = buttonup.match_analyze(match)
        assert sorted(odds) == match.legal_moves()
        for move, chance in odds.items():
            after = replayed(deals, target, [*moves, *second[:played], move])
            if after.is_over:
                expected = 1.0 if after.winner is mover else 0.0
            elif after.moves:
                expected = win_probability(after).of(mover)  # the battle goes on
            else:
                # The move ended the battle: the next start is not dealt yet.
                expected = win_probability(after.standing).of(mover)
            assert chance == pytest.approx(expected, abs=1e-12), (played, move)
        # The best move is worth what the match is worth to the mover now.
        best = max(odds.values())
        assert best == pytest.approx(win_probability(match).of(mover), abs=1e-12)
        checked_black += mover is BLACK and not math.isclose(
            best, win_probability(match).red, abs_tol=1e-9
        )
    assert checked_black > 0  # the mover's side, not Red's, where they differ


def test_match_analyze_refuses_what_has_no_odds() -> None:
    with pytest.raises(ValueError, match="match odds are computed for 1 to 3 buttons"):
        buttonup.match_analyze(Match(per_colour=4, seed=1))
    finished = replayed([ORDER] * 2, 1, list(line_with_margin(ORDER, +1)))
    assert finished.is_over
    assert buttonup.match_analyze(finished) == {}  # no move is left
    with pytest.raises(TypeError):
        buttonup.match_analyze(buttonup.Position("W/R/B/W/B/R/R/W/B r"))  # type: ignore[arg-type]


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
    for player in (bot(1, 1), GreedyBot(), AlphaBetaBot(3), bot(9, 1), bot(10, 1)):
        assert player.choose(position) in position.legal_moves()
    # Red's best move of the worked example (docs/rules.md).
    assert bot(9, 0).choose(buttonup.Position("W/R/B/W/B/R/R/W/B r")) == 3


def test_match_bot_chooses_the_better_starter() -> None:
    for target in (3, 15):
        match = Match(RED, target=target, deals=[ORDER] * 9)
        for margin in (+2, -2):  # 2-2, Red lost the last decided battle and chooses
            for move in line_with_margin(ORDER, margin):
                match.play(move)
        assert match.chooser is RED
        odds = {
            s: win_probability(Standing(2, 2, target=target, last_loser=RED, starter=s)).red
            for s in Player
        }
        pick = bot(10, 0).choose_starter(match)
        assert odds[pick] == max(odds.values())
        assert odds[pick] > odds[pick.other]
        # The choice still due is valued at the chooser's better choice.
        choice_due = win_probability(Standing(2, 2, target=target, last_loser=RED)).red
        assert choice_due == pytest.approx(odds[pick], abs=1e-12)


@pytest.mark.parametrize("starter", [RED, BLACK])
def test_match_bot_moves_maximise_the_movers_win_probability(starter: Player) -> None:
    match = Match(starter, target=3, seed=9)
    odds = buttonup.match_analyze(match)  # the mover's chances, whoever moves
    move = bot(10, 0).choose(match.position, match)
    assert odds[move] == max(odds.values())


def test_stronger_levels_beat_weaker_ones() -> None:
    series = play_series(bot(9, seed=1), bot(1, seed=2), 40, seed=7)
    assert series.win_rate >= 0.9
    low, high = series.interval()
    assert low <= series.win_rate <= high


def test_match_bot_does_not_lose_to_the_margin_bot() -> None:
    series = play_series(bot(10, 1), bot(9, 2), 200, seed=5)
    # Deterministic for these seeds; the large-sample figure is in docs/ai.md.
    assert series.win_rate >= 0.45
