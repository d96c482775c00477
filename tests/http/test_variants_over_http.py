"""Each variant over real HTTP on the local stack: a guest plays it against the bot to the end,
and the game verifies offline with ``mineduel verify URL``."""

from __future__ import annotations

from typing import Any

import pytest

from mineduel.cli import main as mineduel_main
from mineduel.local.stack import RunningStack
from mineduel.testing.api_client import ApiClient, http_transport
from mineduel.testing.players import next_action

pytestmark = pytest.mark.http


@pytest.mark.parametrize("variant", ["mineseeker", "windows-duel"])
def test_a_guest_plays_the_variant_to_the_end_and_it_verifies_offline(
    stack: RunningStack, variant: str
) -> None:
    guest = ApiClient(http_transport(stack.url))
    guest.become_guest()
    game: dict[str, Any] = guest.create_game(variant=variant, bot_level="medium")
    path = f"/v1/games/{game['game_id']}"
    actions: set[str] = set()
    while game["status"] == "active":
        body = next_action(game, 0, level="medium")
        actions.add(body["action"])
        reply = guest.call("POST", f"{path}/moves", body)
        assert reply.status == 200, reply.body[:300]
        game = reply.json()["game"]
    assert game["status"] == "finished" and game["seed"] is not None
    assert actions <= {"tap", "bomb", "guess", "reveal"}
    assert mineduel_main(["verify", f"{stack.url}{path}/verify"]) == 0
