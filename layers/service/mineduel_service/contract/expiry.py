"""What the expiry function is sent: by a turn's schedule, or by a read that found its deadline
passed."""

from __future__ import annotations

from pydantic import Field, model_validator

from .base import RequestModel


class ExpiryEvent(RequestModel):
    """What the expiry function receives: from a turn schedule, the game and the turn
    (``scheduling.expiry_input``); from a read that found the deadline passed, the game alone."""

    game_id: str = Field(min_length=1, max_length=64)
    move_count: int | None = Field(default=None, ge=0)
    deadline: str | None = Field(default=None, min_length=1, max_length=32)
    warning: bool = False
    """The turn's schedule fired at its warning time, not its deadline (docs/live.md)."""

    @model_validator(mode="after")
    def _turn_or_none(self) -> ExpiryEvent:
        if (self.move_count is None) != (self.deadline is None):
            raise ValueError("send both move_count and deadline, or neither")
        return self
