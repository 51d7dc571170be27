"""The Rust match state machine (``buttonup.Match``) against the reference's
(``buttonup.reference.Match``): the same actions, legal or not, on both, and every
observable compared after each step (tests/harness.py's engine-neutral forms)."""

from __future__ import annotations

from typing import Any

import buttonup
import buttonup.reference as ref
from buttonup import Player
from harness import agree, neutral, outcome
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule


def observe(match: Any) -> dict[str, object]:
    """Everything a user of a match can see, in engine-neutral form."""
    return {
        "position": str(match.position),
        "battle_start": str(match.battle_start),
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
        "standing": match.standing,
        "battles": match.battles,
    }


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
        assert neutral(observe(self.rust)) == neutral(observe(self.oracle))

    @rule(data=st.data())
    def play_a_legal_move(self, data: st.DataObject) -> None:
        moves = self.oracle.legal_moves()
        if moves:
            move = data.draw(st.sampled_from(moves))
            self.both(lambda m: m.play(move))

    @rule(move=st.integers(-2, 12))
    def play_any_pile(self, move: int) -> None:
        self.both(lambda m: m.play(move))

    @rule(starter=st.sampled_from([*Player, "r", "b", "x"]))
    def choose_starter(self, starter: Player | str) -> None:
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
        assert neutral(observe(self.rust)) == neutral(observe(self.oracle))


MatchComparison.TestCase.settings = settings(
    max_examples=150, stateful_step_count=60, deadline=None
)
test_matches_agree = MatchComparison.TestCase


def test_bad_deals_fail_up_front() -> None:
    error = agree(lambda e: e.Match(Player.RED, deals=["WRBWBRRWB", "WRX"]))
    assert error == (
        "NotationError",
        "deal 2: unknown button 'X' at index 2: a start order is one letter a pile, "
        "'R', 'B' or 'W'",
    )
    kind, _ = agree(lambda e: e.Match(Player.RED, deals=["WRBWBRRWB", "WWRB"]))
    assert kind == "ValueError"  # not three of each colour
