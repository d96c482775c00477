"""The local stack is bounded like AWS: items whose TTL has passed are deleted (a REMOVE by the
DynamoDB service each, which the fan-out acts on), and the stream keeps 24 hours.

A guest plays with a subscribed socket (a connection and a subscription), and a guest token is
an item too: all carry ``expires_ttl``. (The commit's ``Idempotency-Key`` rides on its log item,
which is kept as long as the game: no TTL.)
Moving the local clock eight days on deletes every one of them at once, as DynamoDB's TTL would
have while the time passed; before, moto kept them forever.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import boto3
import pytest
from websockets.sync.client import connect

from mineduel.local.stack import RunningStack
from mineduel.testing.api_client import ApiClient, http_transport
from mineduel.testing.players import next_tap

pytestmark = pytest.mark.http
EIGHT_DAYS_S = 8 * 86400


def _items(stack: RunningStack) -> list[dict[str, Any]]:
    table = stack.provisioned.ref("GamesTable")
    pages = boto3.client("dynamodb", region_name=stack.provisioned.region).get_paginator("scan")
    return [item for page in pages.paginate(TableName=table) for item in page["Items"]]


def _records(stack: RunningStack) -> list[dict[str, Any]]:
    """Every record the table's stream still keeps."""
    streams: Any = boto3.client("dynamodbstreams", region_name=stack.provisioned.region)
    arn = stack.provisioned.attribute("GamesTable", "StreamArn")
    shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]["ShardId"]
    iterator = streams.get_shard_iterator(
        StreamArn=arn, ShardId=shard, ShardIteratorType="TRIM_HORIZON"
    )["ShardIterator"]
    found: list[dict[str, Any]] = []
    while iterator:
        answer = streams.get_records(ShardIterator=iterator)
        found.extend(answer["Records"])
        iterator = answer.get("NextShardIterator") if answer["Records"] else None
    return found


def _now(stack: RunningStack) -> float:
    clock = ApiClient(http_transport(stack.url)).call("GET", "/_local/clock").ok()
    return datetime.fromisoformat(clock["now"].replace("Z", "+00:00")).timestamp()


def test_expired_items_are_deleted_and_the_stream_keeps_a_day(stack: RunningStack) -> None:
    guest = ApiClient(http_transport(stack.url))
    guest.become_guest()
    game = guest.create_game(bots=1, bot_level="easy")
    with connect(f"{stack.live.url}/?token={guest.token}", open_timeout=10) as ws:
        ws.send(json.dumps({"action": "subscribe", "game_id": game["game_id"]}))
        assert json.loads(ws.recv(timeout=10))["type"] == "subscribed"
        row, col = next_tap(game, "easy")
        guest.commit(game, row, col, key="ttl-test-1").ok()
        expiring = [i for i in _items(stack) if "expires_ttl" in i]
        kinds = {
            i["sk"]["S"].split("#")[0] if "#" in i["sk"]["S"] else i["sk"]["S"] for i in expiring
        }
        assert {"CONN", "GAME", "GUEST"} <= kinds, kinds  # GAME#SUB#...: the subscription
        assert "MOVE" not in kinds  # the log, the key's mark on it included, is kept
        game_stream = [
            r
            for r in _records(stack)
            if r["dynamodb"]["Keys"]["pk"]["S"] == f"GAME#{game['game_id']}"
        ]
        assert game_stream  # the game's own writes are in the stream, for now

        advanced = guest.call("POST", "/_local/clock", {"advance_s": EIGHT_DAYS_S}).ok()
        assert advanced["advanced_s"] == EIGHT_DAYS_S

        now = _now(stack)
        left = [i for i in _items(stack) if "expires_ttl" in i]
        assert all(float(i["expires_ttl"]["N"]) > now for i in left), left
        gone = {json.dumps(i["pk"]) + json.dumps(i["sk"]) for i in expiring}
        assert not gone & {json.dumps(i["pk"]) + json.dumps(i["sk"]) for i in left}
        records = _records(stack)
        by_ttl = [r for r in records if r.get("userIdentity")]
        assert all(r["eventName"] == "REMOVE" for r in by_ttl)
        assert all(
            r["userIdentity"] == {"PrincipalId": "dynamodb.amazonaws.com", "Type": "Service"}
            for r in by_ttl
        )
        ttl_sorts = {r["dynamodb"]["Keys"]["sk"]["S"].split("#")[0] for r in by_ttl}
        assert {"CONN", "GUEST"} <= ttl_sorts, ttl_sorts  # (the fan-out drops the subscription)
        before_jump = max(int(r["dynamodb"]["SequenceNumber"]) for r in game_stream)
        kept = [int(r["dynamodb"]["SequenceNumber"]) for r in records]
        assert kept and min(kept) > before_jump  # a week-old record is no longer kept
    assert datetime.fromtimestamp(now, UTC).year >= 2026
    refused = guest.call("POST", "/v1/games", {"bots": 1})
    assert refused.status == 401  # the guest's token lapsed with its item, as on AWS
    fresh = ApiClient(http_transport(stack.url))
    fresh.become_guest()
    assert fresh.create_game(bots=1)["status"] == "active"  # and the stack goes on
