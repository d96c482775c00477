"""Starting games: create (seat 0 is the creator, bots fill the last seats, the others are open
or reserved for invited players), join (the last seat taken starts the game) and rematch.

A new game's record, with its fresh seed, comes from ``new_games`` (quick pairing makes its
games there too).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mineduel_engine import Settings
from mineduel_engine.settings import BOT_LEVELS

from ..contract.lobby import CreateGameRequest, JoinRequest
from ..games import store, writes
from ..games.current import existing
from ..games.deadlines import deadline_after
from ..games.errors import GameNotFinished
from ..games.record import GameRecord, Seat
from ..games.seats import seat_of
from ..games.views import game_view
from ..people.errors import PlayerNotFound
from ..people.identity import authenticate
from ..people.names import display_name
from ..people.profiles import USERNAME
from ..people.store import get_profile, owner_of
from ..platform import auth, clock
from ..platform.observability import count, logger
from ..play.advance import follow_schedule
from ..ratings.model import RATED_VARIANTS, system_for
from .errors import (
    BadInvite,
    GameNotWaiting,
    GuestsPlayBotsOnly,
    JoinConflict,
    NoOpenSeat,
    TooManyBots,
    TooManyInvites,
    UnknownBotLevel,
    UnratedSeat,
    VariantNotRated,
)
from .new_games import new_game, seat_for

ATTEMPTS = 3


@dataclass(frozen=True)
class Invitee:
    """A player invited by username: the name as they own it, and their player id."""

    username: str
    player_id: str


def create_game(caller: auth.Caller, request: CreateGameRequest) -> dict[str, Any]:
    """A new game: seat 0 is the caller, bots fill the last seats, the others are open."""
    settings = Settings.for_variant(request.variant, seats=request.seats, options=_options(request))
    _check_create(caller, request)
    invitees = _invitees(caller, request.invite)
    creator = seat_for(caller, display_name(caller, rated=request.rated))
    seats = _seats(creator, invitees, request)
    record = new_game(settings, seats, request.move_deadline_s, request.rated, request.bot_level)
    writes.persist(record, None)
    # No schedule: the caller is the only person seated, so a game that starts at once (against
    # bots) has nobody waiting on its turns (the sweeper ends them, ``advance.follow_schedule``);
    # one with seats to fill gets its first schedule when the last person joins.
    count("GamesCreated")
    logger.info("game created", extra={"game_id": record.game_id, "seats": request.seats})
    return game_view(record, 0)


def _options(request: CreateGameRequest) -> dict[str, Any]:
    """The creation options: the ``options`` object, and the options api.md also takes at the
    top level (``bomb_when_behind``); the engine refuses any the variant does not have."""
    options: dict[str, Any] = dict(request.options or {})
    if request.bomb_when_behind is not None:
        options["bomb_when_behind"] = request.bomb_when_behind
    return options


def _reserved(invitee: Invitee) -> Seat:
    return Seat(
        kind="open",
        name=f"Reserved for {invitee.username}",
        reserved_for=invitee.username,
        reserved_id=invitee.player_id,
    )


def _bot(level: str) -> Seat:
    return Seat(kind="bot", player_id=f"bot-{level}", name=f"Bot ({level})")


def _seats(creator: Seat, invitees: list[Invitee], request: CreateGameRequest) -> tuple[Seat, ...]:
    """Seat 0 for the creator, reserved seats for the invited, open ones next, bots last."""
    humans = request.seats - 1 - request.bots
    reserved = [_reserved(invitee) for invitee in invitees]
    open_seats = [Seat("open")] * (humans - len(reserved))
    return (creator, *reserved, *open_seats, *[_bot(request.bot_level)] * request.bots)


def _check_create(caller: auth.Caller, request: CreateGameRequest) -> None:
    if request.bots > request.seats - 1:
        raise TooManyBots()
    if request.bot_level not in BOT_LEVELS:
        raise UnknownBotLevel(f"Choose a bot level from {', '.join(BOT_LEVELS)}.")
    if len(request.invite) > request.seats - 1 - request.bots:
        raise TooManyInvites()
    if caller.kind == "guest" and request.bots != request.seats - 1:
        raise GuestsPlayBotsOnly("Guests may only play bots: fill every other seat with a bot.")
    if request.rated:
        _check_rated(caller, request)


def _check_rated(caller: auth.Caller, request: CreateGameRequest) -> None:
    """A rated game is in a variant with ratings and every seat is an account: guests and bots
    are never rated (open seats only take accounts: guests cannot join)."""
    if system_for(request.variant) is None:
        rated = ", ".join(sorted(RATED_VARIANTS))
        raise VariantNotRated(f"{request.variant} has no ratings; rated games are: {rated}.")
    if caller.kind != "account":
        raise UnratedSeat("Guests play unrated games; sign in to play rated.")
    if request.bots:
        raise UnratedSeat("Bots are never rated: a rated game has no bot seats.")


def _invitees(caller: auth.Caller, names: list[str]) -> list[Invitee]:
    """The invited players, by username (``PlayerNotFound`` for a name nobody has,
    ``BadInvite`` for oneself or twice)."""
    found: list[Invitee] = []
    for raw in names:
        name = raw.strip()
        if not USERNAME.fullmatch(name):
            raise BadInvite(f"{name[:24]!r} is not a username (3 to 20 letters, digits, _ or -).")
        player_id = owner_of(name)
        if player_id is None:
            raise PlayerNotFound()
        if player_id == caller.player_id:
            raise BadInvite("Invite other players, not yourself.")
        if any(invitee.player_id == player_id for invitee in found):
            raise BadInvite("Invite each player once.")
        profile = get_profile(player_id)
        found.append(Invitee(profile.username if profile and profile.username else name, player_id))
    return found


def join_game(caller: auth.Caller, game_id: str, request: JoinRequest) -> dict[str, Any]:
    """Take an open seat (idempotent for a seat already held); the last one starts the game."""
    if caller.kind == "guest":
        raise GuestsPlayBotsOnly("Guests may only play bots; sign in to join games.")
    name: str | None = None  # read once, however often the write is tried

    def attempt() -> dict[str, Any]:
        nonlocal name
        record = existing(game_id)
        held = [i for i, seat in enumerate(record.seats) if seat.player_id == caller.player_id]
        if held:
            return game_view(record, held[0])
        if record.status != "waiting":
            raise GameNotWaiting(f"The game is {record.status}; its seats are no longer open.")
        index = _open_seat(record, caller.player_id)
        name = name or display_name(caller, rated=record.rated)
        seats = list(record.seats)
        seats[index] = seat_for(caller, name, request.client_seed or "")
        full = all(seat.kind != "open" for seat in seats)
        now = clock.now()
        after = record.evolve(
            seats=tuple(seats),
            status="active" if full else "waiting",
            deadline=deadline_after(now, record.move_deadline_s) if full else None,
            lapses_at=None if full else record.lapses_at,
        )
        after = writes.persist(after, record)
        follow_schedule(record, after)
        return game_view(after, index)

    return store.until_written(attempt, ATTEMPTS, JoinConflict)


def _open_seat(record: GameRecord, player_id: str) -> int:
    """The seat reserved for the player, else the first open one nobody is invited to."""
    for index, seat in enumerate(record.seats):
        if seat.kind == "open" and seat.reserved_id == player_id:
            return index
    for index, seat in enumerate(record.seats):
        if seat.kind == "open" and seat.reserved_id is None:
            return index
    raise NoOpenSeat()


def rematch(cred: auth.Credential, game_id: str) -> dict[str, Any]:
    """A new game with the same settings and people, the people's seats rotated by one (bots
    keep the last seats, so a person always moves first); the others are invited.

    The caller is checked against the finished game's seat first, and only then (to seat them
    in the new game) against their guest item: a request that is refused for the game reads no
    guest."""
    now = clock.now()
    previous = existing(game_id)
    seat_of(previous, cred, now)
    if previous.status != "finished":
        raise GameNotFinished("A rematch starts once the game is finished.")
    caller = authenticate(cred)
    people = [i for i, seat in enumerate(previous.seats) if seat.kind != "bot"]
    order = people[1:] + people[:1]
    seats: list[Seat] = []
    for index in order:
        seat = previous.seats[index]
        if seat.player_id == caller.player_id:
            seats.append(seat_for(caller, display_name(caller, rated=previous.rated)))
        elif seat.kind == "account" and seat.player_id:
            profile = get_profile(seat.player_id)
            username = profile.username if profile and profile.username else seat.name
            seats.append(_reserved(Invitee(username, seat.player_id)))
        else:
            seats.append(Seat("open"))
    seats.extend(seat for seat in previous.seats if seat.kind == "bot")
    mine = next(i for i, seat in enumerate(seats) if seat.player_id == caller.player_id)
    record = new_game(
        previous.settings,
        tuple(seats),
        previous.move_deadline_s,
        previous.rated,
        previous.bot_level,
        rematch_of=previous.game_id,
        creator_seat=mine,
    )
    writes.persist(record, None)
    # No schedule, as for a new game: only the caller is seated (the others are invited).
    count("GamesCreated")
    return game_view(record, mine)
