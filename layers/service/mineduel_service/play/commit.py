"""Committing a move: exactly once, atomically, never past the deadline.

A commit reads as five steps, each a function with one job:

1. **load** (``load``): the game, with the first answer to the caller's key when one is sent, in
   one read; the caller checked against the game's seat; every refusal before anything is
   played (``check``, which writes nothing; a late commit's timeout is then recorded by
   ``record_late_commit`` and refused);
2. **decide** (``decide``): the engine plays the caller's move on the field and every bot
   reply it triggers, in memory (``advance.after_moves``);
3. **write** (``advance.write``): one conditional transaction, so of racing commits exactly
   one lands (a game left to bots alone plays on in further writes);
4. **schedule** (``advance.follow_schedule``): the next turn's schedule, when someone waits;
5. **count** (``advance.count_result``): a game the move ended is counted into its players'
   statistics and ratings.

It answers with the game as its own writes stored it, and every move this request played, as
stored (a game left to bots alone plays on in further writes: their moves are in the answer
too, and in a retry's). Not
with the result counted: counting is a transaction of its own, made after the commit's and
finished by the sweeper within a minute when it fails, and the commit's answer must be the same
whichever way that goes. So the commit that ends a rated game answers with ``rating_before``
and ``rating_after`` still null; the next read of the game (and a retry with the same
Idempotency-Key, which answers with the game as it stands then) shows them.

A commit that arrives after the turn's deadline never plays: the seat to move is out whether or
not the schedule has fired, so the commit records that timeout itself (the same write the expiry
function would make) and is refused. This holds for a commit from any seat: the game reads as
timed out the moment anyone touches it after the deadline.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from mineduel_engine import rules_for

from ..contract.moves import CommitRequest
from ..games import store
from ..games.current import existing
from ..games.deadlines import overdue
from ..games.errors import GameNotFound
from ..games.record import GameRecord
from ..games.seats import seat_of
from ..games.views import game_view, moves_view
from ..platform import auth, clock, crypto
from ..platform.config import get_config
from ..platform.dynamo import WriteConflict
from ..platform.errors import Refusal
from ..platform.observability import count
from . import advance
from .errors import (
    BadIdempotencyKey,
    ClientSeedTooLate,
    DailyClientSeed,
    DeadlinePassed,
    GameNotActive,
    IdempotencyKeyReused,
    MoveConflict,
    NotYourTurn,
    RefusedBefore,
    SeatOut,
    StaleMove,
    TurnTimedOut,
)

IDEMPOTENCY_KEY_MAX = 255


def commit_move(
    cred: auth.Credential, game_id: str, request: CommitRequest, idempotency_key: str | None
) -> dict[str, Any]:
    """Play the caller's armed move and every bot reply it triggers, exactly once.

    Returns docs/api.md's ``{"game", "moves"}``; raises a refusal for everything else (an
    Idempotency-Key retry of a refused commit is refused again the same way).
    """
    now = clock.now()
    key = Keyed.of(cred, game_id, request, idempotency_key, now)
    # 1. load (and refuse)
    record, seat, previous = load(cred, game_id, key, now, request.expected_move)
    if previous is not None:
        return _replay(previous, key, record, seat)
    late = check(record, seat, request, now)
    if late is not None:
        raise record_late_commit(record, late, now, key)
    # 2. decide
    seed = crypto.decrypt_seed(record.seed_ciphertext, game_id)
    after, log = decide(record, seat, request, now, seed)
    # 3. write
    try:
        stored = advance.write(record, after, log, now, seed, key.played(log))
    except WriteConflict:
        return _lost_race(game_id, cred, key, seat, request.expected_move)
    # 4. schedule
    advance.follow_schedule(record, stored.game)
    # 5. count
    advance.count_result(stored.game)
    count("MovesCommitted", len(stored.moves))
    # The answer is what was stored: every move of the request, a bots-only game's further
    # writes included (``advance.write``), never only the first write's.
    return answer(stored.game, stored.moves, seat)


# ---------------------------------------------------------------------------- the key
@dataclass(frozen=True)
class Keyed:
    """A commit's Idempotency-Key as it is kept: whose, its hash (None without a key), the
    request's fingerprint, and when what is kept of it lapses. The first answer is kept as the
    moves it played or the refusal it got, never as a body: a retry's answer is rebuilt from the
    game and its log, which also keeps a finished game's seed out of it."""

    player_id: str
    key_hash: str | None
    fingerprint: str
    expires_at: int

    @classmethod
    def of(
        cls,
        cred: auth.Credential,
        game_id: str,
        request: CommitRequest,
        idempotency_key: str | None,
        now: datetime,
    ) -> Keyed:
        """The key of this request (``BadIdempotencyKey`` for one that is not 1 to 255
        printable ASCII characters)."""
        key_hash = _key_hash(idempotency_key) if idempotency_key is not None else None
        expires = int(now.timestamp()) + get_config().idempotency_ttl_s
        return cls(cred.player_id, key_hash, fingerprint(game_id, request), expires)

    def played(self, log: advance.Log) -> store.IdempotencyWrite | None:
        """What to keep of a commit that played ``log``; None without a key."""
        return self._kept(store.FirstAnswer(self.fingerprint, log[0]["n"], log[-1]["n"]))

    def refused(self, refusal: Refusal) -> store.IdempotencyWrite | None:
        """What to keep of a commit that was refused; None without a key."""
        return self._kept(
            store.FirstAnswer(self.fingerprint, code=refusal.code, message=refusal.message)
        )

    def _kept(self, answer: store.FirstAnswer) -> store.IdempotencyWrite | None:
        if self.key_hash is None:
            return None
        return store.IdempotencyWrite(self.player_id, self.key_hash, answer, self.expires_at)


