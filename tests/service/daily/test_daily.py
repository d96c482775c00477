"""The daily duel: one field a day for everyone, committed to ahead, secret until the day ends,
one attempt a player, a table of accounts ranked by mines then fewer safe taps."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import boto3
from mineduel_engine import verify_document
from mineduel_engine.daily import day_seed
from mineduel_engine.fairness import commitment
from mineduel_service.daily.store import Play, save_play
from mineduel_service.platform import clock, pagination
from mineduel_service.platform.config import get_config

from mineduel.testing.players import play_out
from mineduel.testing.response_url import response_url

if TYPE_CHECKING:
    from conftest import Api, Reply


EVENTS = Path(__file__).resolve().parents[3] / "events"


def travel_to(moment: datetime) -> None:
    """Move the service's clock forward to ``moment`` (each test starts on the system clock)."""
    clock.advance((moment - clock.now()).total_seconds())


def month_end(months_ahead: int) -> date:
    """The last day of the month ``months_ahead`` months after this one."""
    today = clock.now().date()
    year, month = today.year, today.month + months_ahead + 1
    year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
    return date(year, month, 1) - timedelta(days=1)


def at(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=UTC)


def housekeeping(api: Api) -> dict[str, Any]:
    return dict(api.invoker.invoke("DailyHousekeepingFunction", {}))


def expected_seed(day: str) -> bytes:
    """The day's seed, worked out the way the test (an operator) can: from the month key."""
    config = get_config()
    dynamodb = boto3.client("dynamodb", region_name=config.region)
    item = dynamodb.get_item(
        TableName=config.table_name,
        Key={"pk": {"S": f"DAILY#{day[:7]}"}, "sk": {"S": "MONTH"}},
    )["Item"]
    key = boto3.client("kms", region_name=config.region).decrypt(
        CiphertextBlob=item["key_ct"]["B"],
        EncryptionContext={"daily_month": day[:7]},
    )["Plaintext"]
    assert commitment(key) == item["commitment"]["S"]
    return day_seed(key, day)


class Recorder:
    """Calls the API and keeps every answer, to look for the seed in all of them."""

    def __init__(self, api: Api) -> None:
        self.api = api
        self.seen: list[str] = []

    def call(self, method: str, path: str, **kwargs: Any) -> Reply:
        reply = self.api.call(method, path, **kwargs)
        self.seen.append(json.dumps(reply.body) + json.dumps(reply.headers))
        return reply

    def play_out(self, token: str, game: dict[str, Any], level: str) -> dict[str, Any]:
        """The bot-player loop, every answer kept."""

        def commit(shown: Mapping[str, Any], row: int, col: int) -> Mapping[str, Any]:
            body = {"row": row, "col": col, "expected_move": shown["move_count"]}
            path = f"/v1/games/{shown['game_id']}/moves"
            reply = self.call("POST", path, token=token, body=body)
            assert reply.status == 200, reply.body
            answer: Mapping[str, Any] = reply.body["game"]
            return answer

        return play_out(game, commit, level)


