"""Live push end to end on the served stack: real WebSocket clients on the local WebSocket
server, the template's $connect/$default/$disconnect functions, the fan-out fed from the
table's stream (moto's), and the management API reaching the sockets."""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

import boto3
import pytest
from mineduel_service.games import store
from mineduel_service.live import listeners
from mineduel_service.live import store as connections
from mineduel_service.platform import clock
from mineduel_service.platform.config import get_config
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

from mineduel.local.streams import stream_pollers

if TYPE_CHECKING:
    from conftest import Api

TIMEOUT_S = 10


def _open(api: Api, token: str | None = None) -> ClientConnection:
    url = api.live.url + (f"/?token={token}" if token else "/")
    return connect(url, open_timeout=TIMEOUT_S)


def _ask(ws: ClientConnection, **message: Any) -> dict[str, Any]:
    ws.send(json.dumps(message))
    return dict(json.loads(ws.recv(timeout=TIMEOUT_S)))


def _next(ws: ClientConnection) -> dict[str, Any]:
    return dict(json.loads(ws.recv(timeout=TIMEOUT_S)))


def _nothing(ws: ClientConnection) -> None:
    with pytest.raises(TimeoutError):
        ws.recv(timeout=0.3)


def _tap(api: Api, token: str, game_id: str) -> dict[str, Any]:
    """Open a known safe cell showing a number: the bot replies, from one number too little to
    win from, so the game goes on (after a tap on an unknown cell the bot may win at once)."""
    record = store.get_game(game_id)
    assert record is not None
    known = api.field(game_id)
    cell = next(
        c
        for c, shown in enumerate(record.state.cells)
        if shown == "." and not known.is_mine(c) and known.numbers[c] > 0
    )
    width = record.settings.width
    reply = api.commit(token, game_id, cell // width, cell % width, record.state.move_count)
    assert reply.status == 200, reply.body
    assert reply.body["game"]["status"] == "active", reply.body
    return dict(reply.body)


def test_a_player_sees_each_move_and_the_end(served_api: Api) -> None:
    api = served_api
    token = api.guest()
    game = api.bot_game(token, bot_level="easy")
    feed = api.stream()
    with _open(api, token) as ws:
        answer = _ask(ws, action="subscribe", game_id=game["game_id"])
        assert answer == {
            "type": "subscribed",
            "game_id": game["game_id"],
            "role": "player",
            "seat": 0,
        }
        played = _tap(api, token, game["game_id"])
        feed.run_now()
        message = _next(ws)
        assert message == {
            "type": "game",
            "game_id": game["game_id"],
            "move_count": played["game"]["move_count"],
            "status": "active",
            "event": "move",
            "watchers": 0,
        }
        api.call("POST", f"/v1/games/{game['game_id']}/resign", token=token)
        feed.run_now()
        assert _next(ws)["event"] == "resign"
        assert _ask(ws, action="ping") == {"type": "pong"}


def test_refusals_are_messages_and_a_bad_token_refuses_the_handshake(served_api: Api) -> None:
    api = served_api
    with pytest.raises(InvalidStatus) as refused:
        _open(api, "mdg1.nobody.secret")
    assert refused.value.response.status_code == 401
    with _open(api) as ws:
        assert _ask(ws, action="subscribe", game_id="not-a-game")["code"] == "game-not-found"
        assert _ask(ws, action="dance")["code"] == "bad-action"
        ws.send("not json")
        assert _next(ws)["code"] == "bad-message"
        missing = "6f1c0d2e-1b7a-4d0e-9a55-3f2b8c1d9e70"
        assert _ask(ws, action="subscribe", game_id=missing)["code"] == "game-not-found"


def test_spectators_watch_are_counted_and_can_be_turned_off(served_api: Api) -> None:
    api = served_api
    token = api.guest()
    game_id = api.bot_game(token, bot_level="easy")["game_id"]
    feed = api.stream()
    with _open(api, token) as player, _open(api) as spectator:
        assert _ask(player, action="subscribe", game_id=game_id)["role"] == "player"
        answer = _ask(spectator, action="subscribe", game_id=game_id)
        assert answer["role"] == "spectator" and answer["seat"] is None
        feed.run_now()
        assert _next(player) == {"type": "watchers", "game_id": game_id, "watchers": 1}
        assert api.call("GET", f"/v1/games/{game_id}").body["watchers"] == 1
        _tap(api, token, game_id)
        feed.run_now()
        seen = _next(spectator)
        assert seen["type"] == "game" and seen["watchers"] == 1
        assert _next(player)["type"] == "game"
        # Only a seat may turn spectators off; then every spectator is told and unsubscribed.
        other = api.guest()
        refused = api.call("DELETE", f"/v1/games/{game_id}/spectators", token=other)
        assert refused.status == 403
        reply = api.call("DELETE", f"/v1/games/{game_id}/spectators", token=token)
        assert reply.status == 200 and reply.body["spectators_off"] is True
        feed.run_now()
        cut = _next(spectator)
        assert cut["type"] == "unsubscribed" and cut["reason"] == "spectators-off"
        assert _next(player) == {"type": "watchers", "game_id": game_id, "watchers": 0}
        again = _ask(spectator, action="subscribe", game_id=game_id)
        assert again["code"] == "not-watchable"
        assert api.call("GET", f"/v1/games/{game_id}").body["watchers"] is None  # nobody


def test_a_player_who_does_not_allow_spectators_keeps_them_out(served_api: Api) -> None:
    api = served_api
    token = api.player("Hermit1")
    put = api.call("PUT", "/v1/me", token=token, body={"settings": {"spectators": False}})
    assert put.status == 200, put.body
    game_id = api.bot_game(token, bot_level="easy")["game_id"]
    with _open(api) as spectator, _open(api, token) as player:
        refused = _ask(spectator, action="subscribe", game_id=game_id)
        assert refused["code"] == "not-watchable"
        assert "does not allow spectators" in refused["message"]
        assert _ask(player, action="subscribe", game_id=game_id)["role"] == "player"


def test_a_gone_connection_is_removed_the_first_time_a_send_fails(served_api: Api) -> None:
    api = served_api
    token = api.guest()
    game_id = api.bot_game(token, bot_level="easy")["game_id"]
    # A connection API Gateway no longer has, whose $disconnect never came.
    gone = "R29uZUdvbmU="
    context = {"connectionId": gone, "routeKey": "$connect", "eventType": "CONNECT"}
    api.invoker.invoke("LiveConnectFunction", {"requestContext": context})
    body = json.dumps({"action": "subscribe", "game_id": game_id})
    context = {**context, "routeKey": "$default", "eventType": "MESSAGE"}
    answer = api.invoker.invoke("LiveMessageFunction", {"requestContext": context, "body": body})
    assert json.loads(answer["body"])["type"] == "subscribed"
    assert [s.connection_id for s in store.subscriptions(game_id)] == [gone]
    feed = api.stream()
    _tap(api, token, game_id)
    feed.run_now()
    assert store.subscriptions(game_id) == []
    assert connections.get_connection(gone) is None


def test_disconnect_removes_the_connection_and_its_subscriptions(served_api: Api) -> None:
    api = served_api
    token = api.guest()
    game_id = api.bot_game(token, bot_level="easy")["game_id"]
    with _open(api, token) as ws:
        _ask(ws, action="subscribe", game_id=game_id)
        assert len(store.subscriptions(game_id)) == 1
        assert _ask(ws, action="unsubscribe", game_id=game_id)["type"] == "unsubscribed"
        assert store.subscriptions(game_id) == []
        _ask(ws, action="subscribe", game_id=game_id)
    for _ in range(50):
        if not store.subscriptions(game_id):
            break
        time.sleep(0.1)
    assert store.subscriptions(game_id) == []


def test_game_events_reach_the_stacks_bus(served_api: Api) -> None:
    api = served_api
    config = get_config()
    sqs = boto3.client("sqs", region_name=config.region)
    events = boto3.client("events", region_name=config.region)
    bus = api.stack.ref("GameEventBus")
    queue = sqs.create_queue(QueueName="game-events-test")["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=queue, AttributeNames=["QueueArn"])["Attributes"]
    events.put_rule(
        Name="all-games", EventBusName=bus, EventPattern='{"source": ["mineduel.game"]}'
    )
    events.put_targets(
        Rule="all-games", EventBusName=bus, Targets=[{"Id": "q", "Arn": arn["QueueArn"]}]
    )
    listeners.forget_rules()  # the fan-out trusts the rules it read for FRESH_S
    feed = api.stream()
    token = api.guest()
    game_id = api.bot_game(token, bot_level="easy")["game_id"]
    _tap(api, token, game_id)
    api.call("POST", f"/v1/games/{game_id}/resign", token=token)
    feed.run_now()
    seen = []
    for _ in range(5):
        got = sqs.receive_message(QueueUrl=queue, MaxNumberOfMessages=10, WaitTimeSeconds=0)
        seen.extend(json.loads(m["Body"]) for m in got.get("Messages", []))
    mine = [e for e in seen if e["detail"]["game_id"] == game_id]
    kinds = [e["detail-type"] for e in mine]
    assert kinds[0] == "GameStarted" and kinds[-1] == "GameFinished", kinds
    assert "MovePlayed" in kinds
    assert all(e["source"] == "mineduel.game" for e in mine)
    events.remove_targets(Rule="all-games", EventBusName=bus, Ids=["q"])
    events.delete_rule(Name="all-games", EventBusName=bus)


def test_only_the_events_a_rule_listens_for_are_put_on_the_bus(served_api: Api) -> None:
    """PutEvents is billed per entry, matched or not: a bus without rules gets nothing, and a
    rule for one detail type gets that type alone, once the rules are read again."""
    api = served_api
    config = get_config()
    bus = api.stack.ref("GameEventBus")
    events = boto3.client("events", region_name=config.region)
    reports: list[dict[str, Any]] = []

    def deliver(logical_id: str, event: dict[str, Any]) -> Any:
        report = api.invoker.invoke(logical_id, event)
        reports.append(report)
        return report

    (feed,) = stream_pollers(api.stack.template, api.stack.resolve, config.region, deliver)
    assert events.list_rules(EventBusName=bus)["Rules"] == []
    token = api.guest()
    game_id = api.bot_game(token, bot_level="easy")["game_id"]
    listeners.forget_rules()  # whatever an earlier test left cached is read anew
    _tap(api, token, game_id)
    feed.run_now()
    assert "move" in [e for r in reports for e in r["events"]]
    assert sum(r["bus_events"] for r in reports) == 0

    sqs = boto3.client("sqs", region_name=config.region)
    queue = sqs.create_queue(QueueName="game-ends-test")["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=queue, AttributeNames=["QueueArn"])["Attributes"]
    pattern = {"source": ["mineduel.game"], "detail-type": ["GameFinished"]}
    events.put_rule(Name="game-ends", EventBusName=bus, EventPattern=json.dumps(pattern))
    events.put_targets(
        Rule="game-ends", EventBusName=bus, Targets=[{"Id": "q", "Arn": arn["QueueArn"]}]
    )
    _tap(api, token, game_id)
    feed.run_now()  # within FRESH_S of the last read: the new rule is not known yet
    assert sum(r["bus_events"] for r in reports) == 0
    clock.advance(listeners.FRESH_S)
    reports.clear()
    api.call("POST", f"/v1/games/{game_id}/resign", token=token)
    feed.run_now()
    assert [e for r in reports for e in r["events"]] == ["resign"]
    assert sum(r["bus_events"] for r in reports) == 1  # GameFinished; not its MovePlayed
    got = sqs.receive_message(QueueUrl=queue, MaxNumberOfMessages=10, WaitTimeSeconds=0)
    kinds = [json.loads(m["Body"])["detail-type"] for m in got.get("Messages", [])]
    assert kinds == ["GameFinished"]
    events.remove_targets(Rule="game-ends", EventBusName=bus, Ids=["q"])
    events.delete_rule(Name="game-ends", EventBusName=bus)
