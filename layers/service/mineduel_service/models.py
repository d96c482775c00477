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

from mineduel_engine.bot import BOT_LEVELS
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, RootModel

CLIENT_SEED = r"^[A-Za-z0-9._~-]{0,64}$"
SeatKind = Literal["account", "guest", "bot", "open"]
Status = Literal["waiting", "active", "finished"]
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
    model_config = ConfigDict(strict=True, extra="ignore")


class _Response(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ---------------------------------------------------------------------------- requests
class CreateGameRequest(_Request):
    """``POST /v1/games``: every field optional, with these defaults."""

    variant: str = Field(default="mine-duel", min_length=1, max_length=32)
    seats: WholeNumber = Field(default=2, ge=2, le=4)
    bots: WholeNumber = Field(default=1, ge=0, le=3)
    bot_level: str = Field(
        default="hard", min_length=1, max_length=16, json_schema_extra={"enum": list(BOT_LEVELS)}
    )
    move_deadline_s: WholeNumber = Field(default=86400, ge=60, le=604800)
    rated: bool = False
    invite: list[str] = Field(default_factory=list, max_length=3)


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


class ExpiryEvent(_Request):
    """What a turn schedule delivers to the expiry function (``scheduling.expiry_input``)."""

    game_id: str = Field(min_length=1, max_length=64)
    move_count: int = Field(ge=0)
    deadline: str = Field(min_length=1, max_length=32)


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
    seats: list[SeatOut]
    turn: TurnOut | None
    move_count: int
    board: list[str]
    commitment: str
    seed: str | None
    result: ResultOut | None
    bot_level: str | None = None


class MoveOut(_Response):
    """One move of the log."""

    n: int
    seat: int
    action: Literal["tap", "resign", "timeout"]
    row: int | None
    col: int | None
    result: Literal["mine", "safe"] | None
    opened: list[list[int]]
    flagged: list[list[int]]
    at: str


class CommitOut(_Response):
    """What a commit caused: the game after it and every move it played, bots' included."""

    game: GameOut
    moves: list[MoveOut]


class MovesOut(_Response):
    """A slice of the move log, oldest first."""

    moves: list[MoveOut]


class VerdictOut(BaseModel):
    """The server's own check of a finished game (the offline verifier repeats it)."""

    model_config = ConfigDict(extra="allow")

    checked: bool
    ok: bool
    problems: list[str]


class VerificationOut(BaseModel):
    """The Verification document: self-contained, checkable offline."""

    model_config = ConfigDict(extra="allow")

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


class ErrorBody(_Response):
    """The inside of an error answer."""

    code: str
    message: str
    details: list[dict[str, Any]] | None = None


class ErrorOut(_Response):
    """The error shape of every refusal: ``{"error": {"code", "message"}}``."""

    error: ErrorBody


class GatewayMessageOut(_Response):
    """API Gateway's own answer, sent before any function runs (a throttled request's 429)."""

    message: str


class ThrottledOut(RootModel[ErrorOut | GatewayMessageOut]):
    """A 429: API Gateway's throttle (``{"message"}``), or a function's own limit (error shape)."""
