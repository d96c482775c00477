"""MineDuel's pure game engine: rules, provably fair fields, the public view, replay and verify.

Standard library only, no clock and no I/O, so the Lambda functions, the bot, the local stack
and any outside verifier share exactly the same rules.
"""

from __future__ import annotations

from . import mine_duel as _mine_duel  # noqa: F401  (registers the mine-duel rule set)
from . import mineseeker as _mineseeker  # noqa: F401  (registers mineseeker)
from . import windows_duel as _windows_duel  # noqa: F401  (registers windows-duel)
from .errors import (
    BadOptionValue,
    BombNotBehind,
    BombUsed,
    CellNotCovered,
    EngineError,
    GameOver,
    IllegalMove,
    InvalidSettings,
    MalformedRecord,
    NotYourTurn,
    OffBoard,
    ReplayMismatch,
    SeatOut,
    UnknownAction,
    UnknownOption,
    UnknownSeat,
    UnknownVariant,
)
from .fairness import PROTOCOL, commitment, derive_mines, game_key, is_valid_client_seed
from .field import Field
from .moves import Move
from .outcome import Result
from .replay import replay
from .rules import RuleSet, rules_for
from .settings import VARIANT_SPECS, Settings, make_options
from .state import GameState, SeatPrivate, SeatState
from .verify import Verdict, build_document, verify_document
from .view import public_board, wrong_guesses

__all__ = [
    "PROTOCOL",
    "VARIANT_SPECS",
    "BadOptionValue",
    "BombNotBehind",
    "BombUsed",
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
    "ReplayMismatch",
    "Result",
    "RuleSet",
    "SeatOut",
    "SeatPrivate",
    "SeatState",
    "Settings",
    "UnknownAction",
    "UnknownOption",
    "UnknownSeat",
    "UnknownVariant",
    "Verdict",
    "build_document",
    "commitment",
    "derive_mines",
    "game_key",
    "is_valid_client_seed",
    "make_options",
    "public_board",
    "replay",
    "rules_for",
    "verify_document",
    "wrong_guesses",
]
