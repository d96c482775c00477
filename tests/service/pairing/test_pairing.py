"""Quick pairing on the served stack (moto behind a threaded server, account tokens checked
against the pool's keys over HTTP): seeks race, fit by their ranges, expire, one open seek per
player and variant, and the paired player is told live and on the bus."""

from __future__ import annotations

import json
import threading
from collections import Counter
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import boto3
import pytest
from mineduel_service.contract.pairing import SeekRequest
from mineduel_service.games import store as games
from mineduel_service.pairing import seeks, store
from mineduel_service.platform import auth, clock, dynamo, keys
from mineduel_service.platform.config import get_config
from mineduel_service.ratings.model import PlayerRating, Skill, system_for
from mineduel_service.ratings.store import rating_item
from websockets.sync.client import connect

if TYPE_CHECKING:
    from conftest import Api, Reply

TIMEOUT_S = 10
ROUNDS = 4
SEEKERS = 8


def _seek(api: Api, token: str, **body: Any) -> Reply:
    return api.call("POST", "/v1/seeks", token=token, body=body)


def _player_id(api: Api, token: str) -> str:
    reply = api.call("GET", "/v1/me", token=token)
    assert reply.status == 200, reply.body
    return str(reply.body["player_id"])


def _rate(player_id: str, rating: int) -> None:
    """Give the player a mine-duel rating item showing ``rating`` (as ten rated games would)."""
    system = system_for("mine-duel")
    assert system is not None
    mu = 25.0 + (rating - 1500) / 42.0
    stored = PlayerRating(player_id, "mine-duel", Skill(mu, 4.0), version=10)
    assert stored.skill.rating == rating
    dynamo.put(rating_item(stored, None, False, clock.now()))


def _stored(api: Api, token: str, seek_id: str) -> store.Seek:
    """The seek as stored (not through GET, which would try to pair an open seek again)."""
    found = store.get_seek(_player_id(api, token), seek_id)
    assert found is not None
    return found


@pytest.fixture(scope="module")
def seekers(served_module_api: Api) -> list[tuple[str, str]]:
    """Eight accounts with usernames: (token, player id)."""
    found = []
    for n in range(SEEKERS):
        token = served_module_api.player(f"seeker{n}")
        found.append((token, _player_id(served_module_api, token)))
    return found


