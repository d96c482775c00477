"""Profiles: the caller's own (``/v1/me``) and anybody's public one (``/v1/players/{name}``).

A username is 3 to 20 letters, digits, ``_`` or ``-``, unique without regard to case, and not
one of a short reserved list. Taking a name and freeing the old one happen in one transaction
with the profile, so a name is never held by two players nor lost in between.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from . import auth, clock, store
from .errors import ApiError, conflict, forbidden, invalid
from .identity import authenticate
from .models import UpdateMeRequest
from .profiles import (
    RESERVED_USERNAMES,
    USERNAME,
    Profile,
    get_profile,
    new_profile,
    owner_of,
    profile_put,
    username_claim,
    username_release,
)

MONTHS_SHOWN = 6
ATTEMPTS = 3


def player_not_found() -> ApiError:
    """404: no player has that username."""
    return ApiError(404, "player-not-found", "No player has that username.")


def avatar_url(avatar: str | None) -> str | None:
    """Where an avatar is served (a stable URL that redirects to the stored image)."""
    return f"/v1/avatars/{avatar}" if avatar else None


def recent_months(now: datetime, count: int = MONTHS_SHOWN) -> list[str]:
    """The last ``count`` calendar months up to ``now``'s, oldest first (``YYYY-MM``)."""
    year, month = now.year, now.month
    months = []
    for _ in range(count):
        months.append(f"{year:04d}-{month:02d}")
        year, month = (year - 1, 12) if month == 1 else (year, month - 1)
    return months[::-1]


def stats_view(profile: Profile) -> dict[str, Any]:
    """api.md's ``stats``, with the last six months (months without games show zeros)."""
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


def profile_view(profile: Profile, *, own: bool) -> dict[str, Any]:
    """api.md's Profile; the settings only for the player themself."""
    view: dict[str, Any] = {
        "player_id": profile.player_id,
        "username": profile.username,
        "name": profile.display_name,
        "avatar_url": avatar_url(profile.avatar),
        "created_at": profile.created_at,
        "stats": stats_view(profile),
        "ratings": {},
    }
    if own:
        view["settings"] = dict(profile.settings)
    return view


def account_caller(token: str | None) -> auth.Caller:
    """The caller, who must be signed in to an account (403 for guests)."""
    caller = authenticate(token)
    if caller.kind != "account":
        raise forbidden("accounts-only", "Sign in to an account for this; guests have no profile.")
    return caller


def own_profile(caller: auth.Caller) -> Profile:
    """The caller's profile, made on first use."""
    profile = get_profile(caller.player_id)
    if profile is not None:
        return profile
    created = new_profile(caller.player_id, "account")
    try:
        store.transact([profile_put(created, None)])
    except store.WriteConflict:
        found = get_profile(caller.player_id)
        if found is None:
            raise
        return found
    return created


def get_me(token: str | None) -> dict[str, Any]:
    """``GET /v1/me``."""
    return profile_view(own_profile(account_caller(token)), own=True)


def check_username(username: str) -> str:
    """The username as given, if it may be taken at all (422 otherwise)."""
    if not USERNAME.fullmatch(username):
        raise invalid(
            "username-invalid",
            "A username is 3 to 20 characters: letters, digits, '_' and '-'.",
        )
    if username.casefold() in RESERVED_USERNAMES:
        raise invalid("username-reserved", "That username is reserved; choose another.")
    return username


def update_me(token: str | None, request: UpdateMeRequest) -> dict[str, Any]:
    """``PUT /v1/me``: take a new username (freeing the old one) and/or change settings."""
    caller = account_caller(token)
    wanted = check_username(request.username) if request.username is not None else None
    for _ in range(ATTEMPTS):
        profile = own_profile(caller)
        changes: dict[str, Any] = {"version": profile.version + 1}
        if request.settings is not None:
            given = request.settings.model_dump(exclude_none=True)
            changes["settings"] = {**profile.settings, **given}
        items: list[dict[str, Any]] = []
        if wanted is not None and wanted != profile.username:
            changes["username"] = wanted
            same_name = profile.username and profile.username.casefold() == wanted.casefold()
            if not same_name:
                items.append(username_claim(wanted, caller.player_id))
                if profile.username:
                    items.append(username_release(profile.username, caller.player_id))
        updated = profile.evolve(**changes)
        items.insert(0, profile_put(updated, profile))
        try:
            store.transact(items)
        except store.WriteConflict as exc:
            if len(exc.reasons) > 1 and exc.reasons[1] == "ConditionalCheckFailed":
                raise conflict(
                    "username-taken", "That username is taken; choose another."
                ) from None
            continue
        return profile_view(updated, own=True)
    raise conflict("profile-conflict", "Your profile changed at the same moment; try again.")


def get_player(username: str) -> dict[str, Any]:
    """``GET /v1/players/{username}``: the public profile."""
    return profile_view(player_by_name(username), own=False)


def player_by_name(username: str) -> Profile:
    """The profile of the player who owns ``username`` (any case); 404 when nobody does."""
    if not USERNAME.fullmatch(username):
        raise player_not_found()
    player_id = owner_of(username)
    profile = get_profile(player_id) if player_id else None
    if profile is None:
        raise player_not_found()
    return profile
