"""Response models of the daily duel (docs/daily.md)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import ResponseModel
from .game_lists import GameSummaryOut


class DayCommitmentOut(ResponseModel):
    """A day's commitment, published before the day starts."""

    date: str
    commitment: str


class MonthCommitmentOut(ResponseModel):
    """A month's commitment (SHA-256 of its key), published before the month starts."""

    month: str
    commitment: str


class DayTableLinkOut(ResponseModel):
    """A past day that had a daily duel, and where its table is."""

    date: str
    table: str


class DailyOut(ResponseModel):
    """Today's daily duel: its commitments, and the caller's game of the day."""

    date: str = Field(description="Today, UTC (YYYY-MM-DD)")
    closes_at: str = Field(description="When the day ends: no daily game runs past it")
    commitment: str | None = Field(
        description="SHA-256 of the day's seed, published a day or two before the day opens. "
        "Null only while the day is not prepared: a new deployment before its preparation ran "
        "(which the deployment itself does), or housekeeping stopped for two days. "
        "`POST /v1/daily/play` is then refused (503 `daily-not-ready`): no game is played on a "
        "commitment nobody could read first"
    )
    month: str
    month_commitment: str | None = Field(
        description="SHA-256 of the month key, published before the month began; null only "
        "when `commitment` is"
    )
    tomorrow: DayCommitmentOut | None = Field(
        description="Tomorrow's commitment, published two days ahead (so also in the minutes "
        "after midnight); null only before a new deployment's preparation ran, or when "
        "housekeeping stopped for more than a day"
    )
    next_month: MonthCommitmentOut | None = Field(
        description="Next month's commitment, published a month ahead (a new deployment's "
        "first next month: as it is deployed); null only when `tomorrow` is"
    )
    played: bool = Field(description="Whether the caller has had today's attempt")
    game: GameSummaryOut | None = Field(description="The caller's game of the day")
    table: str = Field(description="The path of today's table")
    yesterday: DayTableLinkOut | None = Field(
        default=None, description="Yesterday's table, when there was a duel that day (else null)"
    )


class DailyEntryOut(ResponseModel):
    """One ranked player of a day (accounts only; equal mines and safe taps share a rank)."""

    rank: int
    name: str
    mines: int
    safe_taps: int
    ended_at: str | None
    game_id: str | None = Field(description="The game, once the day is closed (null before)")


class DailyTableOut(ResponseModel):
    """One page of a day's table, with the day's commitment and (once closed) its seed."""

    date: str
    status: Literal["upcoming", "open", "closing", "closed"]
    commitment: str
    seed: str | None = Field(description="The day's seed, published once the day is closed")
    month: str
    month_commitment: str | None
    month_key: str | None = Field(description="The month key, published once the month is over")
    players: int = Field(description="Attempts of the day, guests included")
    ranked: int = Field(description="Accounts with a finished game, ranked")
    updated_at: str | None = Field(description="When the table was last rebuilt (every 5 min)")
    entries: list[DailyEntryOut]
    next: str | None
