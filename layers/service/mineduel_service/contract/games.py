"""The Game: a game as the caller may see it, in the answer of nearly every route on a game."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import ResponseModel, SeatKind, Status


class SeatOut(ResponseModel):
    """One seat as everybody sees it."""

    seat: int
    player_id: str | None
    name: str
    kind: SeatKind
    mines: int
    safe_taps: int
    out: bool
    client_seed: str
    place: int | None
    rating_before: int | None = None
    rating_after: int | None = None
    bomb_used: bool | None = Field(default=None, description="mineseeker: the bomb is spent")
    score: int | None = Field(default=None, description="windows-duel: the seat's points")


class TurnOut(ResponseModel):
    """Whose turn it is and until when."""

    seat: int
    deadline: str


class ResultOut(ResponseModel):
    """How the game ended."""

    reason: Literal["reach", "field-done", "resign", "timeout"]
    winner: int | None
    places: list[int]


class GameOut(ResponseModel):
    """A game as the caller may see it."""

    game_id: str
    variant: str
    status: Status
    width: int
    height: int
    mines: int
    mines_left: int
    move_deadline_s: int
    rated: bool
    created_at: str
    creator_seat: int = Field(
        default=0,
        description="The seat of the player who made the game and may cancel it while it waits: "
        "0, except in a rematch (its seats are rotated)",
    )
    seats: list[SeatOut]
    turn: TurnOut | None
    move_count: int
    board: list[str]
    commitment: str
    seed: str | None
    field: list[str] | None = Field(
        default=None,
        description="Once the game is finished and its seed published, the whole field as the "
        "Verification document has it (`*` a mine, `0`-`8` elsewhere); null before",
    )
    result: ResultOut | None
    bot_level: str | None = None
    options: dict[str, bool] = Field(
        default_factory=dict, description="The variant's creation options (empty for mine-duel)"
    )
    chain: str | None = Field(
        default=None,
        description="The chain value of the last move (SHA-256 hex; docs/fairness.md), null "
        "before the first: keep it to prove later that no move up to it was changed",
    )
    daily: str | None = Field(
        default=None, description="The day (YYYY-MM-DD) of a daily duel game; null otherwise"
    )
    spectators_off: bool = False
    """A player turned spectators off for the rest of the game (docs/live.md)."""
    watchers: int | None = None
    """Spectators following the game live, counted up to 60 by ``GET /v1/games/{game_id}``;
    null when nobody watches, and in the other answers (docs/live.md)."""
