"""Notifications on the local stack (``make run``), received by a real Web Push receiver.

The receiver (``mineduel.testing.push_receiver``) is an HTTP server on 127.0.0.1 that acts as a
push service and a browser: its subscriptions are made as a browser makes them, and each push
it gets must carry a VAPID JWT that verifies with the key ``GET /v1/push/vapid-key`` serves,
and a body that decrypts (RFC 8291, with ``http_ece``, not the sender's code) to the payload.

Two accounts play a game with no socket open: each is told of every turn of theirs within
seconds of the other's move, exactly once a turn; a one-hour turn left alone brings exactly one
"time almost up"; the invitation and the end of the game arrive; a type switched off stops; a
subscription whose push service answers 410 is removed; one that answers 500 is retried and
told once; a player with a socket open on the game, and a bot's turn, are told nothing; a
paired game tells both; a phone's token reaches SNS (moto's platform endpoints), and a
disabled endpoint is removed.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from moto.sns.models import sns_backends
from websockets.sync.client import connect

from mineduel.local.provision import ACCOUNT_ID
from mineduel.local.stack import RunningStack, start_local_stack
from mineduel.testing.accounts import signed_in
from mineduel.testing.api_client import ApiClient, Reply, http_transport
from mineduel.testing.fields import safe_number
from mineduel.testing.push_receiver import Browser, Push, PushReceiver

pytestmark = pytest.mark.http
PAYLOAD_KEYS = {"type", "game_id", "move_count", "deadline", "title", "body", "url"}
TOLD_WITHIN_S = 5.0
HOUR = 3600


@pytest.fixture(scope="module")
def stack() -> Iterator[RunningStack]:
    running = start_local_stack(port=0)
    yield running
    running.stop()


@pytest.fixture
def receiver(stack: RunningStack) -> Iterator[PushReceiver]:
    key = _ok(ApiClient(http_transport(stack.url)).call("GET", "/v1/push/vapid-key"))
    with PushReceiver(key["public_key"]) as found:
        yield found


def _ok(reply: Reply, status: int = 200) -> Any:
    assert reply.status == status, reply.body[:400]
    return reply.json() if reply.body else None


def _subscribe(client: ApiClient, browser: Browser, status: int = 201) -> dict[str, Any]:
    body = {"kind": "web", **browser.to_json()}
    return dict(_ok(client.call("POST", "/v1/me/push-subscriptions", body), status))


def _settle(stack: RunningStack) -> None:
    """Everything written so far has gone through the stream, the fan-out, the queue and the
    delivery (each poller drained in turn, twice: a delivery may queue a retry)."""
    for _ in range(2):
        for poller in stack.streams:
            poller.run_now()
        for queue in stack.queues:
            queue.run_now()


def _game(ann: ApiClient, *invite: str, **body: Any) -> dict[str, Any]:
    sent = {"bots": 0, "invite": list(invite), "move_deadline_s": HOUR, **body}
    return dict(_ok(ann.call("POST", "/v1/games", sent), 201))


def _tap(player: ApiClient, game: dict[str, Any]) -> dict[str, Any]:
    cells = [i for i, ch in enumerate("".join(game["board"])) if ch == "."]
    cell = cells[len(cells) // 2]
    width = game["width"]
    return dict(_ok(player.commit(game, cell // width, cell % width))["game"])


def _pass(player: ApiClient, game: dict[str, Any]) -> dict[str, Any]:
    """``player`` (whose turn it is) taps until the turn passes (a found mine plays again)."""
    seat = game["turn"]["seat"]
    for _ in range(40):
        game = _tap(player, game)
        if game["status"] != "active" or game["turn"]["seat"] != seat:
            return game
    raise AssertionError("the turn never passed")


def _clock(stack: RunningStack, seconds: int) -> None:
    moved = ApiClient(http_transport(stack.url)).call(
        "POST", "/_local/clock", {"advance_s": seconds}
    )
    assert moved.status == 200, moved.body


def _of(pushes: list[Push], kind: str) -> list[Push]:
    return [p for p in pushes if p.payload["type"] == kind]


def _public(push: Push, game_id: str, stack: RunningStack) -> None:
    """The payload is docs/api.md's, links into the web client, and carries nothing hidden."""
    assert set(push.payload) == PAYLOAD_KEYS
    assert push.payload["game_id"] == game_id
    assert push.payload["url"] == f"{stack.url}/#/game/{game_id}"
    assert push.size <= 3072 + 86 + 17  # the payload's 3 KB, the header and the tag
    assert "seed" not in json.dumps(push.payload)


