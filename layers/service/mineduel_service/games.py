"""The use cases the handlers call, one each, gathered so a handler names exactly one.

Each use case returns a domain result (docs/api.md's objects as plain data) or raises an
``errors.ApiError``; ``http`` alone turns those into HTTP answers.
"""

from __future__ import annotations

from .commits import commit_move
from .eliminations import claim_timeout, expire_turn, resign, sweep
from .identity import register_guest
from .lobby import create_game, join_game
from .reads import get_game, list_moves, verification

__all__ = [
    "claim_timeout",
    "commit_move",
    "create_game",
    "expire_turn",
    "get_game",
    "join_game",
    "list_moves",
    "register_guest",
    "resign",
    "sweep",
    "verification",
]
