"""``POST /v1/guests``: a guest token, for playing the bot without an account.

The token is shown once and stored only as its hash (``store.put_guest``); the route
limits how many an address may have a minute (``platform.limits``).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from ..platform import auth, clock
from ..platform.config import get_config
from ..platform.observability import count
from .store import put_guest


def register_guest() -> dict[str, Any]:
    """A new guest token (shown once, stored only as its hash) and its expiry."""
    issued = auth.issue_guest_token()
    expires = clock.now() + timedelta(seconds=get_config().guest_token_ttl_s)
    put_guest(issued.token_hash, issued.player_id, int(expires.timestamp()))
    count("GuestsIssued")
    return {"token": issued.token, "player_id": issued.player_id, "expires_at": clock.iso(expires)}
