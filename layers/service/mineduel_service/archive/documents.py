"""The Verification document of a game (``GET /v1/games/{game_id}/verify``, docs/fairness.md):
everything anybody needs to check every move, the seed only once the game is finished (read
from the game's item, never from KMS), and for a rated game what it did to its players'
ratings (the record the rebuild replays, docs/ratings.md).

Exports, the analysis and the share page are made from the same document.
"""

from __future__ import annotations

from typing import Any

from ..daily.store import get_month, month_of
from ..games import store
from ..games.current import current
from ..games.record import GameRecord


def verification(game_id: str) -> dict[str, Any]:
    """The Verification document of the game as it stands now (a passed deadline recorded
    first); ``GameNotFound`` when there is no such game."""
    record = current(game_id)
    return document(record, store.list_moves(game_id))


def document(record: GameRecord, moves: list[dict[str, Any]]) -> dict[str, Any]:
    """The Verification document of ``record`` with its move log: the seed only once finished
    (a daily game's once its day is over), a daily game's field id and ``daily`` object, and the
    game's ``move_deadline_s``, so that the verdict checks every move's time against it."""
    # The verifier is imported here, not with the module: it is a tenth of a cold import, and
    # the share page's and exports' functions load this module before they know they need it.
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
        move_deadline_s=record.move_deadline_s,
        field_id=record.field_id if record.daily else None,
        daily=daily_object(record),
    )
    return {**built, "rated": record.rated, "rating": rating_outcome(record)}


def rating_outcome(record: GameRecord) -> dict[str, Any] | None:
    """The document's ``rating``: what the rebuild needs of a finished rated game
    (docs/ratings.md): each seat's player and rating version before the game, and the skills
    before and after; ``outcome`` is ``rated``, ``aborted`` (nothing changed) or ``pending``
    (not applied yet). None for games that are not rated or not finished."""
    if record.rating is not None:
        return record.rating.to_dict()
    if record.status != "finished" or not record.rated or not record.results_pending:
        return None
    return {
        "variant": record.settings.variant,
        "outcome": "pending",
        "seats": [{"seat": s, "player_id": p} for s, p in sorted(record.player_seats.items())],
    }


def daily_object(record: GameRecord) -> dict[str, Any] | None:
    """A daily game's ``daily`` object for its Verification document: the day, its month, the
    month's commitment and (once the month is over) the month key. None for other games."""
    if record.daily is None:
        return None
    month = get_month(month_of(record.daily))
    return {
        "date": record.daily,
        "month": month_of(record.daily),
        "month_commitment": month.commitment if month else None,
        "month_key": month.key_hex if month else None,
    }
