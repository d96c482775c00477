"""Writing a game: the game item, the log item of its new moves, every item that follows from
the change and the idempotency record, in one conditional transaction.

Every write path (create, join, decline, cancel, lapse, commit, resign, timeout) goes through
``persist``, so the index items of docs/data-model.md can never fall out of step with the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import store
from .player_items import related_items
from .record import GameRecord


def persist(
    after: GameRecord,
    before: GameRecord | None,
    moves: Sequence[dict[str, Any]] = (),
    idempotency: store.IdempotencyWrite | None = None,
    extra: Sequence[dict[str, Any]] = (),
) -> GameRecord:
    """Write ``after`` over ``before`` (None: a new game) with everything that follows from it;
    the game as stored, at its next version (``store.write_game`` moves it: callers never do);
    ``dynamo.WriteConflict`` if the game is no longer ``before`` (or a related condition fails)."""
    related = [*related_items(before, after), *extra]
    return store.write_game(after, before, moves, idempotency, related)
