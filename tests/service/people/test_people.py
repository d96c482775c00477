"""People: usernames and profiles, statistics counted once per game whichever path ends it,
lists of a player's games, summaries and claiming a guest's games (the lobby, declining,
cancelling, lapsing and rematches: ``tests/service/lobby/``)."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

import pytest
from mineduel_service.archive.summaries import lead_changes, longest_runs
from mineduel_service.games import store
from mineduel_service.platform import clock
from mineduel_service.play import results

if TYPE_CHECKING:
    from conftest import Api


@pytest.fixture
def api(served_api: Api) -> Api:
    """Accounts need the pool's signing keys over HTTP: these tests run on the moto server."""
    return served_api


def _me(api: Api, token: str) -> dict[str, Any]:
    reply = api.call("GET", "/v1/me", token=token)
    assert reply.status == 200, reply.body
    return dict(reply.body)


def _finish_by_resigning(api: Api, token: str, game_id: str) -> dict[str, Any]:
    reply = api.call("POST", f"/v1/games/{game_id}/resign", token=token)
    assert reply.status == 200, reply.body
    return dict(reply.body)


# ------------------------------------------------------------------------------ usernames
@pytest.mark.parametrize(
    ("name", "status", "code"),
    [
        ("ab", 422, "username-invalid"),
        ("a" * 21, 422, "username-invalid"),
        ("with space", 422, "username-invalid"),
        ("émile", 422, "username-invalid"),
        ("Admin", 422, "username-reserved"),
        ("BOT", 422, "username-reserved"),
        ("guest", 422, "username-reserved"),
    ],
)
def test_bad_usernames_are_refused(api: Api, name: str, status: int, code: str) -> None:
    token = api.account("namer")
    reply = api.call("PUT", "/v1/me", token=token, body={"username": name})
    assert (reply.status, reply.error_code) == (status, code)


def test_a_username_is_unique_without_regard_to_case_and_a_change_frees_the_old_one(
    api: Api,
) -> None:
    first, second = api.account("uniq-1"), api.account("uniq-2")
    assert api.call("PUT", "/v1/me", token=first, body={"username": "Zed_1"}).status == 200
    taken = api.call("PUT", "/v1/me", token=second, body={"username": "zed_1"})
    assert (taken.status, taken.error_code) == (409, "username-taken")
    # The owner may change the case of their own name.
    recased = api.call("PUT", "/v1/me", token=first, body={"username": "ZED_1"})
    assert recased.status == 200 and recased.body["username"] == "ZED_1"
    assert api.call("PUT", "/v1/me", token=first, body={"username": "Zed_2"}).status == 200
    freed = api.call("PUT", "/v1/me", token=second, body={"username": "zed_1"})
    assert freed.status == 200, freed.body
    assert api.call("GET", "/v1/players/ZED_1").body["player_id"] == freed.body["player_id"]
    assert api.call("GET", "/v1/players/zed_2").body["username"] == "Zed_2"


def test_settings_are_private_and_default_to_off_leaderboard_and_on_spectators(
    api: Api,
) -> None:
    token = api.player("settler")
    me = _me(api, token)
    every_notification = {
        "your_turn": True,
        "time_almost_up": True,
        "invited": True,
        "game_over": True,
        "paired": True,
    }
    assert me["settings"] == {
        "leaderboard": False,
        "spectators": True,
        "notify": every_notification,
    }
    changed = api.call("PUT", "/v1/me", token=token, body={"settings": {"leaderboard": True}})
    assert changed.body["settings"] == {
        "leaderboard": True,
        "spectators": True,
        "notify": every_notification,
    }
    public = api.call("GET", "/v1/players/settler").body
    assert public["settings"] is None and public["name"] == "settler"
    assert api.call("GET", "/v1/players/nobody-at-all").error_code == "player-not-found"
    assert api.call("GET", "/v1/players/x!").error_code == "player-not-found"


