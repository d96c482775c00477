"""``POST /v1/games/{game_id}/resign``: a player resigns; their seat goes out, and the game goes
on among the others or ends."""

from __future__ import annotations

from typing import Any

from mineduel_engine import rules_for

from ..games.current import existing
from ..games.deadlines import overdue
from ..games.seats import seat_of
from ..games.views import game_view
from ..platform import auth, clock
from ..platform.dynamo import WriteConflict
from . import advance
from .errors import DeadlinePassed, GameNotActive, MoveConflict
from .timeouts import write_timeout


def resign(cred: auth.Credential, game_id: str) -> dict[str, Any]:
    """Put the caller's seat out (a passed deadline is recorded first: a seat already out on
    time cannot resign); the game as stored after the seat went out and any bot replies."""
    now = clock.now()
    record = existing(game_id)
    seat = seat_of(record, cred, now)
    if overdue(record, now):
        record = write_timeout(record, now)
        if record.status == "active" and record.state.seats[seat].out:
            raise DeadlinePassed("Your move deadline passed; your seat is out.")
    if record.status != "active":
        raise GameNotActive(f"The game is {record.status}; there is nothing to resign.")
    state, move = rules_for(record.settings.variant).eliminate(record.state, seat, "resign")
    seed = advance.seed_if_needed(record, state)
    after, log = advance.after_moves(record, state, [move], now, seed)
    try:
        stored = advance.store_outcome(record, after, log, now, seed)
    except WriteConflict:
        raise MoveConflict("The game changed at the same moment; try again.") from None
    return game_view(stored.game, seat)
