"""Quick pairing's routes: ``POST /v1/seeks`` (seek, and be paired at once when another open
seek fits), ``GET /v1/seeks`` (the open seeks of a variant), ``GET /v1/seeks/{id}`` and
``DELETE /v1/seeks/{id}`` (the owner's).

A seek is stored first, open, then paired: the request writes the seek, its pool entry and
the owner's lock on the variant in one transaction (refused while another seek of theirs is
open in the variant), reads the pool each way from the seeker's rating (two strongly
consistent ``Query`` calls, a page each), and tries the fitting seeks nearest in rating first.
Each try is one transaction that writes the new game and both seeks as paired, conditioned on
both still being open. So of any two seeks that fit, the one stored second sees the first
(the reads are consistent and come after its own write): two seeks that fit are never both
left open, however many requests race, and no seek is ever in two games. The costs are in
docs/cost.md ("Quick pairing").
"""

from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from mineduel_engine import Settings
from mineduel_engine.settings import DEFAULT_LEVEL

from ..contract.pairing import SeekRequest
from ..games import writes
from ..games.record import GameRecord, Seat
from ..lobby.errors import VariantNotRated
from ..lobby.new_games import new_game
from ..people.errors import FairPlayRestricted
from ..people.identity import account_only
from ..people.profiles import new_profile
from ..people.store import parse_profile
from ..platform import auth, clock, pagination
from ..platform.dynamo import WriteConflict
from ..platform.observability import count, logger
from ..play.advance import follow_schedule
from ..ratings.model import RATED_VARIANTS, new_rating, system_for
from ..ratings.store import parse_rating
from . import store
from .errors import (
    BadRatingRange,
    SeekNotFound,
    SeekNotOpen,
    SeekOpen,
)
from .matching import nearest_first, window
from .store import Seek

LIVE_DEADLINE_S = 3600
"""Games with a shorter move deadline are played live: their seeks wait a short while."""
LIVE_LIFETIME_S = 600
"""A live game's seek waits ten minutes: its player is at the screen, or gone."""
CORRESPONDENCE_LIFETIME_S = 86400
"""A correspondence game's seek (a move deadline of an hour or more) waits a day: its player
is told when it is paired, wherever they are."""
CANDIDATES = 20
"""Pool entries read each way from the seeker's rating (one ``Query`` page each)."""
MAX_PAGES = 10
"""Pages read each way while none of the seeks read fits (200 entries a way at most)."""
ATTEMPTS = 12
"""Pairing transactions one request tries at most; each one that fails means the seek it
tried was paired with someone else (or cancelled) meanwhile."""


@dataclass(frozen=True)
class SeekAnswer:
    """A new seek as stored, and whether it was paired in the same request."""

    seek: dict[str, Any]
    paired: bool


@dataclass(frozen=True)
class Seeker:
    """What a seek needs to know about its owner, from one read."""

    name: str
    rating: int | None
    restricted: bool
    open_seek: str | None


# ---------------------------------------------------------------------------- the views
def seek_view(seek: Seek, now: datetime, *, listed: bool = False) -> dict[str, Any]:
    """The API's Seek (``listed``: as the list of open seeks shows it, with the owner's name)."""
    view: dict[str, Any] = {
        "seek_id": seek.seek_id,
        "variant": seek.variant,
        "move_deadline_s": seek.move_deadline_s,
        "rated": seek.rated,
        "rating_range": list(seek.rating_range) if seek.rating_range else None,
        "status": seek.status_at(now),
        "game_id": seek.game_id,
        "expires_at": seek.expires_at,
        "created_at": seek.created_at,
        "rating": seek.rating,
    }
    if listed:
        view["name"] = seek.name
    return view


# ---------------------------------------------------------------------------- seeking
def lifetime_of(move_deadline_s: int) -> int:
    """How long a seek for games of this move deadline waits."""
    return LIVE_LIFETIME_S if move_deadline_s < LIVE_DEADLINE_S else CORRESPONDENCE_LIFETIME_S


