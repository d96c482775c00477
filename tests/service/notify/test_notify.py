"""Notifications, part by part, on moto: the encryption against RFC 8291's own example and an
independent decryptor, the endpoints the service will request, who is told what of a change,
the VAPID key made once however many race, the SNS platform applications' custom resource
(answered at a real ResponseURL), and a delivery's retries and dead-letter queue."""

from __future__ import annotations

import base64
import json
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

import boto3
import http_ece
import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from mineduel_service.games import store as games
from mineduel_service.notify import notices, store, vapid, webpush
from mineduel_service.notify.endpoints import check_endpoint
from mineduel_service.notify.errors import PushEndpointNotAllowed, PushKeyUnavailable
from mineduel_service.notify.outbox import Message
from mineduel_service.platform import dynamo, keys
from mineduel_service.platform.config import get_config, reset_config

from mineduel.testing.push_receiver import PushReceiver
from mineduel.testing.response_url import ResponseUrl
from mineduel.testing.response_url import response_url as served_response_url

if TYPE_CHECKING:
    from conftest import Api

    from mineduel.local.provision import LocalStack

EVENTS = Path(__file__).resolve().parents[3] / "events"


def _b64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


# ---------------------------------------------------------------------------- RFC 8291
RFC = {
    "plaintext": b"When I grow up, I want to be a watermelon",
    "ua_public": "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpk"
    "NtoIAiw4",
    "ua_private": "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94",
    "auth": "BTBZMqHH6r4Tts7J_aSIgg",
    "as_private": "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw",
    "salt": "DGv6ra1nlYgDCS1FRnbzlw",
    "body": "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3v"
    "CYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLV"
    "WGNWQexSgSxsj_Qulcy4a-fN",
}


def test_the_encryption_is_rfc_8291_s_own_example_to_the_byte() -> None:
    sender = ec.derive_private_key(int.from_bytes(_b64(RFC["as_private"]), "big"), ec.SECP256R1())
    body = webpush.encrypt(
        RFC["plaintext"], RFC["ua_public"], RFC["auth"], sender=sender, salt=_b64(RFC["salt"])
    )
    assert body == _b64(RFC["body"])
    receiver = ec.derive_private_key(int.from_bytes(_b64(RFC["ua_private"]), "big"), ec.SECP256R1())
    decrypted = http_ece.decrypt(
        body, private_key=receiver, auth_secret=_b64(RFC["auth"]), version="aes128gcm"
    )
    assert decrypted == RFC["plaintext"]


def test_a_fresh_message_decrypts_for_its_browser_alone() -> None:
    browser = ec.generate_private_key(ec.SECP256R1())
    other = ec.generate_private_key(ec.SECP256R1())
    secret = b"0123456789abcdef"
    p256dh = vapid.b64url(vapid.public_bytes(browser.public_key()))
    payload = json.dumps({"type": "your_turn", "body": "é" * 1000}, ensure_ascii=False).encode()
    body = webpush.encrypt(payload, p256dh, vapid.b64url(secret))
    assert body != webpush.encrypt(payload, p256dh, vapid.b64url(secret))  # fresh keys and salt
    assert (
        http_ece.decrypt(body, private_key=browser, auth_secret=secret, version="aes128gcm")
        == payload
    )
    with pytest.raises(Exception):  # noqa: B017  (http_ece raises its own InvalidTag)
        http_ece.decrypt(body, private_key=other, auth_secret=secret, version="aes128gcm")
    with pytest.raises(webpush.PayloadTooLarge):
        webpush.encrypt(b"x" * 3073, p256dh, vapid.b64url(secret))
    with pytest.raises(ValueError, match="p256dh"):
        webpush.check_keys("BAAA", vapid.b64url(secret))


