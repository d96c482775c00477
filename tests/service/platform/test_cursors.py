"""Pagination cursors are tamper-proof: a cursor the list did not give out is 400 ``bad-cursor``.

A prober builds cursors as the old, unsigned ones were (URL-safe base64 of the list's name and
position): one pointing into another player's partition answered 200 (on DynamoDB, an
``ExclusiveStartKey`` outside the query's partition is a ValidationException: a 500). Every
list refuses those, a genuine cursor whose position was changed, and one whose tag was.
"""

from __future__ import annotations

import base64
import json
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from conftest import Api


def _unsigned(kind: str, position: dict[str, Any]) -> str:
    """A cursor as they were before they were signed (what docs/api.md says not to build)."""
    text = json.dumps({"k": kind, "p": position}, separators=(",", ":"), sort_keys=True)
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def _with_position(cursor: str, position: dict[str, Any]) -> str:
    """A genuine cursor's tag on another position."""
    _, _, tag = cursor.partition(".")
    body = base64.urlsafe_b64encode(json.dumps(position).encode()).decode().rstrip("=")
    return f"{body}.{tag}"


def _flipped(cursor: str) -> str:
    """A genuine cursor with the last character of its tag changed."""
    return cursor[:-1] + ("A" if cursor[-1] != "A" else "B")


OTHER_PARTITION = {"pk": "PLAYER#someone-else", "sk": "GAME#F#2020-01-01T00:00:00Z#x"}


@pytest.fixture
def paged(served_api: Api) -> dict[str, Any]:
    """A player with three finished games and two invitations, and two open games in the
    lobby."""
    api = served_api
    token = api.player("cursory")
    for _ in range(3):
        game = api.bot_game(token)
        reply = api.call("POST", f"/v1/games/{game['game_id']}/resign", token=token)
        assert reply.status == 200, reply.body
    host = api.player("lobbyist")
    for invite in ([], [], ["cursory"], ["cursory"]):
        body = {"bots": 0, "invite": invite}
        assert api.call("POST", "/v1/games", token=host, body=body).status == 201
    return {"token": token}


LISTS: list[tuple[str, str, dict[str, str], str, dict[str, Any]]] = [
    (
        "my finished games",
        "/v1/me/games",
        {"status": "finished", "limit": "1"},
        "me-games-finished",
        {"phase": "finished", "key": OTHER_PARTITION},
    ),
    (
        "my games",
        "/v1/me/games",
        {"limit": "1"},
        "me-games-all",
        {"phase": "finished", "key": OTHER_PARTITION},
    ),
    (
        "my invitations",
        "/v1/me/invites",
        {"limit": "1"},
        "me-invites",
        {"offset": 0},
    ),
    (
        "the lobby",
        "/v1/lobby",
        {"limit": "1"},
        "lobby-mine-duel",
        {
            "key": {
                "pk": "GAME#x",
                "sk": "GAME",
                "lobby": "LOBBY#windows-duel",
                "lobby_at": "2020-01-01T00:00:00Z#x",
            }
        },
    ),
]


@pytest.mark.parametrize(("label", "path", "query", "kind", "position"), LISTS)
def test_a_cursor_the_list_did_not_give_out_is_bad_cursor(
    served_api: Api,
    paged: dict[str, Any],
    label: str,
    path: str,
    query: dict[str, str],
    kind: str,
    position: dict[str, Any],
) -> None:
    api, token = served_api, paged["token"]
    first = api.call("GET", path, token=token, query=query)
    assert first.status == 200, first.body
    genuine = first.body["next"]
    assert genuine, f"{label}: one page only"
    following = api.call("GET", path, token=token, query={**query, "cursor": genuine})
    assert following.status == 200, following.body
    for forged in (
        _unsigned(kind, position),
        _with_position(genuine, position),
        _flipped(genuine),
        genuine.partition(".")[0],
    ):
        reply = api.call("GET", path, token=token, query={**query, "cursor": forged})
        assert (reply.status, reply.error_code) == (400, "bad-cursor"), (label, forged, reply.body)


def test_a_players_public_history_and_export_refuse_forged_cursors(
    served_api: Api, paged: dict[str, Any]
) -> None:
    api = served_api
    for path, query in (
        ("/v1/players/cursory/games", {"limit": "1"}),
        ("/v1/players/cursory/games/export", {"limit": "1"}),
    ):
        first = api.call("GET", path, query=query)
        assert first.status == 200, first.body
        genuine = (
            first.headers.get("x-next-cursor") if path.endswith("export") else first.body["next"]
        )
        assert genuine
        assert api.call("GET", path, query={**query, "cursor": genuine}).status == 200
        for forged in (_with_position(genuine, {"key": OTHER_PARTITION}), _flipped(genuine)):
            reply = api.call("GET", path, query={**query, "cursor": forged})
            assert (reply.status, reply.error_code) == (400, "bad-cursor"), (path, reply.body)
