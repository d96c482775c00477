"""The lobby: the list of games anybody may join, invitations and declining them, cancelling a
waiting game and its lapse after a week, rematches."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from mineduel_service.games.deadlines import WAITING_LAPSE_S
from mineduel_service.platform import clock

if TYPE_CHECKING:
    from conftest import Api


@pytest.fixture
def api(served_api: Api) -> Api:
    """Accounts need the pool's signing keys over HTTP: these tests run on the moto server."""
    return served_api


def _finish_by_resigning(api: Api, token: str, game_id: str) -> dict[str, Any]:
    reply = api.call("POST", f"/v1/games/{game_id}/resign", token=token)
    assert reply.status == 200, reply.body
    return dict(reply.body)


def test_the_lobby_lists_games_anybody_may_join_and_invitations_wait_for_their_player(
    api: Api,
) -> None:
    host, guestlike, invited = api.player("host"), api.player("joiner"), api.player("invitee")
    open_game = api.call("POST", "/v1/games", token=host, body={"bots": 0}).body
    reserved = api.call(
        "POST", "/v1/games", token=host, body={"bots": 0, "invite": ["invitee"]}
    ).body
    lobby = [g["game_id"] for g in api.call("GET", "/v1/lobby").body["games"]]
    assert open_game["game_id"] in lobby and reserved["game_id"] not in lobby
    invites = api.call("GET", "/v1/me/invites", token=invited).body["games"]
    assert [g["game_id"] for g in invites] == [reserved["game_id"]]
    taken = api.call("POST", f"/v1/games/{reserved['game_id']}/join", token=guestlike)
    assert taken.error_code == "no-open-seat"
    declined = api.call("POST", f"/v1/games/{reserved['game_id']}/decline", token=invited)
    assert declined.status == 200 and declined.body["seats"][1]["kind"] == "open"
    assert api.call("GET", "/v1/me/invites", token=invited).body["games"] == []
    lobby = [g["game_id"] for g in api.call("GET", "/v1/lobby").body["games"]]
    assert reserved["game_id"] in lobby
    joined = api.call("POST", f"/v1/games/{open_game['game_id']}/join", token=guestlike)
    assert joined.body["status"] == "active"
    lobby = [g["game_id"] for g in api.call("GET", "/v1/lobby").body["games"]]
    assert open_game["game_id"] not in lobby


def test_cancel_is_the_creators_while_the_game_waits_and_lapse_comes_after_a_week(
    api: Api,
) -> None:
    host, other = api.player("canceller"), api.player("canceller-2")
    game = api.call("POST", "/v1/games", token=host, body={"bots": 0, "invite": ["canceller-2"]})
    game_id = game.body["game_id"]
    assert api.call("DELETE", f"/v1/games/{game_id}", token=other).error_code == "not-the-creator"
    cancelled = api.call("DELETE", f"/v1/games/{game_id}", token=host)
    assert cancelled.status == 200 and cancelled.body["status"] == "cancelled"
    again = api.call("DELETE", f"/v1/games/{game_id}", token=host)
    assert (again.status, again.error_code) == (409, "game-not-waiting")
    assert api.call("GET", "/v1/me/invites", token=other).body["games"] == []
    running = api.call("GET", "/v1/me/games", token=host, query={"status": "active"}).body
    assert game_id not in [g["game_id"] for g in running["games"]]
    joined = api.call("POST", f"/v1/games/{game_id}/join", token=other)
    assert joined.error_code == "game-not-waiting"

    forgotten = api.call("POST", "/v1/games", token=host, body={"bots": 0}).body
    clock.advance(WAITING_LAPSE_S + 1)
    api.sweep()
    lapsed = api.call("GET", f"/v1/games/{forgotten['game_id']}").body
    assert lapsed["status"] == "cancelled"
    lobby = [g["game_id"] for g in api.call("GET", "/v1/lobby").body["games"]]
    assert forgotten["game_id"] not in lobby


def test_a_rematch_rotates_the_people_and_invites_the_others(api: Api) -> None:
    first, second = api.player("rematch-a"), api.player("rematch-b")
    game = api.call("POST", "/v1/games", token=first, body={"seats": 3, "bots": 1}).body
    api.call("POST", f"/v1/games/{game['game_id']}/join", token=second)
    early = api.call("POST", f"/v1/games/{game['game_id']}/rematch", token=first)
    assert early.error_code == "game-not-finished"
    _finish_by_resigning(api, first, game["game_id"])
    _finish_by_resigning(api, second, game["game_id"])
    again = api.call("POST", f"/v1/games/{game['game_id']}/rematch", token=first)
    assert again.status == 201, again.body
    seats = again.body["seats"]
    assert [s["kind"] for s in seats] == ["open", "account", "bot"]
    assert seats[0]["name"] == "Reserved for rematch-b" and seats[1]["name"] == "rematch-a"
    assert again.body["creator_seat"] == 1
    invites = api.call("GET", "/v1/me/invites", token=second).body["games"]
    assert [g["game_id"] for g in invites] == [again.body["game_id"]]
    outsider = api.call("POST", f"/v1/games/{game['game_id']}/rematch", token=api.guest())
    assert outsider.error_code == "not-your-seat"
    guest = api.guest()
    solo = api.bot_game(guest)
    _finish_by_resigning(api, guest, solo["game_id"])
    bot_again = api.call("POST", f"/v1/games/{solo['game_id']}/rematch", token=guest).body
    assert bot_again["status"] == "active" and bot_again["seats"][1]["kind"] == "bot"


def test_the_player_who_asks_for_a_rematch_may_cancel_it_though_not_in_seat_0(api: Api) -> None:
    first, second = api.player("offer-a"), api.player("offer-b")
    made = api.call("POST", "/v1/games", token=first, body={"bots": 0, "invite": ["offer-b"]})
    assert made.status == 201, made.body
    game = made.body
    assert game["creator_seat"] == 0
    api.call("POST", f"/v1/games/{game['game_id']}/join", token=second)
    _finish_by_resigning(api, second, game["game_id"])
    offer = api.call("POST", f"/v1/games/{game['game_id']}/rematch", token=first).body
    assert [s["name"] for s in offer["seats"]] == ["Reserved for offer-b", "offer-a"]
    assert offer["creator_seat"] == 1
    path = f"/v1/games/{offer['game_id']}"
    invited = api.call("DELETE", path, token=second)
    assert (invited.status, invited.error_code) == (403, "not-the-creator")
    cancelled = api.call("DELETE", path, token=first)
    assert cancelled.status == 200, cancelled.body
    assert cancelled.body["status"] == "cancelled" and cancelled.body["creator_seat"] == 1
    assert api.call("GET", path).body["creator_seat"] == 1  # stored, not only answered
