"""Every model of the API by name, each from the module of what it describes (a directory).

The models live in one module per thing they describe (``games``: the Game; ``moves``: a commit
and the move log; ``problems``: refusals; ``people``, ``lobby``, ``game_lists``, ``archive``,
``leaderboards``, ``daily``, ``exports``, ``analysis``, ``expiry``), on the bases of ``base``,
so that a function builds only the classes of its own route: defining a pydantic class costs
about a millisecond even with its validator deferred, and a commit needs 10 of the 50.

Handlers and use cases import from those modules. This module answers the older ``from
mineduel_service.contract.models import X`` for any of them, importing ``X``'s module on first
use (PEP 562); ``_Request`` and ``_Response`` are the bases' older names. A new model goes in
the module of what it describes (or a new one), not here.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .base import RequestModel as _Request  # noqa: F401  (the older names)
from .base import ResponseModel as _Response  # noqa: F401

if TYPE_CHECKING:
    pass

_HOMES = {
    "ACTIONS": "base",
    "AvatarType": "people",
    "AvatarUploadOut": "people",
    "AvatarUploadRequest": "people",
    "CLIENT_SEED": "base",
    "CaseListOut": "fairplay",
    "CaseOut": "fairplay",
    "ClaimOut": "people",
    "ClaimRequest": "people",
    "CommitOut": "moves",
    "CommitRequest": "moves",
    "CreateGameRequest": "lobby",
    "DecisionRequest": "fairplay",
    "ErrorBody": "problems",
    "ErrorOut": "problems",
    "ExpiryEvent": "expiry",
    "FairPlayGameOut": "fairplay",
    "FairPlayOut": "fairplay",
    "GameListOut": "game_lists",
    "GameOut": "games",
    "GameSummaryOut": "game_lists",
    "GatewayMessageOut": "problems",
    "GuestOut": "people",
    "JoinRequest": "lobby",
    "LeaderboardEntryOut": "leaderboards",
    "LeaderboardMeOut": "leaderboards",
    "LeaderboardOut": "leaderboards",
    "MonthOut": "people",
    "MoveOut": "moves",
    "MovesOut": "moves",
    "NotifySettingsIn": "people",
    "NotifySettingsOut": "people",
    "PlayerSettingsOut": "people",
    "ProfileOut": "people",
    "RatingMonthOut": "people",
    "RatingOut": "people",
    "RatingRecordOut": "archive",
    "RequestModel": "base",
    "ResponseModel": "base",
    "ResultOut": "games",
    "SeatKind": "base",
    "SeatOut": "games",
    "SeatRatingOut": "archive",
    "SeekListOut": "pairing",
    "SeekOut": "pairing",
    "SeekRequest": "pairing",
    "SettingsIn": "people",
    "StatsOut": "people",
    "Status": "base",
    "SummaryOut": "archive",
    "SummarySeatOut": "game_lists",
    "TurnOut": "games",
    "UpdateMeRequest": "people",
    "UploadFormOut": "people",
    "VARIANT_NAMES": "pairing",
    "VerdictOut": "archive",
    "VerificationOut": "archive",
    "WholeNumber": "base",
}


def __getattr__(name: str) -> Any:
    """Import ``name`` from its module on first use."""
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{_HOMES[name]}", __package__), name)
    globals()[name] = value
    return value
