"""Committing a move: exactly once, atomically, never past the deadline.

A commit reads the game once (with the caller's idempotency record, when a key is sent),
computes the whole outcome in memory with the engine (the caller's move and every bot reply),
writes it in one conditional transaction and gives the next turn its schedule.

A commit that arrives after the turn's deadline never plays: the seat to move is out whether or
not the schedule has fired, so the commit records that timeout itself (the same write the expiry
function would make) and is refused. This holds for a commit from any seat: the game reads as
timed out the moment anyone touches it after the deadline.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

from mineduel_engine import rules_for
from mineduel_engine.errors import IllegalMove

from ..contract.models import CommitRequest
from ..games import store
from ..games.deadlines import overdue
from ..games.reads import existing, plausible_id
from ..games.record import GameRecord
from ..games.seats import credential, seat_of
from ..games.views import game_view, moves_view
from ..platform import auth, clock, crypto
from ..platform.config import get_config
from ..platform.errors import ApiError, conflict, forbidden, from_engine, invalid, not_found
from ..platform.observability import count
from .advance import conclude, field_for, store_outcome, time_out

IDEMPOTENCY_KEY_MAX = 255


def fingerprint(game_id: str, request: CommitRequest) -> str:
    """What identifies a commit request for its Idempotency-Key (parsed, so key order is moot)."""
    text = json.dumps({"game_id": game_id, "body": request.model_dump()}, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _key_hash(key: str) -> str:
    if not 1 <= len(key) <= IDEMPOTENCY_KEY_MAX or not key.isprintable() or not key.isascii():
        raise invalid(
            "bad-idempotency-key", "Send an Idempotency-Key of 1 to 255 printable ASCII characters."
        )
    return hashlib.sha256(key.encode("ascii")).hexdigest()


def commit_move(
    token: str | None, game_id: str, request: CommitRequest, idempotency_key: str | None
) -> dict[str, Any]:
    """Play the caller's armed move and every bot reply it triggers, exactly once.

    Returns docs/api.md's ``{"game", "moves"}``; raises ``ApiError`` for every refusal (an
    Idempotency-Key retry of a refused commit is refused again the same way).
    """
    cred = credential(token)
    now = clock.now()
    key_hash = _key_hash(idempotency_key) if idempotency_key is not None else None
    if not plausible_id(game_id):
        raise not_found()
    if key_hash is None:
        record, previous = store.get_game(game_id), None
    else:
        record, previous = store.get_game_with_record(game_id, cred.player_id, key_hash)
    if record is None:
        raise not_found()
    seat = seat_of(record, cred, now)
    wanted = fingerprint(game_id, request)
    if previous is not None:
        return _replay(previous, wanted, record, seat)
    if record.status != "active":
        raise conflict("game-not-active", f"The game is {record.status}; no move can be played.")
    idempotency = _idempotency(cred, key_hash, wanted, now)
    if overdue(record, now):
        _record_timeout(record, seat, now, idempotency)
    _check_commit(record, seat, request)
    seed = crypto.decrypt_seed(record.seed_ciphertext, game_id)
    after, moves = _play(record, seat, request, now, seed)
    finished = after.status == "finished"
    answer = {"game": game_view(after, seat), "moves": moves_view(moves, seat, finished)}
    written = idempotency(moves[0]["n"], moves[-1]["n"])
    try:
        store_outcome(record, after, moves, now, seed, written)
    except store.WriteConflict:
        return _lost_race(game_id, cred, key_hash, wanted, seat)
    count("MovesCommitted", len(moves))
    return answer


Idempotency = Callable[..., "store.IdempotencyWrite | None"]
"""Makes the idempotency record of what this request did; None without a key."""


def _idempotency(
    cred: auth.Credential, key_hash: str | None, wanted: str, now: datetime
) -> Idempotency:
    """A maker of the idempotency record: the moves played (``first``..``last``) or the
    refusal (``refusal``). It stores no answer: a retry's answer is rebuilt from the game and
    its log, which also keeps a finished game's seed out of the record."""

    def make(
        first: int = 0, last: int = 0, refusal: ApiError | None = None
    ) -> store.IdempotencyWrite | None:
        if key_hash is None:
            return None
        stored = store.IdempotencyRecord(
            wanted,
            first_move=first,
            last_move=last,
            status=refusal.status if refusal else 200,
            code=refusal.code if refusal else None,
            message=refusal.message if refusal else None,
        )
        expires = int(now.timestamp()) + get_config().idempotency_ttl_s
        return store.IdempotencyWrite(cred.player_id, key_hash, stored, expires)

    return make


