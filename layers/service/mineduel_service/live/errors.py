"""Refusals of live play (the HTTP ones; the WebSocket protocol answers with its own messages,
``sockets.error``)."""

from __future__ import annotations

from ..platform.errors import Conflict


class GameOver(Conflict):
    """The game is over: nobody watches it live any more."""

    code = "game-over"
