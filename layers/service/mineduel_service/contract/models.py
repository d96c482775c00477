"""The API's request and response models, validated by pydantic at the edge.

Request models refuse what the API does not allow (strict types, ranges, lengths), so bad input
is a 4xx before any use case runs. Response models are what the OpenAPI document is generated
from; their field names are the contract with every client: add fields, never rename or drop.

The document is as strict as the models, so a client generated from it cannot send what they
refuse. Two places need care. Integers: JSON has one number type, and in OpenAPI 3.1 (JSON
Schema 2020-12) ``37.0`` *is* an integer, while pydantic's strict mode refuses it; so request
integers are :data:`WholeNumber`, which takes a JSON number with no fraction (``37.0`` as 37)
and still refuses ``37.5``, ``true`` and ``"37"``. Enumerations checked by the service itself
(``bot_level``, ``action``) are listed in the document (``enum``) from the same constants.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from mineduel_engine.settings import BOT_LEVELS
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    model_validator,
)

CLIENT_SEED = r"^[A-Za-z0-9._~-]{0,64}$"
SeatKind = Literal["account", "guest", "bot", "open"]
Status = Literal["waiting", "active", "finished", "cancelled"]
ACTIONS: tuple[str, ...] = ("tap", "bomb", "guess", "reveal")
"""Every action of every variant; a variant refuses the ones it does not have (422)."""


def _integral(value: Any) -> Any:
    """A float with no fraction (``37.0``, what some JSON encoders write for 37) as an int."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


WholeNumber = Annotated[int, BeforeValidator(_integral)]
"""A request integer: ``37`` or ``37.0``, never ``37.5``, ``true`` or ``"37"``."""