def test_two_accounts_are_told_their_turns_the_warning_the_invitation_and_the_end(
    stack: RunningStack, receiver: PushReceiver
) -> None:
    ann, bob = signed_in(stack, "ann21"), signed_in(stack, "bob21")
    ann_browser, bob_browser = receiver.subscribe(), receiver.subscribe()
    first = _subscribe(ann, ann_browser)
    assert _subscribe(ann, ann_browser, 200)["subscription_id"] == first["subscription_id"]
    _subscribe(bob, bob_browser)

    game = _game(ann, "bob21")
    game_id = game["game_id"]
    (invited,) = receiver.wait_for(bob_browser, 1)
    assert invited.payload["type"] == "invited"
    assert invited.payload["title"] == "You are invited"
    assert "ann21 invites you" in invited.payload["body"]
    assert (invited.headers["urgency"], invited.headers["ttl"]) == ("normal", str(7 * 86400))
    _public(invited, game_id, stack)

    game = _ok(bob.call("POST", f"/v1/games/{game_id}/join", {}))
    pushes = receiver.wait_for(ann_browser, 1)  # the game started: ann, seat 0, moves first
    assert [p.payload["type"] for p in pushes] == ["your_turn"]
    assert pushes[0].payload["move_count"] == 0

    players = {0: (ann, ann_browser), 1: (bob, bob_browser)}
    told = {0: 1, 1: 1}  # pushes each browser has had so far (bob: the invitation)
    turns = 0
    for _ in range(40):  # until four turns passed, each told to the player whose turn it became
        moved = game["turn"]["seat"]
        played = time.monotonic()
        game = _tap(players[moved][0], game)
        seat = game["turn"]["seat"]
        if seat == moved:  # a mine found: the same player moves again, and knows it
            continue
        turns += 1
        told[seat] += 1
        arrived = receiver.wait_for(players[seat][1], told[seat])[-1]
        assert arrived.at - played < TOLD_WITHIN_S
        assert arrived.payload["type"] == "your_turn"
        assert arrived.payload["move_count"] == game["move_count"]
        assert arrived.payload["deadline"] == game["turn"]["deadline"]
        assert arrived.headers["urgency"] == "normal"
        assert 0 < int(arrived.headers["ttl"]) <= HOUR
        _public(arrived, game_id, stack)
        if turns == 4:
            break
    assert turns == 4
    _settle(stack)
    assert [len(receiver.pushes(b)) for b in (ann_browser, bob_browser)] == [told[0], told[1]]

    # A one-hour turn left alone: one "time almost up" at 80%, to the player to move, once.
    to_move = game["turn"]["seat"]
    browser = players[to_move][1]
    _clock(stack, int(HOUR * 0.8) + 30)
    _settle(stack)
    _clock(stack, 120)
    _settle(stack)
    warnings = _of(receiver.pushes(browser), "time_almost_up")
    assert len(warnings) == 1
    assert warnings[0].headers["urgency"] == "high"
    assert int(warnings[0].headers["ttl"]) <= HOUR * 0.2
    assert _of(receiver.pushes(players[1 - to_move][1]), "time_almost_up") == []
    told[to_move] += 1

    # Bob turns "your turn" off: his turns are no longer told; everything else still is.
    settings = _ok(bob.call("PUT", "/v1/me", {"settings": {"notify": {"your_turn": False}}}))
    assert settings["settings"]["notify"] == {
        "your_turn": False,
        "time_almost_up": True,
        "invited": True,
        "game_over": True,
        "paired": True,
    }
    game = _ok(ann.call("GET", f"/v1/games/{game_id}"))
    for _ in range(4):
        moved = game["turn"]["seat"]
        game = _tap(players[moved][0], game)
        if moved == 1 and game["turn"]["seat"] == 0:
            told[0] += 1
            receiver.wait_for(ann_browser, told[0])
    _settle(stack)
    assert len(receiver.pushes(bob_browser)) == told[1]  # nothing new for bob

    # The end: each seat is told, with its own result.
    _ok(bob.call("POST", f"/v1/games/{game_id}/resign"))
    (ann_end,) = _of(receiver.wait_for(ann_browser, told[0] + 1), "game_over")
    (bob_end,) = _of(receiver.wait_for(bob_browser, told[1] + 1), "game_over")
    assert (ann_end.payload["title"], bob_end.payload["title"]) == ("You won", "You lost")
    assert "bob21: resigned" in ann_end.payload["body"]
    assert (ann_end.headers["urgency"], ann_end.headers["ttl"]) == ("low", str(3 * 86400))
    assert ann_end.headers["topic"] == invited.headers["topic"]  # one topic per game
    _settle(stack)

    # Exactly once a turn: every "your turn" names a move count of its own.
    for browser in (ann_browser, bob_browser):
        turns = [p.payload["move_count"] for p in _of(receiver.pushes(browser), "your_turn")]
        assert len(turns) == len(set(turns))
    assert receiver.rejected == []
    assert {p.claims["aud"] for p in receiver.received} == {receiver.origin}

    # Nothing hidden was told: the seed and the field, public now, are in no push.
    verified = _ok(ann.call("GET", f"/v1/games/{game_id}/verify"))
    hidden = [verified["seed"], *(row for row in verified["field"] if len(row) >= 8)]
    assert verified["seed"] and hidden
    for push in receiver.received:
        told = json.dumps(push.payload) + json.dumps(push.headers) + json.dumps(push.claims)
        assert not [h for h in hidden if h in told]


