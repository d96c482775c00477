"""Refusals about ratings."""

from __future__ import annotations

from ..platform.errors import NotFound


class LeaderboardNotFound(NotFound):
    """The variant is unknown or has no ratings."""

    code = "leaderboard-not-found"
