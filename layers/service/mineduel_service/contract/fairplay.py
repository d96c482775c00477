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
    hard_taps: int = Field(
        default=0, description="Taps on hard positions (the best tap not obvious, no tie)"
    )
    clear_taps: int = Field(default=0, description="Taps on positions with an obvious best")


class FairPlayOut(ResponseModel):
    """A player's fair-play record: the figures of their last screened rated games, pooled."""

    username: str | None
    games_screened: int = Field(description="Rated games screened so far")
    window: int = Field(description="Games the figures below are over (the last ones)")
    window_size: int = Field(description="Games a full window holds")
    accuracy: float | None = Field(
        description="Share of taps on a cell with the board's highest mine chance"
    )
    mean_loss: float | None = Field(description="Mean p_best - p_mine per tap")
    engine_match: float | None = Field(
        description="Share of taps on a cell an engine would have chosen (a likeliest cell, "
        "or the hard bot's move)"
    )
    hard_taps: int = Field(
        description="Taps on hard positions in the window: no certain mine, at most four "
        "likeliest cells, the likeliest less than 0.1 ahead of the next chance"
    )
    hard_match: float | None = Field(description="engine_match over the hard taps: what z judges")
    clear_taps: int = Field(description="Taps on positions whose best tap was obvious")
    clear_match: float | None = Field(description="engine_match over the clear taps")
    expected_hard_match: float | None = Field(
        description="What people whose clear_match is the player's reach on hard taps"
    )
    min_games: int = Field(description="Screened rated games before any z")
    min_hard_taps: int = Field(description="Hard taps in the window before any z")
    z: float | None = Field(
        description="How much better the window's matches, grade of position by grade, are "
        "explained by a person helped by an engine on some share of taps than by any person "
        "alone (the root of twice the log likelihood ratio against people's profiles: 0 or "
        "more); null before min_games games and min_hard_taps hard taps"
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
