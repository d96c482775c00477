"""The use cases: register a guest, create, join, read, commit, resign, expire, list, verify.

Handlers call exactly one of these. Each write path reads the game once, computes the whole
outcome (the caller's move and every bot reply) in memory with the engine, then writes it in
one conditional transaction and points the game's schedule at the next deadline. The seed is
decrypted only in ``commit_move``, ``resign`` and ``expire_turn``, and only when the field is
needed; it is published in the game item only once the game is finished.
"""

from __future__ import annotations

import copy
import hashlib
import json
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from aws_lambda_powertools.metrics import MetricUnit
from mineduel_engine import Field, GameState, Move, Settings, commitment, rules_for
from mineduel_engine.bot import BOT_LEVELS
from mineduel_engine.errors import IllegalMove
from mineduel_engine.verify import build_document

from . import auth, clock, crypto, scheduling, store
from .bots import bot_replies, bot_to_move
from .config import get_config
from .errors import conflict, forbidden, from_engine, invalid, not_found, unauthorized
from .models import CommitRequest, CreateGameRequest, JoinRequest
from .observability import logger, metrics
from .records import GameRecord, Seat
from .views import game_view, move_view

IDEMPOTENCY_KEY_MAX = 255


@dataclass(frozen=True)
class Answer:
    """A use case's HTTP answer: status and JSON body."""

    status: int
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)


# ---------------------------------------------------------------------------- who is calling
def register_guest() -> dict[str, Any]:
    """A new guest token (shown once, stored only as its hash) and its expiry."""
    issued = auth.issue_guest_token()
    expires = clock.now() + timedelta(seconds=get_config().guest_token_ttl_s)
    store.put_guest(issued.token_hash, issued.player_id, int(expires.timestamp()))
    metrics.add_metric(name="GuestsIssued", unit=MetricUnit.Count, value=1)
    return {"token": issued.token, "player_id": issued.player_id, "expires_at": clock.iso(expires)}


def authenticate(token: str | None) -> auth.Caller:
    """The verified caller (guests checked against their stored hash and expiry)."""
    if token is None:
        raise unauthorized()
    cred = auth.credential(token)
    if cred.kind == "account":
        return auth.Caller("account", cred.player_id, cred.name)
    guest = store.get_guest(cred.token_hash)
    if guest is None or guest.player_id != cred.player_id:
        raise unauthorized("The guest token is unknown; get one from POST /v1/guests.")
    if guest.expires_at <= clock.now().timestamp():
        raise unauthorized("The guest token has expired; get a new one from POST /v1/guests.")
    return auth.Caller("guest", cred.player_id, cred.name, cred.token_hash, guest.expires_at)


def seat_of(record: GameRecord, cred: auth.Credential, now: datetime) -> int:
    """The seat the credential holds in this game, checked against the game item alone."""
    for index, seat in enumerate(record.seats):
        if seat.kind != cred.kind or seat.player_id != cred.player_id:
            continue
        if cred.kind == "guest":
            if not auth.same_hash(seat.token_hash, cred.token_hash):
                raise unauthorized("The guest token is not valid.")
            if (seat.token_expires or 0) <= now.timestamp():
                raise unauthorized("The guest token has expired; get a new one.")
        return index
    raise forbidden("not-your-seat", "You do not hold a seat in this game.")


def _credential(token: str | None) -> auth.Credential:
    if token is None:
        raise unauthorized()
    return auth.credential(token)