def _race(callers: list[auth.Caller], request: SeekRequest) -> dict[int, seeks.SeekAnswer]:
    """Every caller seeks at the same moment, each in a thread of its own."""
    barrier = threading.Barrier(len(callers))
    answers: dict[int, seeks.SeekAnswer] = {}

    def seek(n: int) -> None:
        barrier.wait()
        answers[n] = seeks.create_seek(callers[n], request)

    threads = [threading.Thread(target=seek, args=(n,)) for n in range(len(callers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def test_eight_accounts_seeking_at_once_make_four_games_round_after_round(
    served_api: Api, seekers: list[tuple[str, str]]
) -> None:
    """The seekers race in threads on the served stack's moto (serialized, as DynamoDB
    serializes conflicting writes). They call the use case with their verified identities:
    in one process, Powertools keeps the request's event on its resolver class, so handlers
    run in threads would read each other's Authorization header."""
    callers = [
        auth.Caller("account", player_id, f"seeker{n}") for n, (_, player_id) in enumerate(seekers)
    ]
    request = SeekRequest(move_deadline_s=3600, rated=True)
    for _ in range(ROUNDS):
        answers = _race(callers, request)
        assert len(answers) == SEEKERS  # no request failed
        stored = [
            store.get_seek(callers[n].player_id, answers[n].seek["seek_id"]) for n in range(SEEKERS)
        ]
        assert [s.status if s else None for s in stored] == ["paired"] * SEEKERS
        per_game = Counter(s.game_id for s in stored if s)
        assert len(per_game) == SEEKERS // 2 and set(per_game.values()) == {2}
        for game_id in per_game:
            assert game_id is not None
            record = games.get_game(game_id)
            assert record is not None and record.status == "active" and record.rated
            owners = {s.player_id for s in stored if s and s.game_id == game_id}
            assert set(record.player_seats.values()) == owners
        for n, answer in answers.items():  # a paired answer names the seek's own game
            found = stored[n]
            if answer.paired:
                assert found is not None and answer.seek["game_id"] == found.game_id
    # every game is one of the players' running games, each player in one game a round
    for _, player_id in seekers:
        running = games.running_seats(player_id)
        assert len(running) == ROUNDS


def test_ranges_are_respected_on_both_sides_both_ends_included(served_api: Api) -> None:
    api = served_api
    low, high, above, middle = (api.player(f"ranger{n}") for n in range(4))
    for token, rating in ((low, 1400), (high, 1600), (above, 1601), (middle, 1500)):
        _rate(_player_id(api, token), rating)
    body = {"move_deadline_s": 7200, "rated": True}
    first = _seek(api, low, **body, rating_range=[1500, 1600])
    assert first.status == 201 and first.body["rating"] == 1400
    # 1601 is just above low's range: not paired, though its own range takes anybody
    waiting_above = _seek(api, above, **body)
    assert waiting_above.status == 201
    # 1500 is low's lower end, but low's 1400 is outside middle's range (and 1601 too)
    waiting_middle = _seek(api, middle, **body, rating_range=[1450, 1600])
    assert waiting_middle.status == 201
    # 1600 is low's upper end, and low's 1400 is high's range [1400, 1400]: paired
    paired = _seek(api, high, **body, rating_range=[1400, 1400])
    assert paired.status == 200, paired.body
    seek = _stored(api, low, first.body["seek_id"])
    assert seek.status == "paired" and seek.game_id == paired.body["game_id"]
    listed = api.call("GET", "/v1/seeks", query={"variant": "mine-duel"}).body["seeks"]
    waiting = {s["name"]: s for s in listed if s["move_deadline_s"] == 7200}
    assert set(waiting) == {"ranger2", "ranger3"}
    assert waiting["ranger3"]["rating_range"] == [1450, 1600]
    assert all("player_id" not in s for s in listed)
    # paged one at a time, with the signed cursor each page gives
    paged, cursor = [], None
    while True:
        query = {"variant": "mine-duel", "limit": "1", **({"cursor": cursor} if cursor else {})}
        page = api.call("GET", "/v1/seeks", query=query)
        assert page.status == 200, page.body
        paged += [s["seek_id"] for s in page.body["seeks"]]
        cursor = page.body["next"]
        if cursor is None:
            break
    assert paged == [s["seek_id"] for s in listed]
    for token, answer in ((above, waiting_above), (middle, waiting_middle)):
        path = f"/v1/seeks/{answer.body['seek_id']}"
        assert api.call("DELETE", path, token=token).status == 200


def test_a_crowd_that_does_not_fit_never_hides_a_seek_that_does(served_api: Api) -> None:
    """25 seeks at the seeker's own rating (more than a page) whose ranges exclude it, and one
    rated 60 above that fits: the new seek is paired with that one."""
    api = served_api
    body = {"move_deadline_s": 5400, "rated": True}
    crowd = []
    for n in range(25):
        token = api.player(f"crowd{n}")
        reply = _seek(api, token, **body, rating_range=[1800, 1900])  # they are 1500 themselves
        assert reply.status == 201, reply.body
        crowd.append((token, reply.body["seek_id"]))
    fits = api.player("fitting")
    _rate(_player_id(api, fits), 1560)
    waiting = _seek(api, fits, **body)
    assert waiting.status == 201
    seeker = _seek(api, api.player("seeker-in-crowd"), **body)
    assert seeker.status == 200, seeker.body
    assert _stored(api, fits, waiting.body["seek_id"]).game_id == seeker.body["game_id"]
    for token, seek_id in crowd:
        assert api.call("DELETE", f"/v1/seeks/{seek_id}", token=token).status == 200


def test_one_open_seek_per_player_and_variant(served_api: Api) -> None:
    api = served_api
    token = api.player("onlyone")
    first = _seek(api, token, move_deadline_s=300)
    assert first.status == 201
    again = _seek(api, token, move_deadline_s=86400, rated=True)
    assert again.status == 409 and again.error_code == "seek-open"
    other_variant = _seek(api, token, variant="mineseeker")
    assert other_variant.status == 201
    cancelled = api.call("DELETE", f"/v1/seeks/{first.body['seek_id']}", token=token)
    assert cancelled.status == 200 and cancelled.body["status"] == "cancelled"
    twice = api.call("DELETE", f"/v1/seeks/{first.body['seek_id']}", token=token)
    assert twice.status == 409 and twice.error_code == "seek-not-open"
    assert _seek(api, token, move_deadline_s=300).status == 201
    for seek in api.call("GET", "/v1/seeks", query={"variant": "mineseeker"}).body["seeks"]:
        api.call("DELETE", f"/v1/seeks/{seek['seek_id']}", token=token)


def test_a_seek_expires_and_is_never_paired_after(served_api: Api) -> None:
    api = served_api
    waiting, late = api.player("waiter"), api.player("latecomer")
    seek = _seek(api, waiting, move_deadline_s=120)
    assert seek.status == 201
    expires = clock.parse_iso(seek.body["expires_at"])
    assert expires - clock.parse_iso(seek.body["created_at"]) == timedelta(minutes=10)
    clock.advance(601)
    read = api.call("GET", f"/v1/seeks/{seek.body['seek_id']}", token=waiting)
    assert read.status == 200 and read.body["status"] == "expired"
    other = _seek(api, late, move_deadline_s=120)
    assert other.status == 201, other.body  # not paired with the expired seek
    listed = api.call("GET", "/v1/seeks").body["seeks"]
    assert seek.body["seek_id"] not in {s["seek_id"] for s in listed}
    # the lapsed seek holds no lock: its owner seeks again, and is paired with the latecomer
    again = _seek(api, waiting, move_deadline_s=120)
    assert again.status == 200 and again.body["game_id"]
    gone = api.call("DELETE", f"/v1/seeks/{seek.body['seek_id']}", token=waiting)
    assert gone.status == 409 and "expired" in gone.body["detail"]


def test_guests_may_not_seek_and_seeks_are_their_owners(served_api: Api) -> None:
    api = served_api
    guest = api.guest()
    refused = _seek(api, guest)
    assert refused.status == 403 and refused.error_code == "accounts-only"
    owner, stranger = api.player("owner"), api.player("stranger")
    seek = _seek(api, owner, move_deadline_s=900)
    path = f"/v1/seeks/{seek.body['seek_id']}"
    assert api.call("GET", path, token=stranger).status == 404
    assert api.call("DELETE", path, token=stranger).status == 404
    assert api.call("GET", "/v1/seeks/not-a-seek", token=owner).status == 404
    assert api.call("DELETE", path, token=owner).status == 200


def test_bad_seeks_are_refused(served_api: Api) -> None:
    api = served_api
    token = api.player("picky")
    cases = [
        ({"rating_range": [1600, 1400]}, 422, "bad-rating-range"),
        ({"rating_range": [1400]}, 422, "invalid-request"),
        ({"variant": "mineseeker", "rated": True}, 422, "variant-not-rated"),
        ({"variant": "mineseeker", "rating_range": [1, 2]}, 422, "variant-not-rated"),
        ({"variant": "chess"}, 422, "unknown-variant"),
        ({"move_deadline_s": 10}, 422, "invalid-request"),
    ]
    for body, status, code in cases:
        reply = _seek(api, token, **body)
        assert (reply.status, reply.error_code) == (status, code), (body, reply.body)


def test_a_waiting_player_is_told_live_and_on_the_bus(served_api: Api) -> None:
    api = served_api
    config = get_config()
    sqs = boto3.client("sqs", region_name=config.region)
    events = boto3.client("events", region_name=config.region)
    bus = api.stack.ref("GameEventBus")
    queue = sqs.create_queue(QueueName="pairing-events-test")["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=queue, AttributeNames=["QueueArn"])["Attributes"]
    events.put_rule(
        Name="pairings", EventBusName=bus, EventPattern='{"source": ["mineduel.pairing"]}'
    )
    events.put_targets(
        Rule="pairings", EventBusName=bus, Targets=[{"Id": "q", "Arn": arn["QueueArn"]}]
    )
    waiting, coming = api.player("patient"), api.player("arriving")
    feed = api.stream()
    with connect(api.live.url + f"/?token={waiting}", open_timeout=TIMEOUT_S) as ws:
        seek = _seek(api, waiting, move_deadline_s=1800)
        assert seek.status == 201
        paired = _seek(api, coming, move_deadline_s=1800)
        assert paired.status == 200
        feed.run_now()
        told = json.loads(ws.recv(timeout=TIMEOUT_S))
    assert told == {
        "type": "paired",
        "seek_id": seek.body["seek_id"],
        "game_id": paired.body["game_id"],
        "variant": "mine-duel",
        "move_deadline_s": 1800,
        "rated": False,
    }
    seen = []
    for _ in range(5):
        got = sqs.receive_message(QueueUrl=queue, MaxNumberOfMessages=10, WaitTimeSeconds=0)
        seen.extend(json.loads(m["Body"]) for m in got.get("Messages", []))
    mine = [e for e in seen if e["detail"]["game_id"] == paired.body["game_id"]]
    assert sorted((e["detail"]["seek_id"], e["detail"]["answered"]) for e in mine) == sorted(
        [(seek.body["seek_id"], False), (paired.body["seek_id"], True)]
    )
    assert {e["detail-type"] for e in mine} == {"SeekPaired"}
    # the pointer to the closed connection is gone with it
    waiting_id = _player_id(api, waiting)
    for _ in range(50):
        if not list(
            dynamo.query(
                "pk = :pk AND begins_with(sk, :c)",
                {":pk": {"S": keys.player_partition(waiting_id)}, ":c": {"S": "CONN#"}},
            )
        ):
            break
        threading.Event().wait(0.1)
    else:
        pytest.fail("the connection's pointer outlived it")
