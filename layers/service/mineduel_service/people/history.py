"""A player's games: their own (running, then finished), the invitations waiting for them, and
anybody's finished games. Each reads the player items of docs/data-model.md
(``games.player_items`` decides them, ``games.store`` reads them) and pages with an opaque
cursor (``platform.pagination``).

A player's running games are few and change with every move, so they are read whole (the
running-game items, then the games in one ``BatchGetItem``) and sorted here: the ones waiting on
the player first, then by nearest deadline, then the games still waiting for players.
"""

from __future__ import annotations

from typing import Any

from ..games import store
from ..games.store import finished_page, invited_to, running_seats
from ..games.views import game_summary
from ..platform import auth, clock, pagination
from .errors import BadStatus
from .names import player_by_name

PHASES = ("active", "finished")


def running_games(player_id: str) -> list[dict[str, Any]]:
    """The player's waiting and active games as GameSummaries, in the order docs/api.md gives."""
    seats = running_seats(player_id)
    games = store.get_game(list(seats))
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


def my_games(
    caller: auth.Caller,
    status: str | None,
    cursor: str | None,
    limit: int = pagination.DEFAULT_LIMIT,
) -> dict[str, Any]:
    """``GET /v1/me/games``: running games first (waiting on the caller on top, then by
    deadline), then finished ones, newest first; ``status`` keeps one of the two."""
    if status is not None and status not in PHASES:
        raise BadStatus()
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


def my_invites(
    caller: auth.Caller, cursor: str | None, limit: int = pagination.DEFAULT_LIMIT
) -> dict[str, Any]:
    """``GET /v1/me/invites``: waiting games with a seat reserved for the caller, oldest first.

    Like the running games, a player's invitations are few and read whole (their items, then
    the games in one ``BatchGetItem``), so a page is an offset into the sorted list: every page
    costs the same reads, and a cursor never names a key."""
    kind = "me-invites"
    offset = _offset(pagination.decode(kind, cursor) or {})
    games = store.get_game(invited_to(caller.player_id))
    invites = [
        game_summary(record)
        for record in games.values()
        if record.status == "waiting" and caller.player_id in record.invited.values()
    ]
    invites.sort(key=lambda s: (s["created_at"], s["game_id"]))
    following = offset + limit
    return {
        "games": invites[offset:following],
        "next": pagination.encode(kind, {"offset": following})
        if following < len(invites)
        else None,
    }


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
    games = [g for g in games if not g.get("daily") or clock.day_over(g["daily"], now)]
    for game in games:
        game["my_seat"] = None
    position = pagination.key_position(last)
    return {"games": games, "next": None if position is None else pagination.encode(kind, position)}
