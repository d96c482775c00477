"""Players by name: the profile behind a username, and the name a caller's seat shows.

Both read through ``store`` (the username item, then the profile), for use cases of this and
later domains that find a player from a name or seat one.
"""

from __future__ import annotations

from ..platform import auth
from .errors import FairPlayRestricted, PlayerNotFound
from .profiles import USERNAME, Profile
from .store import get_profile, owner_of


def player_by_name(username: str) -> Profile:
    """The profile of the player who owns ``username`` (any case); ``PlayerNotFound`` when
    nobody does."""
    if not USERNAME.fullmatch(username):
        raise PlayerNotFound()
    player_id = owner_of(username)
    profile = get_profile(player_id) if player_id else None
    if profile is None:
        raise PlayerNotFound()
    return profile


def display_name(caller: auth.Caller, *, rated: bool = False) -> str:
    """The name a caller's seat shows: an account's username (or its stand-in), a guest's name.

    For a seat in a ``rated`` game, the same read also refuses a player a moderator restricted
    (``FairPlayRestricted``): whoever seats a player reads this first, so no rated game of
    theirs starts however it is made."""
    if caller.kind != "account":
        return caller.name
    profile = get_profile(caller.player_id)
    if profile is not None:
        if rated and profile.restricted:
            raise FairPlayRestricted()
        return profile.display_name
    return f"Player {caller.player_id.replace('-', '')[:6]}"
