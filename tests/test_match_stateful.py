"""The Rust match state machine (``buttonup.Match``) against the reference's
(``buttonup.reference.Match``): the same actions, legal or not, on both, and every
observable compared after each step."""

from __future__ import annotations

from typing import Any

import buttonup
import buttonup.reference as ref
from buttonup import Player
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule


def observe(match: Any) -> dict[str, object]:
    """Everything a user of a match can see, in engine-neutral form."""
    return {
        "position": str(match.position),
        "to_move": match.to_move,
        "legal_moves": match.legal_moves(),
        "starter": match.starter,
        "moves": match.moves,
        "movers": match.movers(),
        "scores": match.scores,
        "red": match.score(Player.RED),
        "chooser": match.chooser,
        "last_loser": match.last_loser,
        "winner": match.winner,
        "is_over": match.is_over,
        "target": match.target,
        "per_colour": match.per_colour,
        "battles": [
            (b.number, b.starter, str(b.start), b.moves, str(b.final), b.scoring)
            for b in match.battles
        ],
    }


def outcome(call: Any) -> tuple[str, object]:
    """What a call returned, or the type and message of what it raised."""
    try:
        result = call()
    except (ValueError, TypeError) as error:
        return type(error).__name__, str(error)
    return "ok", str(result) if result is not None else None


class MatchComparison(RuleBasedStateMachine):
    """Drives both matches with the same actions."""

    # (`target` names a bundle in hypothesis, so the match target is drawn as `points`.)
    @initialize(
        starter=st.sampled_from(Player),
        points=st.integers(1, 8),
        per_colour=st.integers(1, 4),
        seed=st.integers(0, 2**64 - 1),
        dealt=st.integers(0, 3),
    )
    def start(self, starter: Player, points: int, per_colour: int, seed: int, dealt: int) -> None:
        deals = buttonup.start_orders(per_colour)[:: 7 * per_colour + 1][:dealt]
        kwargs = dict(target=points, per_colour=per_colour, seed=seed, deals=deals)
        self.rust = buttonup.Match(starter, **kwargs)
        self.oracle = ref.Match(starter, **kwargs)

    def both(self, action: Any) -> None:
        assert outcome(lambda: action(self.rust)) == outcome(lambda: action(self.oracle))

    @rule(data=st.data())
    def play_a_legal_move(self, data: st.DataObject) -> None:
        moves = self.oracle.legal_moves()
        if moves:
            move = data.draw(st.sampled_from(moves))
            self.both(lambda m: m.play(move))

    @rule(move=st.integers(-2, 12))
    def play_any_pile(self, move: int) -> None:
        self.both(lambda m: m.play(move))

    @rule(starter=st.sampled_from(Player))
    def choose_starter(self, starter: Player) -> None:
        self.both(lambda m: m.choose_starter(starter))

    @rule()
    def the_chooser_chooses_himself(self) -> None:
        chooser = self.oracle.chooser
        if chooser is not None:
            self.both(lambda m: m.choose_starter(chooser))

    @rule()
    def undo(self) -> None:
        self.both(lambda m: m.undo())

    @invariant()
    def both_look_the_same(self) -> None:
        assert observe(self.rust) == observe(self.oracle)


MatchComparison.TestCase.settings = settings(
    max_examples=150, stateful_step_count=60, deadline=None
)
test_matches_agree = MatchComparison.TestCase


def test_bad_deals_fail_up_front_and_lose_nothing() -> None:
    for engine in (buttonup, ref):
        try:
            engine.Match(Player.RED, deals=["WRBWBRRWB", "WRX"])
        except buttonup.NotationError as error:
            assert str(error) == (
                "deal 2: unknown button 'X' at index 2: expected 'R', 'B', 'W' or '/'"
            )
        else:
            raise AssertionError("a bad deal was accepted")
