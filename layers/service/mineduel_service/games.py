"""The use cases the handlers call, one each, and the commit path: exactly once, atomically.

A commit reads the game once (with the caller's idempotency record, when a key is sent),
computes the whole outcome in memory with the engine (the caller's move and every bot reply),
writes it in one conditional transaction and points the game's schedule at the next deadline.
The other use cases live in ``identity`` (guests), ``lobby`` (create, join) and ``reads``.
"""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from mineduel_engine import rules_for
from mineduel_engine.errors import IllegalMove

from . import auth, clock, crypto, store
from .config import get_config
from .errors import conflict, forbidden, from_engine, invalid, not_found
from .identity import credential, register_guest, seat_of
from .lobby import create_game, join_game
from .models import CommitRequest
from .observability import count
from .reads import existing, get_game, list_moves, plausible_id, verification
from .records import GameRecord
from .turns import conclude, field_for, rearm, seed_if_needed, time_out
from .views import game_view

IDEMPOTENCY_KEY_MAX = 255

__all__ = [
    "Answer",
    "commit_move",
    "create_game",
    "expire_turn",
    "get_game",
    "join_game",
    "list_moves",
    "register_guest",
    "resign",
    "verification",
]


@dataclass(frozen=True)
class Answer:
    """A use case's HTTP answer: status and JSON body."""

    status: int
    body: dict[str, Any]


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
) -> Answer:
    """Play the caller's armed move and every bot reply it triggers, exactly once."""
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
        return _replay(previous, wanted, record)
    _check_commit(record, seat, request)
    seed = crypto.decrypt_seed(record.seed_ciphertext, game_id)
    late = record.deadline is not None and now >= clock.parse_iso(record.deadline)
    if late:
        after, moves = time_out(record, seat, now, seed)
        answer = Answer(
            409,
            conflict(
                "deadline-passed",
                f"Your move deadline passed at {record.deadline}; your seat is out.",
            ).body(),
        )
    else:
        after, moves = _play(record, seat, request, now, seed)
        answer = Answer(200, {"game": game_view(after), "moves": moves})
    idempotency = None
    if key_hash is not None:
        stored = store.IdempotencyRecord(wanted, answer.status, _without_seed(answer.body))
        expires = int(now.timestamp()) + get_config().idempotency_ttl_s
        idempotency = store.IdempotencyWrite(cred.player_id, key_hash, stored, expires)
    try:
        store.commit(after, record, moves, idempotency)
    except store.WriteConflict:
        return _lost_race(game_id, cred, key_hash, wanted)
    rearm(after)
    count("MovesCommitted", len(moves))
    return answer


def _check_commit(record: GameRecord, seat: int, request: CommitRequest) -> None:
    if record.status != "active":
        raise conflict("game-not-active", f"The game is {record.status}; no move can be played.")
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
        if record.state.move_count > 0:
            raise invalid(
                "client-seed-too-late",
                "The field is fixed by the first move; send no client seed now.",
            )
        updated = list(seats)
        updated[seat] = updated[seat].evolve(client_seed=request.client_seed)
        seats = tuple(updated)
    record = record.evolve(seats=seats)
    rules = rules_for(record.settings.variant)
    field = field_for(record, seats, seed)
    try:
        state, move = rules.play(
            record.state,
            field,
            seat,
            request.action,
            request.row,
            request.col,
        )
    except IllegalMove as exc:
        raise from_engine(exc) from None
    return conclude(record, state, [move], now, seed, field)


def _replay(previous: store.IdempotencyRecord, wanted: str, record: GameRecord) -> Answer:
    """The first answer to this key, with the seed filled in again if that game is finished."""
    if previous.fingerprint != wanted:
        raise invalid(
            "idempotency-key-reused",
            "This Idempotency-Key was used for a different request; send a new key.",
        )
    body = copy.deepcopy(previous.body)
    game = body.get("game")
    if isinstance(game, dict) and game.get("status") == "finished":
        game["seed"] = record.seed_hex
    return Answer(previous.status, body)


def _lost_race(game_id: str, cred: auth.Credential, key_hash: str | None, wanted: str) -> Answer:
    if key_hash is not None:
        previous = store.get_idempotency_record(cred.player_id, key_hash)
        if previous is not None:
            return _replay(previous, wanted, existing(game_id))
    raise conflict("move-conflict", "Another move landed first: reload the game and try again.")


def _without_seed(body: dict[str, Any]) -> dict[str, Any]:
    """A copy safe to store: a finished game's seed is put back from the game item on replay."""
    stored = copy.deepcopy(body)
    if isinstance(stored.get("game"), dict):
        stored["game"]["seed"] = None
    return stored


# ---------------------------------------------------------------------------- resign and expire
def resign(token: str | None, game_id: str) -> dict[str, Any]:
    """Put the caller's seat out; the game goes on among the others or ends."""
    cred = credential(token)
    now = clock.now()
    record = existing(game_id)
    seat = seat_of(record, cred, now)
    if record.status != "active":
        raise conflict(
            "game-not-active", f"The game is {record.status}; there is nothing to resign."
        )
    try:
        state, move = rules_for(record.settings.variant).eliminate(record.state, seat, "resign")
    except IllegalMove as exc:
        raise from_engine(exc) from None
    seed = seed_if_needed(record, state)
    after, moves = conclude(record, state, [move], now, seed)
    try:
        store.commit(after, record, moves)
    except store.WriteConflict:
        raise conflict("move-conflict", "The game changed at the same moment; try again.") from None
    rearm(after)
    return game_view(after)


def expire_turn(game_id: str, move_count: int, deadline: str) -> str:
    """Time out the seat to move if its deadline has passed; say what happened.

    Idempotent: a delivery for another move (stale or repeated) or before the deadline (early)
    changes nothing in the game; it only makes sure the current turn has its schedule. A due
    bot seat is not timed out but plays on (``turns.conclude``): ``bots-moved``.
    """
    record = store.get_game(game_id) if plausible_id(game_id) else None
    if record is None or record.status != "active":
        return "ignored"
    if record.state.move_count != move_count or record.deadline != deadline:
        rearm(record)
        return "stale"
    now = clock.now()
    if record.deadline is None or now < clock.parse_iso(record.deadline):
        rearm(record)
        return "early"
    seat = record.state.turn
    if seat is None:
        return "ignored"
    after, moves = time_out(record, seat, now, None)
    try:
        store.commit(after, record, moves)
    except store.WriteConflict:
        return "raced"
    rearm(after)
    if record.seats[seat].kind == "bot":
        return "bots-moved"
    count("TurnsTimedOut")
    return "timed-out"