def test_guests_have_no_profile_to_edit(api: Api) -> None:
    guest = api.guest()
    assert api.call("GET", "/v1/me", token=guest).error_code == "accounts-only"
    assert api.call("PUT", "/v1/me", token=guest, body={"username": "g1x"}).status == 403


# ------------------------------------------------------------------------------ statistics
def test_statistics_count_each_finished_game_once_whichever_path_ends_it(api: Api) -> None:
    token = api.player("counter")
    lost = api.bot_game(token)
    _finish_by_resigning(api, token, lost["game_id"])
    timed = api.bot_game(token, move_deadline_s=60)
    clock.advance(61)
    assert api.expire({"game_id": timed["game_id"]}) == "timed-out"
    clock.reset()
    stats = _me(api, token)["stats"]
    assert (stats["games"], stats["losses"], stats["wins"], stats["draws"]) == (2, 2, 0, 0)
    assert stats["streak"] == 0 and stats["win_rate"] == 0
    month = clock.iso(clock.now())[:7]
    assert stats["months"][-1] == {"month": month, "games": 2, "wins": 0}
    assert len(stats["months"]) == 6
    # Nothing is pending, so running the applier again changes nothing.
    api.sweep()
    assert _me(api, token)["stats"] == stats
    history = api.call("GET", "/v1/me/games", token=token, query={"status": "finished"}).body
    assert {g["game_id"] for g in history["games"]} >= {lost["game_id"], timed["game_id"]}


