"""Lists of games: a player's own (running, then finished), invitations, the lobby, and
anybody's finished games. Each reads the items of docs/data-model.md and pages with an opaque
cursor (``pagination``).

A player's running games are few and change with every move, so they are read whole (the
running-game items, then the games in one ``BatchGetItem``) and sorted here: the ones waiting on
the player first, then by nearest deadline, then the games still waiting for players.
"""

from __future__ import annotations

import json
from typing import Any

from ..daily.store import day_over
from ..games import store
from ..games.record import GameRecord
from ..games.seats import authenticate
from ..games.views import game_summary
from ..platform import aws, clock, pagination
from ..platform.config import get_config
from ..platform.errors import invalid
from .players import player_by_name

MAX_RUNNING = 500
PHASES = ("active", "finished")


def _table() -> str:
    return get_config().table_name


def query_all(request: dict[str, Any]) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    while True:
        answer = aws.dynamodb().query(**request)
        items.extend(answer.get("Items", []))
        last = answer.get("LastEvaluatedKey")
        if not last or len(items) >= MAX_RUNNING:
            return items
        request["ExclusiveStartKey"] = last


def prefix_query(player_id: str, prefix: str) -> dict[str, Any]:
    return {
        "TableName": _table(),
        "KeyConditionExpression": "pk = :pk AND begins_with(sk, :prefix)",
        "ExpressionAttributeValues": {
            ":pk": {"S": f"PLAYER#{player_id}"},
            ":prefix": {"S": prefix},
        },
        "ConsistentRead": True,
    }


def games_by_id(game_ids: list[str]) -> dict[str, GameRecord]:
    """Games in ``BatchGetItem`` calls of at most 100 keys (consistent reads)."""
    found: dict[str, GameRecord] = {}
    wanted = list(dict.fromkeys(game_ids))
    for start in range(0, len(wanted), 100):
        keys = [store.game_key(g) for g in wanted[start : start + 100]]
        request: dict[str, Any] = {_table(): {"Keys": keys, "ConsistentRead": True}}
        while request:
            answer = aws.dynamodb().batch_get_item(RequestItems=request)
            for item in answer.get("Responses", {}).get(_table(), []):
                game_id = item["pk"]["S"].removeprefix("GAME#")
                found[game_id] = store.parse_game(game_id, item)
            request = answer.get("UnprocessedKeys") or {}
    return found


def running_games(player_id: str) -> list[dict[str, Any]]:
    """The player's waiting and active games as GameSummaries, in the order docs/api.md gives."""
    items = query_all(prefix_query(player_id, "GAME#A#"))
    seats = {item["game_id"]["S"]: int(item["seat"]["N"]) for item in items}
    games = games_by_id(list(seats))
    summaries = [
        game_summary(record, seats[game_id])
        for game_id, record in games.items()
        if record.status in ("waiting", "active")
    ]
    return sorted(summaries, key=_running_order)


def _running_order(summary: dict[str, Any]) -> tuple[int, str, str]:
    turn = summary["turn"]
    if turn is not None and turn["seat"] == summary["my_seat"]:
        return (0, turn["deadline"], summary["game_id"])
    if turn is not None:
        return (1, turn["deadline"], summary["game_id"])
    return (2, summary["created_at"], summary["game_id"])


