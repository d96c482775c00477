"""How a game ended: the reason, the winner and every seat's place."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, cast

from .errors import MalformedRecord

Reason = Literal["reach", "field-done", "resign", "timeout"]
REASONS: tuple[str, ...] = ("reach", "field-done", "resign", "timeout")


@dataclass(frozen=True)
class Result:
    """The end of a game. ``places[i]`` is seat i's place (1 = first; ties share a place).

    ``winner`` is the seat alone in first place, or None when first place is shared.
    """

    reason: Reason
    winner: int | None
    places: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """The docs/api.md ``result`` object."""
        return {"reason": self.reason, "winner": self.winner, "places": list(self.places)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Result:
        """Parse a docs/api.md ``result`` object."""
        try:
            reason, winner, places = data["reason"], data["winner"], data["places"]
        except (KeyError, TypeError):
            raise MalformedRecord("result needs reason, winner and places") from None
        if reason not in REASONS:
            raise MalformedRecord(f"unknown result reason {reason!r}")
        if winner is not None and type(winner) is not int:
            raise MalformedRecord("result winner must be a seat number or null")
        if not isinstance(places, list) or not all(type(p) is int for p in places):
            raise MalformedRecord("result places must be a list of integers")
        return cls(cast(Reason, reason), winner, tuple(places))