def _record_timeout(record: GameRecord, seat: int, now: datetime, idempotency: Idempotency) -> None:
    """The turn's deadline has passed: write the timeout (once; a racing expiry may have written
    it already) and refuse the commit, telling the caller what happened."""
    turn = record.state.turn
    if turn == seat:
        refusal = conflict(
            "deadline-passed", f"Your move deadline passed at {record.deadline}; your seat is out."
        )
    else:
        refusal = conflict(
            "turn-timed-out",
            f"Seat {turn} missed its move deadline ({record.deadline}) and is out; "
            "reload the game and commit again.",
        )
    if turn is not None:
        after, moves = time_out(record, turn, now, None)
        # If the expiry, a claim or another commit recorded it first, theirs stands.
        with contextlib.suppress(store.WriteConflict):
            store_outcome(record, after, moves, now, None, idempotency(refusal=refusal))
        if record.seats[turn].kind != "bot":
            count("TurnsTimedOut")
    raise refusal


def _check_commit(record: GameRecord, seat: int, request: CommitRequest) -> None:
    if request.expected_move != record.state.move_count:
        raise conflict(
            "stale-move",
            f"The game is at move {record.state.move_count}, not {request.expected_move}: "
            "reload it and commit again.",
        )
    if record.state.seats[seat].out:
        raise forbidden("seat-out", "Your seat is out of this game.")
    if record.state.turn != seat:
        raise forbidden("not-your-turn", f"It is seat {record.state.turn}'s turn, not yours.")


def _play(
    record: GameRecord, seat: int, request: CommitRequest, now: datetime, seed: bytes
) -> tuple[GameRecord, list[dict[str, Any]]]:
    """The caller's move (with its client seed, if it is the game's first) and the replies."""
    seats = record.seats
    if request.client_seed is not None and request.client_seed != seats[seat].client_seed:
        if record.daily is not None:
            raise invalid(
                "daily-client-seed",
                "A daily game is played on the day's field, the same for everyone: send no "
                "client seed.",
            )
        if record.state.move_count > 0:
            raise invalid(
                "client-seed-too-late",
                "The field is fixed by the first move; send no client seed now.",
            )
        updated = list(seats)
        updated[seat] = updated[seat].evolve(client_seed=request.client_seed)
        seats = tuple(updated)
    played = record.evolve(seats=seats)
    rules = rules_for(played.settings.variant)
    field = field_for(played, seats, seed)
    try:
        state, move = rules.play(
            played.state, field, seat, request.action, request.row, request.col
        )
    except IllegalMove as exc:
        raise from_engine(exc) from None
    return conclude(played, state, [move], now, seed, field)


def _replay(
    previous: store.IdempotencyRecord, wanted: str, record: GameRecord, seat: int
) -> dict[str, Any]:
    """What the first request with this key did, answered again as the caller (``seat``) may
    see it: the moves it played (from the log) with the game as it stands now, or its refusal
    raised again."""
    if previous.fingerprint != wanted:
        raise invalid(
            "idempotency-key-reused",
            "This Idempotency-Key was used for a different request; send a new key.",
        )
    if previous.status >= 400:
        raise ApiError(previous.status, str(previous.code), str(previous.message))
    moves = store.list_moves(record.game_id, previous.first_move - 1, previous.last_move)
    finished = record.status == "finished"
    return {"game": game_view(record, seat), "moves": moves_view(moves, seat, finished)}


def _lost_race(
    game_id: str, cred: auth.Credential, key_hash: str | None, wanted: str, seat: int
) -> dict[str, Any]:
    if key_hash is not None:
        previous = store.get_idempotency_record(cred.player_id, key_hash)
        if previous is not None:
            return _replay(previous, wanted, existing(game_id), seat)
    raise conflict("move-conflict", "Another move landed first: reload the game and try again.")
