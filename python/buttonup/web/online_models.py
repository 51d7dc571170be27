"""The request bodies of the online matches (docs/http.md, "Playing a friend"), strict
as every body of the API: a wrong type or a value out of range is a 422 naming the
field, and no engine call is made."""

from __future__ import annotations

from typing import Literal, Optional

from pydantic import Field, StrictInt, StrictStr

from buttonup._core import STANDARD_TARGET
from buttonup.web.models import SERVER_MAX_TARGET, Body, Side

#: The longest a secret (player token, invite code) may be in a body.
SECRET_LENGTH = 128


class ClockIn(Body):
    per_move: Optional[StrictInt] = Field(default=None, ge=1, le=86_400)  # noqa: UP045
    per_match: Optional[StrictInt] = Field(default=None, ge=1, le=30 * 86_400)  # noqa: UP045


class CreateIn(Body):
    target: StrictInt = Field(default=STANDARD_TARGET, ge=1, le=SERVER_MAX_TARGET)
    host: Literal["r", "b", "random"] = "r"
    starter: Side = "r"
    seed: Optional[StrictInt] = Field(default=None, ge=0, lt=2**64)  # noqa: UP045
    clock: Optional[ClockIn] = None  # noqa: UP045


class JoinIn(Body):
    invite: StrictStr = Field(max_length=SECRET_LENGTH)


class VersionIn(Body):
    version: StrictInt = Field(ge=0, lt=2**62)


class OnlineMoveIn(VersionIn):
    move: StrictInt


class OnlineStarterIn(VersionIn):
    starter: Side