# ---------------------------------------------------------------------------- endpoints
@pytest.mark.parametrize(
    "endpoint",
    [
        "https://fcm.googleapis.com/fcm/send/abc:APA91b",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
        "https://web.push.apple.com/QGuQyavXutnMH",
        "https://wns2-par02p.notify.windows.com/w/?token=BQYAAA",
        "https://fcm.googleapis.com:443/fcm/send/x",
    ],
)
def test_the_push_services_are_endpoints(endpoint: str) -> None:
    assert check_endpoint(endpoint, allow_loopback=False) == endpoint


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://fcm.googleapis.com/fcm/send/x",
        "https://fcm.googleapis.com.attacker.example/x",
        "https://attacker.example/?fcm.googleapis.com",
        "https://169.254.169.254/latest/meta-data/",
        "https://[::1]/x",
        "https://user:pw@fcm.googleapis.com/x",
        "https://fcm.googleapis.com:444/x",
        "https://push.apple.com/x",  # the domain itself is no push host
        "https://a..push.apple.com/x",
        "https://fcm.googleapis.com/x#fragment",
        "https://fcm.googleapis.com/x y",
        "file:///etc/passwd",
        "http://127.0.0.1:8080/push/x",  # loopback: only where the local stack allows it
        "https://fcm.googleapis.com/" + "x" * 2100,
    ],
)
def test_nothing_else_is(endpoint: str) -> None:
    with pytest.raises(PushEndpointNotAllowed):
        check_endpoint(endpoint, allow_loopback=False)


@pytest.mark.parametrize(
    ("status", "outcome"),
    [
        (201, "sent"),
        (202, "sent"),
        (404, "gone"),
        (410, "gone"),
        (408, "retry"),
        (429, "retry"),
        (500, "retry"),
        (503, "retry"),
        (400, "refused"),
        (403, "refused"),
        (413, "refused"),
    ],
)
def test_what_a_push_service_s_answer_means(status: int, outcome: str) -> None:
    """RFC 8030: 404 and 410 end the subscription; 429 and a 5xx are tried again later;
    anything else is refused (logged, not retried)."""
    assert webpush.outcome_of(status) == outcome


def test_the_local_stack_alone_adds_loopback_with_a_port() -> None:
    assert check_endpoint("http://127.0.0.1:8080/push/x", allow_loopback=True)
    for endpoint in ("http://127.0.0.1/push/x", "http://localhost:8080/x", "http://10.0.0.1:80/x"):
        with pytest.raises(PushEndpointNotAllowed):
            check_endpoint(endpoint, allow_loopback=True)


# ---------------------------------------------------------------------------- who is told
def test_who_is_told_what_of_a_change(served_api: Api) -> None:
    tokens, game = served_api.people_game("nina21", "omar21", move_deadline_s=3600)
    record = games.get_game(game["game_id"])
    assert record is not None and record.state.turn == 0
    nina, omar = record.seats[0].player_id, record.seats[1].player_id
    assert notices.of_change(None, record) == []  # a game's first write: no "your turn"

    warned = record.evolve(warned_for=record.deadline, version=record.version + 1)
    (warning,) = notices.of_change(record, warned)
    assert (warning.type, warning.player_id, warning.urgency) == ("time_almost_up", nina, "high")
    assert warning.key == f"time_almost_up:{record.game_id}:{record.deadline}"
    assert notices.of_change(warned, warned) == []  # the same write again tells nothing
    assert notices.of_change(record, warned, open_seats={0}) == []  # her page is open

    reply = served_api.commit(tokens[0], game["game_id"], 0, 0, 0)
    after = games.get_game(game["game_id"])
    assert reply.status == 200 and after is not None
    if after.state.turn == 1:
        (turn,) = notices.of_change(record, after)
        assert (turn.type, turn.player_id) == ("your_turn", omar)
        assert turn.key == f"your_turn:{record.game_id}:{after.state.move_count}"
        assert turn.title == "Your turn" and turn.body.startswith(f"{record.seats[0].name} moved.")
        assert turn.path == f"#/game/{record.game_id}"
    else:  # a mine found: nina plays again, and nobody is told
        assert notices.of_change(record, after) == []

    served_api.call("POST", f"/v1/games/{game['game_id']}/resign", token=tokens[1])
    finished = games.get_game(game["game_id"])
    assert finished is not None
    ends = {n.player_id: n for n in notices.of_change(after, finished)}
    assert ends[nina].title == "You won" and ends[omar].title == "You lost"
    assert f"{record.seats[1].name}: resigned" in ends[nina].body
    assert {n.type for n in ends.values()} == {"game_over"}
    paired = notices.paired(finished)
    assert {n.player_id for n in paired} == {nina, omar}
    assert {n.key for n in paired} == {f"paired:{record.game_id}"}
    for notice in (*ends.values(), *paired, warning):
        text = json.dumps(notice.to_dict())
        assert "seed" not in text and "board" not in text
        assert Message.parse(Message(notice).body()).notice == notice


