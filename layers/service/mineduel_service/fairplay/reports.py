"""``GET /v1/players/{username}/fair-play``: a player's fair-play record, for the player
themself and for moderators only (docs/fair-play.md)."""

from __future__ import annotations

from typing import Any

from ..people.names import player_by_name
from ..platform import auth
from .errors import FairPlayPrivate
from .moderators import is_moderator
from .store import get_record
from .views import record_view


def fair_play(caller: auth.Caller, username: str) -> dict[str, Any]:
    """The record (``PlayerNotFound`` for a name nobody has; ``FairPlayPrivate`` for a caller
    who is neither the player nor a moderator). Three reads: the username, the profile, the
    record; a stranger learns nothing but that the name exists, which the public profile
    says anyway."""
    profile = player_by_name(username)
    if caller.player_id != profile.player_id and not is_moderator(caller):
        raise FairPlayPrivate()
    return record_view(profile.username, get_record(profile.player_id))