def create_seek(caller: auth.Caller, request: SeekRequest) -> SeekAnswer:
    """``POST /v1/seeks``: store the seek, then pair it with the nearest open seek that fits."""
    account_only(caller)
    Settings.for_variant(request.variant, seats=2)  # an unknown variant is refused here
    rating_range = _checked_range(request)
    now = clock.now()
    seeker = _seeker(caller.player_id, request.variant, now)
    if request.rated and seeker.restricted:
        raise FairPlayRestricted()
    if seeker.open_seek is not None:
        raise SeekOpen(
            f"You already have an open seek in {request.variant} ({seeker.open_seek}); "
            "cancel it first."
        )
    seek = Seek(
        seek_id=str(uuid.uuid4()),
        player_id=caller.player_id,
        name=seeker.name,
        variant=request.variant,
        move_deadline_s=request.move_deadline_s,
        rated=request.rated,
        rating=seeker.rating,
        rating_range=rating_range,
        created_at=clock.iso(now),
        expires_at=store.expiry_after(now, lifetime_of(request.move_deadline_s)),
    )
    store.open_seek(seek)
    count("SeeksOpened")
    # Found nothing to pair with: the seek may have been paired meanwhile by the very seek it
    # would have found (whose request looked first), so it is read once more before it is
    # answered as open.
    paired = _match(seek) or _reread(seek)
    return SeekAnswer(seek_view(paired or seek, clock.now()), paired is not None)


def _checked_range(request: SeekRequest) -> tuple[int, int] | None:
    if request.rated and system_for(request.variant) is None:
        rated = ", ".join(sorted(RATED_VARIANTS))
        raise VariantNotRated(f"{request.variant} has no ratings; rated games are: {rated}.")
    if request.rating_range is None:
        return None
    if system_for(request.variant) is None:
        raise VariantNotRated(
            f"{request.variant} has no ratings to pair by: send rating_range null."
        )
    low, high = request.rating_range
    if low > high:
        raise BadRatingRange()
    return low, high


def _seeker(player_id: str, variant: str, now: datetime) -> Seeker:
    """The seeker's name, displayed rating in ``variant`` (a new player's when they have
    none), restriction and open seek there: one consistent ``BatchGetItem``."""
    system = system_for(variant)
    found = store.seeker_items(player_id, variant, rated_variant=system is not None)
    profile = (
        parse_profile(player_id, found.profile)
        if found.profile
        else new_profile(player_id, "account")
    )
    rating: int | None = None
    if system is not None:
        stored = found.rating
        rating = (parse_rating(stored) if stored else new_rating(player_id, system)).skill.rating
    lock = store.open_lock(found.lock, now)
    return Seeker(profile.display_name, rating, profile.restricted, lock)


# ---------------------------------------------------------------------------- pairing
class _TheirsGone(Exception):
    """The seek tried was paired, cancelled or expired meanwhile: try the next."""


class _MineGone(Exception):
    """The seek being paired was itself paired (or cancelled) meanwhile."""


def _match(seek: Seek) -> Seek | None:
    """Pair the open ``seek`` with the nearest open seek that fits: the seek as paired, or
    None when none fits now (it stays open), or when it was paired meanwhile by another
    request (then read again: the answer shows that pairing)."""
    tried: set[str] = set()
    game: GameRecord | None = None
    attempts = 0
    more = True
    while more and attempts < ATTEMPTS:
        now = clock.now()
        candidates, more = _candidates(seek, now)
        fresh = [c for c in candidates if c.seek_id not in tried]
        if not fresh:
            return None
        for theirs in fresh:
            if attempts >= ATTEMPTS:
                break
            attempts += 1
            tried.add(theirs.seek_id)
            game = _game(seek, theirs, game)
            try:
                return _pair(seek, theirs, game, clock.now())
            except _TheirsGone:
                continue
            except _MineGone:
                return _reread(seek)
    return None


def _candidates(seek: Seek, now: datetime) -> tuple[list[Seek], bool]:
    """The open seeks that fit ``seek``, nearest first, from a page of the pool each way from
    its rating, and the next pages while none of those read fits (seeks in the range whose own
    range does not take the seeker are read and skipped: a crowd of them never hides one that
    fits, up to ``MAX_PAGES`` a way); and whether either way has pages not read."""
    low, high = window(seek)
    mine = seek.rating or 0
    sides: list[tuple[int, int, bool, dict[str, Any] | None]] = []
    if max(low, mine) <= high:
        sides.append((max(low, mine), high, True, None))
    if low <= min(high, mine - 1):
        sides.append((low, min(high, mine - 1), False, None))
    found: list[Seek] = []
    fitting: list[Seek] = []
    for _ in range(MAX_PAGES):
        unread: list[tuple[int, int, bool, dict[str, Any] | None]] = []
        for side_low, side_high, upward, start in sides:
            page, last = store.pool_side(
                seek, side_low, side_high, upward=upward, limit=CANDIDATES, start=start
            )
            found += page
            if last is not None:
                unread.append((side_low, side_high, upward, last))
        sides = unread
        fitting = nearest_first(seek, found, now)
        if fitting or not sides:
            break
    return fitting, bool(sides)


