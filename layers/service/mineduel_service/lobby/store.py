"""What the lobby reads of the table: the sparse ``lobby`` index (docs/data-model.md), which
holds a game's item while it waits with an open seat nobody is invited to
(``GameRecord.in_lobby``), partitioned by variant and projecting the whole item. The lobby's
own writes are game writes (``games.store``). The one module of ``lobby`` that speaks to the
table (``platform.dynamo``) or knows its keys (``platform.keys``).
"""

from __future__ import annotations

from typing import Any

from ..games.record import GameRecord
from ..games.store import parse_game
from ..platform import dynamo, keys


def open_games_page(
    variant: str, start: dict[str, Any] | None, limit: int
) -> tuple[list[GameRecord], dict[str, Any] | None]:
    """A page of the lobby index's games of ``variant``, oldest first, from ``start`` (a
    ``LastEvaluatedKey``), and the page's ``LastEvaluatedKey`` (None on the last): one
    ``Query``, no read of the games. The index is eventually consistent: a game just filled may
    still be in it (the caller checks ``in_lobby``)."""
    items, last = dynamo.query_page(
        "lobby = :lobby",
        {":lobby": {"S": keys.lobby_partition(variant)}},
        index=keys.LOBBY_INDEX,
        limit=limit,
        start=start,
    )
    return [parse_game(item) for item in items], last
