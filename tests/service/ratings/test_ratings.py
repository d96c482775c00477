"""Ratings: who is rated, what a game does to ratings (winner, loser, ties, aborted games),
exactly once under every race (games of one player ending together, racing paths, crashes,
repeated deliveries, the applier run twice), the rebuild from Verification documents, and the
leaderboard (opt-in, established, active, in order, my rank, pages)."""

from __future__ import annotations

import contextlib
import io
import json
import random
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import boto3
import pytest
from mineduel_service.games import store
from mineduel_service.platform import clock, crypto
from mineduel_service.platform.config import get_config
from mineduel_service.play import results
from mineduel_service.play.advance import field_for
from mineduel_service.ratings import leaderboards
from mineduel_service.ratings import model as ratings
from mineduel_service.ratings.store import read_snapshot

from mineduel import cli
from mineduel.cli.rebuild import rebuild

if TYPE_CHECKING:
    from conftest import Api

VARIANT = "mine-duel"


@pytest.fixture
def api(served_api: Api) -> Api:
    """Accounts need the pool's signing keys over HTTP: these tests run on the moto server."""
    return served_api


# ------------------------------------------------------------------------------ helpers
def _ok(reply: Any, status: int = 200) -> dict[str, Any]:
    assert reply.status == status, reply.body
    return dict(reply.body)


def _game(api: Api, game_id: str) -> dict[str, Any]:
    return _ok(api.call("GET", f"/v1/games/{game_id}"))


def _rating(api: Api, username: str) -> dict[str, Any]:
    profile = _ok(api.call("GET", f"/v1/players/{username}"))
    return dict(profile["ratings"][VARIANT])


def _rated(api: Api, tokens: list[str], names: list[str], **body: Any) -> str:
    """A rated game with ``tokens[i]`` in seat i (the host invites the others, who join)."""
    reply = api.call(
        "POST",
        "/v1/games",
        token=tokens[0],
        body={"rated": True, "bots": 0, "seats": len(tokens), "invite": names[1:], **body},
    )
    game_id = str(_ok(reply, 201)["game_id"])
    for token in tokens[1:]:
        _ok(api.call("POST", f"/v1/games/{game_id}/join", token=token))
    return game_id


def _everyone_moves(api: Api, game_id: str, tokens: list[str]) -> dict[str, Any]:
    """Each seat taps covered cells on its turn until every seat has made a move."""
    game = _game(api, game_id)
    moved: set[int] = set()
    while len(moved) < len(tokens):
        seat = game["turn"]["seat"]
        board = game["board"]
        row, col = next(
            (r, c) for r, line in enumerate(board) for c, ch in enumerate(line) if ch == "."
        )
        reply = api.commit(tokens[seat], game_id, row, col, game["move_count"])
        game = _ok(reply)["game"]
        moved.add(seat)
    return game


def _resign(api: Api, token: str, game_id: str) -> dict[str, Any]:
    return _ok(api.call("POST", f"/v1/games/{game_id}/resign", token=token))


def _played(
    api: Api, tokens: list[str], names: list[str], out_first: list[int], **body: Any
) -> dict[str, Any]:
    """A rated game in which every seat moves, then the seats of ``out_first`` resign in
    that order (the first one out takes the last place)."""
    game_id = _rated(api, tokens, names, **body)
    _everyone_moves(api, game_id, tokens)
    game: dict[str, Any] = {}
    for seat in out_first:
        game = _resign(api, tokens[seat], game_id)
    return game


def _verify_docs(api: Api, game_ids: list[str]) -> list[dict[str, Any]]:
    return [_ok(api.call("GET", f"/v1/games/{g}/verify")) for g in game_ids]


