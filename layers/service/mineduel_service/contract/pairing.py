"""Quick pairing's models: a seek (what a player wants) and the open seeks listed by the lobby
(docs/pairing.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field

from .base import RequestModel, ResponseModel, WholeNumber, _integral

VARIANT_NAMES: list[Any] = ["mine-duel", "mineseeker", "windows-duel"]


class SeekRequest(RequestModel):
    """``POST /v1/seeks``: the game a player wants; every field optional, with these
    defaults."""

    variant: str = Field(
        default="mine-duel", min_length=1, max_length=32, json_schema_extra={"enum": VARIANT_NAMES}
    )
    move_deadline_s: WholeNumber = Field(default=86400, ge=60, le=604800)
    rated: bool = False
    # The bounds before the validator, so the schema says minimum and maximum (a WholeNumber's
    # own validator would leave pydantic's ge and le in the items' schema).
    rating_range: list[Annotated[int, Field(ge=0, le=99999), BeforeValidator(_integral)]] | None = (
        Field(
            default=None,
            min_length=2,
            max_length=2,
            description="[low, high]: the displayed ratings of opponents the player takes, both "
            "ends included; null takes any. Only in a variant with ratings.",
        )
    )


class SeekOut(ResponseModel):
    """A seek: what its owner asked for, and what became of it."""

    seek_id: str
    variant: str
    move_deadline_s: int
    rated: bool
    rating_range: list[int] | None = Field(description="[low, high], or null for any rating")
    status: Literal["open", "paired", "cancelled", "expired"]
    game_id: str | None = Field(description="The game it was paired into, once paired")
    expires_at: str = Field(description="When it stops waiting (an open seek expires then)")
    created_at: str
    rating: int | None = Field(
        default=None, description="The owner's displayed rating in the variant when they asked"
    )
    name: str | None = Field(default=None, description="The owner's name (in the list only)")


class SeekListOut(ResponseModel):
    """A page of open seeks, by move deadline, rated and rating."""

    seeks: list[SeekOut]
    next: str | None = None
