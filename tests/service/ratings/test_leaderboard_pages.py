"""The leaderboard's pages: ``limit`` (1 to 100, default 20) with ``cursor``/``next`` walks
every entry of the snapshot the first page came from, once each and in rank order, whatever
the limit and wherever its pages fall against the stored pages of 20; each read stays one
DynamoDB call (two for a first page longer than 20)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import TYPE_CHECKING, Any

import pytest
from mineduel_service.platform import clock, dynamo, keys, pagination
from mineduel_service.ratings import leaderboards
from mineduel_service.ratings.model import PlayerRating, Skill
from mineduel_service.ratings.store import rating_item

if TYPE_CHECKING:
    from conftest import Api

VARIANT = "mine-duel"
PLAYERS = 130
"""More players than the top 100 holds: the board ends at 100."""
SEED = 20261207


def _listed(player_id: str, username: str, mu: float) -> PlayerRating:
    """An established, listed rating, as a season of rated games would leave it."""
    rating = PlayerRating(
        player_id, VARIANT, Skill(mu, 4.0), version=30, played_at=clock.iso(clock.now())
    )
    dynamo.put(rating_item(rating, username, True, clock.now()))
    return rating


def _snapshot(api: Api) -> None:
    api.invoker.invoke("LeaderboardSnapshotFunction", {})


@pytest.fixture(scope="module")
def board(stack: Any) -> list[str]:
    """``PLAYERS`` listed players with ratings drawn from a seed (some equal), snapshotted;
    the usernames of the top 100, in the order the board ranks them."""
    draw = random.Random(SEED)
    ratings = {
        f"pg-{n:03d}": _listed(f"pg-player-{n:03d}", f"pg-{n:03d}", draw.uniform(20.0, 40.0))
        for n in range(PLAYERS)
    }
    ranked = sorted(
        ratings,
        key=lambda name: (-ratings[name].skill.rating, -ratings[name].skill.mu, name.casefold()),
    )
    return ranked[: leaderboards.TOP]


def _read(api: Api, **query: Any) -> dict[str, Any]:
    reply = api.call(
        "GET", f"/v1/leaderboards/{VARIANT}", query={k: str(v) for k, v in query.items()}
    )
    assert reply.status == 200, reply.body
    return dict(reply.body)


def _walk(api: Api, limit: int | None) -> list[list[str]]:
    """Every page from the first, following ``next`` until it is null."""
    options = {} if limit is None else {"limit": limit}
    pages: list[list[str]] = []
    page = _read(api, **options)
    while True:
        pages.append([entry["username"] for entry in page["entries"]])
        if page["next"] is None:
            return pages
        page = _read(api, cursor=page["next"], **options)


@pytest.mark.parametrize("limit", [None, 1, 7, 20, 21, 33, 99, 100])
def test_every_limit_walks_the_whole_board_once(
    api: Api, board: list[str], limit: int | None, dynamodb_calls: Counter[str]
) -> None:
    _snapshot(api)
    dynamodb_calls.clear()
    pages = _walk(api, limit)
    size = limit or leaderboards.PAGE_SIZE
    assert [name for page in pages for name in page] == board  # all of them, nothing twice
    assert all(len(page) == size for page in pages[:-1])
    assert 0 < len(pages[-1]) <= size
    # One BatchGetItem a page; the first page reads the snapshot's next pages in a second one
    # when it is longer than the head's 20 entries.
    extra = 1 if size > leaderboards.PAGE_SIZE else 0
    assert dynamodb_calls == Counter({"BatchGetItem": len(pages) + extra})


def test_ranks_follow_the_board_across_pages(api: Api, board: list[str]) -> None:
    _snapshot(api)
    whole = _read(api, limit=100)["entries"]
    assert [entry["username"] for entry in whole] == board
    ranks = [entry["rank"] for entry in whole]
    assert ranks[0] == 1 and ranks == sorted(ranks)
    for previous, entry in itertools.pairwise(whole):
        same = previous["rating"] == entry["rating"]
        assert entry["rank"] == (previous["rank"] if same else whole.index(entry) + 1)


def test_a_cursor_keeps_the_snapshot_it_started_in(api: Api, board: list[str]) -> None:
    _snapshot(api)
    first = _read(api, limit=7)
    # A new leader, and a new snapshot, while the client pages on.
    _listed("pg-player-new", "pg-new", 60.0)
    clock.advance(300)
    try:
        _snapshot(api)
        rest: list[str] = []
        cursor = first["next"]
        while cursor is not None:
            page = _read(api, cursor=cursor, limit=13)
            rest += [entry["username"] for entry in page["entries"]]
            cursor = page["next"]
        assert [e["username"] for e in first["entries"]] + rest == board
        assert _read(api, limit=1)["entries"][0]["username"] == "pg-new"
    finally:
        clock.reset()
        dynamo.delete(keys.rating("pg-player-new", VARIANT))


def test_a_snapshot_whose_pages_expired_shows_its_head_and_refuses_their_cursors(
    api: Api, board: list[str]
) -> None:
    _snapshot(api)
    first = _read(api, limit=7)
    # No snapshot for a day: its pages expire (TTL), its head stays.
    for number in range(1, leaderboards.TOP // leaderboards.PAGE_SIZE + 1):
        dynamo.delete(
            keys.leaderboard(VARIANT, keys.leaderboard_page_sk(first["updated_at"], number))
        )
    head = _read(api, limit=50)
    assert [e["username"] for e in head["entries"]] == board[: leaderboards.PAGE_SIZE]
    assert head["next"] is None
    stale = api.call("GET", f"/v1/leaderboards/{VARIANT}", query={"cursor": first["next"]})
    assert (stale.status, stale.error_code) == (400, "bad-cursor")


def test_a_cursor_of_the_former_page_form_still_reads_its_page(api: Api, board: list[str]) -> None:
    _snapshot(api)
    taken = _read(api)["updated_at"]
    former = pagination.encode(f"leaderboard-{VARIANT}", {"page": 2, "snapshot": taken})
    page = _read(api, cursor=former)
    size = leaderboards.PAGE_SIZE
    assert [e["username"] for e in page["entries"]] == board[size : 2 * size]


@pytest.mark.parametrize("limit", ["0", "101", "many"])
def test_a_limit_outside_1_to_100_is_refused(api: Api, board: list[str], limit: str) -> None:
    reply = api.call("GET", f"/v1/leaderboards/{VARIANT}", query={"limit": limit})
    assert reply.status == 422, reply.body
