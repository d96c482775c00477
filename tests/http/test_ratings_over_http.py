"""Rated games over HTTP on the local stack (``make run``), as a client plays them.

Three accounts play rated three-seat games until they are established; the winner's displayed
rating rises and the loser's falls; three fresh accounts end a game in a tie, which moves the
tied players equally; the clock is moved past the snapshot's five minutes, and the leaderboard
shows only the players who opted in and are established, best first.
"""

from __future__ import annotations

from typing import Any

import pytest
from mineduel_service.games import store
from mineduel_service.platform import crypto
from mineduel_service.play.advance import field_for

from mineduel.local.stack import RunningStack
from mineduel.testing.accounts import signed_in
from mineduel.testing.api_client import ApiClient

pytestmark = pytest.mark.http
VARIANT = "mine-duel"


def _rated(players: list[ApiClient], names: list[str]) -> str:
    body = {"rated": True, "bots": 0, "seats": len(players), "invite": names[1:]}
    game_id = str(players[0].call("POST", "/v1/games", body).ok(201)["game_id"])
    for player in players[1:]:
        player.call("POST", f"/v1/games/{game_id}/join", {}).ok()
    return game_id


def _tap(player: ApiClient, game: dict[str, Any], cell: int) -> dict[str, Any]:
    width = game["width"]
    reply = player.commit(game, cell // width, cell % width)
    return dict(reply.ok()["game"])


def _covered(game: dict[str, Any]) -> list[int]:
    return [i for i, ch in enumerate("".join(game["board"])) if ch == "."]


def _play(players: list[ApiClient], names: list[str], out_first: list[int]) -> dict[str, Any]:
    """Every seat moves, then the seats of ``out_first`` resign in that order."""
    game_id = _rated(players, names)
    game = dict(players[0].call("GET", f"/v1/games/{game_id}").ok())
    moved: set[int] = set()
    while len(moved) < len(players):
        seat = game["turn"]["seat"]
        game = _tap(players[seat], game, _covered(game)[0])
        moved.add(seat)
    for seat in out_first:
        game = dict(players[seat].call("POST", f"/v1/games/{game_id}/resign").ok())
    return game


def _rating(client: ApiClient, name: str) -> dict[str, Any]:
    return dict(client.call("GET", f"/v1/players/{name}").ok()["ratings"][VARIANT])


def test_three_accounts_play_rated_games_and_the_leaderboard_ranks_the_established(
    stack: RunningStack,
) -> None:
    names = ["ann", "ben", "cat"]
    trio = [signed_in(stack, n) for n in names]
    for listed in trio[:2]:  # cat keeps the leaderboard setting off (the default)
        listed.call("PUT", "/v1/me", {"settings": {"leaderboard": True}}).ok()

    first = _play(trio, names, out_first=[2, 1])  # cat out first (3rd), then ben: ann wins
    assert first["result"]["places"] == [1, 2, 3]
    ann, ben, cat = first["seats"]
    assert ann["rating_before"] == ben["rating_before"] == cat["rating_before"] == 1500
    assert ann["rating_after"] > 1500 > cat["rating_after"]
    assert _rating(trio[0], "ann")["rating"] == ann["rating_after"]
    assert _rating(trio[0], "cat")["rating"] == cat["rating_after"]

    for index in range(1, 10):
        _play(trio, names, out_first=[(index + 1) % 3, (index + 2) % 3])
    figures = {n: _rating(trio[0], n) for n in names}
    assert all(f["games"] == 10 and not f["provisional"] for f in figures.values())

    dan = signed_in(stack, "dan")  # listed, but one game is not enough
    dan.call("PUT", "/v1/me", {"settings": {"leaderboard": True}}).ok()
    _play([dan, trio[2]], ["dan", "cat"], out_first=[1])
    assert _rating(dan, "dan")["provisional"]

    fired = trio[0].call("POST", "/_local/clock", {"advance_s": 300}).ok()["fired"]
    assert any("LeaderboardSnapshot" in name for name in fired), fired
    board = trio[0].call("GET", f"/v1/leaderboards/{VARIANT}").ok()
    order = sorted(["ann", "ben"], key=lambda n: -figures[n]["rating"])
    assert [e["username"] for e in board["entries"]] == order
    assert [e["rating"] for e in board["entries"]] == [figures[n]["rating"] for n in order]
    me = board["me"]
    assert me == {"rank": order.index("ann") + 1, "rating": figures["ann"]["rating"]}


def test_a_tie_moves_the_tied_players_equally(stack: RunningStack) -> None:
    """Seats 1 and 2 each make one safe tap; seat 0 then finds 26 mines in a row and is out of
    reach: places 1, 2, 2 (the test reads the field from the stack it runs, as only a test can)."""
    names = ["eve", "fay", "gus"]
    players = [signed_in(stack, n) for n in names]
    game_id = _rated(players, names)
    game = dict(players[0].call("GET", f"/v1/games/{game_id}").ok())
    record = store.get_game(game_id)
    assert record is not None
    field = field_for(record, record.seats, crypto.decrypt_seed(record.seed_ciphertext, game_id))
    for seat in range(3):
        game = _tap(players[seat], game, next(i for i in _covered(game) if not field.is_mine(i)))
    while game["status"] == "active":
        game = _tap(players[0], game, next(i for i in _covered(game) if field.is_mine(i)))
    assert game["result"]["places"] == [1, 2, 2]
    lead, tie_a, tie_b = players[0].call("GET", f"/v1/games/{game_id}").ok()["seats"]
    assert lead["rating_after"] > 1500
    assert tie_a["rating_after"] == tie_b["rating_after"] < 1500
    assert _rating(players[0], "fay") == _rating(players[0], "gus")
