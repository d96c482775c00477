"""Guests, profiles, settings, avatars and a guest's games claimed by an account."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .base import RequestModel, ResponseModel


class GuestOut(ResponseModel):
    """A new guest: the token is shown once and stored only as a hash."""

    token: str
    player_id: str
    expires_at: str


class NotifySettingsIn(RequestModel):
    """Which notifications reach the player (docs/notifications.md); each one optional, and
    the ones not sent keep their value."""

    your_turn: bool | None = None
    time_almost_up: bool | None = None
    invited: bool | None = None
    game_over: bool | None = None
    paired: bool | None = None


class SettingsIn(RequestModel):
    """A player's settings; each one optional."""

    leaderboard: bool | None = None
    spectators: bool | None = None
    notify: NotifySettingsIn | None = None


class UpdateMeRequest(RequestModel):
    """``PUT /v1/me``: a new username and/or settings."""

    username: str | None = Field(default=None, min_length=1, max_length=64)
    settings: SettingsIn | None = None


AvatarType = Literal["image/png", "image/jpeg", "image/webp"]


class AvatarUploadRequest(RequestModel):
    """``POST /v1/me/avatar`` (optional body): the image's type, which the upload form then
    requires; PNG when not given. The server checks the bytes themselves after the upload."""

    content_type: AvatarType = "image/png"


class ClaimRequest(RequestModel):
    """``POST /v1/me/claim``: the guest token whose games move to the calling account."""

    guest_token: str = Field(min_length=1, max_length=4096)


class ClaimOut(ResponseModel):
    """How many of the guest's games moved to the account."""

    claimed_games: int


class MonthOut(ResponseModel):
    """Games and wins in one calendar month."""

    month: str
    games: int
    wins: int


class StatsOut(ResponseModel):
    """A player's statistics; a draw is a shared first place."""

    games: int
    wins: int
    losses: int
    draws: int
    win_rate: float
    mines_total: int
    mines_avg: float
    mines_best: int
    streak: int
    best_streak: int
    months: list[MonthOut]


class RatingMonthOut(ResponseModel):
    """The displayed rating at the end of one calendar month (null before the first rated
    game)."""

    month: str
    rating: int | None
    deviation: int | None


class RatingOut(ResponseModel):
    """A player's rating in one variant: the displayed rating, its deviation, whether it is
    still provisional, the rated games counted, and the last six months' month-end ratings."""

    rating: int
    deviation: int
    provisional: bool
    games: int
    months: list[RatingMonthOut] = Field(default_factory=list)


class NotifySettingsOut(ResponseModel):
    """Which notifications reach the player (every type on until turned off)."""

    your_turn: bool = True
    time_almost_up: bool = True
    invited: bool = True
    game_over: bool = True
    paired: bool = True


class PlayerSettingsOut(ResponseModel):
    """A player's settings."""

    leaderboard: bool
    spectators: bool
    notify: NotifySettingsOut = Field(default_factory=NotifySettingsOut)


class ProfileOut(ResponseModel):
    """docs/api.md's Profile; ``settings`` only in the caller's own."""

    player_id: str
    username: str | None
    name: str
    avatar_url: str | None
    created_at: str
    stats: StatsOut
    ratings: dict[str, RatingOut]
    settings: PlayerSettingsOut | None = None


class UploadFormOut(ResponseModel):
    """A presigned S3 POST: send ``fields`` and then the file (as the last part, named
    ``file``) as ``multipart/form-data`` to ``url``."""

    url: str
    fields: dict[str, str]


class AvatarUploadOut(ResponseModel):
    """Where and until when to upload an avatar, and what S3 will take."""

    upload: UploadFormOut
    expires_at: str
    max_bytes: int
    content_type: AvatarType
