"""Response models of the post-game analysis (``GET /v1/games/{game_id}/analysis``).

The analysis is the engine's own output (``mineduel_engine.analysis``); these models name its
fields for the OpenAPI document and keep any later field (``extra="allow"``), as the shape may
grow by variant.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow", defer_build=True)


class AnalysisMoveOut(_Open):
    """One cell action and what its position offered (docs/analysis.md)."""

    n: int
    seat: int
    action: str
    row: int | None
    col: int | None
    result: str | None
    p_mine: float | None = Field(
        description="The chance that the chosen cell was a mine, from what the seat saw (null "
        "for a bomb)"
    )
    p_best: float | None = Field(description="The highest mine chance on that board")
    bot: list[int] | None = Field(description="[row, col] the hard bot plays there")
    bot_action: str | None
    exact: bool = Field(description="False when the position passed the work budget")
    found: int
    expected_mines: float
    luck: float
    loss: float


class AnalysisSeatOut(_Open):
    """One seat's totals."""

    seat: int
    mines: int
    expected_mines: float
    luck: float = Field(description="mines - expected_mines")
    skill_loss: float = Field(description="Sum of what each choice gave up (skill_unit)")
    moves: int
    best_moves: int
    bot_moves: int


class AnalysisBudgetOut(_Open):
    """The work budget per position, and the positions that passed it."""

    terms: int
    estimated: list[int]
    estimate: str


class AnalysisSwingOut(_Open):
    """A move whose outcome differed most from what its chances promised."""

    n: int
    seat: int
    action: str
    swing: float


class AnalysisOut(_Open):
    """Luck against skill in a finished game."""

    game_id: str
    analysis: str
    variant: str
    bot_level: str
    skill_unit: Literal["mines", "points"]
    budget: AnalysisBudgetOut
    moves: list[AnalysisMoveOut]
    seats: list[AnalysisSeatOut]
    swings: list[AnalysisSwingOut]
