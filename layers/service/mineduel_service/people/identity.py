"""Who is calling, checked against what is stored: guests against their item (an account
token is verified by its signature alone, ``platform.auth``).

``authenticate`` is for requests that do not yet involve a game (create, join, one's own
profile): a guest is checked against its stored item. Requests on a game (commit, resign) check
the caller against the game item instead (``games.seats.seat_of``), which they read anyway: no
extra read.

The guest item, ``GUEST#<token hash>`` / ``GUEST``, holds the guest's player id, when its
token expires (also the item's TTL) and, once an account claimed its games, ``claimed_by``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..platform import auth, clock, dynamo, keys
from ..platform.errors import Unauthorized
from .errors import AccountsOnly


@dataclass(frozen=True)
class Guest:
    """A stored guest."""

    player_id: str
    expires_at: int
    claimed_by: str | None = None


def put_guest(token_hash: str, player_id: str, expires_at: int) -> None:
    """Store a guest under its token hash (never the token); TTL removes it after expiry."""
    dynamo.put(
        {
            **keys.guest(token_hash),
            "player_id": {"S": player_id},
            "expires_ttl": {"N": str(expires_at)},
        },
        condition="attribute_not_exists(pk)",
    )


def get_guest(token_hash: str) -> Guest | None:
    """The guest whose token hashes to ``token_hash``."""
    item = dynamo.get(keys.guest(token_hash))
    if not item:
        return None
    claimed = item.get("claimed_by")
    return Guest(
        player_id=item["player_id"]["S"],
        expires_at=int(item["expires_ttl"]["N"]),
        claimed_by=claimed["S"] if claimed else None,
    )


def mark_claimed(token_hash: str, account_id: str) -> None:
    """Mark the guest as claimed by ``account_id`` (again by the same account is fine);
    ``dynamo.WriteConflict`` when another account claimed it first."""
    dynamo.update(
        keys.guest(token_hash),
        "SET claimed_by = :account",
        condition=(
            "attribute_exists(pk) AND (attribute_not_exists(claimed_by) OR claimed_by = :account)"
        ),
        values={":account": {"S": account_id}},
    )


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
