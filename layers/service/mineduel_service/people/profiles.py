"""Players as the service keeps them: a profile (username, avatar, settings, statistics) per
account or guest, and the username items that make names unique without regard to case.

Statistics are counted when a game's result is applied (``results``), exactly once per game;
the profile's ``version`` is what makes that safe when two of a player's games end at once.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

from ..platform import auth, clock, dynamo, keys
from .errors import FairPlayRestricted, PlayerNotFound

PlayerKind = Literal["account", "guest"]
USERNAME = re.compile(r"^[A-Za-z0-9_-]{3,20}$")
RESERVED_USERNAMES = frozenset(
    {
        "admin",
        "administrator",
        "anonymous",
        "bot",
        "bots",
        "guest",
        "guests",
        "me",
        "mineduel",
        "moderator",
        "null",
        "root",
        "support",
        "system",
        "undefined",
    }
)
MONTHS_KEPT = 12
NOTIFY_TYPES = ("your_turn", "time_almost_up", "invited", "game_over", "paired")
"""The notifications a player may turn off, each on until then (docs/notifications.md)."""
DEFAULT_SETTINGS: dict[str, Any] = {
    "leaderboard": False,
    "spectators": True,
    "notify": dict.fromkeys(NOTIFY_TYPES, True),
}


def merged_settings(stored: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    """Settings with ``given`` over ``stored`` over the defaults; ``notify`` merged type by
    type, so turning one notification off keeps the others as they were."""
    notify = {
        **DEFAULT_SETTINGS["notify"],
        **(stored.get("notify") or {}),
        **(given.get("notify") or {}),
    }
    return {**DEFAULT_SETTINGS, **stored, **given, "notify": notify}


@dataclass(frozen=True)
class Stats:
    """A player's counted results. A draw is a shared first place."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    mines_total: int = 0
    mines_best: int = 0
    streak: int = 0
    best_streak: int = 0
    months: dict[str, list[int]] = field(default_factory=dict)
    """``"YYYY-MM"`` -> ``[games, wins]``, the last ``MONTHS_KEPT`` months with games."""

    def counted(self, *, won: bool, drew: bool, mines: int, month: str) -> Stats:
        """These statistics with one more finished game."""
        months = {k: list(v) for k, v in self.months.items()}
        games, wins = months.get(month, [0, 0])
        months[month] = [games + 1, wins + (1 if won else 0)]
        kept = dict(sorted(months.items())[-MONTHS_KEPT:])
        streak = self.streak + 1 if won else 0
        return Stats(
            games=self.games + 1,
            wins=self.wins + (1 if won else 0),
            losses=self.losses + (0 if won or drew else 1),
            draws=self.draws + (1 if drew else 0),
            mines_total=self.mines_total + mines,
            mines_best=max(self.mines_best, mines),
            streak=streak,
            best_streak=max(self.best_streak, streak),
            months=kept,
        )

    def merged(self, other: Stats) -> Stats:
        """These statistics and ``other``'s together (a guest's, claimed by an account).

        Streaks cannot be interleaved game by game, so the longer best streak is kept and the
        current streak stays this player's own.
        """
        months = {k: list(v) for k, v in self.months.items()}
        for month, (games, wins) in other.months.items():
            mine = months.get(month, [0, 0])
            months[month] = [mine[0] + games, mine[1] + wins]
        return Stats(
            games=self.games + other.games,
            wins=self.wins + other.wins,
            losses=self.losses + other.losses,
            draws=self.draws + other.draws,
            mines_total=self.mines_total + other.mines_total,
            mines_best=max(self.mines_best, other.mines_best),
            streak=self.streak,
            best_streak=max(self.best_streak, other.best_streak),
            months=dict(sorted(months.items())[-MONTHS_KEPT:]),
        )


