"""The request bodies of the online matches (docs/online.md), strict
as every body of the API: a wrong type or a value out of range is a 422 naming the
field, and no engine call is made."""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field, StrictInt, StrictStr, model_validator

from buttonup._core import STANDARD_TARGET
from buttonup.web.models import SERVER_MAX_TARGET, Body, Side

#: The longest a secret (player token, invite code) may be in a body.
SECRET_LENGTH = 128


#: The longest clock, in seconds (a week).
CLOCK_MAX = 7 * 86_400


class ClockIn(Body):
    """Exactly one of the two: seconds per move, or seconds per player for the match."""

    per_move: Optional[StrictInt] = Field(default=None, ge=1, le=CLOCK_MAX)  # noqa: UP045
    per_match: Optional[StrictInt] = Field(default=None, ge=1, le=CLOCK_MAX)  # noqa: UP045

    @model_validator(mode="after")
    def one_kind(self) -> ClockIn:
        if (self.per_move is None) == (self.per_match is None):
            raise ValueError("clock: give exactly one of per_move and per_match (seconds)")
        return self


class CreateIn(Body):
    target: StrictInt = Field(default=STANDARD_TARGET, ge=1, le=SERVER_MAX_TARGET)
    host: Literal["r", "b", "random"] = "r"
    starter: Side = "r"
    seed: Optional[StrictInt] = Field(default=None, ge=0, lt=2**64)  # noqa: UP045
    clock: Optional[ClockIn] = None  # noqa: UP045


class JoinIn(Body):
    invite: StrictStr = Field(max_length=SECRET_LENGTH)
    # The host's seed, agreed: only a seed both players give decides the deals.
    seed: Optional[StrictInt] = Field(default=None, ge=0, lt=2**64)  # noqa: UP045


class VersionIn(Body):
    version: StrictInt = Field(ge=0, lt=2**62)


class OnlineMoveIn(VersionIn):
    move: StrictInt


class OnlineStarterIn(VersionIn):
    starter: Side
