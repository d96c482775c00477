"""A finished game's Verification document and Summary."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from .base import ResponseModel, SeatKind, Status
from .games import ResultOut, TurnOut
from .moves import MoveOut


def _is_none(value: Any) -> bool:
    return value is None


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


class VerificationSeatOut(BaseModel):
    """One seat of a Verification document: who sat there, and the counters and place the
    verifier recomputes from the replay (``bomb_used`` in mineseeker, ``score`` in
    windows-duel; only on that variant's seats)."""

    model_config = ConfigDict(extra="allow", defer_build=True)

    seat: int
    player_id: str | None = None
    name: str | None = None
    kind: SeatKind | None = None
    mines: int
    safe_taps: int
    out: bool
    place: int | None = Field(description="The seat's place once the game is over, else null")
    client_seed: str = Field(description="The seat's client seed (also `client_seeds[seat]`)")
    bomb_used: bool | None = Field(
        default=None, description="mineseeker: the seat's bomb is spent", exclude_if=_is_none
    )
    score: int | None = Field(
        default=None, description="windows-duel: the seat's points", exclude_if=_is_none
    )


class DailyProofOut(BaseModel):
    """A daily game's ``daily`` object: the day, its month, and what proves the day's seed."""

    model_config = ConfigDict(extra="allow", defer_build=True)

    date: str = Field(description="The day (YYYY-MM-DD, UTC); the field id is `daily-<date>`")
    month: str = Field(description="Its month (YYYY-MM)")
    month_commitment: str | None = Field(
        description="SHA-256 of the month key, published before the month began"
    )
    month_key: str | None = Field(
        description="The month key (hex), published once the month is over and every one of "
        "its days is closed; null before. The day's seed is HMAC-SHA256(month key, "
        "'mineduel/daily|<date>')"
    )


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
    options: dict[str, Any] = Field(
        description="The variant's creation options (empty for mine-duel); they decide which "
        "moves are legal, so the replay needs them"
    )
    commitment: str
    seed: str | None
    client_seeds: list[str]
    field: list[str] | None
    seats: list[VerificationSeatOut] | None = Field(
        description="One object a seat, in seat order; null while a game runs"
    )
    moves: list[MoveOut] = Field(
        description="The whole log, oldest first, each move with its `chain` value (a running "
        "game's wrong guesses without their cell)"
    )
    move_count: int = Field(
        description="How many moves the log has when the document is made: a verifier refuses "
        "a document whose `moves` are fewer (docs/fairness.md)"
    )
    chain: str | None = Field(
        description="The chain head: the last move's `chain` value (null before the first "
        "move), the game's `chain` at the same moment. Every link of a log cut short still "
        "holds; the head does not, so a document with moves dropped from its end fails alone"
    )
    result: ResultOut | None
    verdict: VerdictOut
    field_id: str | None = Field(
        default=None,
        description="A daily game only (absent otherwise): `daily-YYYY-MM-DD`, which the field "
        "is derived with in place of the game id",
        exclude_if=_is_none,
    )
    daily: DailyProofOut | None = Field(
        default=None,
        description="A daily game only (absent otherwise): its day, month and month proof",
        exclude_if=_is_none,
    )
    move_deadline_s: int | None = Field(
        default=None,
        description="When present (with `at` on every move), the verifier also checks that "
        "every move came within its turn's deadline",
        exclude_if=_is_none,
    )
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