# ---------------------------------------------------------------------------- create and join
def create_game(token: str | None, request: CreateGameRequest) -> dict[str, Any]:
    """A new game: seat 0 is the caller, bots fill the last seats, the others are open."""
    caller = authenticate(token)
    settings = Settings.for_variant(request.variant, seats=request.seats)
    _check_create(caller, request)
    now = clock.now()
    game_id = str(uuid.uuid4())
    seed = crypto.new_seed()
    ciphertext = crypto.encrypt_seed(seed, game_id)
    public_commitment = commitment(seed)
    del seed  # only the ciphertext is kept
    open_count = request.seats - 1 - request.bots
    invites = [name.strip() for name in request.invite]
    seats: list[Seat] = [
        Seat(
            kind=caller.kind,
            player_id=caller.player_id,
            name=caller.name,
            token_hash=caller.token_hash,
            token_expires=caller.expires_at,
        )
    ]
    for i in range(open_count):
        reserved = invites[i] if i < len(invites) else None
        name = f"Reserved for {reserved}" if reserved else "Open seat"
        seats.append(Seat(kind="open", name=name, reserved_for=reserved))
    for _ in range(request.bots):
        seats.append(
            Seat(
                kind="bot", player_id=f"bot-{request.bot_level}", name=f"Bot ({request.bot_level})"
            )
        )
    active = open_count == 0
    record = GameRecord(
        game_id=game_id,
        state=rules_for(settings.variant).new_game(settings),
        seats=tuple(seats),
        status="active" if active else "waiting",
        commitment=public_commitment,
        seed_ciphertext=ciphertext,
        move_deadline_s=request.move_deadline_s,
        rated=request.rated,
        bot_level=request.bot_level,
        created_at=clock.iso(now),
        deadline=_deadline(now, request.move_deadline_s) if active else None,
    )
    store.put_new_game(record)
    if active:
        _rearm(record)
    metrics.add_metric(name="GamesCreated", unit=MetricUnit.Count, value=1)
    logger.info("game created", extra={"game_id": game_id, "seats": request.seats})
    return game_view(record)


def _check_create(caller: auth.Caller, request: CreateGameRequest) -> None:
    if request.bots > request.seats - 1:
        raise invalid("too-many-bots", "Leave seat 0 for yourself: bots must be fewer than seats.")
    if request.bot_level not in BOT_LEVELS:
        raise invalid("unknown-bot-level", f"Choose a bot level from {', '.join(BOT_LEVELS)}.")
    if len(request.invite) > request.seats - 1 - request.bots:
        raise invalid("too-many-invites", "Invite at most one player per open seat.")
    if any(not 1 <= len(name.strip()) <= 128 for name in request.invite):
        raise invalid("bad-invite", "Each invited username must be 1 to 128 characters.")
    if caller.kind == "guest":
        if request.bots != request.seats - 1:
            raise forbidden(
                "guests-play-bots-only",
                "Guests may only play bots: fill every other seat with a bot.",
            )
        if request.rated:
            raise forbidden(
                "guests-play-unrated", "Guests play unrated games; sign in to play rated."
            )


def join_game(token: str | None, game_id: str, request: JoinRequest) -> dict[str, Any]:
    """Take an open seat (idempotent for a seat already held); the last one starts the game."""
    caller = authenticate(token)
    if caller.kind == "guest":
        raise forbidden(
            "guests-play-bots-only", "Guests may only play bots; sign in to join games."
        )
    for _ in range(3):
        record = _existing(game_id)
        if any(seat.player_id == caller.player_id for seat in record.seats):
            return game_view(record)
        if record.status != "waiting":
            raise conflict("game-not-waiting", "The game has already started or finished.")
        index = _open_seat(record, caller.name)
        seats = list(record.seats)
        seats[index] = Seat(
            kind="account",
            player_id=caller.player_id,
            name=caller.name,
            client_seed=request.client_seed or "",
        )
        full = all(seat.kind != "open" for seat in seats)
        now = clock.now()
        after = record.evolve(
            seats=tuple(seats),
            status="active" if full else "waiting",
            deadline=_deadline(now, record.move_deadline_s) if full else None,
            version=record.version + 1,
        )
        try:
            store.replace_game(after, record)
        except store.WriteConflict:
            continue
        if full:
            _rearm(after)
        return game_view(after)
    raise conflict("join-conflict", "Others joined at the same moment; try again.")