def test_a_day_of_daily_duels(served_api: Api) -> None:
    """Played today (account tokens are Cognito's, valid for an hour of real time: the day can
    only be moved to when it ends); after 23:00 UTC, the next day, five minutes after midnight."""
    api = Recorder(served_api)
    if clock.now().hour == 23:
        travel_to(at(clock.now().date() + timedelta(days=1), 0, 5))
    day = clock.now().date()
    name = day.isoformat()
    prepared = housekeeping(served_api)
    assert prepared["closed"] == []

    overview = api.call("GET", "/v1/daily").body
    assert overview["date"] == name and overview["played"] is False and overview["game"] is None
    assert overview["closes_at"] == f"{(day + timedelta(days=1)).isoformat()}T00:00:00Z"
    day_commitment = overview["commitment"]
    assert len(day_commitment) == 64
    assert overview["tomorrow"]["date"] == (day + timedelta(days=1)).isoformat()
    assert overview["next_month"]["commitment"] != overview["month_commitment"]
    seed = expected_seed(name)
    assert commitment(seed) == day_commitment  # committed before anybody played

    players = {"ann": "hard", "ben": "medium", "cat": "easy"}
    tokens = {who: served_api.player(f"{who}-{name}"[:20]) for who in players}
    guest = served_api.guest()
    games: dict[str, dict[str, Any]] = {}
    for who, token in [*tokens.items(), ("guest", guest)]:
        reply = api.call("POST", "/v1/daily/play", token=token)
        assert reply.status == 201, reply.body
        game = reply.body
        assert game["daily"] == name and game["commitment"] == day_commitment
        assert [s["kind"] for s in game["seats"]] == [
            "guest" if who == "guest" else "account",
            "bot",
        ]
        assert game["bot_level"] == "hard" and game["seed"] is None
        assert game["turn"]["deadline"] <= overview["closes_at"]
        games[who] = game
    again = api.call("POST", "/v1/daily/play", token=tokens["ann"])
    assert (again.status, again.error_code) == (409, "daily-already-played")
    assert games["ann"]["game_id"] in again.body["detail"]
    seeded = api.call(
        "POST",
        f"/v1/games/{games['ann']['game_id']}/moves",
        token=tokens["ann"],
        body={"row": 0, "col": 0, "expected_move": 0, "client_seed": "mine"},
    )
    assert (seeded.status, seeded.error_code) == (422, "daily-client-seed")

    finals = {who: api.play_out(tokens[who], games[who], level) for who, level in players.items()}
    finals["guest"] = api.play_out(guest, games["guest"], "medium")
    for who, final in finals.items():
        game_id = final["game_id"]
        assert final["status"] == "finished" and final["seed"] is None, who
        assert final["field"] is None, who  # laid open only once the day is over
        doc = api.call("GET", f"/v1/games/{game_id}/verify").body
        assert doc["seed"] is None and doc["field"] is None
        assert doc["field_id"] == f"daily-{name}"
        assert doc["verdict"] == {"checked": False, "ok": False, "problems": []}
        late = api.call("GET", f"/v1/games/{game_id}/analysis")
        assert (late.status, late.error_code) == (409, "day-not-over")
    mine = api.call("GET", "/v1/daily", token=tokens["ann"]).body
    assert mine["played"] and mine["game"]["game_id"] == games["ann"]["game_id"]
    history = api.call("GET", f"/v1/players/ann-{name}/games").body
    assert history["games"] == []  # not pointed at a board of the day's field before it ends
    export = api.call("GET", f"/v1/players/ann-{name}/games/export")
    assert export.status == 200 and export.body is None and export.headers["x-games"] == "0"

    housekeeping(served_api)
    live = api.call("GET", f"/v1/daily/{name}/table").body
    assert live["status"] == "open" and live["seed"] is None
    assert live["players"] == 4 and live["ranked"] == 3  # the guest plays, unranked
    assert all(entry["game_id"] is None for entry in live["entries"])
    # Most mines first, then fewest safe taps, then who finished first (ties are the usual
    # case between bots of one level, so the order of a tie is checked too).
    assert sorted(e["name"] for e in live["entries"]) == [f"{w}-{name}"[:20] for w in players]
    ordering = [(-e["mines"], e["safe_taps"], e["ended_at"]) for e in live["entries"]]
    assert ordering == sorted(ordering) and all(e["ended_at"] for e in live["entries"])
    for entry in live["entries"]:
        who = entry["name"].split("-")[0]
        seat = finals[who]["seats"][0]
        assert (entry["mines"], entry["safe_taps"]) == (seat["mines"], seat["safe_taps"])
    ranks = [e["rank"] for e in live["entries"]]
    keys = [(e["mines"], e["safe_taps"]) for e in live["entries"]]
    for i in range(1, len(ranks)):
        assert ranks[i] == (ranks[i - 1] if keys[i] == keys[i - 1] else i + 1)

    # Nothing the service said during the day held the seed.
    assert not any(seed.hex() in text for text in api.seen)

    travel_to(at(day + timedelta(days=1), 0, 10))
    closed = housekeeping(served_api)
    assert name in closed["closed"]
    table = api.call("GET", f"/v1/daily/{name}/table").body
    assert table["status"] == "closed" and table["seed"] == seed.hex()
    assert {e["game_id"] for e in table["entries"]} == {finals[w]["game_id"] for w in players}
    fields = set()
    for who, final in finals.items():
        doc = api.call("GET", f"/v1/games/{final['game_id']}/verify").body
        assert doc["verdict"]["ok"], (who, doc["verdict"])
        assert verify_document(doc).ok
        assert doc["commitment"] == day_commitment and doc["seed"] == seed.hex()
        assert doc["daily"]["month_commitment"] == overview["month_commitment"]
        fields.add(json.dumps(doc["field"]))
        assert api.call("GET", f"/v1/games/{final['game_id']}").body["seed"] == seed.hex()
    assert len(fields) == 1  # one field for everyone
    analysis = api.call("GET", f"/v1/games/{finals['ann']['game_id']}/analysis")
    assert analysis.status == 200
    page = api.call("GET", f"/share/{finals['ben']['game_id']}")
    assert page.status == 200 and "<svg" in page.body
    assert api.call("GET", f"/v1/players/ann-{name}/games").body["games"]
    export = api.call("GET", f"/v1/players/ann-{name}/games/export")
    [line] = export.body.splitlines()
    exported = json.loads(line)
    assert exported["field_id"] == f"daily-{name}" and verify_document(exported).ok


