"""Reading games: the public view (one read, no KMS), the move log and the Verification
document (the seed comes from the finished game's item, never from KMS)."""

from __future__ import annotations

import uuid
from typing import Any

from mineduel_engine.verify import build_document

from . import store
from .errors import not_found
from .records import GameRecord
from .views import game_view


def existing(game_id: str) -> GameRecord:
    record = store.get_game(game_id) if plausible_id(game_id) else None
    if record is None:
        raise not_found()
    return record


def plausible_id(game_id: str) -> bool:
    try:
        return str(uuid.UUID(game_id)) == game_id
    except ValueError:
        return False


def get_game(game_id: str) -> dict[str, Any]:
    """The public view of a game: one read, no KMS."""
    return game_view(existing(game_id))


def list_moves(game_id: str, after: int) -> dict[str, Any]:
    """The moves numbered above ``after``, oldest first."""
    if not plausible_id(game_id):
        raise not_found()
    moves = store.list_moves(game_id, after)
    if not moves:
        existing(game_id)  # an empty page is fine; a missing game is 404
    return {"moves": moves}


def verification(game_id: str) -> dict[str, Any]:
    """The Verification document; the seed only once finished (read from the game, no KMS)."""
    record = existing(game_id)
    moves = store.list_moves(game_id)
    finished = record.status == "finished" and record.seed_hex is not None
    return build_document(
        game_id=game_id,
        settings=record.settings,
        commitment=record.commitment,
        client_seeds=record.client_seeds,
        moves=moves,
        status=record.status,
        seed=bytes.fromhex(record.seed_hex) if finished and record.seed_hex else None,
        result=record.state.result,
    )