def test_gone_and_failing_push_services_sockets_bots_and_pairing(
    stack: RunningStack, receiver: PushReceiver
) -> None:
    ann, bob = signed_in(stack, "ann21b"), signed_in(stack, "bob21b")
    gone, flaky, steady = receiver.subscribe(), receiver.subscribe(), receiver.subscribe()
    gone.default = 410
    flaky.answers = [500]
    _subscribe(bob, gone)
    _subscribe(bob, flaky)
    _subscribe(ann, steady)

    game = _game(ann, "bob21b")
    receiver.wait_for(flaky, 1, timeout_s=30)  # after a 500, the retry (5 s later) is told
    _settle(stack)
    assert [status for token, status in receiver.answered if token == flaky.token] == [500, 201]
    assert len(receiver.pushes(flaky)) == 1
    listed = _ok(bob.call("GET", "/v1/me/push-subscriptions"))["subscriptions"]
    assert len(listed) == 1  # the one whose push service said 410 is gone
    assert listed[0]["push_service"] == "127.0.0.1"
    assert "keys" not in listed[0] and "endpoint" not in listed[0]

    # With a socket open on the game, ann is not pushed about it.
    game = _ok(bob.call("POST", f"/v1/games/{game['game_id']}/join", {}))
    receiver.wait_for(steady, 1)  # the start: ann's turn
    game = _pass(ann, game)
    with connect(f"{stack.live.url}/?token={ann.token}", open_timeout=10) as ws:
        ws.send(json.dumps({"action": "subscribe", "game_id": game["game_id"]}))
        assert json.loads(ws.recv(timeout=10))["type"] == "subscribed"
        game = _pass(bob, game)
        _settle(stack)
        assert len(receiver.pushes(steady)) == 1
    game = _pass(ann, game)
    receiver.wait_for(flaky, 3)  # bob has no socket: told (the invitation, two turns)

    # A game against the bot: the bot's turns tell nobody, nor do the player's own.
    bot_game = dict(_ok(ann.call("POST", "/v1/games", {"bots": 1, "bot_level": "easy"}), 201))
    _ok(ann.commit(bot_game, *safe_number(bot_game["game_id"])))  # and the bot replies
    _settle(stack)
    assert len(receiver.pushes(steady)) == 1

    # Quick pairing: ann waits with a seek and no socket open; bob's seek pairs them at once.
    # Ann, who waited, is told "Game found"; bob saw the game in his answer and is not.
    waiting = _ok(ann.call("POST", "/v1/seeks", {}), 201)
    assert waiting["status"] == "open"
    paired = _ok(bob.call("POST", "/v1/seeks", {}))
    assert paired["status"] == "paired" and paired["game_id"]
    deadline = time.monotonic() + 15
    while not (found := _of(receiver.pushes(steady), "paired")):
        assert time.monotonic() < deadline, "ann was not told she was paired"
        time.sleep(0.1)
    assert found[0].payload["title"] == "Game found"
    assert found[0].payload["game_id"] == paired["game_id"]
    _settle(stack)
    assert len(_of(receiver.pushes(steady), "paired")) == 1  # once, though two seeks changed
    assert _of(receiver.pushes(flaky), "paired") == []
    assert receiver.rejected == []


