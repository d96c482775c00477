"""Which seat of a game the caller holds, checked against the game item alone.

Requests on a game (commit, resign, a read as a player) read the game item anyway, and it
carries each guest seat's token hash and expiry: so checking the caller costs no extra read
(an account's token is verified by its signature, ``platform.auth``; a guest's is only parsed
until it is compared here).
"""

from __future__ import annotations

from datetime import datetime

from ..platform import auth
from ..platform.errors import Unauthorized
from .errors import NotYourSeat
from .record import GameRecord


def seat_of(record: GameRecord, cred: auth.Credential, now: datetime) -> int:
    """The seat the credential holds in this game, checked against the game item alone."""
    for index, seat in enumerate(record.seats):
        if seat.kind != cred.kind or seat.player_id != cred.player_id:
            continue
        if cred.kind == "guest":
            if not auth.same_hash(seat.token_hash, cred.token_hash):
                raise Unauthorized("The guest token is not valid.")
            if (seat.token_expires or 0) <= now.timestamp():
                raise Unauthorized("The guest token has expired; get a new one.")
        return index
    raise NotYourSeat()


def viewer_of(record: GameRecord, cred: auth.Credential | None, now: datetime) -> int | None:
    """The seat a read's caller holds in the game (it sees its own private part), or None for
    anybody else: no credential, or a caller without a seat here. A guest token that does not
    match its seat is 401, as anywhere."""
    if cred is None:
        return None
    try:
        return seat_of(record, cred, now)
    except NotYourSeat:
        return None