def fingerprint(game_id: str, request: CommitRequest) -> str:
    """What identifies a commit request for its Idempotency-Key (parsed, so key order is moot)."""
    text = json.dumps({"game_id": game_id, "body": request.model_dump()}, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _key_hash(key: str) -> str:
    if not 1 <= len(key) <= IDEMPOTENCY_KEY_MAX or not key.isprintable() or not key.isascii():
        raise BadIdempotencyKey()
    return hashlib.sha256(key.encode("ascii")).hexdigest()


# ---------------------------------------------------------------------------- 1. load
def load(
    cred: auth.Credential, game_id: str, key: Keyed, now: datetime, expected_move: int
) -> tuple[GameRecord, int, store.FirstAnswer | None]:
    """The game, the caller's seat in it, and what an earlier request with the same key did:
    one read (``GetItem``, or with a key a ``BatchGetItem`` of the game and a refused request's
    record), and a ``Query`` of the log only when the game has moved past ``expected_move``
    (a played request's key rides on the log items of its moves, from ``expected_move + 1``)."""
    if not store.plausible_id(game_id):
        raise GameNotFound()
    if key.key_hash is None:
        record, previous = store.get_game(game_id), None
    else:
        record, previous = store.get_game(game_id, first_answer_to=(cred.player_id, key.key_hash))
    if record is None:
        raise GameNotFound()
    if previous is None and key.key_hash is not None and record.state.move_count > expected_move:
        previous = store.first_answer_in_log(game_id, expected_move, cred.player_id, key.key_hash)
    return record, seat_of(record, cred, now), previous


def check(record: GameRecord, seat: int, request: CommitRequest, now: datetime) -> Refusal | None:
    """Refuse a commit that cannot be played (the game is not running, the client saw another
    move, the seat is out or not to move), or return the refusal of a commit that came after
    the turn's deadline, which the caller records before raising (``record_late_commit``).
    Nothing is written here: every refusal raised is final, and the late one is decided first.
    """
    if record.status != "active":
        raise GameNotActive(f"The game is {record.status}; no move can be played.")
    if overdue(record, now):
        return _late(record, seat)
    if request.expected_move != record.state.move_count:
        raise StaleMove(
            f"The game is at move {record.state.move_count}, not {request.expected_move}: "
            "reload it and commit again."
        )
    if record.state.seats[seat].out:
        raise SeatOut()
    if record.state.turn != seat:
        raise NotYourTurn(f"It is seat {record.state.turn}'s turn, not yours.")
    return None


def _late(record: GameRecord, seat: int) -> Refusal:
    """The refusal of a commit after the turn's deadline, as the caller's seat reads it."""
    turn = record.state.turn
    if turn == seat:
        return DeadlinePassed(f"Your move deadline passed at {record.deadline}; your seat is out.")
    return TurnTimedOut(
        f"Seat {turn} missed its move deadline ({record.deadline}) and is out; "
        "reload the game and commit again."
    )


def record_late_commit(record: GameRecord, refusal: Refusal, now: datetime, key: Keyed) -> Refusal:
    """The turn's deadline has passed: write the timeout (once; a racing expiry may have
    written it already) with the refusal kept under the caller's key, and return the refusal
    for the caller to raise."""
    turn = record.state.turn
    if turn is not None:
        after, log = advance.time_out(record, turn, now, None)
        # If the expiry, a claim or another commit recorded it first, theirs stands.
        with contextlib.suppress(WriteConflict):
            advance.store_outcome(record, after, log, now, None, key.refused(refusal))
        if record.seats[turn].kind != "bot":
            count("TurnsTimedOut")
    return refusal


# ---------------------------------------------------------------------------- 2. decide
def decide(
    record: GameRecord, seat: int, request: CommitRequest, now: datetime, seed: bytes
) -> tuple[GameRecord, advance.Log]:
    """The caller's move (with its client seed, if it is the game's first) and the replies, as
    the engine plays them on the field (an illegal move is the engine's refusal)."""
    seats = record.seats
    if request.client_seed is not None and request.client_seed != seats[seat].client_seed:
        if record.daily is not None:
            raise DailyClientSeed()
        if record.state.move_count > 0:
            raise ClientSeedTooLate()
        updated = list(seats)
        updated[seat] = updated[seat].evolve(client_seed=request.client_seed)
        seats = tuple(updated)
    played = record.evolve(seats=seats)
    rules = rules_for(played.settings.variant)
    field = advance.field_for(played, seats, seed)
    state, move = rules.play(played.state, field, seat, request.action, request.row, request.col)
    return advance.after_moves(played, state, [move], now, seed, field)


# ---------------------------------------------------------------------------- the answer
def answer(record: GameRecord, log: advance.Log, seat: int) -> dict[str, Any]:
    """docs/api.md's ``{"game", "moves"}`` as the caller's seat may see them."""
    finished = record.status == "finished"
    return {"game": game_view(record, seat), "moves": moves_view(log, seat, finished)}


def _replay(
    previous: store.FirstAnswer, key: Keyed, record: GameRecord, seat: int
) -> dict[str, Any]:
    """What the first request with this key did, answered again as the caller (``seat``) may
    see it: the moves it played (from the log) with the game as it stands now, or its refusal
    raised again."""
    if not key.fingerprint.startswith(previous.fingerprint):  # a log item keeps a prefix of it
        raise IdempotencyKeyReused()
    if previous.code is not None:
        raise RefusedBefore(previous.code, str(previous.message))
    if previous.moves is not None:  # found in the log with the key: read once
        log = list(previous.moves)
    else:
        log = store.list_moves(record.game_id, previous.first_move - 1, previous.last_move)
    return answer(record, log, seat)


def _lost_race(
    game_id: str, cred: auth.Credential, key: Keyed, seat: int, expected_move: int
) -> dict[str, Any]:
    """Another write landed first: a duplicate of this request (its key on the log item of the
    move after ``expected_move``) is answered as a retry; anything else is a conflict."""
    if key.key_hash is not None:
        previous = store.first_answer_in_log(game_id, expected_move, cred.player_id, key.key_hash)
        if previous is not None:
            return _replay(previous, key, existing(game_id), seat)
    raise MoveConflict("Another move landed first: reload the game and try again.")