def _open_seat(record: GameRecord, name: str) -> int:
    for index, seat in enumerate(record.seats):
        if seat.kind != "open":
            continue
        if seat.reserved_for is None or seat.reserved_for.casefold() == name.casefold():
            return index
    raise conflict("no-open-seat", "Every seat is taken or reserved for someone else.")


# ---------------------------------------------------------------------------- reads
def _existing(game_id: str) -> GameRecord:
    record = store.get_game(game_id) if _plausible_id(game_id) else None
    if record is None:
        raise not_found()
    return record


def _plausible_id(game_id: str) -> bool:
    try:
        return str(uuid.UUID(game_id)) == game_id
    except ValueError:
        return False


def get_game(game_id: str) -> dict[str, Any]:
    """The public view of a game: one read, no KMS."""
    return game_view(_existing(game_id))


def list_moves(game_id: str, after: int) -> dict[str, Any]:
    """The moves numbered above ``after``, oldest first."""
    if not _plausible_id(game_id):
        raise not_found()
    moves = store.list_moves(game_id, after)
    if not moves:
        _existing(game_id)  # an empty page is fine; a missing game is 404
    return {"moves": moves}


def verification(game_id: str) -> dict[str, Any]:
    """The Verification document; the seed only once finished (read from the game, no KMS)."""
    record = _existing(game_id)
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


# ---------------------------------------------------------------------------- commit
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
    cred = _credential(token)
    now = clock.now()
    key_hash = _key_hash(idempotency_key) if idempotency_key is not None else None
    if not _plausible_id(game_id):
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
    seats = record.seats
    if request.client_seed is not None and request.client_seed != seats[seat].client_seed:
        if record.state.move_count > 0:
            raise invalid(
                "client-seed-too-late",
                "The field is fixed by the first move; send no client seed now.",
            )
        seats = _with_client_seed(seats, seat, request.client_seed)
    seed = crypto.decrypt_seed(record.seed_ciphertext, game_id)
    rules = rules_for(record.settings.variant)
    late = record.deadline is not None and now >= clock.parse_iso(record.deadline)
    if late:
        seats = record.seats  # a move that did not happen fixes no client seed
        state, first = rules.eliminate(record.state, seat, "timeout")
    else:
        field_ = _field(record, seats, seed)
        try:
            state, first = rules.play(
                record.state, field_, seat, request.action, request.row, request.col
            )
        except IllegalMove as exc:
            raise from_engine(exc) from None
    after, moves = _conclude(record.evolve(seats=seats), state, [first], now, seed)
    if late:
        answer = Answer(
            409,
            conflict(
                "deadline-passed",
                f"Your move deadline passed at {record.deadline}; your seat is out.",
            ).body(),
        )
    else:
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
    _rearm(after)
    metrics.add_metric(name="MovesCommitted", unit=MetricUnit.Count, value=len(moves))
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


def _with_client_seed(seats: tuple[Seat, ...], seat: int, client_seed: str) -> tuple[Seat, ...]:
    updated = list(seats)
    updated[seat] = updated[seat].evolve(client_seed=client_seed)
    return tuple(updated)


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
            return _replay(previous, wanted, _existing(game_id))
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
    cred = _credential(token)
    now = clock.now()
    record = _existing(game_id)
    seat = seat_of(record, cred, now)
    if record.status != "active":
        raise conflict(
            "game-not-active", f"The game is {record.status}; there is nothing to resign."
        )
    try:
        state, move = rules_for(record.settings.variant).eliminate(record.state, seat, "resign")
    except IllegalMove as exc:
        raise from_engine(exc) from None
    seed = _seed_if_needed(record, state)
    after, moves = _conclude(record, state, [move], now, seed)
    try:
        store.commit(after, record, moves)
    except store.WriteConflict:
        raise conflict("move-conflict", "The game changed at the same moment; try again.") from None
    _rearm(after)
    return game_view(after)