@dataclass(frozen=True)
class Profile:
    """One player's profile item."""

    player_id: str
    kind: PlayerKind
    created_at: str
    username: str | None = None
    avatar: str | None = None
    settings: dict[str, Any] = field(default_factory=lambda: merged_settings({}, {}))
    stats: Stats = field(default_factory=Stats)
    version: int = 0
    claimed_by: str | None = None
    """For a guest whose games an account claimed: that account (results now count there)."""
    restricted: bool = False
    """A moderator restricted the player after a fair-play review (docs/fair-play.md): they
    are on no leaderboard, whatever their setting, and may not seek rated games."""

    @property
    def listed(self) -> bool:
        """Whether the player's ratings belong on the leaderboards: they asked to be there
        (``settings.leaderboard``) and are not restricted."""
        return bool(self.settings.get("leaderboard", False)) and not self.restricted

    @property
    def display_name(self) -> str:
        """The name seats show: the username, or a stand-in until one is chosen."""
        if self.username:
            return self.username
        if self.kind == "guest":
            return f"Guest {self.player_id.removeprefix('guest-')[:6]}"
        return f"Player {self.player_id.replace('-', '')[:6]}"

    def evolve(self, **changes: Any) -> Profile:
        """A copy with ``changes``."""
        return replace(self, **changes)


def new_profile(player_id: str, kind: PlayerKind) -> Profile:
    """A player's first profile (no username yet)."""
    return Profile(player_id=player_id, kind=kind, created_at=clock.iso(clock.now()))


def profile_item(profile: Profile) -> dict[str, Any]:
    """The profile's DynamoDB item."""
    body: dict[str, Any] = {
        "kind": profile.kind,
        "created_at": profile.created_at,
        "username": profile.username,
        "avatar": profile.avatar,
        "settings": profile.settings,
        "stats": asdict(profile.stats),
        "claimed_by": profile.claimed_by,
    }
    if profile.restricted:
        body["restricted"] = True
    return {
        **keys.profile(profile.player_id),
        "version": {"N": str(profile.version)},
        "body": {"S": json.dumps(body, separators=(",", ":"))},
    }


def parse_profile(player_id: str, item: dict[str, Any]) -> Profile:
    """A profile from its item."""
    body = json.loads(item["body"]["S"])
    return Profile(
        player_id=player_id,
        kind=body["kind"],
        created_at=body["created_at"],
        username=body.get("username"),
        avatar=body.get("avatar"),
        settings=merged_settings(body.get("settings") or {}, {}),
        stats=Stats(**body.get("stats", {})),
        version=int(item["version"]["N"]),
        claimed_by=body.get("claimed_by"),
        restricted=bool(body.get("restricted", False)),
    )


def get_profile(player_id: str) -> Profile | None:
    """The player's profile (consistent read); None before the player's first game or visit."""
    found = dynamo.get(keys.profile(player_id))
    return parse_profile(player_id, found) if found else None


def get_profiles(player_ids: list[str]) -> dict[str, Profile]:
    """Several profiles in one consistent ``BatchGetItem`` (missing ones left out)."""
    wanted = list(dict.fromkeys(player_ids))
    if not wanted:
        return {}
    found: dict[str, Profile] = {}
    for item in dynamo.batch_get([keys.profile(p) for p in wanted]):
        player_id = keys.player_id_of(item)
        found[player_id] = parse_profile(player_id, item)
    return found


def owner_of(username: str) -> str | None:
    """The player id that owns ``username`` (any case), or None."""
    found = dynamo.get(keys.username(username))
    return found["player_id"]["S"] if found else None


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


def avatar_url(avatar: str | None) -> str | None:
    """Where an avatar is served (a stable URL that redirects to the stored image)."""
    return f"/v1/avatars/{avatar}" if avatar else None


def profile_put(profile: Profile, previous: Profile | None) -> dict[str, Any]:
    """A transaction's ``Put`` of ``profile``, conditioned on ``previous`` being what is stored
    (its version), or on there being no profile yet."""
    return dynamo.versioned_put_op(
        profile_item(profile), None if previous is None else previous.version
    )


def username_claim(username: str, player_id: str) -> dict[str, Any]:
    """A transaction's ``Put`` that takes ``username`` for ``player_id`` (fails if taken)."""
    return dynamo.new_item_op(
        {**keys.username(username), "player_id": {"S": player_id}, "username": {"S": username}}
    )


def username_release(username: str, player_id: str) -> dict[str, Any]:
    """A transaction's ``Delete`` that frees ``username`` (only if ``player_id`` holds it)."""
    return dynamo.delete_op(
        keys.username(username), condition="player_id = :p", values={":p": {"S": player_id}}
    )