def test_two_games_of_one_player_ending_at_once_both_count(served_api: Api) -> None:
    token = served_api.player("racer")
    games = [served_api.bot_game(token)["game_id"] for _ in range(4)]
    barrier = threading.Barrier(len(games))

    def resign(game_id: str) -> None:
        barrier.wait()
        reply = served_api.call("POST", f"/v1/games/{game_id}/resign", token=token)
        assert reply.status == 200, reply.body

    threads = [threading.Thread(target=resign, args=(g,)) for g in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    served_api.sweep()  # whatever lost every retry is applied here
    assert _me(served_api, token)["stats"]["games"] == len(games)


def test_a_crash_before_the_result_is_counted_is_repaired_by_the_sweeper(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = api.player("crasher")
    game = api.bot_game(token)

    def crash(record: Any) -> bool:
        raise RuntimeError("the process died here")

    monkeypatch.setattr(results, "apply", crash)
    _finish_by_resigning(api, token, game["game_id"])
    record = store.get_game(game["game_id"])
    assert record is not None and record.results_pending
    assert _me(api, token)["stats"]["games"] == 0
    monkeypatch.undo()
    assert api.sweep()["results-applied"] >= 1
    assert _me(api, token)["stats"]["games"] == 1
    again = store.get_game(game["game_id"])
    assert again is not None and not again.results_pending
    assert results.apply(again) is None  # applying twice changes nothing
    assert _me(api, token)["stats"]["games"] == 1


# ------------------------------------------------------------------------------ lists
def test_my_games_list_running_games_waiting_on_me_first_then_finished(api: Api) -> None:
    host, other = api.player("lister"), api.player("lister-2")
    mine = api.bot_game(host)  # my turn
    theirs = api.call("POST", "/v1/games", token=other, body={"bots": 0}).body
    api.call("POST", f"/v1/games/{theirs['game_id']}/join", token=host)  # their turn
    waiting = api.call("POST", "/v1/games", token=host, body={"bots": 0}).body
    done = api.bot_game(host)
    _finish_by_resigning(api, host, done["game_id"])
    listed = api.call("GET", "/v1/me/games", token=host).body
    order = [g["game_id"] for g in listed["games"]]
    assert order.index(mine["game_id"]) < order.index(theirs["game_id"])
    assert order.index(theirs["game_id"]) < order.index(waiting["game_id"])
    assert order.index(waiting["game_id"]) < order.index(done["game_id"])
    assert listed["games"][order.index(mine["game_id"])]["my_seat"] == 0
    active = api.call("GET", "/v1/me/games", token=host, query={"status": "active"}).body
    assert done["game_id"] not in [g["game_id"] for g in active["games"]]


def test_lists_page_with_opaque_cursors(api: Api) -> None:
    token = api.player("pager")
    ended = []
    for _ in range(5):
        game = api.bot_game(token)
        _finish_by_resigning(api, token, game["game_id"])
        ended.append(game["game_id"])
        clock.advance(1)
    seen: list[str] = []
    cursor = None
    while True:
        query = {"status": "finished", "limit": "2", **({"cursor": cursor} if cursor else {})}
        page = api.call("GET", "/v1/me/games", token=token, query=query)
        assert page.status == 200, page.body
        assert len(page.body["games"]) <= 2
        seen.extend(g["game_id"] for g in page.body["games"])
        cursor = page.body["next"]
        if cursor is None:
            break
    assert seen == ended[::-1]  # newest first
    public = api.call("GET", "/v1/players/pager/games", query={"limit": "3"}).body
    assert [g["game_id"] for g in public["games"]] == ended[::-1][:3]
    assert all(g["my_seat"] is None for g in public["games"])
    bad = api.call("GET", "/v1/me/games", token=token, query={"cursor": "not-a-cursor"})
    assert (bad.status, bad.error_code) == (400, "bad-cursor")
    foreign = api.call("GET", "/v1/lobby", query={"cursor": public["next"]})
    assert (foreign.status, foreign.error_code) == (400, "bad-cursor")


def test_invitations_page_with_opaque_cursors_and_each_comes_once(api: Api) -> None:
    host, invited = api.player("inviter"), api.player("invited-a-lot")
    reserved = []
    for _ in range(5):
        game = api.call(
            "POST", "/v1/games", token=host, body={"bots": 0, "invite": ["invited-a-lot"]}
        )
        assert game.status == 201, game.body
        reserved.append(game.body["game_id"])
        clock.advance(1)
    whole = api.call("GET", "/v1/me/invites", token=invited).body
    assert [g["game_id"] for g in whole["games"]] == reserved  # oldest first
    assert whole["next"] is None
    seen: list[str] = []
    cursor = None
    while True:
        query = {"limit": "2", **({"cursor": cursor} if cursor else {})}
        page = api.call("GET", "/v1/me/invites", token=invited, query=query)
        assert page.status == 200, page.body
        assert len(page.body["games"]) == min(2, len(reserved) - len(seen))
        seen.extend(g["game_id"] for g in page.body["games"])
        cursor = page.body["next"]
        if cursor is None:
            break
    assert seen == reserved  # every invitation, none twice, in order
    second = api.call("GET", "/v1/me/invites", token=invited, query={"limit": "2"}).body["next"]
    others = api.call("GET", "/v1/me/games", token=invited, query={"cursor": second})
    assert (others.status, others.error_code) == (400, "bad-cursor")
    forged = api.call("GET", "/v1/me/invites", token=invited, query={"cursor": "x.y"})
    assert (forged.status, forged.error_code) == (400, "bad-cursor")
    too_many = api.call("GET", "/v1/me/invites", token=invited, query={"limit": "101"})
    assert too_many.status == 422


# ------------------------------------------------------------------------------ summaries
def test_lead_changes_and_longest_runs_are_counted_from_the_log() -> None:
    def mine(seat: int) -> dict[str, Any]:
        return {"seat": seat, "result": "mine", "flagged": [[0, 0]]}

    def safe(seat: int) -> dict[str, Any]:
        return {"seat": seat, "result": "safe", "flagged": []}

    log = [mine(0), mine(0), safe(0), mine(1), mine(1), mine(1), safe(1), mine(0), mine(0)]
    assert lead_changes(log, 2) == 2  # 0 leads, 1 takes over, 0 again
    assert longest_runs(log, 2) == [2, 3]
    assert lead_changes([mine(0), mine(1)], 2) == 0  # a tie is nobody's lead


def test_the_summary_comes_at_the_end(api: Api) -> None:
    token = api.player("summed")
    game = api.bot_game(token)
    early = api.call("GET", f"/v1/games/{game['game_id']}/summary")
    assert (early.status, early.error_code) == (409, "game-not-finished")
    # A known safe cell showing a number: the bot replies, from one number too little to win
    # from (after a tap on an unknown cell it may win at once, and there is nothing to resign).
    known = api.field(game["game_id"])
    safe = next(c for c in range(256) if not known.is_mine(c) and known.numbers[c] > 0)
    assert api.commit(token, game["game_id"], *divmod(safe, 16), 0).status == 200
    ended = _finish_by_resigning(api, token, game["game_id"])
    summary = api.call("GET", f"/v1/games/{game['game_id']}/summary").body
    assert summary["result"] == ended["result"]
    assert summary["moves"] == ended["move_count"]
    assert [s["name"] for s in summary["seats"]] == ["summed", "Bot (hard)"]
    assert {"longest_run", "avatar_url", "rating_before", "rating_after"} <= set(
        summary["seats"][0]
    )
    assert summary["seed"] == ended["seed"]


# ------------------------------------------------------------------------------ claims
def test_a_guest_claimed_by_an_account_brings_history_running_games_and_statistics(
    api: Api,
) -> None:
    guest = api.guest()
    finished = api.bot_game(guest)
    _finish_by_resigning(api, guest, finished["game_id"])
    running = api.bot_game(guest)
    account = api.player("claimer")
    claimed = api.call("POST", "/v1/me/claim", token=account, body={"guest_token": guest})
    assert claimed.status == 200, claimed.body
    assert claimed.body == {"claimed_games": 2}
    stats = _me(api, account)["stats"]
    assert stats["games"] == 1 and stats["losses"] == 1
    history = api.call("GET", "/v1/me/games", token=account).body["games"]
    ids = [g["game_id"] for g in history]
    assert finished["game_id"] in ids and running["game_id"] in ids
    moved = api.call("GET", f"/v1/games/{running['game_id']}").body
    assert moved["seats"][0]["kind"] == "account" and moved["seats"][0]["name"] == "claimer"
    assert api.commit(account, running["game_id"], 0, 0, 0).status == 200
    # The guest token is spent; the claim is not repeated, nor taken by anybody else.
    assert api.call("POST", "/v1/games", token=guest, body={}).status == 401
    again = api.call("POST", "/v1/me/claim", token=account, body={"guest_token": guest})
    assert again.status == 200 and again.body == {"claimed_games": 0}
    assert _me(api, account)["stats"]["games"] == 1
    thief = api.player("claim-thief")
    stolen = api.call("POST", "/v1/me/claim", token=thief, body={"guest_token": guest})
    assert (stolen.status, stolen.error_code) == (409, "guest-already-claimed")
    # The running game, once finished, counts for the account.
    _finish_by_resigning(api, account, running["game_id"])
    assert _me(api, account)["stats"]["games"] == 2


def test_a_claim_needs_a_real_guest_token(api: Api) -> None:
    account = api.player("claim-checker")
    for token, code in [
        (api.account("someone-else"), "not-a-guest-token"),
        ("mdg1.0123456789abcdef0123456789abcdef.never-issued", "guest-token-invalid"),
        ("garbage", "not-a-guest-token"),
    ]:
        reply = api.call("POST", "/v1/me/claim", token=account, body={"guest_token": token})
        assert (reply.status, reply.error_code) == (422, code), reply.body
    guest = api.guest()
    as_guest = api.call("POST", "/v1/me/claim", token=guest, body={"guest_token": guest})
    assert as_guest.error_code == "accounts-only"
