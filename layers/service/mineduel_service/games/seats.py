"""Who is calling, checked with as few reads as possible.

``authenticate`` is for requests that do not yet involve a game (create, join): a guest is
checked against its stored item. ``seat_of`` is for requests on a game (commit, resign): the
game item, which those requests read anyway, carries each guest seat's token hash and expiry,
so checking the caller costs no extra read.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from ..platform import auth, clock
from ..platform.config import get_config
from ..platform.errors import ApiError, forbidden, unauthorized
from ..platform.observability import count
from . import store
from .record import GameRecord


def register_guest() -> dict[str, Any]:
    """A new guest token (shown once, stored only as its hash) and its expiry."""
    issued = auth.issue_guest_token()
    expires = clock.now() + timedelta(seconds=get_config().guest_token_ttl_s)
    store.put_guest(issued.token_hash, issued.player_id, int(expires.timestamp()))
    count("GuestsIssued")
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
    if guest.claimed_by is not None:
        raise unauthorized("This guest's games now belong to an account; sign in to it.")
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


def viewer_of(record: GameRecord, token: str | None, now: datetime) -> int | None:
    """The seat a read's caller holds in the game (it sees its own private part), or None for
    anybody else: no token, or a caller without a seat here. A token that is not valid is 401,
    as anywhere."""
    if token is None:
        return None
    cred = auth.credential(token)
    try:
        return seat_of(record, cred, now)
    except ApiError as exc:
        if exc.status == 403:
            return None
        raise


def credential(token: str | None) -> auth.Credential:
    """Who the bearer token says the caller is (account tokens verified, guests parsed)."""
    if token is None:
        raise unauthorized()
    return auth.credential(token)