def test_a_day_nobody_prepared_is_refused_until_its_commitment_is_published(
    served_api: Api,
) -> None:
    """The month's last day of a deployment whose preparation has not run: nothing is shown,
    a play is refused (nothing is committed to on the spot), and once housekeeping has
    published the day the play uses exactly that commitment; the game still runs at midnight
    and times out; then the day closes, and with it the month."""
    day = month_end(5)
    travel_to(at(day, 23, 50))
    nothing = served_api.call("GET", "/v1/daily").body
    assert nothing["commitment"] is None and nothing["month_commitment"] is None
    assert nothing["tomorrow"] is None and nothing["next_month"] is None
    guest = served_api.guest()
    refused = served_api.call("POST", "/v1/daily/play", token=guest)
    assert (refused.status, refused.error_code) == (503, "daily-not-ready"), refused.body
    assert refused.headers["retry-after"] == "300"
    assert "commitment is published before anybody plays" in refused.body["detail"]
    still = served_api.call("GET", "/v1/daily").body
    assert still["commitment"] is None and still["played"] is False  # the refusal made nothing
    assert served_api.call("GET", f"/v1/daily/{day.isoformat()}/table").status == 404

    housekeeping(served_api)
    published = served_api.call("GET", "/v1/daily").body
    assert published["commitment"] == commitment(expected_seed(day.isoformat()))
    reply = served_api.call("POST", "/v1/daily/play", token=guest)
    assert reply.status == 201, reply.body
    game = reply.body
    assert game["commitment"] == published["commitment"]  # the one readable before the play
    # Ten minutes before midnight, the turn ends with the day, not an hour later.
    assert game["turn"]["deadline"] == f"{(day + timedelta(days=1)).isoformat()}T00:00:00Z"

    # The day ends with the game still running: the sweeper times the seat out, then the day
    # closes and its seed is published.
    travel_to(at(day + timedelta(days=1), 0, 1))
    waiting = housekeeping(served_api)
    assert day.isoformat() in waiting["waiting"]
    served_api.sweep()
    over = served_api.call("GET", f"/v1/games/{game['game_id']}").body
    assert over["status"] == "finished" and over["result"]["reason"] == "timeout"
    closed = housekeeping(served_api)
    assert day.isoformat() in closed["closed"]
    assert closed["months"] == [day.isoformat()[:7]]
    table = served_api.call("GET", f"/v1/daily/{day.isoformat()}/table").body
    assert table["entries"] == [] and table["players"] == 1  # a guest: never ranked
    seed = expected_seed(day.isoformat())
    assert table["seed"] == seed.hex()
    assert day_seed(bytes.fromhex(table["month_key"]), day.isoformat()) == seed
    doc = served_api.call("GET", f"/v1/games/{game['game_id']}/verify").body
    assert doc["verdict"]["ok"], doc["verdict"]
    assert doc["daily"]["month_key"] == table["month_key"]
    verdict = verify_document(doc)
    assert verdict.ok and any("month key" in check for check in verdict.checks)
    tampered = {**doc, "daily": {**doc["daily"], "month_key": "00" * 32}}
    assert not verify_document(tampered).ok


def test_bad_days_and_cursors(served_api: Api) -> None:
    malformed = served_api.call("GET", "/v1/daily/2026-13-45/table")
    assert (malformed.status, malformed.error_code) == (422, "bad-date")
    unknown = served_api.call("GET", "/v1/daily/1999-01-01/table")
    assert (unknown.status, unknown.error_code) == (404, "day-not-found")
    travel_to(at(month_end(7), 9))
    housekeeping(served_api)
    today = clock.now().date().isoformat()
    cursor = served_api.call("GET", f"/v1/daily/{today}/table", query={"cursor": "nope"})
    assert (cursor.status, cursor.error_code) == (400, "bad-cursor")
    upcoming = served_api.call("GET", f"/v1/daily/{(clock.now().date() + timedelta(days=1))}/table")
    assert upcoming.body["status"] == "upcoming" and upcoming.body["entries"] == []
    anonymous = served_api.call("POST", "/v1/daily/play")
    assert (anonymous.status, anonymous.error_code) == (401, "unauthorized")