class _Request(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore", defer_build=True)


class _Response(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


# ---------------------------------------------------------------------------- requests
class CreateGameRequest(_Request):
    """``POST /v1/games``: every field optional, with these defaults."""

    variant: str = Field(
        default="mine-duel",
        min_length=1,
        max_length=32,
        json_schema_extra={"enum": ["mine-duel", "mineseeker", "windows-duel"]},
    )
    seats: WholeNumber = Field(default=2, ge=2, le=4)
    bots: WholeNumber = Field(default=1, ge=0, le=3)
    bot_level: str = Field(
        default="hard", min_length=1, max_length=16, json_schema_extra={"enum": list(BOT_LEVELS)}
    )
    move_deadline_s: WholeNumber = Field(default=86400, ge=60, le=604800)
    rated: bool = False
    invite: list[str] = Field(default_factory=list, max_length=3)
    options: dict[str, bool] | None = Field(
        default=None,
        max_length=8,
        description="The variant's creation options, e.g. mineseeker's "
        '{"bomb_when_behind": true}; an option the variant does not have is 422 bad-option.',
    )
    bomb_when_behind: bool | None = Field(
        default=None,
        description="mineseeker: the bomb only for a seat with fewer mines (default false).",
    )


class JoinRequest(_Request):
    """``POST /v1/games/{game_id}/join``."""

    client_seed: str | None = Field(default=None, pattern=CLIENT_SEED)


class CommitRequest(_Request):
    """``POST /v1/games/{game_id}/moves``: the armed cell and the move count the client saw."""

    row: WholeNumber = Field(ge=0, le=63)
    col: WholeNumber = Field(ge=0, le=63)
    expected_move: WholeNumber = Field(ge=0, le=100_000)
    action: str = Field(
        default="tap", min_length=1, max_length=16, json_schema_extra={"enum": list(ACTIONS)}
    )
    client_seed: str | None = Field(default=None, pattern=CLIENT_SEED)


class SettingsIn(_Request):
    """A player's settings; each one optional."""

    leaderboard: bool | None = None
    spectators: bool | None = None


class UpdateMeRequest(_Request):
    """``PUT /v1/me``: a new username and/or settings."""

    username: str | None = Field(default=None, min_length=1, max_length=64)
    settings: SettingsIn | None = None


AvatarType = Literal["image/png", "image/jpeg", "image/webp"]


class AvatarUploadRequest(_Request):
    """``POST /v1/me/avatar`` (optional body): the image's type, which the upload form then
    requires; PNG when not given. The server checks the bytes themselves after the upload."""

    content_type: AvatarType = "image/png"


class ClaimRequest(_Request):
    """``POST /v1/me/claim``: the guest token whose games move to the calling account."""

    guest_token: str = Field(min_length=1, max_length=4096)


class ExpiryEvent(_Request):
    """What the expiry function receives: from a turn schedule, the game and the turn
    (``scheduling.expiry_input``); from a read that found the deadline passed, the game alone."""

    game_id: str = Field(min_length=1, max_length=64)
    move_count: int | None = Field(default=None, ge=0)
    deadline: str | None = Field(default=None, min_length=1, max_length=32)
    warning: bool = False
    """The turn's schedule fired at its warning time, not its deadline (docs/live.md)."""

    @model_validator(mode="after")
    def _turn_or_none(self) -> ExpiryEvent:
        if (self.move_count is None) != (self.deadline is None):
            raise ValueError("send both move_count and deadline, or neither")
        return self


# ---------------------------------------------------------------------------- responses
class GuestOut(_Response):
    """A new guest: the token is shown once and stored only as a hash."""

    token: str
    player_id: str
    expires_at: str


class SeatOut(_Response):
    """One seat as everybody sees it."""

    seat: int
    player_id: str | None
    name: str
    kind: SeatKind
    mines: int
    safe_taps: int
    out: bool
    client_seed: str
    place: int | None
    rating_before: int | None = None
    rating_after: int | None = None
    bomb_used: bool | None = Field(default=None, description="mineseeker: the bomb is spent")
    score: int | None = Field(default=None, description="windows-duel: the seat's points")


class TurnOut(_Response):
    """Whose turn it is and until when."""

    seat: int
    deadline: str


class ResultOut(_Response):
    """How the game ended."""

    reason: Literal["reach", "field-done", "resign", "timeout"]
    winner: int | None
    places: list[int]


class GameOut(_Response):
    """A game as the caller may see it."""

    game_id: str
    variant: str
    status: Status
    width: int
    height: int
    mines: int
    mines_left: int
    move_deadline_s: int
    rated: bool
    created_at: str
    creator_seat: int = Field(
        default=0,
        description="The seat of the player who made the game and may cancel it while it waits: "
        "0, except in a rematch (its seats are rotated)",
    )
    seats: list[SeatOut]
    turn: TurnOut | None
    move_count: int
    board: list[str]
    commitment: str
    seed: str | None
    result: ResultOut | None
    bot_level: str | None = None
    options: dict[str, bool] = Field(
        default_factory=dict, description="The variant's creation options (empty for mine-duel)"
    )
    chain: str | None = Field(
        default=None,
        description="The chain value of the last move (SHA-256 hex; docs/fairness.md), null "
        "before the first: keep it to prove later that no move up to it was changed",
    )
    daily: str | None = Field(
        default=None, description="The day (YYYY-MM-DD) of a daily duel game; null otherwise"
    )
    spectators_off: bool = False
    """A player turned spectators off for the rest of the game (docs/live.md)."""
    watchers: int | None = None
    """Spectators following the game live, counted up to 60 by ``GET /v1/games/{game_id}``;
    null when nobody watches, and in the other answers (docs/live.md)."""


def _is_none(value: Any) -> bool:
    return value is None


class MoveOut(_Response):
    """One move of the log. While a windows-duel game runs, a wrong guess (``guess``, result
    ``miss``) shows its cell (``row``, ``col``) only to the seat that made it."""

    n: int
    seat: int
    action: Literal["tap", "bomb", "guess", "reveal", "resign", "timeout"]
    row: int | None
    col: int | None
    result: Literal["mine", "safe", "bomb", "miss"] | None
    opened: list[list[int]]
    flagged: list[list[int]]
    # ``points`` and ``auto_opened`` appear only on the moves of the variant that has them (as in
    # the log and the Verification document), never as nulls on the others; ``chain`` only once
    # the move has one. Left out field by field (``exclude_if``), not by a model serializer,
    # so that the OpenAPI document still describes every field of a move.
    points: int | None = Field(
        default=None,
        description="windows-duel: +5, -2, -5 or 0 for the seat that moved",
        exclude_if=_is_none,
    )
    auto_opened: list[list[int]] | None = Field(
        default=None,
        description="windows-duel: [row, col, number] of every cell auto-reveal opened after it",
        exclude_if=_is_none,
    )
    at: str
    chain: str | None = Field(
        default=None,
        description="SHA-256 hex of the previous move's chain value (the commitment for move 1) "
        "and this move's public record (docs/fairness.md)",
        exclude_if=_is_none,
    )


class CommitOut(_Response):
    """What a commit caused: the game after it and every move it played, bots' included."""

    game: GameOut
    moves: list[MoveOut]


class MovesOut(_Response):
    """A slice of the move log, oldest first."""

    moves: list[MoveOut]


class VerdictOut(BaseModel):
    """The server's own check of a finished game (the offline verifier repeats it)."""

    model_config = ConfigDict(extra="allow", defer_build=True)

    checked: bool
    ok: bool
    problems: list[str]


class SeatRatingOut(BaseModel):
    """One seat's line in a game's rating record (``before``/``after`` are ``[mu, sigma]``)."""

    model_config = ConfigDict(extra="allow", defer_build=True)

    seat: int
    player_id: str
    version: int | None = None
    before: list[float] | None = None
    after: list[float] | None = None
    rating_before: int | None = None
    rating_after: int | None = None


class RatingRecordOut(BaseModel):
    """What a finished rated game did to its players' ratings: enough to recompute it."""

    model_config = ConfigDict(extra="allow", defer_build=True)

    variant: str
    outcome: Literal["rated", "aborted", "pending"]
    seats: list[SeatRatingOut]


class VerificationOut(BaseModel):
    """The Verification document: self-contained, checkable offline."""

    model_config = ConfigDict(extra="allow", defer_build=True)

    game_id: str
    protocol: str
    variant: str
    status: Status
    width: int
    height: int
    mines: int
    commitment: str
    seed: str | None
    client_seeds: list[str]
    field: list[str] | None
    moves: list[dict[str, Any]]
    result: ResultOut | None
    verdict: VerdictOut
    rated: bool = False
    rating: RatingRecordOut | None = None


class SummarySeatOut(_Response):
    """One seat in a GameSummary."""

    seat: int
    player_id: str | None
    name: str
    kind: SeatKind
    mines: int
    place: int | None


class GameSummaryOut(_Response):
    """docs/api.md's GameSummary: a game in a list."""

    game_id: str
    variant: str
    status: Status
    created_at: str
    ended_at: str | None
    rated: bool
    seats: list[SummarySeatOut]
    turn: TurnOut | None
    move_count: int
    my_seat: int | None
    daily: str | None = None
    move_deadline_s: int | None = Field(
        default=None, description="Time per move, in seconds (absent from older history entries)"
    )


class GameListOut(_Response):
    """A page of games; ``next`` is the cursor of the following page, null on the last."""

    games: list[GameSummaryOut]
    next: str | None = None


class MonthOut(_Response):
    """Games and wins in one calendar month."""

    month: str
    games: int
    wins: int


class StatsOut(_Response):
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


class RatingMonthOut(_Response):
    """The displayed rating at the end of one calendar month (null before the first rated
    game)."""

    month: str
    rating: int | None
    deviation: int | None


class RatingOut(_Response):
    """A player's rating in one variant: the displayed rating, its deviation, whether it is
    still provisional, the rated games counted, and the last six months' month-end ratings."""

    rating: int
    deviation: int
    provisional: bool
    games: int
    months: list[RatingMonthOut] = Field(default_factory=list)


class LeaderboardEntryOut(_Response):
    """One line of a leaderboard (players with equal ratings share a rank)."""

    rank: int
    username: str
    rating: int
    deviation: int
    games: int


class LeaderboardMeOut(_Response):
    """Where the caller's current rating places them among the latest snapshot's players."""

    rank: int
    rating: int


class LeaderboardOut(_Response):
    """A page of a variant's leaderboard (the top 100 of the latest snapshot)."""

    variant: str
    entries: list[LeaderboardEntryOut]
    next: str | None
    me: LeaderboardMeOut | None
    updated_at: str | None = None


class PlayerSettingsOut(_Response):
    """A player's settings."""

    leaderboard: bool
    spectators: bool


class ProfileOut(_Response):
    """docs/api.md's Profile; ``settings`` only in the caller's own."""

    player_id: str
    username: str | None
    name: str
    avatar_url: str | None
    created_at: str
    stats: StatsOut
    ratings: dict[str, RatingOut]
    settings: PlayerSettingsOut | None = None


class UploadFormOut(_Response):
    """A presigned S3 POST: send ``fields`` and then the file (as the last part, named
    ``file``) as ``multipart/form-data`` to ``url``."""

    url: str
    fields: dict[str, str]


class AvatarUploadOut(_Response):
    """Where and until when to upload an avatar, and what S3 will take."""

    upload: UploadFormOut
    expires_at: str
    max_bytes: int
    content_type: AvatarType


class ClaimOut(_Response):
    """How many of the guest's games moved to the account."""

    claimed_games: int


class SummaryOut(_Response):
    """docs/api.md's Summary: a finished game, how it played out."""

    model_config = ConfigDict(extra="allow", defer_build=True)

    game_id: str
    variant: str
    status: Status
    created_at: str
    ended_at: str | None
    rated: bool
    seats: list[dict[str, Any]]
    turn: TurnOut | None
    my_seat: int | None
    result: ResultOut | None
    moves: int
    lead_changes: int


class ErrorBody(_Response):
    """The error object clients written before problem details read (kept for one version)."""

    code: str
    message: str
    details: list[dict[str, Any]] | None = None


class ErrorOut(_Response):
    """An RFC 9457 problem details body, with the API's ``code`` and the older ``error`` object
    as extension members."""

    type: str = Field(description="urn:mineduel:problem:<code>, one per kind of problem")
    title: str = Field(description="The problem type in a few words")
    status: int = Field(description="The HTTP status")
    detail: str = Field(description="What went wrong this time, and what to do about it")
    instance: str | None = Field(default=None, description="The path of the request")
    code: str = Field(description="The kebab-case problem code")
    errors: list[dict[str, Any]] | None = Field(
        default=None, description="One entry per invalid field (validation problems only)"
    )
    error: ErrorBody


class GatewayMessageOut(_Response):
    """API Gateway's own answer, sent when no function could shape it: a throttled request's
    429, a body over 10 MB's 413, a 500 when a function crashed or timed out."""

    message: str


# ---------------------------------------------------------------------------- quick pairing
VARIANT_NAMES: list[Any] = ["mine-duel", "mineseeker", "windows-duel"]


class SeekRequest(_Request):
    """``POST /v1/seeks``: the game a player wants; every field optional, with these
    defaults."""

    variant: str = Field(
        default="mine-duel", min_length=1, max_length=32, json_schema_extra={"enum": VARIANT_NAMES}
    )
    move_deadline_s: WholeNumber = Field(default=86400, ge=60, le=604800)
    rated: bool = False
    # The bounds before the validator, so the schema says minimum and maximum (a WholeNumber's
    # own validator would leave pydantic's ge and le in the items' schema).
    rating_range: list[Annotated[int, Field(ge=0, le=99999), BeforeValidator(_integral)]] | None = (
        Field(
            default=None,
            min_length=2,
            max_length=2,
            description="[low, high]: the displayed ratings of opponents the player takes, both "
            "ends included; null takes any. Only in a variant with ratings.",
        )
    )


class SeekOut(_Response):
    """A seek: what its owner asked for, and what became of it."""

    seek_id: str
    variant: str
    move_deadline_s: int
    rated: bool
    rating_range: list[int] | None = Field(description="[low, high], or null for any rating")
    status: Literal["open", "paired", "cancelled", "expired"]
    game_id: str | None = Field(description="The game it was paired into, once paired")
    expires_at: str = Field(description="When it stops waiting (an open seek expires then)")
    created_at: str
    rating: int | None = Field(
        default=None, description="The owner's displayed rating in the variant when they asked"
    )
    name: str | None = Field(default=None, description="The owner's name (in the list only)")


class SeekListOut(_Response):
    """A page of open seeks, by move deadline, rated and rating."""

    seeks: list[SeekOut]
    next: str | None = None


# ---------------------------------------------------------------------------- fair play
class DecisionRequest(_Request):
    """``POST /v1/moderation/cases/{case_id}``: a moderator's decision."""

    decision: Literal["clear", "restrict"]
    note: str = Field(default="", max_length=1000, description="Why, for the log")


class FairPlayGameOut(_Response):
    """One screened rated game's figures for the player."""

    game_id: str
    ended_at: str
    taps: int
    accuracy: float
    engine_match: float
    mean_loss: float


class FairPlayOut(_Response):
    """A player's fair-play record: the figures of their last screened rated games, pooled."""

    username: str | None
    games_screened: int = Field(description="Rated games screened so far")
    window: int = Field(description="Games the figures below are over (the last ones)")
    window_size: int = Field(description="Games a full window holds; z needs a full one")
    accuracy: float | None = Field(
        description="Share of taps on a cell with the board's highest mine chance"
    )
    mean_loss: float | None = Field(description="Mean p_best - p_mine per tap")
    engine_match: float | None = Field(
        description="Share of taps on a cell the exact engine would have chosen (a likeliest "
        "cell, or the hard bot's move): what z measures"
    )
    z: float | None = Field(
        description="How far engine_match lies above people's, in standard deviations of "
        "people's windows; null before a full window"
    )
    review_z: float = Field(description="The z at which a case opens for a moderator")
    status: Literal["clear", "review", "restricted"]
    reviewed_at: str | None = Field(default=None, description="A moderator's last decision")
    games: list[FairPlayGameOut] = Field(description="The window's games, newest first")


class CaseOut(_Response):
    """A fair-play case, as moderators see it."""

    case_id: str
    username: str
    player_id: str
    z: float
    engine_match: float
    accuracy: float
    mean_loss: float
    games: list[str] = Field(description="The ids of the rated games that opened it")
    opened_at: str
    status: Literal["open", "cleared", "restricted"]
    decided_at: str | None = None
    decided_by: str | None = None
    note: str | None = None
    decisions: int = Field(default=0, description="Decisions logged on the case")


class CaseListOut(_Response):
    """A page of cases, newest first."""

    cases: list[CaseOut]
    next: str | None = None
