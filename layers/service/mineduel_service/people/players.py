"""Profiles: the caller's own (``GET``/``PUT /v1/me``) and anybody's public one
(``GET /v1/players/{username}``).

A username is 3 to 20 letters, digits, ``_`` or ``-``, unique without regard to case, and not
one of a short reserved list. Taking a name and freeing the old one happen in one transaction
with the profile, so a name is never held by two players nor lost in between.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ..contract.people import UpdateMeRequest
from ..platform import auth, clock
from ..platform.dynamo import WriteConflict
from ..ratings.model import RATED_VARIANTS, PlayerRating, new_rating, rating_view
from ..ratings.store import listing_update
from . import store
from .errors import PlayerNotFound, UsernameInvalid, UsernameReserved
from .identity import account_only
from .profiles import (
    RESERVED_USERNAMES,
    USERNAME,
    Profile,
    avatar_url,
    merged_settings,
    new_profile,
)

MONTHS_SHOWN = 6
ATTEMPTS = 3


def recent_months(now: datetime, count: int = MONTHS_SHOWN) -> list[str]:
    """The last ``count`` calendar months up to ``now``'s, oldest first (``YYYY-MM``)."""
    year, month = now.year, now.month
    months = []
    for _ in range(count):
        months.append(f"{year:04d}-{month:02d}")
        year, month = (year - 1, 12) if month == 1 else (year, month - 1)
    return months[::-1]


def stats_view(profile: Profile) -> dict[str, Any]:
    """docs/api.md's ``stats``, with the last six months (months without games show zeros)."""
    s = profile.stats
    return {
        "games": s.games,
        "wins": s.wins,
        "losses": s.losses,
        "draws": s.draws,
        "win_rate": round(s.wins / s.games, 4) if s.games else 0,
        "mines_total": s.mines_total,
        "mines_avg": round(s.mines_total / s.games, 2) if s.games else 0,
        "mines_best": s.mines_best,
        "streak": s.streak,
        "best_streak": s.best_streak,
        "months": [
            {"month": m, "games": s.months.get(m, [0, 0])[0], "wins": s.months.get(m, [0, 0])[1]}
            for m in recent_months(clock.now())
        ],
    }


def ratings_view(player_id: str, stored: dict[str, PlayerRating]) -> dict[str, Any]:
    """The Profile's ``ratings``: every rated variant (a new player's figures where the player
    has no rated game yet), with the rating at the end of each of the last six months."""
    months = recent_months(clock.now())
    return {
        variant: rating_view(stored.get(variant) or new_rating(player_id, system), months)
        for variant, system in RATED_VARIANTS.items()
    }


def profile_view(
    profile: Profile, ratings: dict[str, PlayerRating], *, own: bool
) -> dict[str, Any]:
    """docs/api.md's Profile; the settings only for the player themself."""
    view: dict[str, Any] = {
        "player_id": profile.player_id,
        "username": profile.username,
        "name": profile.display_name,
        "avatar_url": avatar_url(profile.avatar),
        "created_at": profile.created_at,
        "stats": stats_view(profile),
        "ratings": ratings_view(profile.player_id, ratings),
    }
    if own:
        view["settings"] = merged_settings(profile.settings, {})
    return view


def profile_and_ratings(player_id: str) -> tuple[Profile | None, dict[str, PlayerRating]]:
    """The player's profile and their rating in each rated variant (by variant), in one
    consistent read."""
    profiles, ratings = store.profiles_and_ratings([player_id], list(RATED_VARIANTS))
    return profiles.get(player_id), {variant: r for (_, variant), r in ratings.items()}


def own_profile(caller: auth.Caller) -> tuple[Profile, dict[str, PlayerRating]]:
    """The caller's profile, made on first use, and their ratings."""
    profile, ratings = profile_and_ratings(caller.player_id)
    if profile is not None:
        return profile, ratings
    created = new_profile(caller.player_id, "account")
    try:
        store.create_profile(created)
    except WriteConflict:
        found, ratings = profile_and_ratings(caller.player_id)
        if found is None:
            raise
        return found, ratings
    return created, ratings


def get_me(caller: auth.Caller) -> dict[str, Any]:
    """``GET /v1/me``."""
    profile, ratings = own_profile(account_only(caller))
    return profile_view(profile, ratings, own=True)


def check_username(username: str) -> str:
    """The username as given, if it may be taken at all (``UsernameInvalid``, ``UsernameReserved``
    otherwise)."""
    if not USERNAME.fullmatch(username):
        raise UsernameInvalid()
    if username.casefold() in RESERVED_USERNAMES:
        raise UsernameReserved()
    return username


def update_me(caller: auth.Caller, request: UpdateMeRequest) -> dict[str, Any]:
    """``PUT /v1/me``: take a new username (freeing the old one) and/or change settings."""
    account_only(caller)
    wanted = check_username(request.username) if request.username is not None else None

    def attempt() -> dict[str, Any]:
        profile, ratings = own_profile(caller)
        changes: dict[str, Any] = {"version": profile.version + 1}
        if request.settings is not None:
            given = request.settings.model_dump(exclude_none=True)
            changes["settings"] = merged_settings(profile.settings, given)
        if wanted is not None and wanted != profile.username:
            changes["username"] = wanted
        updated = profile.evolve(**changes)
        store.save_profile(updated, profile, with_ops=_listing_updates(profile, updated, ratings))
        return profile_view(updated, ratings, own=True)

    return store.until_saved(attempt, ATTEMPTS)


def _listing_updates(
    before: Profile, after: Profile, ratings: dict[str, PlayerRating]
) -> list[dict[str, Any]]:
    """The rating items' copies of the username and the ``leaderboard`` setting (off while the
    player is restricted), brought in step in the profile's own transaction when either
    changes (the leaderboard reads them)."""
    opted_in = after.listed
    if before.username == after.username and before.listed == opted_in:
        return []
    now = clock.now()
    return [listing_update(r, after.username, opted_in, now) for r in ratings.values()]


def get_player(username: str) -> dict[str, Any]:
    """``GET /v1/players/{username}``: the public profile."""
    player_id = store.owner_of(username) if USERNAME.fullmatch(username) else None
    profile, ratings = profile_and_ratings(player_id) if player_id else (None, {})
    if profile is None:
        raise PlayerNotFound()
    return profile_view(profile, ratings, own=False)