def test_the_deployment_prepares_the_days_ahead_and_a_new_day_never_waits(
    served_api: Api,
) -> None:
    """The template's ``DailyPreparation`` request (what CloudFormation sends the housekeeping
    function as it deploys) publishes today, tomorrow, the day after and their months; after
    midnight, before any housekeeping run, the new day plays on the commitment that was shown
    as ``tomorrow`` the day before, and the new ``tomorrow`` is already there."""
    day = month_end(9)  # the month's last day: tomorrow and the day after are next month's
    travel_to(at(day, 22))
    assert served_api.call("GET", "/v1/daily").body["commitment"] is None
    request = json.loads((EVENTS / "daily_preparation.json").read_text())
    with response_url() as answered:
        request["ResponseURL"] = answered.url
        answer = served_api.invoker.invoke("DailyHousekeepingFunction", request)
    assert answered.answers == [answer]  # CloudFormation was answered at its URL
    assert answer["RequestId"] == request["RequestId"]
    assert answer["LogicalResourceId"] == "DailyPreparation"
    del request["ResponseURL"]  # the local stack's request: the answer is what is returned
    after, later = day + timedelta(days=1), day + timedelta(days=2)
    assert answer["Status"] == "SUCCESS", answer
    assert answer["Data"]["Days"] == ",".join(d.isoformat() for d in (day, after, later))
    months = answer["Data"]["Months"].split(",")
    month_after = (after.replace(day=28) + timedelta(days=4)).isoformat()[:7]
    assert months == [day.isoformat()[:7], after.isoformat()[:7], month_after]
    today = served_api.call("GET", "/v1/daily").body
    assert today["commitment"] == commitment(expected_seed(day.isoformat()))
    assert today["tomorrow"]["date"] == after.isoformat()
    assert today["next_month"]["month"] == after.isoformat()[:7]
    shown_tomorrow = today["tomorrow"]["commitment"]
    # A second request (an Update) adds nothing and changes nothing; a Delete leaves it all.
    again = served_api.invoker.invoke(
        "DailyHousekeepingFunction", {**request, "RequestType": "Update"}
    )
    assert again["Status"] == "SUCCESS"
    gone = served_api.invoker.invoke(
        "DailyHousekeepingFunction", {**request, "RequestType": "Delete"}
    )
    assert gone["Status"] == "SUCCESS"
    assert served_api.call("GET", "/v1/daily").body == today

    travel_to(at(after, 0, 1))  # past midnight, no housekeeping run yet
    new_day = served_api.call("GET", "/v1/daily").body
    assert new_day["date"] == after.isoformat() and new_day["commitment"] == shown_tomorrow
    assert new_day["tomorrow"]["date"] == later.isoformat()
    assert new_day["next_month"] is not None
    game = served_api.call("POST", "/v1/daily/play", token=served_api.guest())
    assert game.status == 201, game.body
    assert game.body["commitment"] == shown_tomorrow == commitment(expected_seed(after.isoformat()))


def test_the_table_pages_with_limit_and_every_row_comes_once(served_api: Api) -> None:
    """More ranked attempts than a stored page of the table (100 entries): any ``limit`` walks
    the whole ranking once, across the stored pages' seams, in the order one full read gives."""
    day = month_end(11) - timedelta(days=3)
    travel_to(at(day, 10))
    name = day.isoformat()
    housekeeping(served_api)  # the day is prepared
    started = clock.iso(clock.now())
    for n in range(230):  # ties on purpose: equal mines and safe taps share a rank
        save_play(
            Play(
                name,
                f"p{n:03d}",
                f"g{n:03d}",
                f"player {n:03d}",
                True,
                started,
                mines=n % 17,
                safe_taps=n % 5,
                ended_at=started,
            )
        )
    save_play(Play(name, "guest", "g-guest", "a guest", False, started, 9, 1, started))
    housekeeping(served_api)  # the table is rebuilt from the attempts

    def walk(limit: int | None) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        cursor: str | None = None
        while True:
            query = {"cursor": cursor} if cursor else {}
            if limit is not None:
                query["limit"] = str(limit)
            reply = served_api.call("GET", f"/v1/daily/{name}/table", query=query)
            assert reply.status == 200, reply.body
            page = reply.body
            assert page["ranked"] == 230 and page["players"] == 231
            assert len(page["entries"]) <= (limit or 100)
            rows.extend(page["entries"])
            cursor = page["next"]
            if cursor is None:
                return rows

    whole = walk(None)  # the default: pages of 100, as the table is stored
    assert len(whole) == 230 and len({row["name"] for row in whole}) == 230
    assert "a guest" not in {row["name"] for row in whole}
    order = [(-row["mines"], row["safe_taps"]) for row in whole]
    assert order == sorted(order) and whole[0]["rank"] == 1
    for limit in (1, 7, 99, 100):
        assert walk(limit) == whole, limit
    assert served_api.call("GET", f"/v1/daily/{name}/table", query={"limit": "101"}).status == 422
    # A cursor given out before pages had a limit (a stored page's number) still reads on.
    old = pagination.encode(f"daily-{name}", {"page": 1})
    reply = served_api.call("GET", f"/v1/daily/{name}/table", query={"cursor": old})
    assert reply.body["entries"] == whole[100:200] and reply.body["next"] is not None
    stranger = pagination.encode(f"daily-{name}", {"at": "ten"})
    refused = served_api.call("GET", f"/v1/daily/{name}/table", query={"cursor": stranger})
    assert (refused.status, refused.error_code) == (400, "bad-cursor")