def expire_turn(game_id: str, move_count: int, deadline: str) -> str:
    """Time out the seat to move if its deadline has passed; say what happened.

    Idempotent: a delivery for another move (stale or repeated) or before the deadline (early)
    changes nothing in the game; it only makes sure the current turn has its schedule.
    """
    record = store.get_game(game_id) if _plausible_id(game_id) else None
    if record is None or record.status != "active":
        return "ignored"
    if record.state.move_count != move_count or record.deadline != deadline:
        _rearm(record)
        return "stale"
    now = clock.now()
    if record.deadline is None or now < clock.parse_iso(record.deadline):
        _rearm(record)
        return "early"
    seat = record.state.turn
    if seat is None:
        return "ignored"
    state, move = rules_for(record.settings.variant).eliminate(record.state, seat, "timeout")
    seed = _seed_if_needed(record, state)
    after, moves = _conclude(record, state, [move], now, seed)
    try:
        store.commit(after, record, moves)
    except store.WriteConflict:
        return "raced"
    _rearm(after)
    metrics.add_metric(name="TurnsTimedOut", unit=MetricUnit.Count, value=1)
    return "timed-out"


# ---------------------------------------------------------------------------- shared steps
def _deadline(now: datetime, seconds: int) -> str:
    return clock.iso(now + timedelta(seconds=seconds))


def _field(record: GameRecord, seats: tuple[Seat, ...], seed: bytes) -> Field:
    s = record.settings
    client_seeds = [seat.client_seed for seat in seats]
    return Field.from_seed(seed, record.game_id, client_seeds, s.width, s.height, s.mines)


def _seed_if_needed(record: GameRecord, state: GameState) -> bytes | None:
    """Decrypt only when the field is needed: a bot must move, or the seed must be published."""
    kinds = [seat.kind for seat in record.seats]
    if state.finished or bot_to_move(state, kinds) is not None:
        return crypto.decrypt_seed(record.seed_ciphertext, record.game_id)
    return None


def _conclude(
    record: GameRecord,
    state: GameState,
    moves: list[Move],
    now: datetime,
    seed: bytes | None,
) -> tuple[GameRecord, list[dict[str, Any]]]:
    """Let bots reply, then build the record to store and the moves' log entries."""
    kinds = [seat.kind for seat in record.seats]
    if seed is not None and bot_to_move(state, kinds) is not None:
        field_ = _field(record, record.seats, seed)
        rules = rules_for(record.settings.variant)

        def play(s: GameState, seat: int, row: int, col: int) -> tuple[GameState, Move]:
            return rules.play(s, field_, seat, "tap", row, col)

        state, replies = bot_replies(state, kinds, record.commitment, record.bot_level, play)
        moves = [*moves, *replies]
    finished = state.finished
    turn_moved = any(m.seat == record.state.turn and not m.is_elimination for m in moves) or (
        state.turn != record.state.turn
    )
    if finished:
        deadline = None
    elif turn_moved or record.deadline is None:
        deadline = _deadline(now, record.move_deadline_s)
    else:
        deadline = record.deadline
    after = record.evolve(
        state=state,
        status="finished" if finished else record.status,
        deadline=deadline,
        version=record.version + 1,
        seed_hex=seed.hex() if finished and seed is not None else None,
    )
    at = clock.iso(now)
    return after, [move_view(move, at) for move in moves]


def _rearm(record: GameRecord) -> None:
    """Point the game's schedule at its deadline, or delete it once the game is over.

    A failure here is logged, not raised: the move is already stored, and the commit path
    enforces the deadline itself, so a missing schedule only delays an automatic timeout.
    """
    try:
        if record.status == "finished":
            scheduling.disarm(record.game_id)
        elif record.status == "active" and record.deadline is not None:
            scheduling.arm(
                record.game_id,
                record.state.move_count,
                clock.parse_iso(record.deadline),
                record.deadline,
            )
    except Exception as exc:
        logger.warning(
            "schedule not updated", extra={"game_id": record.game_id, "error": type(exc).__name__}
        )
        metrics.add_metric(name="ScheduleFailures", unit=MetricUnit.Count, value=1)
