"""MineDuel's pure game engine: rules, provably fair fields, the public view, replay and verify.

Standard library only, no clock and no I/O, so the Lambda functions, the bot, the local stack
and any outside verifier share exactly the same rules.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

# ``replay`` is both a module and its function: bound eagerly, so a later import of the
# module cannot rebind the package's name to the module (import sets a parent's attribute).
from .replay import replay

if TYPE_CHECKING:
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
    from .rules import RuleSet, rules_for
    from .settings import VARIANT_SPECS, Settings, make_options
    from .state import GameState, SeatPrivate, SeatState
    from .verify import Verdict, build_document, verify_document
    from .view import public_board, wrong_guesses

_HOMES = {
    "BadOptionValue": "errors",
    "BombNotBehind": "errors",
    "BombUsed": "errors",
    "CellNotCovered": "errors",
    "EngineError": "errors",
    "Field": "field",
    "GameOver": "errors",
    "GameState": "state",
    "IllegalMove": "errors",
    "InvalidSettings": "errors",
    "MalformedRecord": "errors",
    "Move": "moves",
    "NotYourTurn": "errors",
    "OffBoard": "errors",
    "PROTOCOL": "fairness",
    "ReplayMismatch": "errors",
    "Result": "outcome",
    "RuleSet": "rules",
    "SeatOut": "errors",
    "SeatPrivate": "state",
    "SeatState": "state",
    "Settings": "settings",
    "UnknownAction": "errors",
    "UnknownOption": "errors",
    "UnknownSeat": "errors",
    "UnknownVariant": "errors",
    "VARIANT_SPECS": "settings",
    "Verdict": "verify",
    "build_document": "verify",
    "commitment": "fairness",
    "derive_mines": "fairness",
    "game_key": "fairness",
    "is_valid_client_seed": "fairness",
    "make_options": "settings",
    "public_board": "view",
    "rules_for": "rules",
    "verify_document": "verify",
    "wrong_guesses": "view",
}
"""Where each public name lives. A name is imported the first time it is used (PEP 562), so
importing the package costs nothing and a Lambda function loads only the parts it plays with:
the variants' rule sets on first ``rules_for`` and the verifier only where games are verified."""


def __getattr__(name: str) -> Any:
    """Import ``name`` from its module on first use."""
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{_HOMES[name]}", __name__), name)
    globals()[name] = value
    return value


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
