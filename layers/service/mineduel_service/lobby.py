"""Creating and joining games: seat 0 is the creator, bots fill the last seats, the others are
open (or reserved by invitation) until accounts join; the last one starts the game.

A new game's seed is made here and immediately encrypted; only its commitment stays in the clear.
"""

from __future__ import annotations

import uuid
from typing import Any

from mineduel_engine import Settings, commitment, rules_for
from mineduel_engine.bot import BOT_LEVELS

from . import auth, clock, crypto, store, writes
from .deadlines import deadline_after
from .errors import conflict, forbidden, invalid
from .identity import authenticate
from .models import CreateGameRequest, JoinRequest
from .observability import count, logger
from .reads import existing
from .records import GameRecord, Seat
from .turns import follow_schedule
from .views import game_view


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
    seats = _seats(caller, request)
    active = all(seat.kind != "open" for seat in seats)
    record = GameRecord(
        game_id=game_id,
        state=rules_for(settings.variant).new_game(settings),
        seats=seats,
        status="active" if active else "waiting",
        commitment=public_commitment,
        seed_ciphertext=ciphertext,
        move_deadline_s=request.move_deadline_s,
        rated=request.rated,
        bot_level=request.bot_level,
        created_at=clock.iso(now),
        deadline=deadline_after(now, request.move_deadline_s) if active else None,
    )
    writes.persist(record, None)
    follow_schedule(None, record)
    count("GamesCreated")
    logger.info("game created", extra={"game_id": game_id, "seats": request.seats})
    return game_view(record)


def _seats(caller: auth.Caller, request: CreateGameRequest) -> tuple[Seat, ...]:
    """Seat 0 for the caller, open seats (reserved when invited) next, bots in the last seats."""
    creator = Seat(
        kind=caller.kind,
        player_id=caller.player_id,
        name=caller.name,
        token_hash=caller.token_hash,
        token_expires=caller.expires_at,
    )
    invites = [name.strip() for name in request.invite]
    open_seats = [
        Seat(kind="open", name=f"Reserved for {name}", reserved_for=name) if name else Seat("open")
        for name in (invites + [""] * request.seats)[: request.seats - 1 - request.bots]
    ]
    level = request.bot_level
    bots = [Seat(kind="bot", player_id=f"bot-{level}", name=f"Bot ({level})")] * request.bots
    return (creator, *open_seats, *bots)


def _check_create(caller: auth.Caller, request: CreateGameRequest) -> None:
    if request.bots > request.seats - 1:
        raise invalid("too-many-bots", "Leave seat 0 for yourself: bots must be fewer than seats.")
    if request.bot_level not in BOT_LEVELS:
        raise invalid("unknown-bot-level", f"Choose a bot level from {', '.join(BOT_LEVELS)}.")
    if len(request.invite) > request.seats - 1 - request.bots:
        raise invalid("too-many-invites", "Invite at most one player per open seat.")
    if any(not 1 <= len(name.strip()) <= 128 for name in request.invite):
        raise invalid("bad-invite", "Each invited username must be 1 to 128 characters.")
    names = [name.strip().casefold() for name in request.invite]
    if len(set(names)) != len(names) or caller.name.casefold() in names:
        raise invalid("bad-invite", "Invite each other player once, and not yourself.")
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
        record = existing(game_id)
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
            seats=seats,
            status="active" if full else "waiting",
            deadline=deadline_after(now, record.move_deadline_s) if full else None,
            version=record.version + 1,
        )
        try:
            writes.persist(after, record)
        except store.WriteConflict:
            continue
        follow_schedule(record, after)
        return game_view(after)
    raise conflict("join-conflict", "Others joined at the same moment; try again.")


def _open_seat(record: GameRecord, name: str) -> int:
    for index, seat in enumerate(record.seats):
        if seat.kind != "open":
            continue
        if seat.reserved_for is None or seat.reserved_for.casefold() == name.casefold():
            return index
    raise conflict("no-open-seat", "Every seat is taken or reserved for someone else.")
