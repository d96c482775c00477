"""Players as the service keeps them: a profile (username, avatar, settings, statistics) per
account or guest, and what a username may be (names are unique without regard to case: the
username items, like the profile's, are ``store``'s).

Statistics are counted when a game's result is applied (``results``), exactly once per game;
the profile's ``version`` is what makes that safe when two of a player's games end at once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from ..platform import clock

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


def avatar_url(avatar: str | None) -> str | None:
    """Where an avatar is served (a stable URL that redirects to the stored image)."""
    return f"/v1/avatars/{avatar}" if avatar else None
