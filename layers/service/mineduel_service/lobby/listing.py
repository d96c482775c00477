"""The lobby list, ``GET /v1/lobby``: waiting games of a variant with a seat anybody may take,
oldest first, a page at a time.

It reads the sparse ``lobby`` index (docs/data-model.md), which holds a game while it waits
with an open seat nobody is invited to (``GameRecord.in_lobby``) and projects the whole game
item: one ``Query`` a page and no read of the games. The index is eventually consistent, so a
game just filled may still show a moment: each game is checked again as it is read.
"""

from __future__ import annotations

from typing import Any

from ..games.views import game_summary
from ..platform import pagination
from .store import open_games_page


def lobby(
    variant: str, cursor: str | None, limit: int = pagination.DEFAULT_LIMIT
) -> dict[str, Any]:
    """A page of the open games of ``variant`` and the cursor of the next (null on the last)."""
    kind = f"lobby-{variant}"
    start = pagination.dynamo_key(pagination.decode(kind, cursor))
    records, last = open_games_page(variant, start, limit)
    games = [game_summary(record) for record in records if record.in_lobby]
    position = pagination.key_position(last)
    return {"games": games, "next": None if position is None else pagination.encode(kind, position)}
