"""Reading games: the public view (one read, no KMS), the move log and the Verification
document (the seed comes from the finished game's item, never from KMS).

A read that finds the turn's deadline passed does not show a game that is really over as still
running: it asks the expiry function (which may decrypt; the read path may not) to record the
timeout now, and reads the game again. That costs one Lambda call and one read, once per passed
deadline, and never fails the read: if the call fails, the game is shown as stored and the
schedule or the sweeper records the timeout within a minute.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from ..daily.store import daily_object
from ..live.connections import game_and_watchers
from ..platform import aws, clock
from ..platform.config import get_config
from ..platform.errors import not_found
from ..platform.observability import count, logger
from . import store
from .deadlines import overdue
from .record import GameRecord
from .seats import viewer_of
from .views import game_view, moves_view


def existing(game_id: str) -> GameRecord:
    """The stored game; 404 when there is none (or the id cannot be one)."""
    record = store.get_game(game_id) if plausible_id(game_id) else None
    if record is None:
        raise not_found()
    return record


def plausible_id(game_id: str) -> bool:
    """Game ids are canonical UUIDs; anything else is not looked up at all."""
    try:
        return str(uuid.UUID(game_id)) == game_id
    except ValueError:
        return False


def current(game_id: str) -> GameRecord:
    """The game as it stands now: a passed deadline is recorded before it is shown."""
    record = existing(game_id)
    if not overdue(record, clock.now()):
        return record
    if request_expiry(record):
        return existing(game_id)
    return record


def request_expiry(record: GameRecord) -> bool:
    """Ask the expiry function to record the running turn's passed deadline; True if it ran."""
    event = {"game_id": record.game_id}
    try:
        answer = aws.lambda_().invoke(
            FunctionName=get_config().expiry_function_arn,
            InvocationType="RequestResponse",
            Payload=json.dumps(event).encode("utf-8"),
        )
    except Exception as exc:
        logger.warning(
            "expiry not requested", extra={"game_id": record.game_id, "error": type(exc).__name__}
        )
        count("ExpiryRequestFailures")
        return False
    if answer.get("FunctionError"):
        logger.warning("expiry function failed", extra={"game_id": record.game_id})
        count("ExpiryRequestFailures")
        return False
    return True


def get_game(game_id: str, token: str | None = None) -> dict[str, Any]:
    """The game as the caller may see it (a seat also sees its own private part), with its
    count of watchers (null when nobody watches): one read (the game and its subscriptions
    together, ``connections.game_and_watchers``), no KMS."""
    if not plausible_id(game_id):
        raise not_found()
    record, watchers = game_and_watchers(game_id, clock.now())
    if record is None:
        raise not_found()
    if overdue(record, clock.now()) and request_expiry(record):
        record, watchers = game_and_watchers(game_id, clock.now())
        if record is None:
            raise not_found()
    view = game_view(record, viewer_of(record, token, clock.now()))
    # None when nobody watches: then the read is the same Game every other answer shows.
    return {**view, "watchers": watchers or None}


def list_moves(game_id: str, after: int, token: str | None = None) -> dict[str, Any]:
    """The moves numbered above ``after``, oldest first, as the caller may see them."""
    if not plausible_id(game_id):
        raise not_found()
    record = current(game_id)
    viewer = viewer_of(record, token, clock.now())
    moves = store.list_moves(record.game_id, after)
    return {"moves": moves_view(moves, viewer, record.status == "finished")}


def verification(game_id: str) -> dict[str, Any]:
    """The Verification document; the seed only once finished (read from the game, no KMS)."""
    record = current(game_id)
    return document(record, store.list_moves(game_id))


def document(record: GameRecord, moves: list[dict[str, Any]]) -> dict[str, Any]:
    """The Verification document of ``record`` with its move log: the seed only once finished
    (a daily game's once its day is over), a daily game's field id and ``daily`` object."""
    # The verifier is imported here, not with the module: a commit imports this module and
    # never builds a document, and the verifier is a tenth of a cold import.
    from mineduel_engine.verify import build_document  # noqa: PLC0415

    finished = record.status == "finished" and record.seed_hex is not None
    built = build_document(
        game_id=record.game_id,
        settings=record.settings,
        commitment=record.commitment,
        client_seeds=record.client_seeds,
        moves=moves,
        status=record.status,
        seed=bytes.fromhex(record.seed_hex) if finished and record.seed_hex else None,
        result=record.state.result,
        state=record.state,
        seat_details=[
            {"player_id": seat.player_id, "name": seat.name, "kind": seat.kind}
            for seat in record.seats
        ],
        field_id=record.field_id if record.daily else None,
        daily=daily_object(record),
    )
    return {**built, "rated": record.rated, "rating": rating_record(record)}


def rating_record(record: GameRecord) -> dict[str, Any] | None:
    """What the rebuild needs of a finished rated game (docs/ratings.md): each seat's player
    and rating version before the game, and the skills before and after; ``outcome`` is
    ``rated``, ``aborted`` (nothing changed) or ``pending`` (not applied yet). None for games
    that are not rated or not finished."""
    if record.rating is not None:
        return record.rating.to_dict()
    if record.status != "finished" or not record.rated or not record.results_pending:
        return None
    return {
        "variant": record.settings.variant,
        "outcome": "pending",
        "seats": [{"seat": s, "player_id": p} for s, p in sorted(record.player_seats.items())],
    }
