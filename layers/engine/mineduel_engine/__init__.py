"""MineDuel's pure game engine: rules, provably fair fields, the public view, replay and verify.

Standard library only, no clock and no I/O, so the Lambda functions, the bot, the local stack
and any outside verifier share exactly the same rules.
"""

from __future__ import annotations

from . import mine_duel as _mine_duel  # noqa: F401  (registers the mine-duel rule set)
from .errors import (
    CellNotCovered,
    EngineError,
    GameOver,
    IllegalMove,
    InvalidSettings,
    MalformedRecord,
    NotYourTurn,
    OffBoard,
    SeatOut,
    UnknownAction,
    UnknownSeat,
    UnknownVariant,
)
from .fairness import PROTOCOL, commitment, derive_mines, game_key, is_valid_client_seed
from .field import Field
from .moves import Move
from .outcome import Result
from .rules import RuleSet, rules_for
from .settings import Settings
from .state import GameState, SeatState
from .view import public_board

__all__ = [
    "PROTOCOL",
    "CellNotCovered",
    "EngineError",
    "Field",
    "GameOver",
    "GameState",
    "IllegalMove",
    "InvalidSettings",
    "MalformedRecord",
    "Move",
    "NotYourTurn",
    "OffBoard",
    "Result",
    "RuleSet",
    "SeatOut",
    "SeatState",
    "Settings",
    "UnknownAction",
    "UnknownSeat",
    "UnknownVariant",
    "commitment",
    "derive_mines",
    "game_key",
    "is_valid_client_seed",
    "public_board",
    "rules_for",
]