def finished_page(
    player_id: str, start: dict[str, Any] | None, limit: int
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """One page of the player's finished games, newest first, and where the next one starts."""
    request = prefix_query(player_id, "GAME#F#")
    request.update({"ScanIndexForward": False, "Limit": limit})
    if start is not None:
        request["ExclusiveStartKey"] = start
    answer = aws.dynamodb().query(**request)
    games = [json.loads(item["summary"]["S"]) for item in answer.get("Items", [])]
    return games, answer.get("LastEvaluatedKey")


def my_games(
    token: str | None, status: str | None, cursor: str | None, limit: int = pagination.DEFAULT_LIMIT
) -> dict[str, Any]:
    """``GET /v1/me/games``: running games first (waiting on the caller on top, then by
    deadline), then finished ones, newest first; ``status`` keeps one of the two."""
    caller = authenticate(token)
    if status is not None and status not in PHASES:
        raise invalid("bad-status", "status is 'active' or 'finished'.")
    kind = f"me-games-{status or 'all'}"
    position = pagination.decode(kind, cursor) or {
        "phase": "finished" if status == "finished" else "active",
        "offset": 0,
    }
    games: list[dict[str, Any]] = []
    if position.get("phase") == "active":
        running = running_games(caller.player_id)
        offset = _offset(position)
        games = running[offset : offset + limit]
        if offset + limit < len(running):
            return {
                "games": games,
                "next": pagination.encode(kind, {"phase": "active", "offset": offset + limit}),
            }
        if status == "active":
            return {"games": games, "next": None}
        position = {"phase": "finished"}
    if position.get("phase") != "finished":
        raise pagination.bad_cursor()
    room = limit - len(games)
    if room == 0:
        return {"games": games, "next": pagination.encode(kind, {"phase": "finished"})}
    start = pagination.dynamo_key(position) if "key" in position else None
    finished, last = finished_page(caller.player_id, start, room)
    next_position = pagination.key_position(last)
    following = None if next_position is None else {"phase": "finished", **next_position}
    return {
        "games": games + finished,
        "next": None if following is None else pagination.encode(kind, following),
    }


def _offset(position: dict[str, Any]) -> int:
    offset = position.get("offset", 0)
    if not isinstance(offset, int) or offset < 0:
        raise pagination.bad_cursor()
    return offset


def my_invites(token: str | None) -> dict[str, Any]:
    """``GET /v1/me/invites``: waiting games with a seat reserved for the caller."""
    caller = authenticate(token)
    items = query_all(prefix_query(caller.player_id, "INVITE#"))
    games = games_by_id([item["game_id"]["S"] for item in items])
    invites = [
        game_summary(record)
        for record in games.values()
        if record.status == "waiting" and caller.player_id in record.invited.values()
    ]
    invites.sort(key=lambda s: (s["created_at"], s["game_id"]))
    return {"games": invites, "next": None}


def lobby(
    variant: str, cursor: str | None, limit: int = pagination.DEFAULT_LIMIT
) -> dict[str, Any]:
    """``GET /v1/lobby``: waiting games of ``variant`` with a seat anybody may take, oldest
    first (the index is eventually consistent: a game just filled may still show a moment)."""
    kind = f"lobby-{variant}"
    start = pagination.dynamo_key(pagination.decode(kind, cursor))
    request: dict[str, Any] = {
        "TableName": _table(),
        "IndexName": store.LOBBY_INDEX,
        "KeyConditionExpression": "lobby = :lobby",
        "ExpressionAttributeValues": {":lobby": {"S": f"LOBBY#{variant}"}},
        "Limit": limit,
    }
    if start is not None:
        request["ExclusiveStartKey"] = start
    answer = aws.dynamodb().query(**request)
    games = []
    for item in answer.get("Items", []):
        record = store.parse_game(item["pk"]["S"].removeprefix("GAME#"), item)
        if record.in_lobby:
            games.append(game_summary(record))
    position = pagination.key_position(answer.get("LastEvaluatedKey"))
    return {"games": games, "next": None if position is None else pagination.encode(kind, position)}


def player_games(
    username: str, cursor: str | None, limit: int = pagination.DEFAULT_LIMIT
) -> dict[str, Any]:
    """``GET /v1/players/{username}/games``: their finished games, newest first."""
    profile = player_by_name(username)
    kind = f"player-games-{profile.player_id}"
    start = pagination.dynamo_key(pagination.decode(kind, cursor))
    games, last = finished_page(profile.player_id, start, limit)
    now = clock.now()
    # A daily game's board shows part of its day's field: nobody is pointed at it before the
    # day is over (docs/daily.md), so such a page may hold fewer games.
    games = [g for g in games if not g.get("daily") or day_over(g["daily"], now)]
    for game in games:
        game["my_seat"] = None
    position = pagination.key_position(last)
    return {"games": games, "next": None if position is None else pagination.encode(kind, position)}
