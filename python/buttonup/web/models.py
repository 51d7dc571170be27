"""The request bodies of the JSON API (docs/http.md), checked by pydantic before any
engine call, and the one shape of every error answer.

Integer fields are strict: a boolean, a string or a float (even ``3.0``) is refused with
422 naming the field, as the Python API refuses them.
"""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from buttonup._core import STANDARD_TARGET

Side = Literal["r", "b"]

#: The largest match target the server takes: its odds table builds in under a second
#: on one core (the library's own limit, ``MAX_TARGET``, is 1000, whose table takes
#: minutes), so that every request's work is capped.
SERVER_MAX_TARGET = 30


class Body(BaseModel):
    model_config = ConfigDict(strict=True)


class ErrorOut(BaseModel):
    """Every answer that is not 200: what is wrong, in one sentence."""

    error: str = Field(examples=["pile 1 (R) has no white button, so it cannot be lifted"])


class PositionIn(Body):
    position: StrictStr = Field(examples=["W/R/B/W/B/R/R/W/B r"])


class AnalyzeIn(PositionIn):
    moves: list[StrictInt] = Field(default_factory=list, max_length=64, examples=[[3, 0]])


class BestMoveIn(PositionIn):
    # The AI's level, 1 to 10: checked by the core, whose message the answer gives.
    level: Optional[StrictInt] = None  # noqa: UP045 (pydantic, 3.9)
    # One of the server's extra opponents (buttonup serve --opponent; GET /api/opponents).
    opponent: Optional[StrictStr] = Field(default=None, max_length=200)  # noqa: UP045
    movetime: Optional[StrictInt] = Field(default=None, ge=1, le=10_000)  # noqa: UP045


class PlayIn(PositionIn):
    move: StrictInt = Field(examples=[3])


class OddsIn(Body):
    """A standing between two battles (``buttonup.Standing``)."""

    red_points: StrictInt = Field(ge=0, le=SERVER_MAX_TARGET)
    black_points: StrictInt = Field(ge=0, le=SERVER_MAX_TARGET)
    target: StrictInt = Field(default=STANDARD_TARGET, ge=1, le=SERVER_MAX_TARGET)
    last_loser: Optional[Side] = None  # noqa: UP045
    starter: Optional[Side] = None  # noqa: UP045


class NewMatchIn(Body):
    human: Side = "r"
    level: StrictInt = 5  # 1 to 10, checked by the core
    # One of the server's extra opponents instead of the level (GET /api/opponents).
    opponent: Optional[StrictStr] = Field(default=None, max_length=200)  # noqa: UP045
    #: 2: pass and play, both sides people at one screen (no AI move is made).
    players: StrictInt = Field(default=1, ge=1, le=2)
    target: StrictInt = Field(default=STANDARD_TARGET, ge=1, le=SERVER_MAX_TARGET)
    starter: Side = "r"
    seed: Optional[StrictInt] = Field(default=None, ge=0, lt=2**64)  # noqa: UP045


class MoveIn(Body):
    move: StrictInt


class StarterIn(Body):
    starter: Side


class ImportIn(Body):
    """A match record (docs/notation.md) to play on, as `human` against the AI."""

    record: StrictStr = Field(max_length=15_000)
    human: Side = "r"
    level: StrictInt = 5  # 1 to 10, checked by the core
    players: StrictInt = Field(default=1, ge=1, le=2)
