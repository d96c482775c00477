"""Who is calling, checked against what is stored: guests against their item (an account
token is verified by its signature alone, ``platform.auth``).

``authenticate`` is for requests that do not yet involve a game (create, join, one's own
profile): a guest is checked against its stored item. Requests on a game (commit, resign) check
the caller against the game item instead (``games.seats.seat_of``), which they read anyway: no
extra read.

The guest item (``store``) holds the guest's player id, when its token expires and, once an
account claimed its games, ``claimed_by``.
"""

from __future__ import annotations

from ..platform import auth, clock
from ..platform.errors import Unauthorized
from .errors import AccountsOnly
from .store import get_guest


def authenticate(credential: auth.Credential) -> auth.Caller:
    """The verified caller (guests checked against their stored hash and expiry)."""
    if credential.kind == "account":
        return auth.Caller(
            "account", credential.player_id, credential.name, groups=credential.groups
        )
    guest = get_guest(credential.token_hash)
    if guest is None or guest.player_id != credential.player_id:
        raise Unauthorized("The guest token is unknown; get one from POST /v1/guests.")
    if guest.expires_at <= clock.now().timestamp():
        raise Unauthorized("The guest token has expired; get a new one from POST /v1/guests.")
    if guest.claimed_by is not None:
        raise Unauthorized("This guest's games now belong to an account; sign in to it.")
    return auth.Caller(
        "guest", credential.player_id, credential.name, credential.token_hash, guest.expires_at
    )


def account_only(caller: auth.Caller) -> auth.Caller:
    """The caller, who must be signed in to an account (guests have no profile)."""
    if caller.kind != "account":
        raise AccountsOnly()
    return caller
