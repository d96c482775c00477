"""Who follows a game live: its subscriptions, kept in the game's own partition
(``GAME#<game id>`` / ``GAME#SUB#<connection id>``, docs/data-model.md).

Their sort key sorts between the game item (``GAME``) and the moves (``MOVE#...``): so the
fan-out finds every subscriber of a game with one ``Query``, a read of the game with its count
of watchers is one ``Query`` too, and the move log never sees them.
They are written with their connection (``live.store``); they are read and parsed in
``store`` (``subscriptions``, ``parse_subscription``, ``store.get_game(..., watchers_at=...)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

WATCHERS_COUNTED = 60
"""A read of a game counts subscriptions up to this many (one read unit holds about 20)."""

Role = Literal["player", "spectator"]


@dataclass(frozen=True)
class Subscription:
    """One connection following one game, as a player (with its seat) or a spectator."""

    game_id: str
    connection_id: str
    role: Role
    seat: int | None
    expires_at: int


def watchers(found: Sequence[Subscription], now: datetime) -> int:
    """How many spectators follow the game (subscriptions whose TTL has not passed)."""
    moment = now.timestamp()
    return sum(1 for s in found if s.role == "spectator" and s.expires_at > moment)
