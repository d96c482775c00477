"""A commit and the move log: ``POST /v1/games/{game_id}/moves`` and ``GET .../moves``."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from .base import ACTIONS, CLIENT_SEED, RequestModel, ResponseModel, WholeNumber
from .games import GameOut


class CommitRequest(RequestModel):
    """``POST /v1/games/{game_id}/moves``: the armed cell and the move count the client saw."""

    row: WholeNumber = Field(ge=0, le=63)
    col: WholeNumber = Field(ge=0, le=63)
    expected_move: WholeNumber = Field(ge=0, le=100_000)
    action: str = Field(
        default="tap", min_length=1, max_length=16, json_schema_extra={"enum": list(ACTIONS)}
    )
    client_seed: str | None = Field(default=None, pattern=CLIENT_SEED)


def _is_none(value: Any) -> bool:
    return value is None


class MoveOut(ResponseModel):
    """One move of the log. While a windows-duel game runs, a wrong guess (``guess``, result
    ``miss``) shows its cell (``row``, ``col``) only to the seat that made it."""

    n: int
    seat: int
    action: Literal["tap", "bomb", "guess", "reveal", "resign", "timeout"]
    row: int | None
    col: int | None
    result: Literal["mine", "safe", "bomb", "miss"] | None
    opened: list[list[int]]
    flagged: list[list[int]]
    # ``points`` and ``auto_opened`` appear only on the moves of the variant that has them (as in
    # the log and the Verification document), never as nulls on the others; ``chain`` only once
    # the move has one. Left out field by field (``exclude_if``), not by a model serializer,
    # so that the OpenAPI document still describes every field of a move.
    points: int | None = Field(
        default=None,
        description="windows-duel: +5, -2, -5 or 0 for the seat that moved",
        exclude_if=_is_none,
    )
    auto_opened: list[list[int]] | None = Field(
        default=None,
        description="windows-duel: [row, col, number] of every cell auto-reveal opened after it",
        exclude_if=_is_none,
    )
    at: str
    chain: str | None = Field(
        default=None,
        description="SHA-256 hex of the previous move's chain value (the commitment for move 1) "
        "and this move's public record (docs/fairness.md)",
        exclude_if=_is_none,
    )


class CommitOut(ResponseModel):
    """What a commit caused: the game after it and every move it played, bots' included."""

    game: GameOut
    moves: list[MoveOut]


class MovesOut(ResponseModel):
    """A slice of the move log, oldest first."""

    moves: list[MoveOut]