def test_a_seat_that_goes_out_passes_the_turn_and_says_so(served_api: Api) -> None:
    """In a game of three, the seat to move resigns: the next seat is told it is their turn,
    and why (the seat went out, it did not move)."""
    tokens, game = served_api.people_game("tam21", "uma21", "vic21")
    before = games.get_game(game["game_id"])
    assert before is not None and before.state.turn == 0
    resigned = served_api.call("POST", f"/v1/games/{game['game_id']}/resign", token=tokens[0])
    assert resigned.status == 200, resigned.body
    after = games.get_game(game["game_id"])
    assert after is not None and after.status == "active" and after.state.turn == 1
    (turn,) = notices.of_change(before, after)
    assert (turn.type, turn.player_id) == ("your_turn", after.seats[1].player_id)
    assert turn.body.startswith(f"{before.seats[0].name} is out. Your move")


def test_an_invitation_is_told_once_and_only_to_the_invited(served_api: Api) -> None:
    host = served_api.player("pia21")
    served_api.player("quin21")
    created = served_api.call(
        "POST", "/v1/games", token=host, body={"bots": 0, "invite": ["quin21"]}
    )
    record = games.get_game(created.body["game_id"])
    assert record is not None
    (invited,) = notices.of_change(None, record)
    assert invited.type == "invited" and invited.player_id == record.seats[1].reserved_id
    assert invited.body == "pia21 invites you to a game of Mine Duel."
    assert notices.of_change(record, record.evolve(version=record.version + 1)) == []


# ---------------------------------------------------------------------------- whose an address is
def _address_owner(address: str) -> str | None:
    return store.owner_of(store.subscription_id("web", address))


def _count(player_id: str) -> int:
    found = dynamo.get(keys.push_count(player_id))
    return int(found["subscriptions"]["N"]) if found else 0


def _me(api: Api, token: str) -> str:
    me = api.call("GET", "/v1/me", token=token)
    assert me.status == 200, me.body
    return str(me.body["player_id"])


def test_a_browser_someone_else_subscribes_is_theirs_alone(served_api: Api) -> None:
    """The same endpoint from another account (someone else signed in on that browser): it
    moves, so it never tells the account before; a stale owner item is no obstacle; of many
    accounts racing for one browser, exactly one ends up with it, and every count is right."""
    browser = ec.generate_private_key(ec.SECP256R1())
    keys_ = {
        "p256dh": vapid.b64url(vapid.public_bytes(browser.public_key())),
        "auth": vapid.b64url(b"fedcba9876543210"),
    }
    address = "https://fcm.googleapis.com/fcm/send/shared-browser-21"
    body = {"kind": "web", "endpoint": address, "keys": keys_}
    path = "/v1/me/push-subscriptions"
    wes, xia = served_api.account("wes21"), served_api.account("xia21")
    wes_id, xia_id = _me(served_api, wes), _me(served_api, xia)

    first = served_api.call("POST", path, token=wes, body=body)
    assert first.status == 201 and _address_owner(address) == wes_id
    moved = served_api.call("POST", path, token=xia, body=body)
    assert moved.status == 201, moved.body  # new for xia
    assert served_api.call("GET", path, token=wes).body["subscriptions"] == []
    assert [
        s["subscription_id"] for s in served_api.call("GET", path, token=xia).body["subscriptions"]
    ] == [first.body["subscription_id"]]
    assert (_address_owner(address), _count(wes_id), _count(xia_id)) == (xia_id, 0, 1)
    gone = served_api.call("DELETE", f"{path}/{first.body['subscription_id']}", token=wes)
    assert gone.status == 404  # not wes's any more
    back = served_api.call("POST", path, token=wes, body=body)  # and back again
    assert back.status == 201 and _count(xia_id) == 0 and _address_owner(address) == wes_id

    # An owner item left naming someone without the subscription: taken over all the same.
    stale = "https://fcm.googleapis.com/fcm/send/stale-21"
    dynamo.put(
        {**keys.push_owner(store.subscription_id("web", stale)), "player_id": {"S": "ghost"}}
    )
    taken = served_api.call("POST", path, token=xia, body={**body, "endpoint": stale})
    assert taken.status == 201 and _address_owner(stale) == xia_id

    # Deleting a subscription lets its address go.
    sub_id = taken.body["subscription_id"]
    assert served_api.call("DELETE", f"{path}/{sub_id}", token=xia).status == 204
    assert _address_owner(stale) is None

    # Ten accounts subscribe one browser at the same moment: one has it, nobody else, and
    # one that lost every look is told so (409, send it again), never a server error.
    racers = [served_api.account(f"race21{n}") for n in range(10)]
    ids = [_me(served_api, token) for token in racers]
    raced = "https://fcm.googleapis.com/fcm/send/raced-21"
    barrier = threading.Barrier(len(racers))

    def subscribe(token: str) -> tuple[int, str | None]:
        barrier.wait()
        reply = served_api.call("POST", path, token=token, body={**body, "endpoint": raced})
        return reply.status, reply.error_code

    with ThreadPoolExecutor(max_workers=len(racers)) as pool:
        answers = list(pool.map(subscribe, racers))
    assert set(answers) <= {(201, None), (409, "subscription-conflict")}, answers
    assert (201, None) in answers
    holders = [
        player
        for player, token in zip(ids, racers, strict=True)
        if served_api.call("GET", path, token=token).body["subscriptions"]
    ]
    assert len(holders) == 1 and _address_owner(raced) == holders[0]
    assert [_count(player) for player in ids].count(1) == 1
    assert sum(_count(player) for player in ids) == 1