def _game(mine: Seek, theirs: Seek, previous: GameRecord | None) -> GameRecord:
    """The game two seeks make: two account seats in a random order (moving first is a
    disadvantage). One seed per request: a try that failed wrote nothing, so the next try
    reuses its game id and seed with the new seats."""
    seats = [
        Seat(kind="account", player_id=mine.player_id, name=mine.name),
        Seat(kind="account", player_id=theirs.player_id, name=theirs.name),
    ]
    if secrets.randbelow(2):
        seats.reverse()
    if previous is not None:
        return previous.evolve(seats=tuple(seats))
    settings = Settings.for_variant(mine.variant, seats=2)
    return new_game(settings, tuple(seats), mine.move_deadline_s, mine.rated, DEFAULT_LEVEL)


def _pair(mine: Seek, theirs: Seek, game: GameRecord, now: datetime) -> Seek:
    """One transaction: the game (with its players' running-game items) and both seeks paired
    into it, each conditioned on being open; ``_TheirsGone`` or ``_MineGone`` when one was
    not."""
    at = clock.iso(now)
    paired_mine = mine.evolve(status="paired", game_id=game.game_id, paired_at=at, answered=True)
    paired_theirs = theirs.evolve(status="paired", game_id=game.game_id, paired_at=at)
    extra = store.pairing_ops(mine, paired_mine, theirs, paired_theirs, now)
    try:
        writes.persist(game, None, extra=extra)
    except WriteConflict as exc:
        if store.mine_refused(exc):
            raise _MineGone() from None
        raise _TheirsGone() from None
    follow_schedule(None, game)
    count("SeeksPaired")
    count("GamesCreated")
    logger.info("seeks paired", extra={"game_id": game.game_id, "rated": game.rated})
    return paired_mine


def _reread(seek: Seek) -> Seek | None:
    """The seek as stored now, if it is no longer open (paired by another request)."""
    found = store.get_seek(seek.player_id, seek.seek_id)
    return found if found is not None and found.status != "open" else None


# ---------------------------------------------------------------------------- the owner's
def _owned(caller: auth.Caller, seek_id: str) -> Seek:
    account_only(caller)
    found = store.get_seek(caller.player_id, seek_id) if _plausible(seek_id) else None
    if found is None:
        raise SeekNotFound()
    return found


def _plausible(seek_id: str) -> bool:
    try:
        return str(uuid.UUID(seek_id)) == seek_id
    except ValueError:
        return False


def get_seek(caller: auth.Caller, seek_id: str) -> dict[str, Any]:
    """``GET /v1/seeks/{id}``: the caller's seek. An open one is tried against the pool again
    first, so a seek is paired even if the request that stored it never got to (a crash)."""
    seek = _owned(caller, seek_id)
    if seek.open_at(clock.now()):
        seek = _match(seek) or store.get_seek(caller.player_id, seek_id) or seek
    return seek_view(seek, clock.now())


def cancel_seek(caller: auth.Caller, seek_id: str) -> dict[str, Any]:
    """``DELETE /v1/seeks/{id}``: the caller's open seek, cancelled; ``SeekNotOpen`` once it
    was paired, cancelled or expired."""
    seek = _owned(caller, seek_id)
    now = clock.now()
    if not seek.open_at(now):
        raise _not_open(seek, now)
    cancelled = seek.evolve(status="cancelled")
    if not store.close_seek(seek, cancelled, now):
        found = store.get_seek(caller.player_id, seek_id) or seek
        raise _not_open(found, clock.now())
    count("SeeksCancelled")
    return seek_view(cancelled, now)


def _not_open(seek: Seek, now: datetime) -> SeekNotOpen:
    status = seek.status_at(now)
    if status == "paired":
        return SeekNotOpen(f"The seek was paired into game {seek.game_id}.")
    return SeekNotOpen(f"The seek is {status}.")


# ---------------------------------------------------------------------------- the list
def open_seeks(variant: str, cursor: str | None, limit: int) -> dict[str, Any]:
    """``GET /v1/seeks?variant=``: a page of the variant's open seeks, by move deadline, rated
    and rating (one ``Query``)."""
    kind = f"seeks-{variant}"
    start = pagination.dynamo_key(pagination.decode(kind, cursor))
    found, last = store.open_seeks(variant, start, limit)
    now = clock.now()
    seeks = [seek_view(seek, now, listed=True) for seek in found]
    position = pagination.key_position(last)
    return {"seeks": seeks, "next": None if position is None else pagination.encode(kind, position)}
