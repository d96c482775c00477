"""Creating and joining a game."""

from __future__ import annotations

from mineduel_engine.settings import BOT_LEVELS
from pydantic import Field

from .base import CLIENT_SEED, RequestModel, WholeNumber


class CreateGameRequest(RequestModel):
    """``POST /v1/games``: every field optional, with these defaults."""

    variant: str = Field(
        default="mine-duel",
        min_length=1,
        max_length=32,
        json_schema_extra={"enum": ["mine-duel", "mineseeker", "windows-duel"]},
    )
    seats: WholeNumber = Field(default=2, ge=2, le=4)
    bots: WholeNumber = Field(default=1, ge=0, le=3)
    bot_level: str = Field(
        default="hard", min_length=1, max_length=16, json_schema_extra={"enum": list(BOT_LEVELS)}
    )
    move_deadline_s: WholeNumber = Field(default=86400, ge=60, le=604800)
    rated: bool = False
    invite: list[str] = Field(default_factory=list, max_length=3)
    options: dict[str, bool] | None = Field(
        default=None,
        max_length=8,
        description="The variant's creation options, e.g. mineseeker's "
        '{"bomb_when_behind": true}; an option the variant does not have is 422 bad-option.',
    )
    bomb_when_behind: bool | None = Field(
        default=None,
        description="mineseeker: the bomb only for a seat with fewer mines (default false).",
    )


class JoinRequest(RequestModel):
    """``POST /v1/games/{game_id}/join``."""

    client_seed: str | None = Field(default=None, pattern=CLIENT_SEED)