def test_a_phone_is_told_through_sns_and_a_disabled_endpoint_is_removed(
    stack: RunningStack,
) -> None:
    ann, bob = signed_in(stack, "ann21c"), signed_in(stack, "bob21c")
    phone = _ok(
        bob.call("POST", "/v1/me/push-subscriptions", {"kind": "fcm", "device_token": "fcm-bob-1"}),
        201,
    )
    again = _ok(
        bob.call("POST", "/v1/me/push-subscriptions", {"kind": "fcm", "device_token": "fcm-bob-1"})
    )
    assert again["subscription_id"] == phone["subscription_id"]
    ipad = _ok(
        bob.call("POST", "/v1/me/push-subscriptions", {"kind": "apns", "device_token": "a1b2c3d4"}),
        201,
    )
    backend = sns_backends[ACCOUNT_ID][stack.provisioned.region]
    endpoints = {e.token: e for e in backend.platform_endpoints.values()}
    assert {"fcm-bob-1", "a1b2c3d4"} <= set(endpoints)
    assert endpoints["fcm-bob-1"].attributes["CustomUserData"] == bob_id(bob)

    game = _game(ann, "bob21c")
    _settle(stack)
    for token in ("fcm-bob-1", "a1b2c3d4"):
        (sent,) = endpoints[token].messages.values()
        structured = json.loads(sent)
        gcm = json.loads(structured["GCM"])["fcmV1Message"]["message"]
        assert gcm["data"]["type"] == "invited"
        assert gcm["data"]["game_id"] == game["game_id"]
        apns = json.loads(structured["APNS"])
        assert apns["aps"]["alert"]["title"] == "You are invited"

    # APNs disowned the iPad's token: SNS disables its endpoint, and the next push removes it.
    boto3.client(
        "sns", region_name=stack.provisioned.region, endpoint_url=stack.endpoint_url
    ).set_endpoint_attributes(
        EndpointArn=endpoints["a1b2c3d4"].arn, Attributes={"Enabled": "false"}
    )
    _ok(bob.call("POST", f"/v1/games/{game['game_id']}/join", {}))  # ann's turn: nothing for bob
    game = _pass(ann, _ok(ann.call("GET", f"/v1/games/{game['game_id']}")))
    _settle(stack)
    listed = _ok(bob.call("GET", "/v1/me/push-subscriptions"))["subscriptions"]
    assert [s["subscription_id"] for s in listed] == [phone["subscription_id"]]
    assert ipad["subscription_id"] not in {s["subscription_id"] for s in listed}
    assert len(endpoints["fcm-bob-1"].messages) == 2  # the invitation and the turn
    assert not any(e.token == "a1b2c3d4" for e in backend.platform_endpoints.values())

    # Someone else signs in on bob's phone: the token is theirs now, and no longer bob's.
    cat = signed_in(stack, "cat21c")
    theirs = cat.call(
        "POST", "/v1/me/push-subscriptions", {"kind": "fcm", "device_token": "fcm-bob-1"}
    )
    assert theirs.status == 201, theirs.body
    assert _ok(bob.call("GET", "/v1/me/push-subscriptions"))["subscriptions"] == []
    moved = next(e for e in backend.platform_endpoints.values() if e.token == "fcm-bob-1")
    assert moved.attributes["CustomUserData"] == bob_id(cat)
    assert bob.call("DELETE", f"/v1/me/push-subscriptions/{phone['subscription_id']}").status == 404

    # Deleting the phone deletes its SNS endpoint too.
    sub_id = theirs.json()["subscription_id"]
    assert cat.call("DELETE", f"/v1/me/push-subscriptions/{sub_id}").status == 204
    assert not any(e.token == "fcm-bob-1" for e in backend.platform_endpoints.values())


