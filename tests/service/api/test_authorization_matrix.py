"""Who may do what: every route that acts for a player, tried by the owner, another account,
a guest, an anonymous caller and a caller whose token has expired. Nobody changes another
player's profile, games or invitations."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest
from mineduel_service.platform import clock
from PIL import Image

from mineduel.local.upload_form import post_form

if TYPE_CHECKING:
    from conftest import Api

EXPIRED_AFTER_S = 8 * 86400  # past a guest token's week and any account token's hour
CALLERS = ("owner", "other", "guest", "anonymous", "expired")


@dataclass(frozen=True)
class Case:
    """A request on something the owner holds, and the status each caller gets."""

    name: str
    prepare: Callable[[Api, dict[str, str]], tuple[str, str, Any]]
    expected: dict[str, int]


def _game(api: Api, owner: str, **body: Any) -> str:
    reply = api.call("POST", "/v1/games", token=owner, body={"bots": 0, **body})
    assert reply.status == 201, reply.body
    return str(reply.body["game_id"])


def _invited(api: Api, tokens: dict[str, str]) -> str:
    host = api.player("matrix-host")
    return _game(api, host, invite=["matrix-owner"])


def _take_uploaded_avatar(api: Api, tokens: dict[str, str]) -> tuple[str, str, Any]:
    """The owner asks for an avatar upload and sends a picture with the form; then the
    request that takes it."""
    image = io.BytesIO()
    Image.new("RGB", (32, 32), (10, 20, 30)).save(image, format="PNG")
    form = api.call("POST", "/v1/me/avatar", token=tokens["owner"]).body["upload"]
    assert post_form(form["url"], form["fields"], image.getvalue()).status == 204
    return ("PUT", "/v1/me/avatar", None)


def _nobody_waiting(api: Api, tokens: dict[str, str], variant: str) -> dict[str, str]:
    """Cancel the owner's and the other's open seeks in ``variant`` (an earlier case's), so a
    new seek there waits; the body of such a seek."""
    for seek in api.call("GET", "/v1/seeks", query={"variant": variant}).body["seeks"]:
        for token in (tokens["owner"], tokens["other"]):
            api.call("DELETE", f"/v1/seeks/{seek['seek_id']}", token=token)
    return {"variant": variant}


def _seek(api: Api, tokens: dict[str, str]) -> str:
    """A new open seek of the owner's (their earlier one in the variant cancelled first): its id."""
    _nobody_waiting(api, tokens, "mineseeker")
    reply = api.call("POST", "/v1/seeks", token=tokens["owner"], body={"variant": "mineseeker"})
    assert reply.status == 201, reply.body
    return str(reply.body["seek_id"])


def _active(api: Api, tokens: dict[str, str]) -> str:
    game_id = _game(api, tokens["owner"])
    api.call("POST", f"/v1/games/{game_id}/join", token=api.player("matrix-host"))
    return game_id


CASES = [
    Case(
        "read my profile",
        lambda api, t: ("GET", "/v1/me", None),
        {"owner": 200, "other": 200, "guest": 403, "anonymous": 401, "expired": 401},
    ),
    Case(
        "change my profile",
        lambda api, t: ("PUT", "/v1/me", {"settings": {"leaderboard": True}}),
        {"owner": 200, "other": 200, "guest": 403, "anonymous": 401, "expired": 401},
    ),
    Case(
        "list my games",
        lambda api, t: ("GET", "/v1/me/games", None),
        {"owner": 200, "other": 200, "guest": 200, "anonymous": 401, "expired": 401},
    ),
    Case(
        "list my invitations",
        lambda api, t: ("GET", "/v1/me/invites", None),
        {"owner": 200, "other": 200, "guest": 200, "anonymous": 401, "expired": 401},
    ),
    Case(
        "decline the owner's invitation",
        lambda api, t: ("POST", f"/v1/games/{_invited(api, t)}/decline", None),
        {"owner": 200, "other": 403, "guest": 403, "anonymous": 401, "expired": 401},
    ),
    Case(
        "cancel the owner's waiting game",
        lambda api, t: ("DELETE", f"/v1/games/{_game(api, t['owner'])}", None),
        {"owner": 200, "other": 403, "guest": 403, "anonymous": 401, "expired": 401},
    ),
    Case(
        "commit in the owner's game",
        lambda api, t: (
            "POST",
            f"/v1/games/{_active(api, t)}/moves",
            {"row": 0, "col": 0, "expected_move": 0},
        ),
        {"owner": 200, "other": 403, "guest": 403, "anonymous": 401, "expired": 401},
    ),
    Case(
        "resign in the owner's game",
        lambda api, t: ("POST", f"/v1/games/{_active(api, t)}/resign", None),
        {"owner": 200, "other": 403, "guest": 403, "anonymous": 401, "expired": 401},
    ),
    Case(
        "claim a timeout in the owner's game",
        lambda api, t: ("POST", f"/v1/games/{_active(api, t)}/timeout", None),
        {"owner": 409, "other": 403, "guest": 403, "anonymous": 401, "expired": 401},
    ),
    Case(
        "rematch the owner's game",
        lambda api, t: ("POST", f"/v1/games/{_active(api, t)}/rematch", None),
        {"owner": 409, "other": 403, "guest": 403, "anonymous": 401, "expired": 401},
    ),
    Case(
        "ask for an avatar upload",
        lambda api, t: ("POST", "/v1/me/avatar", None),
        {"owner": 200, "other": 200, "guest": 403, "anonymous": 401, "expired": 401},
    ),
    Case(
        "take the owner's uploaded avatar",
        _take_uploaded_avatar,
        {"owner": 200, "other": 404, "guest": 403, "anonymous": 401, "expired": 401},
    ),
    Case(
        "read the owner's seek",
        lambda api, t: ("GET", f"/v1/seeks/{_seek(api, t)}", None),
        {"owner": 200, "other": 404, "guest": 403, "anonymous": 401, "expired": 401},
    ),
    Case(
        "cancel the owner's seek",
        lambda api, t: ("DELETE", f"/v1/seeks/{_seek(api, t)}", None),
        {"owner": 200, "other": 404, "guest": 403, "anonymous": 401, "expired": 401},
    ),
    Case(
        "seek a game",
        lambda api, t: ("POST", "/v1/seeks", _nobody_waiting(api, t, "windows-duel")),
        {"owner": 201, "other": 201, "guest": 403, "anonymous": 401, "expired": 401},
    ),
    Case(
        "read the owner's fair-play record",
        lambda api, t: ("GET", "/v1/players/matrix-owner/fair-play", None),
        {"owner": 200, "other": 403, "guest": 403, "anonymous": 401, "expired": 401},
    ),
    Case(
        "list fair-play cases (nobody here moderates)",
        lambda api, t: ("GET", "/v1/moderation/cases", None),
        {"owner": 403, "other": 403, "guest": 403, "anonymous": 401, "expired": 401},
    ),
    Case(
        "claim the owner's guest",
        lambda api, t: ("POST", "/v1/me/claim", {"guest_token": api.guest()}),
        {"owner": 200, "other": 200, "guest": 403, "anonymous": 401, "expired": 401},
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
@pytest.mark.parametrize("caller", CALLERS)
def test_each_route_answers_each_caller(served_api: Api, case: Case, caller: str) -> None:
    api = served_api
    tokens = {
        "owner": api.player("matrix-owner"),
        "other": api.player("matrix-other"),
        "guest": api.guest(),
    }
    method, path, body = case.prepare(api, tokens)
    token: str | None
    if caller == "anonymous":
        token = None
    elif caller == "expired":
        token = tokens["owner"]
        clock.advance(EXPIRED_AFTER_S)
    else:
        token = tokens[caller]
    reply = api.call(method, path, token=token, body=body)
    assert reply.status == case.expected[caller], (caller, reply.body)
