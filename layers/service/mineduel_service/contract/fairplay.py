"""Fair play's models: a player's record and the cases moderators decide (docs/fair-play.md)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import RequestModel, ResponseModel


class DecisionRequest(RequestModel):
    """``POST /v1/moderation/cases/{case_id}``: a moderator's decision."""

    decision: Literal["clear", "restrict"]
    note: str = Field(default="", max_length=1000, description="Why, for the log")


class FairPlayGameOut(ResponseModel):
    """One screened rated game's figures for the player."""

    game_id: str
    ended_at: str
    taps: int
    accuracy: float
    engine_match: float
    mean_loss: float


class FairPlayOut(ResponseModel):
    """A player's fair-play record: the figures of their last screened rated games, pooled."""

    username: str | None
    games_screened: int = Field(description="Rated games screened so far")
    window: int = Field(description="Games the figures below are over (the last ones)")
    window_size: int = Field(description="Games a full window holds; z needs a full one")
    accuracy: float | None = Field(
        description="Share of taps on a cell with the board's highest mine chance"
    )
    mean_loss: float | None = Field(description="Mean p_best - p_mine per tap")
    engine_match: float | None = Field(
        description="Share of taps on a cell the exact engine would have chosen (a likeliest "
        "cell, or the hard bot's move): what z measures"
    )
    z: float | None = Field(
        description="How far engine_match lies above people's, in standard deviations of "
        "people's windows; null before a full window"
    )
    review_z: float = Field(description="The z at which a case opens for a moderator")
    status: Literal["clear", "review", "restricted"]
    reviewed_at: str | None = Field(default=None, description="A moderator's last decision")
    games: list[FairPlayGameOut] = Field(description="The window's games, newest first")


class CaseOut(ResponseModel):
    """A fair-play case, as moderators see it."""

    case_id: str
    username: str
    player_id: str
    z: float
    engine_match: float
    accuracy: float
    mean_loss: float
    games: list[str] = Field(description="The ids of the rated games that opened it")
    opened_at: str
    status: Literal["open", "cleared", "restricted"]
    decided_at: str | None = None
    decided_by: str | None = None
    note: str | None = None
    decisions: int = Field(default=0, description="Decisions logged on the case")


class CaseListOut(ResponseModel):
    """A page of cases, newest first."""

    cases: list[CaseOut]
    next: str | None = None
