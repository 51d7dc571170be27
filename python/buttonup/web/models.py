"""The request bodies of the JSON API (docs/http.md), checked by pydantic before any
engine call; the limits are the engine's own constants."""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, Field

from buttonup._core import MAX_TARGET, STANDARD_TARGET

Side = Literal["r", "b"]


class PositionIn(BaseModel):
    position: str = Field(examples=["W/R/B/W/B/R/R/W/B r"])


class BestMoveIn(PositionIn):
    level: Optional[int] = Field(default=None, ge=1, le=10)  # noqa: UP045 (pydantic, 3.9)
    movetime: Optional[int] = Field(default=None, ge=1, le=10_000)  # noqa: UP045


class PlayIn(PositionIn):
    move: int = Field(examples=[3])


class OddsIn(BaseModel):
    """A standing between two battles (``buttonup.Standing``)."""

    red_points: int = Field(ge=0)
    black_points: int = Field(ge=0)
    target: int = Field(default=STANDARD_TARGET, ge=1, le=MAX_TARGET)
    last_loser: Optional[Side] = None  # noqa: UP045
    starter: Optional[Side] = None  # noqa: UP045


class NewMatchIn(BaseModel):
    human: Side = "r"
    level: int = Field(default=5, ge=1, le=10)
    target: int = Field(default=STANDARD_TARGET, ge=1, le=MAX_TARGET)
    starter: Side = "r"
    seed: Optional[int] = Field(default=None, ge=0, lt=2**64)  # noqa: UP045


class MoveIn(BaseModel):
    move: int


class StarterIn(BaseModel):
    starter: Side