def test_ten_a_player_however_many_race(served_api: Api) -> None:
    """Eight browsers set up, six more subscribe at the same moment: two land, four are 409
    ``too-many-subscriptions``, and the count says ten."""
    browser = ec.generate_private_key(ec.SECP256R1())
    keys_ = {
        "p256dh": vapid.b64url(vapid.public_bytes(browser.public_key())),
        "auth": vapid.b64url(b"0123456789abcdef"),
    }
    path = "/v1/me/push-subscriptions"
    token = served_api.account("many21")
    player = _me(served_api, token)

    def subscribe(n: int) -> int:
        endpoint = f"https://fcm.googleapis.com/fcm/send/many-21-{n}"
        body = {"kind": "web", "endpoint": endpoint, "keys": keys_}
        return served_api.call("POST", path, token=token, body=body).status

    assert [subscribe(n) for n in range(8)] == [201] * 8
    barrier = threading.Barrier(6)

    def racing(n: int) -> int:
        barrier.wait()
        return subscribe(n)

    with ThreadPoolExecutor(max_workers=6) as pool:
        statuses = sorted(pool.map(racing, range(8, 14)))
    assert statuses == [201, 201, 409, 409, 409, 409]
    everything = served_api.call("GET", path, token=token).body
    assert len(everything["subscriptions"]) == 10 and everything["next"] is None
    assert _count(player) == 10

    # Pages of three: 3, 3, 3, 1, in order, the last without a cursor to an empty page.
    pages, cursor = [], None
    while True:
        query = {"limit": "3", **({"cursor": cursor} if cursor else {})}
        page = served_api.call("GET", path, token=token, query=query)
        assert page.status == 200, page.body
        pages.append([s["subscription_id"] for s in page.body["subscriptions"]])
        cursor = page.body["next"]
        if cursor is None:
            break
    assert [len(p) for p in pages] == [3, 3, 3, 1]
    assert [sid for p in pages for sid in p] == [
        s["subscription_id"] for s in everything["subscriptions"]
    ]
    forged = served_api.call("GET", path, token=token, query={"cursor": "e30.AAAA"})
    assert (forged.status, forged.error_code) == (400, "bad-cursor")
    assert served_api.call("GET", path, token=token, query={"limit": "0"}).status == 422