def _rebuild_cli(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.main(["ratings", "rebuild", *args])
    return code, out.getvalue()


# ------------------------------------------------------------------------------ who is rated
def test_rated_games_need_an_account_in_every_seat_and_a_rated_variant(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = api.player("rt-host")
    with_bot = api.call("POST", "/v1/games", token=host, body={"rated": True})
    assert (with_bot.status, with_bot.error_code) == (422, "unrated-seat")
    guest = api.call("POST", "/v1/games", token=api.guest(), body={"rated": True})
    assert (guest.status, guest.error_code) == (422, "unrated-seat")
    unknown = api.call("POST", "/v1/games", token=host, body={"rated": True, "variant": "nope"})
    assert (unknown.status, unknown.error_code) == (422, "unknown-variant")
    fine = api.call("POST", "/v1/games", token=host, body={"rated": True, "bots": 0})
    assert fine.status == 201 and fine.body["rated"] is True
    for variant in ("nope", "mineseeker", "windows-duel"):
        reply = api.call("GET", f"/v1/leaderboards/{variant}")
        assert (reply.status, reply.error_code) == (404, "leaderboard-not-found")
    monkeypatch.setattr(ratings, "RATED_VARIANTS", {})  # a variant whose ratings are off
    refused = api.call("POST", "/v1/games", token=host, body={"rated": True, "bots": 0})
    assert (refused.status, refused.error_code) == (422, "variant-not-rated")
    assert api.call("GET", f"/v1/leaderboards/{VARIANT}").status == 404


def test_a_new_player_shows_the_starting_rating_as_provisional(api: Api) -> None:
    token = api.player("rt-fresh")
    me = _ok(api.call("GET", "/v1/me", token=token))
    fresh = me["ratings"][VARIANT]
    assert (fresh["rating"], fresh["deviation"], fresh["provisional"], fresh["games"]) == (
        1500,
        350,
        True,
        0,
    )
    assert len(fresh["months"]) == 6 and all(m["rating"] is None for m in fresh["months"])


# ------------------------------------------------------------------------------ what a game does
def test_the_winner_rises_and_the_loser_falls_on_the_game_summary_and_profiles(
    api: Api,
) -> None:
    names = ["rt-win", "rt-lose"]
    tokens = [api.player(n) for n in names]
    ended = _played(api, tokens, names, out_first=[1])
    winner, loser = ended["seats"]
    assert ended["result"]["places"] == [1, 2]
    # The answer of the request that ended the game already shows the update.
    assert winner["rating_before"] == loser["rating_before"] == 1500
    assert winner["rating_after"] > 1500 > loser["rating_after"]
    assert winner["rating_after"] - 1500 == 1500 - loser["rating_after"]
    assert _game(api, ended["game_id"])["seats"] == ended["seats"]
    summary = _ok(api.call("GET", f"/v1/games/{ended['game_id']}/summary"))
    changes = [s["rating_change"] for s in summary["seats"]]
    assert changes[0] > 0 > changes[1]
    assert [s["rating_after"] for s in summary["seats"]] == [
        winner["rating_after"],
        loser["rating_after"],
    ]
    rise, fall = _rating(api, "rt-win"), _rating(api, "rt-lose")
    assert (rise["rating"], fall["rating"]) == (winner["rating_after"], loser["rating_after"])
    assert rise["games"] == fall["games"] == 1 and rise["provisional"]
    assert rise["deviation"] < 350 and rise["deviation"] == fall["deviation"]
    this_month = clock.iso(clock.now())[:7]
    assert rise["months"][-1] == {
        "month": this_month,
        "rating": rise["rating"],
        "deviation": rise["deviation"],
    }
    # Statistics are counted in the same transaction.
    assert _ok(api.call("GET", "/v1/players/rt-win"))["stats"]["wins"] == 1


def test_a_game_ended_before_every_seat_moved_changes_no_rating(api: Api) -> None:
    names = ["rt-quick", "rt-idle"]
    tokens = [api.player(n) for n in names]
    game_id = _rated(api, tokens, names)
    _ok(api.commit(tokens[0], game_id, 0, 0, 0))  # seat 0 moves; seat 1 never does
    ended = _resign(api, tokens[0], game_id)
    assert all(s["rating_before"] == s["rating_after"] == 1500 for s in ended["seats"])
    assert _rating(api, "rt-quick")["games"] == 0 == _rating(api, "rt-idle")["games"]
    doc = _ok(api.call("GET", f"/v1/games/{game_id}/verify"))
    assert doc["rated"] is True and doc["rating"]["outcome"] == "aborted"
    assert all(s["version"] is None for s in doc["rating"]["seats"])
    # A timeout before anyone moved: aborted too, by the deadline's own path.
    timed = _rated(api, tokens, names, move_deadline_s=60)
    clock.advance(61)
    assert api.expire({"game_id": timed}) == "timed-out"
    clock.reset()
    assert _ok(api.call("GET", f"/v1/games/{timed}/verify"))["rating"]["outcome"] == "aborted"
    assert _rating(api, "rt-idle")["rating"] == 1500
    # Statistics still count both games.
    assert _ok(api.call("GET", "/v1/players/rt-idle"))["stats"]["games"] == 2


def _field(game_id: str) -> Any:
    record = store.get_game(game_id)
    assert record is not None
    return field_for(record, record.seats, crypto.decrypt_seed(record.seed_ciphertext, game_id))


def _tap(api: Api, tokens: list[str], game: dict[str, Any], want_mine: bool, field: Any) -> Any:
    width = game["width"]
    cell = next(
        i
        for i, ch in enumerate("".join(game["board"]))
        if ch == "." and field.is_mine(i) == want_mine
    )
    seat = game["turn"]["seat"]
    return _ok(
        api.commit(tokens[seat], game["game_id"], cell // width, cell % width, game["move_count"])
    )


def test_ties_move_tied_players_equally_and_a_commit_that_ends_the_game_rates_it(
    api: Api,
) -> None:
    """Three fresh players; seats 1 and 2 each make one safe tap, then seat 0 finds 26 mines
    in a row (a mine keeps the turn) and is out of reach: places 1, 2, 2."""
    names = ["rt-lead", "rt-tie-a", "rt-tie-b"]
    tokens = [api.player(n) for n in names]
    game_id = _rated(api, tokens, names)
    game = _game(api, game_id)
    game = _tap(api, tokens, game, False, _field(game_id))["game"]  # seat 0 moves first
    field = _field(game_id)  # the field is fixed by the first commit
    for _ in range(2):
        game = _tap(api, tokens, game, False, field)["game"]
    assert game["turn"]["seat"] == 0
    while game["status"] == "active":
        game = _tap(api, tokens, game, True, field)["game"]
    assert game["result"] == {"reason": "reach", "winner": 0, "places": [1, 2, 2]}
    # The commit's answer is what an Idempotency-Key retry replays, so it is fixed before the
    # result is applied; the game read afterwards shows the update.
    assert all(s["rating_after"] is None for s in game["seats"])
    lead, tie_a, tie_b = _game(api, game_id)["seats"]
    assert lead["rating_after"] > 1500
    assert tie_a["rating_after"] == tie_b["rating_after"] < 1500
    doc = _ok(api.call("GET", f"/v1/games/{game_id}/verify"))
    after = [s["after"] for s in doc["rating"]["seats"]]
    assert after[1] == after[2]  # mu and sigma alike, not only the displayed figure
    assert _rating(api, "rt-tie-a") == _rating(api, "rt-tie-b")


# ------------------------------------------------------------------------------ exactly once
def _concurrently(*calls: Callable[[], Any]) -> list[Any]:
    barrier = threading.Barrier(len(calls))
    answers: list[Any] = [None] * len(calls)
    errors: list[BaseException] = []

    def run(index: int, call: Callable[[], Any]) -> None:
        barrier.wait()
        try:
            answers[index] = call()
        except BaseException as exc:  # reported in the test's own thread
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    return answers


def test_rated_games_of_one_player_ending_at_once_by_every_path_all_count_once(
    api: Api, tmp_path: Path
) -> None:
    names = ["rt-busy", "rt-opp-1", "rt-opp-2", "rt-opp-3"]
    busy, *others = [api.player(n) for n in names]
    games = []
    for index, other in enumerate(others):
        deadline = 60 if index == 2 else 86400
        game_id = _rated(api, [busy, other], [names[0], names[index + 1]], move_deadline_s=deadline)
        _everyone_moves(api, game_id, [busy, other])
        games.append(game_id)
    clock.advance(61)  # the third game's turn is overdue
    answers = _concurrently(
        lambda: api.call("POST", f"/v1/games/{games[0]}/resign", token=others[0]),
        lambda: api.call("POST", f"/v1/games/{games[1]}/resign", token=busy),
        lambda: api.expire({"game_id": games[2]}),  # the schedule's delivery
        lambda: api.expire({"game_id": games[2]}),  # ... delivered twice
        lambda: api.call("POST", f"/v1/games/{games[2]}/timeout", token=busy),
    )
    clock.reset()
    assert [a.status for a in answers[:2]] == [200, 200], [a.body for a in answers[:2]]
    assert sorted(answers[2:4]) in (["ignored", "timed-out"], ["raced", "timed-out"]) or (
        answers[4].status == 200 and set(answers[2:4]) <= {"ignored", "raced"}
    )
    api.sweep()  # whatever lost every retry is applied here
    records = [store.get_game(g) for g in games]
    assert all(r is not None and r.status == "finished" and r.rating for r in records)
    busy_id = _ok(api.call("GET", "/v1/players/rt-busy"))["player_id"]
    versions = sorted(
        line.version
        for r in records
        if r is not None and r.rating is not None
        for line in r.rating.seats
        if line.player_id == busy_id
    )
    assert versions == [0, 1, 2]  # one update per game, each on top of the one before
    assert _rating(api, "rt-busy")["games"] == 3
    assert [_rating(api, n)["games"] for n in names[1:]] == [1, 1, 1]
    assert _ok(api.call("GET", "/v1/players/rt-busy"))["stats"]["games"] == 3
    # Running everything again changes nothing.
    before = [_rating(api, n) for n in names]
    assert api.expire({"game_id": games[2]}) == "ignored"
    api.sweep()
    for record in records:
        assert record is not None and results.apply(record.evolve(results_pending=True)) is None
    assert [_rating(api, n) for n in names] == before
    # The rebuild orders the three games as they were applied and arrives at the same figures.
    docs = _verify_docs(api, games)
    random.Random(7).shuffle(docs)
    rebuilt = rebuild(docs)
    assert rebuilt.ok, rebuilt.problems
    assert rebuilt.rated == 3
    for name, shown in zip(names, before, strict=True):
        player_id = _ok(api.call("GET", f"/v1/players/{name}"))["player_id"]
        mine = rebuilt.ratings[(VARIANT, player_id)]
        assert (mine.skill.rating, mine.skill.deviation, mine.games) == (
            shown["rating"],
            shown["deviation"],
            shown["games"],
        )


def test_a_crash_between_the_end_and_the_rating_update_is_repaired_by_the_sweep(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = ["rt-crash-a", "rt-crash-b"]
    tokens = [api.player(n) for n in names]

    def crash(record: Any) -> Any:
        raise RuntimeError("the process died here")

    monkeypatch.setattr(results, "apply", crash)
    ended = _played(api, tokens, names, out_first=[1])
    assert all(s["rating_after"] is None for s in ended["seats"])
    pending = _ok(api.call("GET", f"/v1/games/{ended['game_id']}/verify"))["rating"]
    assert pending["outcome"] == "pending"
    assert _rating(api, "rt-crash-a")["games"] == 0
    monkeypatch.undo()
    record = store.get_game(ended["game_id"])
    assert record is not None and record.results_pending
    # The sweeper and two more appliers race on the pending game: exactly one applies it.
    applied = _concurrently(
        lambda: results.apply(record),
        lambda: results.apply(record),
        lambda: api.sweep()["results-applied"],
    )
    assert sum(1 for a in applied[:2] if a is not None) + applied[2] == 1
    shown = _game(api, ended["game_id"])["seats"]
    assert shown[0]["rating_after"] > 1500 > shown[1]["rating_after"]
    assert _rating(api, "rt-crash-a")["games"] == 1 == _rating(api, "rt-crash-b")["games"]
    again = store.get_game(ended["game_id"])
    assert again is not None and results.apply(again) is None
    assert _rating(api, "rt-crash-a")["games"] == 1


# ------------------------------------------------------------------------------ a league
League = dict[str, Any]


@pytest.fixture(scope="module")
def league(served_module_api: Api) -> Iterator[League]:
    """Three players play ten three-seat rated games (places rotating, the last two ending at
    the same moment), a fourth plays one; ``ann`` is listed from the start."""
    api = served_module_api
    names = ["lg-ann", "lg-ben", "lg-cat", "lg-dan"]
    tokens = dict(zip(names, (api.player(n) for n in names), strict=True))
    _ok(api.call("PUT", "/v1/me", token=tokens["lg-ann"], body={"settings": {"leaderboard": True}}))
    trio = names[:3]
    seated = [tokens[n] for n in trio]
    games = []
    for index in range(8):
        out = [(index + 1) % 3, (index + 2) % 3]
        games.append(_played(api, seated, trio, out)["game_id"])
    last = [_rated(api, seated, trio) for _ in range(2)]
    for game_id in last:
        _everyone_moves(api, game_id, seated)
        _resign(api, seated[1], game_id)
    _concurrently(*(lambda g=g: _resign(api, seated[0], g) for g in last))
    games.extend(last)
    pair = [tokens["lg-ann"], tokens["lg-dan"]]
    games.append(_played(api, pair, ["lg-ann", "lg-dan"], out_first=[0])["game_id"])
    api.sweep()
    yield {"api": api, "tokens": tokens, "games": games, "names": names}


def test_the_rebuild_from_verification_documents_gives_the_same_ratings(
    league: League, tmp_path: Path
) -> None:
    api: Api = league["api"]
    docs = _verify_docs(api, league["games"])
    assert all(d["rated"] and d["rating"]["outcome"] == "rated" for d in docs)
    export = tmp_path / "games.ndjson"
    export.write_text("".join(json.dumps(d) + "\n" for d in reversed(docs)))
    code, out = _rebuild_cli(str(export), "--json")
    assert code == 0, out
    rebuilt = json.loads(out)
    assert rebuilt["rated_games"] == 11 and rebuilt["problems"] == []
    for name in league["names"]:
        profile = _ok(api.call("GET", f"/v1/players/{name}"))
        mine = rebuilt["ratings"][VARIANT][profile["player_id"]]
        shown = profile["ratings"][VARIANT]
        assert {k: mine[k] for k in shown if k != "months"} == {
            k: v for k, v in shown.items() if k != "months"
        }
    # A directory of documents, one a file, gives the same.
    folder = tmp_path / "docs"
    folder.mkdir()
    for doc in docs:
        (folder / f"{doc['game_id']}.json").write_text(json.dumps(doc))
    code, text = _rebuild_cli(str(folder))
    assert code == 0 and "OK:" in text
    # A recorded figure the model does not give, or a game left out, is found.
    forged = json.loads(json.dumps(docs))
    forged[3]["rating"]["seats"][0]["after"][0] += 0.5
    assert not rebuild(forged).ok
    gap = rebuild(docs[1:])
    assert not gap.ok and any("missing" in p for p in gap.problems)
    unfair = json.loads(json.dumps(docs))
    unfair[0]["result"]["places"] = list(reversed(unfair[0]["result"]["places"]))
    assert any("does not verify" in p for p in rebuild(unfair).problems)


def _snapshot(api: Api) -> dict[str, Any]:
    return dict(api.invoker.invoke("LeaderboardSnapshotFunction", {})["variants"])


def _index_items() -> list[dict[str, Any]]:
    dynamodb = boto3.client("dynamodb", region_name=get_config().region)
    items: list[dict[str, Any]] = []
    for shard in range(8):
        items += dynamodb.query(
            TableName=get_config().table_name,
            IndexName="leaderboard",
            KeyConditionExpression="lb_shard = :s",
            ExpressionAttributeValues={":s": {"S": f"LB#{VARIANT}#{shard}"}},
        )["Items"]
    return items


def test_the_leaderboard_lists_opted_in_established_active_players_in_order(
    league: League,
) -> None:
    api: Api = league["api"]
    tokens = league["tokens"]
    empty = _ok(api.call("GET", f"/v1/leaderboards/{VARIANT}"))
    assert empty["entries"] == [] and empty["me"] is None
    # ben opts in after his games (his rating items follow his settings); cat never does;
    # dan opts in but is provisional.
    for name in ("lg-ben", "lg-dan"):
        _ok(api.call("PUT", "/v1/me", token=tokens[name], body={"settings": {"leaderboard": True}}))
    figures = {n: _rating(api, n) for n in league["names"]}
    assert not any(figures[n]["provisional"] for n in ("lg-ann", "lg-ben", "lg-cat"))
    assert figures["lg-dan"]["provisional"]
    assert _snapshot(api)[VARIANT]["players"] == 2
    board = _ok(api.call("GET", f"/v1/leaderboards/{VARIANT}"))
    expected = sorted(["lg-ann", "lg-ben"], key=lambda n: -figures[n]["rating"])
    assert [e["username"] for e in board["entries"]] == expected
    assert [e["rank"] for e in board["entries"]] == [1, 2]
    first = board["entries"][0]
    assert first == {
        "rank": 1,
        "username": expected[0],
        "rating": figures[expected[0]]["rating"],
        "deviation": figures[expected[0]]["deviation"],
        "games": figures[expected[0]]["games"],
    }
    assert board["next"] is None and board["me"] is None  # anonymous
    mine = _ok(api.call("GET", f"/v1/leaderboards/{VARIANT}", token=tokens[expected[1]]))
    assert mine["me"] == {"rank": 2, "rating": figures[expected[1]]["rating"]}
    for outsider in ("lg-cat", "lg-dan"):
        other = _ok(api.call("GET", f"/v1/leaderboards/{VARIANT}", token=tokens[outsider]))
        assert other["me"] is None
    guest = _ok(api.call("GET", f"/v1/leaderboards/{VARIANT}", token=api.guest()))
    assert guest["me"] is None
    bad = api.call("GET", f"/v1/leaderboards/{VARIANT}", token="garbage")
    assert bad.status == 401
    # One entry a page: the cursor walks the same snapshot.
    page = _ok(api.call("GET", f"/v1/leaderboards/{VARIANT}", query={"limit": "1"}))
    assert [e["username"] for e in page["entries"]] == expected[:1]
    following = _ok(
        api.call("GET", f"/v1/leaderboards/{VARIANT}", query={"cursor": page["next"], "limit": "1"})
    )
    assert [e["username"] for e in following["entries"]] == expected[1:]
    assert following["next"] is None
    foreign = api.call("GET", "/v1/lobby", query={"cursor": page["next"]})
    assert foreign.error_code == "bad-cursor"
    # Opting out takes a player off at the next snapshot.
    _ok(
        api.call("PUT", "/v1/me", token=tokens["lg-ben"], body={"settings": {"leaderboard": False}})
    )
    _snapshot(api)
    names = [e["username"] for e in _ok(api.call("GET", f"/v1/leaderboards/{VARIANT}"))["entries"]]
    assert names == ["lg-ann"]
    # Thirty days without a rated game: off the board and out of the index.
    assert any(i["username"]["S"] == "lg-ann" for i in _index_items())
    clock.advance(31 * 86400)
    try:
        assert _snapshot(api)[VARIANT] == {"players": 0, "unlisted": 1}
        assert _ok(api.call("GET", f"/v1/leaderboards/{VARIANT}"))["entries"] == []
        assert _index_items() == []
        # Her token has expired by now, so her "me" is computed from her item directly.
        ann = _ok(api.call("GET", "/v1/players/lg-ann"))["player_id"]
        found = read_snapshot(VARIANT, head=False, player_id=ann)
        assert leaderboards.me_entry(found.mine, found.counts) is None
        clock.reset()
        assert leaderboards.me_entry(found.mine, found.counts) == {
            "rank": 1,
            "rating": figures["lg-ann"]["rating"],
        }
    finally:
        clock.reset()


def test_ranks_are_shared_by_equal_ratings() -> None:
    entries = [
        {"username": n, "rating": r, "deviation": 200, "games": 12, "mu": m}
        for n, r, m in [("b", 1600, 27.1), ("a", 1700, 30.0), ("c", 1600, 27.2), ("d", 1500, 25)]
    ]
    ranked = leaderboards.ranked(entries)
    assert [(e["username"], e["rank"]) for e in ranked] == [("a", 1), ("c", 2), ("b", 2), ("d", 4)]
    counts = [[1700, 1], [1600, 2], [1500, 1]]
    assert [leaderboards.rank_of(r, counts) for r in (1800, 1700, 1650, 1600, 1400)] == [
        1,
        1,
        2,
        2,
        5,
    ]
