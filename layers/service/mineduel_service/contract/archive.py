"""A finished game's Verification document and Summary."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from .base import ResponseModel, Status
from .games import ResultOut, TurnOut


class VerdictOut(BaseModel):
    """The server's own check of a finished game (the offline verifier repeats it)."""

    model_config = ConfigDict(extra="allow", defer_build=True)

    checked: bool
    ok: bool
    problems: list[str]


class SeatRatingOut(BaseModel):
    """One seat's line in a game's rating record (``before``/``after`` are ``[mu, sigma]``)."""

    model_config = ConfigDict(extra="allow", defer_build=True)

    seat: int
    player_id: str
    version: int | None = None
    before: list[float] | None = None
    after: list[float] | None = None
    rating_before: int | None = None
    rating_after: int | None = None


class RatingRecordOut(BaseModel):
    """What a finished rated game did to its players' ratings: enough to recompute it."""

    model_config = ConfigDict(extra="allow", defer_build=True)

    variant: str
    outcome: Literal["rated", "aborted", "pending"]
    seats: list[SeatRatingOut]


class VerificationOut(BaseModel):
    """The Verification document: self-contained, checkable offline."""

    model_config = ConfigDict(extra="allow", defer_build=True)

    game_id: str
    protocol: str
    variant: str
    status: Status
    width: int
    height: int
    mines: int
    commitment: str
    seed: str | None
    client_seeds: list[str]
    field: list[str] | None
    moves: list[dict[str, Any]]
    result: ResultOut | None
    verdict: VerdictOut
    rated: bool = False
    rating: RatingRecordOut | None = None


class SummaryOut(ResponseModel):
    """docs/api.md's Summary: a finished game, how it played out."""

    model_config = ConfigDict(extra="allow", defer_build=True)

    game_id: str
    variant: str
    status: Status
    created_at: str
    ended_at: str | None
    rated: bool
    seats: list[dict[str, Any]]
    turn: TurnOut | None
    my_seat: int | None
    result: ResultOut | None
    moves: int
    lead_changes: int
