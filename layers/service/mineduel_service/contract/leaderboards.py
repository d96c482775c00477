"""A variant's leaderboard (``GET /v1/leaderboards/{variant}``)."""

from __future__ import annotations

from .base import ResponseModel


class LeaderboardEntryOut(ResponseModel):
    """One line of a leaderboard (players with equal ratings share a rank)."""

    rank: int
    username: str
    rating: int
    deviation: int
    games: int


class LeaderboardMeOut(ResponseModel):
    """Where the caller's current rating places them among the latest snapshot's players."""

    rank: int
    rating: int


class LeaderboardOut(ResponseModel):
    """A page of a variant's leaderboard (the top 100 of the latest snapshot)."""

    variant: str
    entries: list[LeaderboardEntryOut]
    next: str | None
    me: LeaderboardMeOut | None
    updated_at: str | None = None
