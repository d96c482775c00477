"""Exports of finished games as NDJSON Verification documents: a player's, page by page and
newest first with filters, and a whole month's, one gzip file in S3; a month of games verifies
in one ``mineduel verify`` command.

130 games check what 1,000 would: more than one of the month export's reads of ``BATCH`` (100)
games, player export pages of 50 with a last short one, a time window inside the month. They
are played here by the engine (bot against bot, most of them resigned after a
few moves, every twentieth played to its end) and written with the store's own items, in batches:
playing them through the API would take far longer and test nothing more about exports.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import urllib.request
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import boto3
import pytest
from mineduel_engine import Field, Settings, commitment, rules_for
from mineduel_engine.bot import choose_action
from mineduel_engine.chain import chained
from mineduel_service.games import store
from mineduel_service.games.record import GameRecord, Seat
from mineduel_service.games.store import finished_item
from mineduel_service.platform import clock, crypto
from mineduel_service.platform.config import get_config

from mineduel.cli import main as mineduel

if TYPE_CHECKING:
    from conftest import Api

GAMES = 130
PAGE = 50
PLAYER = "bulky"


@dataclass(frozen=True)
class Bulk:
    """The games written, in the order they ended, and the month they ended in."""

    records: list[GameRecord]
    month: str


def last_month() -> datetime:
    first = clock.now().replace(day=1, hour=0, minute=0, second=0)
    previous = first - timedelta(days=1)
    return previous.replace(day=1, hour=0, minute=0, second=0)


def play(i: int, player_id: str, start: datetime) -> tuple[GameRecord, list[dict[str, Any]]]:
    """Game ``i``: the engine's easy bot on both seats; seat 0 resigns after a few moves, but
    every twentieth game is played to its end."""
    seed = hashlib.sha256(f"bulk|{i}".encode()).digest()
    game_id = str(uuid.UUID(bytes=hashlib.sha256(f"bulk-id|{i}".encode()).digest()[:16], version=4))
    settings = Settings.for_variant("mine-duel", 2)
    field = Field.from_seed(seed, game_id, ["", ""], settings.width, settings.height, 51)
    rules = rules_for("mine-duel")
    state = rules.new_game(settings)
    resign_at = None if i % 20 == 0 else 1 + i % 12
    moves = []
    while not state.finished:
        if resign_at is not None and len(moves) >= resign_at:
            state, move = rules.eliminate(state, 0, "resign")
        else:
            chosen = choose_action(state, commitment(seed), "easy")
            state, move = rules.play(
                state, field, state.turn, chosen.action, chosen.row, chosen.col
            )
        moves.append(move)
    began = start + timedelta(minutes=40 * i)  # a game every 40 minutes, all in the month
    seats = (
        Seat("account", player_id, PLAYER),
        Seat("bot", "bot-easy", "Bot (easy)"),
    )
    record = GameRecord(
        game_id=game_id,
        state=state,
        seats=seats,
        status="finished",
        commitment=commitment(seed),
        seed_ciphertext=crypto.encrypt_seed(seed, game_id),
        move_deadline_s=86400,
        rated=False,
        bot_level="easy",
        created_at=clock.iso(began),
        deadline=None,
        version=1,
        seed_hex=seed.hex(),
        ended_at=clock.iso(began + timedelta(minutes=len(moves))),
    )
    log = chained(
        record.commitment,
        [
            {**move.to_record(), "at": clock.iso(began + timedelta(minutes=k))}
            for k, move in enumerate(moves)
        ],
    )
    return record, log


def write(items: list[dict[str, Any]]) -> None:
    dynamodb = boto3.client("dynamodb", region_name=get_config().region)
    table = get_config().table_name
    for start in range(0, len(items), 25):
        request = {table: [{"PutRequest": {"Item": i}} for i in items[start : start + 25]]}
        while request:
            request = dynamodb.batch_write_item(RequestItems=request).get("UnprocessedItems") or {}


@pytest.fixture(scope="module")
def bulk(served_module_api: Api) -> Bulk:
    token = served_module_api.player(PLAYER)
    player_id = served_module_api.call("GET", "/v1/me", token=token).body["player_id"]
    start = last_month()
    records, items = [], []
    for i in range(GAMES):
        record, log = play(i, player_id, start)
        records.append(record)
        items.append(store.game_item(record))
        items.append(finished_item(record, 0, player_id))
        items.append(store.moves_item(record.game_id, log))
    write(items)
    records.sort(key=lambda r: (r.ended_at or "", r.game_id))  # the order of the exports
    return Bulk(records, start.strftime("%Y-%m"))


def test_a_month_of_games_is_one_file_that_verifies_in_one_command(
    served_module_api: Api, bulk: Bulk, capsys: pytest.CaptureFixture[str]
) -> None:
    api = served_module_api
    built = api.invoker.invoke("MonthlyExportFunction", {})["exported"]
    assert built["month"] == bulk.month and built["games"] == GAMES
    assert api.invoker.invoke("MonthlyExportFunction", {}) == {"exported": None}  # once a month

    listing = api.call("GET", "/v1/exports")
    assert listing.status == 200, listing.body
    [entry] = listing.body["exports"]
    assert {k: entry[k] for k in built} == built
    with urllib.request.urlopen(entry["url"]) as answer:  # noqa: S310  (the local moto server)
        packed = answer.read()
    assert len(packed) == entry["bytes"]
    text = gzip.decompress(packed)
    assert hashlib.sha256(text).hexdigest() == entry["sha256"]
    lines = text.decode().splitlines()
    assert [json.loads(line)["game_id"] for line in lines] == [r.game_id for r in bulk.records]

    capsys.readouterr()
    assert mineduel(["verify", entry["url"]]) == 0
    out = capsys.readouterr().out
    assert f"checked {GAMES} games" in out and f"{GAMES} verified, 0 failed" in out
    assert mineduel(["verify", "--json", entry["url"]]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["games"], summary["ok"], summary["failed"]) == (GAMES, GAMES, 0)


def _pages(api: Api, query: dict[str, str]) -> list[list[str]]:
    pages = []
    while True:
        reply = api.call("GET", f"/v1/players/{PLAYER}/games/export", query=query)
        assert reply.status == 200, reply.body
        assert reply.headers["content-type"] == "application/x-ndjson; charset=utf-8"
        lines = reply.body.splitlines() if reply.body else []
        assert int(reply.headers["x-games"]) == len(lines)
        pages.append(lines)
        cursor = reply.headers.get("x-next-cursor")
        if cursor is None:
            assert "link" not in reply.headers
            return pages
        assert reply.headers["link"].endswith('>; rel="next"')
        query = {**query, "cursor": cursor}


def test_a_player_export_comes_newest_first_in_pages_that_verify(
    served_module_api: Api, bulk: Bulk, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    api = served_module_api
    pages = _pages(api, {"limit": str(PAGE)})
    assert [len(page) for page in pages] == [PAGE, PAGE, GAMES - 2 * PAGE]
    lines = [line for page in pages for line in page]
    ids = [json.loads(line)["game_id"] for line in lines]
    assert ids == [r.game_id for r in reversed(bulk.records)]
    path = tmp_path / "export.ndjson"
    path.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    assert mineduel(["verify", str(path)]) == 0
    assert f"{GAMES} verified" in capsys.readouterr().out

    since, until = bulk.records[60].ended_at, bulk.records[90].ended_at
    assert since is not None and until is not None
    window = _pages(api, {"since": since, "until": until})
    assert [json.loads(line)["game_id"] for line in window[0]] == [
        r.game_id for r in reversed(bulk.records[60:90])
    ]
    day = since[:10]  # a day: from its midnight on, and only games of this variant
    assert len(_pages(api, {"until": day, "variant": "mine-duel", "limit": "200"})[0]) == sum(
        1 for r in bulk.records if (r.ended_at or "") < f"{day}T00:00:00Z"
    )
    assert _pages(api, {"rated": "true", "since": since, "until": until}) == [[]]


@pytest.mark.parametrize(
    ("query", "status", "code"),
    [
        ({"variant": "chess"}, 422, "bad-variant"),
        ({"since": "yesterday"}, 422, "bad-since"),
        ({"until": "2026-02-30"}, 422, "bad-until"),
        ({"cursor": "nope"}, 400, "bad-cursor"),
    ],
)
def test_bad_filters_are_refused(
    served_module_api: Api, bulk: Bulk, query: dict[str, str], status: int, code: str
) -> None:
    reply = served_module_api.call("GET", f"/v1/players/{PLAYER}/games/export", query=query)
    assert (reply.status, reply.error_code) == (status, code)


def test_nobody_is_404(served_module_api: Api) -> None:
    reply = served_module_api.call("GET", "/v1/players/nobody-here/games/export")
    assert (reply.status, reply.error_code) == (404, "player-not-found")


def test_a_month_exported_before_the_chain_head_is_refused_until_it_is_exported_again(
    served_module_api: Api, bulk: Bulk, capsys: pytest.CaptureFixture[str]
) -> None:
    """Documents written before they carried ``move_count`` and ``chain`` fail ``chain-head``:
    a log cut short would look the same. The games are still in the table, so running the month
    again (the function's ``{"month": ...}`` input) writes documents with the head, which pass."""
    api = served_module_api
    s3 = boto3.client("s3", region_name=get_config().region)
    bucket, key = get_config().export_bucket, f"exports/games-{bulk.month}.ndjson.gz"
    api.invoker.invoke("MonthlyExportFunction", {"month": bulk.month})
    lines = gzip.decompress(s3.get_object(Bucket=bucket, Key=key)["Body"].read()).splitlines()
    old = [json.loads(line) for line in lines]
    for doc in old:
        del doc["move_count"], doc["chain"]
    text = "".join(json.dumps(doc) + "\n" for doc in old).encode()
    s3.put_object(Bucket=bucket, Key=key, Body=gzip.compress(text), ContentEncoding="gzip")
    url = api.call("GET", "/v1/exports").body["exports"][0]["url"]
    capsys.readouterr()
    assert mineduel(["verify", url]) == 1
    assert f"0 verified, {GAMES} failed" in capsys.readouterr().out  # no move_count, no head

    rebuilt = api.invoker.invoke("MonthlyExportFunction", {"month": bulk.month})["exported"]
    assert rebuilt["games"] == GAMES
    url = api.call("GET", "/v1/exports").body["exports"][0]["url"]
    assert mineduel(["verify", url]) == 0


def test_the_months_list_pages_with_limit_and_cursor(served_module_api: Api, bulk: Bulk) -> None:
    """``GET /v1/exports`` is a list like the others: ``limit`` months a page, newest first, and
    ``next`` as the following page's cursor, each month once; a cursor it did not give out is
    400 ``bad-cursor``."""
    api = served_module_api
    year, month = (int(part) for part in bulk.month.split("-"))
    earlier = [f"{year - (month <= k)}-{(month - k - 1) % 12 + 1:02d}" for k in (1, 2)]
    for older in [bulk.month, *earlier]:
        api.invoker.invoke("MonthlyExportFunction", {"month": older})
    whole = api.call("GET", "/v1/exports")
    assert whole.status == 200 and whole.body["next"] is None
    months = [entry["month"] for entry in whole.body["exports"]]
    assert months == sorted(months, reverse=True) and {bulk.month, *earlier} <= set(months)
    walked: list[str] = []
    query = {"limit": "1"}
    while True:
        page = api.call("GET", "/v1/exports", query=query)
        assert page.status == 200, page.body
        assert len(page.body["exports"]) <= 1 and all(e["url"] for e in page.body["exports"])
        walked += [entry["month"] for entry in page.body["exports"]]
        if page.body["next"] is None:
            break
        query = {"limit": "1", "cursor": page.body["next"]}
    assert walked == months
    genuine = api.call("GET", "/v1/exports", query={"limit": "1"}).body["next"]
    tampered = genuine[:-1] + ("A" if genuine[-1] != "A" else "B")
    history = api.call("GET", f"/v1/players/{PLAYER}/games", query={"limit": "1"}).body["next"]
    assert genuine and history
    for bad in ("not-a-cursor", tampered, history):
        refused = api.call("GET", "/v1/exports", query={"cursor": bad})
        assert (refused.status, refused.error_code) == (400, "bad-cursor"), refused.body
    assert api.call("GET", "/v1/exports", query={"limit": "101"}).status == 422