def test_a_browser_someone_else_signs_in_on_tells_only_them(
    stack: RunningStack, receiver: PushReceiver
) -> None:
    """Ann turned notifications on in a browser; Dee signs in on it and turns them on: the
    browser is Dee's now, and Ann's invitation no longer reaches it (nor Ann's list)."""
    ann, dee, eve = (signed_in(stack, name) for name in ("ann21d", "dee21d", "eve21d"))
    shared = receiver.subscribe()
    first = _subscribe(ann, shared)
    _game(eve, "ann21d")
    (invited,) = receiver.wait_for(shared, 1)
    assert "eve21d invites you" in invited.payload["body"]

    again = _subscribe(dee, shared)  # the same endpoint, from Dee
    assert again["subscription_id"] == first["subscription_id"]
    assert _ok(ann.call("GET", "/v1/me/push-subscriptions"))["subscriptions"] == []
    _game(eve, "ann21d")
    _settle(stack)
    assert len(receiver.pushes(shared)) == 1  # Ann's second invitation: not to Dee's browser
    game = _game(eve, "dee21d")
    (_, to_dee) = receiver.wait_for(shared, 2)
    assert to_dee.payload["game_id"] == game["game_id"]
    gone = ann.call("DELETE", f"/v1/me/push-subscriptions/{first['subscription_id']}")
    assert gone.status == 404


def bob_id(client: ApiClient) -> str:
    return str(_ok(client.call("GET", "/v1/me"))["player_id"])


def test_what_a_subscription_may_be(stack: RunningStack, receiver: PushReceiver) -> None:
    """Only the push services' https hosts (and, on the local stack, loopback); at most ten;
    accounts only."""
    cy = signed_in(stack, "cy21")
    browser = receiver.subscribe()
    keys = browser.to_json()["keys"]
    for endpoint in (
        "http://fcm.googleapis.com/fcm/send/x",
        "https://fcm.googleapis.com.evil.example/x",
        "https://169.254.169.254/latest/meta-data",
        "https://user@fcm.googleapis.com/x",
        "https://fcm.googleapis.com:8443/x",
        "https://localhost/x",
        "http://127.0.0.1/x",  # loopback, but no port: not the receiver's shape
        "https://push.apple.com.example/x",
    ):
        reply = cy.call(
            "POST", "/v1/me/push-subscriptions", {"kind": "web", "endpoint": endpoint, "keys": keys}
        )
        assert (reply.status, reply.json()["code"]) == (422, "push-endpoint-not-allowed"), endpoint
    ok = {"kind": "web", "endpoint": "https://web.push.apple.com/QGuQyavXutnMH", "keys": keys}
    assert cy.call("POST", "/v1/me/push-subscriptions", ok).status == 201
    bad_keys = {**ok, "keys": {"p256dh": "B" * 87, "auth": keys["auth"]}}
    assert (
        cy.call("POST", "/v1/me/push-subscriptions", bad_keys).json()["code"] == "push-keys-invalid"
    )
    for n in range(9):
        more = {**ok, "endpoint": f"https://fcm.googleapis.com/fcm/send/cy-{n}"}
        assert cy.call("POST", "/v1/me/push-subscriptions", more).status == 201
    eleventh = {**ok, "endpoint": "https://updates.push.services.mozilla.com/wpush/v2/cy"}
    reply = cy.call("POST", "/v1/me/push-subscriptions", eleventh)
    assert (reply.status, reply.json()["code"]) == (409, "too-many-subscriptions")
    listed = _ok(cy.call("GET", "/v1/me/push-subscriptions"))["subscriptions"]
    assert len(listed) == 10
    assert (
        cy.call("DELETE", f"/v1/me/push-subscriptions/{listed[0]['subscription_id']}").status == 204
    )
    assert cy.call("POST", "/v1/me/push-subscriptions", eleventh).status == 201
    guest = ApiClient(http_transport(stack.url))
    token = _ok(guest.call("POST", "/v1/guests"), 201)["token"]
    as_guest = ApiClient(http_transport(stack.url), token)
    reply = as_guest.call("POST", "/v1/me/push-subscriptions", ok)
    assert (reply.status, reply.json()["code"]) == (403, "accounts-only")
