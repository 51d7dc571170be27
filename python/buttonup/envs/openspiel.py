"""Button Up! as an OpenSpiel game: importing this module registers
``python_button_up`` with pyspiel.

>>> import pyspiel
>>> import buttonup.envs.openspiel
>>> game = pyspiel.load_game("python_button_up", {"start": "W/R/B/W/B/R/R/W/B r"})
>>> state = game.new_initial_state()
>>> state.legal_actions()
[0, 3, 7]

Player 0 is Red, player 1 Black. Parameters: ``per_colour`` (buttons of each colour, 3),
``start`` (a position in notation; empty, the default, makes the shuffle a chance
node with every start order equally likely, Red starting) and ``fair_starter``
(``True``: the shuffle also draws the starter, Red or Black by a fair coin, as the other
adapters' shuffles do). Returns are the battle
margin from each player's point of view. Observation and information-state tensors are
the ``(N, N, 3)`` encoding of :mod:`buttonup.envs` from the observing player's side.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import pyspiel

from buttonup._core import STANDARD_PER_COLOUR, Position, max_margin, start_orders
from buttonup.envs.encoding import largest_margin, observation
from buttonup.player import Player

__all__ = ["ButtonUpGame", "ButtonUpState"]

PLAYERS = (Player.RED, Player.BLACK)


@cache
def _orders(per_colour: int) -> tuple[str, ...]:
    """The start orders, the chance outcomes of the shuffle: kept once a process, not
    in each state, so that a state serialises as its position and history."""
    return tuple(start_orders(per_colour))


def _game_type(chance_mode: Any) -> Any:
    return pyspiel.GameType(
        short_name="python_button_up",
        long_name="Python Button Up!",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance_mode,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"per_colour": 3, "start": "", "fair_starter": False},
    )


# Registered with the shuffle as a chance node; a game given its `start` has none and
# says so (deterministic), as OpenSpiel's solvers require.
_GAME_TYPE = _game_type(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC)
_FROM_START = _game_type(pyspiel.GameType.ChanceMode.DETERMINISTIC)


class ButtonUpGame(pyspiel.Game):
    """The game of one battle."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        start = str(params.get("start", ""))
        self.fair_starter = bool(params.get("fair_starter", False))
        self.start = Position(start) if start else None
        if self.start is not None:
            self.buttons = sum(len(pile) for pile in self.start.piles)
            per_colour = -1
            reach = largest_margin(self.start)
            self.orders: tuple[str, ...] = ()
        else:
            per_colour = int(params.get("per_colour", STANDARD_PER_COLOUR))
            self.orders = _orders(per_colour)
            self.buttons = len(self.orders[0])  # one button a pile
            reach = max_margin(per_colour)
        n = self.buttons
        starters = 2 if self.fair_starter and self.orders else 1
        info = pyspiel.GameInfo(
            num_distinct_actions=n,
            max_chance_outcomes=len(self.orders) * starters,
            num_players=2,
            min_utility=-float(reach),
            max_utility=float(reach),
            utility_sum=0.0,
            max_game_length=n - 1,
        )
        game_type = _GAME_TYPE if self.start is None else _FROM_START
        super().__init__(
            game_type,
            info,
            {"per_colour": max(per_colour, 1), "start": start, "fair_starter": self.fair_starter},
        )

    def new_initial_state(self) -> ButtonUpState:
        """A new state before the deal: its first move is chance's."""
        return ButtonUpState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> ButtonUpObserver:
        """The observer of the observation tensor (``params`` and the observation type are ignored:
        the game has perfect information)."""
        return ButtonUpObserver(self.buttons)


class ButtonUpState(pyspiel.State):
    """A battle in progress; before the shuffle, a chance node. Its attributes are the
    position (``None`` before the shuffle) and the number of buttons of each colour, so
    that OpenSpiel's serialisation writes little more than the position and history."""

    def __init__(self, game: ButtonUpGame) -> None:
        super().__init__(game)
        self.per_colour = len(game.orders[0]) // 3 if game.orders else 0
        # The shuffle's outcomes: each start order with Red starting, then (with
        # ``fair_starter``) each with Black starting.
        self.starters = 2 if game.fair_starter and game.orders else 1
        self.position: Position | None = game.start

    @property
    def orders(self) -> tuple[str, ...]:
        """The shuffle's outcomes (none for a game given its start)."""
        return _orders(self.per_colour) if self.per_colour else ()

    def current_player(self) -> int:
        """The player to move; chance before the deal, terminal once the battle is over."""
        if self.position is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.position.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return PLAYERS.index(self.position.to_move)

    def _legal_actions(self, player: int) -> list[int]:
        assert self.position is not None and player >= 0
        return self.position.legal_moves()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The deal: every start order with either starter, equally likely."""
        assert self.position is None
        outcomes = len(self.orders) * self.starters
        p = 1.0 / outcomes
        return [(i, p) for i in range(outcomes)]

    def _deal(self, action: int) -> tuple[str, Player]:
        """The start order and starter of the shuffle's outcome ``action``."""
        order, black = action % len(self.orders), action >= len(self.orders)
        return self.orders[order], Player.BLACK if black else Player.RED

    def _apply_action(self, action: int) -> None:
        if self.position is None:
            order, starter = self._deal(action)
            self.position = Position.start(order, to_move=starter)
        else:
            self.position = self.position.play(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            order, starter = self._deal(action)
            if self.starters == 1:
                return f"deal {order}"
            return f"deal {order}, {starter.name.lower()} to move"
        return f"lift {action}"

    def is_terminal(self) -> bool:
        """Whether the battle is over."""
        return self.position is not None and self.position.is_over

    def returns(self) -> list[float]:
        """Each player's return: the final margin for that player, 0 before the end."""
        if not self.is_terminal():
            return [0.0, 0.0]
        assert self.position is not None
        scoring = self.position.scoring()
        return [float(scoring.margin_for(player)) for player in PLAYERS]

    def __str__(self) -> str:
        return "(shuffle)" if self.position is None else str(self.position)


class ButtonUpObserver:
    """Observation tensors and strings (perfect information: the same for both)."""

    def __init__(self, buttons: int) -> None:
        shape = (buttons, buttons, 3)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": np.reshape(self.tensor, shape)}

    def set_from(self, state: ButtonUpState, player: int) -> None:
        self.tensor.fill(0)
        if state.position is not None:
            self.dict["observation"][...] = observation(state.position, PLAYERS[player])

    def string_from(self, state: ButtonUpState, player: int) -> str:
        return str(state)


pyspiel.register_game(_GAME_TYPE, ButtonUpGame)