# ---------------------------------------------------------------------------- the VAPID key
def test_the_vapid_key_is_made_once_however_many_race(served_stack: LocalStack) -> None:
    vapid.forget()
    found: list[str] = []
    errors: list[Exception] = []

    def first_use() -> None:
        try:
            found.append(vapid.public_key())
        except Exception as exc:
            errors.append(exc)

    threads = [threading.Thread(target=first_use) for _ in range(6)]
    vapid.forget()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and len(set(found)) == 1
    ssm = boto3.client("ssm", region_name=get_config().region)
    base = get_config().vapid_parameter
    private = ssm.get_parameter(Name=f"{base}/private", WithDecryption=True)["Parameter"]
    assert private["Type"] == "SecureString" and private["Version"] == 1
    vapid.forget()
    key = vapid.private_key()
    assert vapid.b64url(vapid.public_bytes(key.public_key())) == found[0]
    header = vapid.authorization("https://fcm.googleapis.com", 1_800_000_000)
    assert header.startswith("vapid t=") and f"k={found[0]}" in header


def test_a_public_key_never_written_is_unavailable_not_made_again(
    served_stack: LocalStack, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A maker that stored the private key and died before the public one: the public route
    does not make a second pair (which would strand subscriptions); it answers 503."""
    monkeypatch.setenv("VAPID_PARAMETER", "/elsewhere/push/vapid")
    reset_config()
    vapid.forget()
    ssm = boto3.client("ssm", region_name=get_config().region)
    ssm.put_parameter(Name="/elsewhere/push/vapid/private", Value="AAAA", Type="SecureString")
    monkeypatch.setattr(vapid, "RACE_WAITS", (0.01,))
    with pytest.raises(PushKeyUnavailable):
        vapid.public_key()
    vapid.forget()


# ---------------------------------------------------------------------------- platforms
@pytest.fixture
def response_url() -> Iterator[ResponseUrl]:
    with served_response_url() as found:
        yield found


def test_the_platform_applications_custom_resource(api: Api, response_url: ResponseUrl) -> None:
    sample = json.loads((EVENTS / "push_platforms.json").read_text())
    sample["ResponseURL"] = response_url.url
    sns = boto3.client("sns", region_name=get_config().region)

    def request(
        kind: str, properties: dict[str, Any], physical: str | None = None
    ) -> dict[str, Any]:
        event = {**sample, "RequestType": kind, "ResourceProperties": properties}
        if physical is not None:
            event["PhysicalResourceId"] = physical
        api.invoker.invoke("PushPlatformsFunction", event)
        answer = response_url.answers[-1]
        assert answer["RequestId"] == sample["RequestId"]
        assert answer["LogicalResourceId"] == "FcmApplication"
        return answer

    nothing = request("Create", sample["ResourceProperties"])  # no credentials: nothing made
    assert nothing["Status"] == "SUCCESS" and nothing["Data"] == {"Arn": ""}
    props = {
        "Name": "mineduel-local-fcm2",
        "Platform": "GCM",
        "Attributes": {"PlatformCredential": "{}"},
    }
    made = request("Create", props)
    arn = made["PhysicalResourceId"]
    assert made["Data"]["Arn"] == arn and arn.endswith(":app/GCM/mineduel-local-fcm2")
    changed = request("Update", {**props, "Attributes": {"PlatformCredential": '{"v": 2}'}}, arn)
    assert changed["PhysicalResourceId"] == arn
    attributes = sns.get_platform_application_attributes(PlatformApplicationArn=arn)["Attributes"]
    assert attributes["PlatformCredential"] == '{"v": 2}'
    request("Delete", props, arn)
    listed = [
        a["PlatformApplicationArn"]
        for a in sns.list_platform_applications()["PlatformApplications"]
    ]
    assert arn not in listed
    failed = request("Create", {**props, "Platform": "NOPE"})
    assert failed["Status"] == "FAILED" and "credential" not in json.dumps(failed).lower()


# ---------------------------------------------------------------------------- delivery
def test_a_push_service_that_keeps_failing_ends_in_the_dead_letter_queue(
    api: Api, stack: LocalStack, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PUSH_ALLOW_LOOPBACK", "true")
    reset_config()
    vapid.forget()
    sqs = boto3.client("sqs", region_name=get_config().region)
    with PushReceiver(vapid.public_key()) as receiver:
        browser = receiver.subscribe()
        browser.default = 503
        keys = browser.to_json()["keys"]
        now = store.now_iso()
        sub = store.PushSubscription(
            player_id="rae21",
            subscription_id=store.subscription_id("web", browser.endpoint),
            kind="web",
            created_at=now,
            updated_at=now,
            endpoint=browser.endpoint,
            p256dh=keys["p256dh"],
            auth=keys["auth"],
        )
        assert store.add(sub) is True
        assert store.add(sub) is False  # the same endpoint again: the same subscription
        record = json.loads((EVENTS / "notify_deliver.json").read_text())["Records"][0]
        notice = {**json.loads(record["body"])["notice"], "player_id": "rae21"}

        def deliver(attempt: int, message_id: str) -> dict[str, Any]:
            body = json.dumps({"notice": notice, "attempt": attempt})
            event = {"Records": [{**record, "messageId": message_id, "body": body}]}
            return dict(api.invoker.invoke("NotifyDeliverFunction", event))

        first = deliver(0, "m-1")
        assert first["batchItemFailures"] == [] and first["report"]["retried"] == 1
        queued = sqs.get_queue_attributes(
            QueueUrl=stack.ref("NotifyQueue"), AttributeNames=["ApproximateNumberOfMessagesDelayed"]
        )["Attributes"]
        assert queued["ApproximateNumberOfMessagesDelayed"] == "1"  # the retry, 5 s later
        again = deliver(0, "m-2")  # the same notice from another message: taken already
        assert again["report"]["duplicates"] == 1 and again["report"]["retried"] == 0
        last = deliver(4, "m-1")  # out of retries: to the dead-letter queue
        assert last["report"]["retried"] == 1
        dead = sqs.receive_message(QueueUrl=stack.ref("NotifyDeadLetterQueue"))["Messages"]
        assert json.loads(dead[0]["Body"])["only"] == [sub.subscription_id]
        assert [status for _, status in receiver.answered] == [503, 503]
        bad = {"Records": [{**record, "messageId": "m-bad", "body": "{not json"}]}
        answer = api.invoker.invoke("NotifyDeliverFunction", bad)
        assert answer["batchItemFailures"] == [{"itemIdentifier": "m-bad"}]
    vapid.forget()


def test_a_delivery_never_makes_the_vapid_key(
    api: Api, stack: LocalStack, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the public route makes the pair (a browser subscribes with its public key before
    anything is pushed to it): a delivery that finds no key fails its message, which comes
    back, and leaves Parameter Store as it was."""
    monkeypatch.setenv("PUSH_ALLOW_LOOPBACK", "true")
    reset_config()
    vapid.forget()
    ssm = boto3.client("ssm", region_name=get_config().region)
    base = get_config().vapid_parameter
    kept = {}  # the stack's pair, if an earlier test made it: put back at the end
    for name in (f"{base}/private", f"{base}/public"):
        try:
            kept[name] = ssm.get_parameter(Name=name, WithDecryption=True)["Parameter"]
        except ssm.exceptions.ParameterNotFound:
            continue
        ssm.delete_parameter(Name=name)
    browser = ec.generate_private_key(ec.SECP256R1())
    now = store.now_iso()
    endpoint = "http://127.0.0.1:9/push/never-requested"
    store.add(
        store.PushSubscription(
            player_id="sol21",
            subscription_id=store.subscription_id("web", endpoint),
            kind="web",
            created_at=now,
            updated_at=now,
            endpoint=endpoint,
            p256dh=vapid.b64url(vapid.public_bytes(browser.public_key())),
            auth=vapid.b64url(b"0123456789abcdef"),
        )
    )
    record = json.loads((EVENTS / "notify_deliver.json").read_text())["Records"][0]
    notice = {**json.loads(record["body"])["notice"], "player_id": "sol21"}
    body = json.dumps({"notice": notice, "attempt": 0})
    event = {"Records": [{**record, "messageId": "m-nokey", "body": body}]}
    answer = api.invoker.invoke("NotifyDeliverFunction", event)
    assert answer["batchItemFailures"] == [{"itemIdentifier": "m-nokey"}]
    names = [p["Name"] for p in ssm.describe_parameters()["Parameters"]]
    assert not any(name.startswith(base) for name in names)
    with pytest.raises(PushKeyUnavailable):
        vapid.private_key()
    vapid.forget()
    for name, parameter in kept.items():
        secure = parameter["Type"] == "SecureString"
        extra = {"KeyId": get_config().seed_key_id} if secure else {}
        ssm.put_parameter(Name=name, Value=parameter["Value"], Type=parameter["Type"], **extra)
