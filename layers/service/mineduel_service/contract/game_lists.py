"""Lists of games: the lobby, a player's games and history (GameSummary)."""

from __future__ import annotations

from pydantic import Field

from .base import ResponseModel, SeatKind, Status
from .games import TurnOut


class SummarySeatOut(ResponseModel):
    """One seat in a GameSummary."""

    seat: int
    player_id: str | None
    name: str
    kind: SeatKind
    mines: int
    place: int | None


class GameSummaryOut(ResponseModel):
    """docs/api.md's GameSummary: a game in a list."""

    game_id: str
    variant: str
    status: Status
    created_at: str
    ended_at: str | None
    rated: bool
    seats: list[SummarySeatOut]
    turn: TurnOut | None
    move_count: int
    my_seat: int | None
    daily: str | None = None
    move_deadline_s: int | None = Field(
        default=None, description="Time per move, in seconds (absent from older history entries)"
    )


class GameListOut(ResponseModel):
    """A page of games; ``next`` is the cursor of the following page, null on the last."""

    games: list[GameSummaryOut]
    next: str | None = None
