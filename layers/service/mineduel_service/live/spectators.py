"""Spectators: anybody may watch a game whose players all allow it, read-only and the public
view only, and any player may turn spectators off for the rest of a game.

A player allows it through the profile setting ``settings.spectators`` (true by default); the
game's ``spectators_off`` is the in-game switch. Spectators only ever see what the public view
shows (the game view of a non-seat, and push messages without private parts); the count of
watchers is in the game view (``games.watchers.game_and_watchers``).
"""

from __future__ import annotations

from typing import Any

from ..games import writes
from ..games.current import existing
from ..games.errors import GameConflict
from ..games.record import GameRecord
from ..games.seats import seat_of
from ..games.views import game_view
from ..people.profiles import get_profiles
from ..platform import auth, clock, dynamo
from .errors import GameOver

ATTEMPTS = 3


def unwatchable_reason(record: GameRecord) -> str | None:
    """Why nobody but its players may watch the game; None when anybody may."""
    if record.spectators_off:
        return "A player turned spectators off for this game."
    people = [seat.player_id for seat in record.seats if seat.kind in ("account", "guest")]
    profiles = get_profiles([p for p in people if p])
    if any(not profile.settings.get("spectators", True) for profile in profiles.values()):
        return "A player of this game does not allow spectators."
    return None


def turn_off(cred: auth.Credential, game_id: str) -> dict[str, Any]:
    """A player turns spectators off for the rest of the game (for good: it cannot be turned
    back on); the fan-out then unsubscribes every spectator."""

    def attempt() -> dict[str, Any]:
        record = existing(game_id)
        seat_of(record, cred, clock.now())
        if record.spectators_off:
            return game_view(record)
        if record.status in ("finished", "cancelled"):
            raise GameOver(f"The game is {record.status}; nobody watches it live.")
        after = record.evolve(spectators_off=True, version=record.version + 1)
        writes.persist(after, record)
        return game_view(after)

    return dynamo.read_modify_write(attempt, ATTEMPTS, GameConflict)
