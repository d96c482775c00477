"""Spectators: anybody may watch a game whose players all allow it, read-only and the public
view only, and any player may turn spectators off for the rest of a game.

A player allows it through the profile setting ``settings.spectators`` (true by default); the
game's ``spectators_off`` is the in-game switch. A player who sets ``settings.spectators`` false
turns the switch off in every game they are still in (``off_in_running_games``), so the fan-out
cuts the spectators already watching, as it does for the in-game switch. Spectators only ever
see what the public view shows (the game view of a non-seat, and push messages without private
parts); the count of watchers is in the game view (``games.store.get_game`` with ``watchers_at``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..games import store, writes
from ..games.current import existing
from ..games.record import GameRecord
from ..games.seats import seat_of
from ..games.store import running_seats
from ..games.views import game_view
from ..people.store import get_profiles
from ..platform import auth, clock
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
    return game_view(_switch_off(game_id, lambda record: seat_of(record, cred, clock.now())))


def _switch_off(game_id: str, check: Callable[[GameRecord], object] | None = None) -> GameRecord:
    """Turn the game's spectators off (once ``check`` passes); the game after it."""

    def attempt() -> GameRecord:
        record = existing(game_id)
        if check is not None:
            check(record)
        if record.spectators_off:
            return record
        if record.status in ("finished", "cancelled"):
            raise GameOver(f"The game is {record.status}; nobody watches it live.")
        return writes.persist(record.evolve(spectators_off=True), record)

    return store.until_written(attempt, ATTEMPTS)


def off_in_running_games(caller: auth.Caller) -> None:
    """The caller no longer allows spectators (``settings.spectators`` false): every game they
    are still in turns spectators off for the rest of it, so the spectators already watching
    are unsubscribed and told (new ones are refused by ``unwatchable_reason``). Idempotent: a
    ``PUT /v1/me`` retried after a conflict finishes the work."""
    for game_id in running_seats(caller.player_id):
        try:
            _switch_off(game_id)
        except GameOver:  # it ended meanwhile: nobody watches it any more
            continue
