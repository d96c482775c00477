"""Fair play end to end on the served stack: an engine-assisted account and an honest one play
ten rated games against each other through the API, the scheduled screener reads them from
their analyses, the assisted one gets a case and the honest one does not; moderators (and only
they) review it, and a restriction takes the player off the leaderboard and rated pairing.
The screening rule itself is checked on its own in ``test_screening_rule``."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import boto3
import pytest
from mineduel_engine.bot import choose_move
from mineduel_engine.state import GameState
from mineduel_service.fairplay import screening
from mineduel_service.platform import clock, dynamo, keys
from mineduel_service.platform.config import get_config
from mineduel_service.ratings.model import PlayerRating, Skill
from mineduel_service.ratings.store import rating_item

if TYPE_CHECKING:
    from conftest import Api

HONEST, ASSISTED, MODERATOR, BYSTANDER = "fp-honest", "fp-assisted", "fp-mod", "fp-other"
CARELESS = 0.25
GAMES = screening.WINDOW
"""Rated games played: a full window (an assisted player is caught within it)."""
MOVES_PER_GAME = 1000
"""Whole games: a z needs ``MIN_HARD_TAPS`` taps on hard positions, about seven a game."""


# ------------------------------------------------------------------------------ the games
def _ok(reply: Any, status: int = 200) -> dict[str, Any]:
    assert reply.status == status, reply.body
    return dict(reply.body)


def _move(game: dict[str, Any], style: str, rng: random.Random) -> tuple[int, int]:
    seat = game["turn"]["seat"]
    if style == "honest" and rng.random() < CARELESS:
        covered = [
            (r, c) for r, row in enumerate(game["board"]) for c, ch in enumerate(row) if ch == "."
        ]
        return rng.choice(covered)
    state = GameState.from_dict({**game, "turn": seat, "eliminated": [], "result": None})
    return choose_move(state, game["commitment"], "easy" if style == "honest" else "medium")


def _start_rated(api: Api, tokens: dict[str, str], first: str) -> dict[str, Any]:
    second = ASSISTED if first == HONEST else HONEST
    created = api.call(
        "POST",
        "/v1/games",
        token=tokens[first],
        body={"rated": True, "bots": 0, "seats": 2, "invite": [second], "move_deadline_s": 3600},
    )
    game = _ok(created, 201)
    return _ok(api.call("POST", f"/v1/games/{game['game_id']}/join", token=tokens[second]))


def _play_rated(api: Api, tokens: dict[str, str], first: str, rng: random.Random) -> str:
    second = ASSISTED if first == HONEST else HONEST
    game = _start_rated(api, tokens, first)
    styles = {0: "honest" if first == HONEST else "assisted"}
    styles[1] = "assisted" if styles[0] == "honest" else "honest"
    seated = {0: tokens[first], 1: tokens[second]}
    while game["status"] == "active" and game["move_count"] < MOVES_PER_GAME:
        seat = game["turn"]["seat"]
        row, col = _move(game, styles[seat], rng)
        game = _ok(api.commit(seated[seat], game["game_id"], row, col, game["move_count"]))["game"]
    if game["status"] == "active":  # the seat to move resigns: a finished, rated game
        path = f"/v1/games/{game['game_id']}/resign"
        _ok(api.call("POST", path, token=seated[game["turn"]["seat"]]))
    return str(game["game_id"])


def _moderator_token(api: Api) -> str:
    """A token of an account in the ``moderators`` group (a token issued after joining it:
    the group is in the token's ``cognito:groups``)."""
    api.player(MODERATOR)
    config = get_config()
    boto3.client("cognito-idp", region_name=config.region).admin_add_user_to_group(
        UserPoolId=config.user_pool_id, Username=f"{MODERATOR}@example.com", GroupName="moderators"
    )
    return api.account(MODERATOR, fresh=True)


Played = dict[str, Any]


@pytest.fixture(scope="module")
def played(served_module_api: Api) -> Iterator[Played]:
    """Ten rated games between the honest and the assisted account (each moving first in
    half), and an eleventh that is still running (two moves in), then the screener's run, a
    couple of minutes later as its schedule would."""
    api = served_module_api
    tokens = {name: api.player(name) for name in (HONEST, ASSISTED, BYSTANDER)}
    for token in tokens.values():
        _ok(api.call("PUT", "/v1/me", token=token, body={"settings": {"leaderboard": True}}))
    rng = random.Random(22)
    games = [_play_rated(api, tokens, HONEST if n % 2 else ASSISTED, rng) for n in range(GAMES)]
    running = _start_rated(api, tokens, HONEST)
    for _ in range(2):
        row, col = _move(running, "assisted", rng)
        token = tokens[HONEST] if running["turn"]["seat"] == 0 else tokens[ASSISTED]
        running = _ok(api.commit(token, running["game_id"], row, col, running["move_count"]))
        running = running["game"]
    api.sweep()
    clock.advance(180)
    runs = [api.invoker.invoke("FairPlayScreenFunction", {})["done"] for _ in range(2)]
    tokens[MODERATOR] = _moderator_token(api)
    yield {"api": api, "tokens": tokens, "games": games, "runs": runs, "running": running}


def _record(api: Api, token: str, name: str) -> dict[str, Any]:
    return _ok(api.call("GET", f"/v1/players/{name}/fair-play", token=token))


def test_the_screener_flags_the_assisted_player_only(played: Played) -> None:
    api, tokens = played["api"], played["tokens"]
    first, again = played["runs"]
    assert first["screened"] == GAMES and first["cases"] == 1 and first["failed"] == 0
    assert again["screened"] == 0  # nothing new: the screener kept its place
    assisted = _record(api, tokens[ASSISTED], ASSISTED)
    honest = _record(api, tokens[HONEST], HONEST)
    assert assisted["games_screened"] == honest["games_screened"] == GAMES
    assert assisted["status"] == "review" and assisted["z"] >= screening.REVIEW_Z
    assert assisted["accuracy"] == 1.0 and assisted["mean_loss"] == 0.0
    assert assisted["hard_match"] == 1.0 and assisted["hard_taps"] >= screening.MIN_HARD_TAPS
    # The honest player's informative taps depend on the random fields (48 to 71 in 20 games
    # measured, the minimum is 40): below the minimum the rule gives no z at all, above it a z
    # under the threshold; either way the record is clear.
    assert honest["status"] == "clear" and honest["hard_match"] < 1.0
    if honest["hard_taps"] >= screening.MIN_HARD_TAPS:
        assert honest["z"] is not None and honest["z"] < screening.REVIEW_Z
    else:
        assert honest["z"] is None
    assert {g["game_id"] for g in assisted["games"]} == set(played["games"])
    # The running game is not screened: nothing about it is read, stored or shown, and its
    # analysis (which would say where the mines are) is still refused.
    running = played["running"]["game_id"]
    assert running not in {g["game_id"] for g in honest["games"]}
    refused = api.call("GET", f"/v1/games/{running}/analysis")
    assert (refused.status, refused.error_code) == (409, "game-not-finished")
    # every game's analysis was stored for the analysis route too
    analysis = _ok(api.call("GET", f"/v1/games/{played['games'][0]}/analysis"))
    assert {m["seat"] for m in analysis["moves"]} == {0, 1}


def test_a_fair_play_record_is_the_players_and_the_moderators_only(played: Played) -> None:
    api, tokens = played["api"], played["tokens"]
    path = f"/v1/players/{ASSISTED}/fair-play"
    refused = api.call("GET", path, token=tokens[HONEST])
    assert (refused.status, refused.error_code) == (403, "fair-play-private")
    assert api.call("GET", path).status == 401
    assert api.call("GET", path, token=api.guest()).status == 403
    assert _record(api, tokens[MODERATOR], ASSISTED)["status"] in ("review", "restricted", "clear")
    missing = api.call("GET", "/v1/players/nobody-here/fair-play", token=tokens[HONEST])
    assert (missing.status, missing.error_code) == (404, "player-not-found")


def test_only_moderators_see_and_decide_cases(played: Played) -> None:
    api, tokens = played["api"], played["tokens"]
    for token in (tokens[HONEST], tokens[ASSISTED], api.guest()):
        listed = api.call("GET", "/v1/moderation/cases", token=token)
        assert (listed.status, listed.error_code) == (403, "not-a-moderator")
        decided = api.call(
            "POST", "/v1/moderation/cases/x", token=token, body={"decision": "clear"}
        )
        assert (decided.status, decided.error_code) == (403, "not-a-moderator")
    assert api.call("GET", "/v1/moderation/cases").status == 401
    moderator = tokens[MODERATOR]
    unknown = api.call(
        "POST",
        "/v1/moderation/cases/20261201T000000Z-ffffffff",
        token=moderator,
        body={"decision": "clear"},
    )
    assert (unknown.status, unknown.error_code) == (404, "case-not-found")
    bad = api.call("GET", "/v1/moderation/cases", token=moderator, query={"status": "maybe"})
    assert (bad.status, bad.error_code) == (422, "bad-status")
    wrong = api.call("POST", "/v1/moderation/cases/x", token=moderator, body={"decision": "ban"})
    assert wrong.status == 422


def _establish(player_id: str, username: str, rating: int) -> None:
    """An established, listed rating (as a season of rated games would leave it), so the
    leaderboard shows the player whatever ten games did to their deviation."""
    mu = 25.0 + (rating - 1500) / 42.0
    shown = PlayerRating(
        player_id, "mine-duel", Skill(mu, 4.0), version=30, played_at=clock.iso(clock.now())
    )
    dynamo.put(rating_item(shown, username, True, clock.now()))


def _board(api: Api) -> list[str]:
    api.invoker.invoke("LeaderboardSnapshotFunction", {})
    board = _ok(api.call("GET", "/v1/leaderboards/mine-duel"))
    return [entry["username"] for entry in board["entries"]]


def test_a_moderators_restriction_takes_the_player_off_the_leaderboard_and_rated_pairing(
    played: Played,
) -> None:
    api, tokens = played["api"], played["tokens"]
    moderator = tokens[MODERATOR]
    ids = {
        name: _ok(api.call("GET", "/v1/me", token=tokens[name]))["player_id"]
        for name in (HONEST, ASSISTED)
    }
    _establish(ids[ASSISTED], ASSISTED, 1900)
    _establish(ids[HONEST], HONEST, 1400)
    assert _board(api) == [ASSISTED, HONEST]
    cases = _ok(api.call("GET", "/v1/moderation/cases", token=moderator))["cases"]
    (case,) = [c for c in cases if c["username"] == ASSISTED]
    # the window that crossed the threshold: the games up to then (a case opens once)
    assert case["status"] == "open" and set(case["games"]) <= set(played["games"])
    assert len(case["games"]) >= screening.MIN_GAMES
    assert case["z"] >= screening.REVIEW_Z
    waiting = _ok(api.call("POST", "/v1/seeks", token=tokens[ASSISTED], body={"rated": True}), 201)

    restricted = _ok(
        api.call(
            "POST",
            f"/v1/moderation/cases/{case['case_id']}",
            token=moderator,
            body={"decision": "restrict", "note": "Every tap the engine's, ten games running."},
        )
    )
    assert restricted["status"] == "restricted" and restricted["decided_by"] == MODERATOR
    assert _board(api) == [HONEST]
    assert _record(api, tokens[ASSISTED], ASSISTED)["status"] == "restricted"
    seek = _ok(api.call("GET", f"/v1/seeks/{waiting['seek_id']}", token=tokens[ASSISTED]))
    assert seek["status"] == "cancelled"
    refused = api.call("POST", "/v1/seeks", token=tokens[ASSISTED], body={"rated": True})
    assert (refused.status, refused.error_code) == (403, "fair-play-restricted")
    casual = _ok(api.call("POST", "/v1/seeks", token=tokens[ASSISTED], body={}), 201)
    _ok(api.call("DELETE", f"/v1/seeks/{casual['seek_id']}", token=tokens[ASSISTED]))
    # no rated game however it is made: creating, joining, a rematch
    rated = {"rated": True, "bots": 0, "seats": 2, "move_deadline_s": 3600}
    made = api.call("POST", "/v1/games", token=tokens[ASSISTED], body=rated)
    assert (made.status, made.error_code) == (403, "fair-play-restricted")
    open_game = _ok(api.call("POST", "/v1/games", token=tokens[HONEST], body=rated), 201)
    joined = api.call("POST", f"/v1/games/{open_game['game_id']}/join", token=tokens[ASSISTED])
    assert (joined.status, joined.error_code) == (403, "fair-play-restricted")
    _ok(api.call("DELETE", f"/v1/games/{open_game['game_id']}", token=tokens[HONEST]))
    again = api.call("POST", f"/v1/games/{played['games'][0]}/rematch", token=tokens[ASSISTED])
    assert (again.status, again.error_code) == (403, "fair-play-restricted")
    unrated = _ok(api.call("POST", "/v1/games", token=tokens[ASSISTED], body={}), 201)
    assert unrated["rated"] is False
    # a setting change does not put a restricted player back on the leaderboard
    _ok(api.call("PUT", "/v1/me", token=tokens[ASSISTED], body={"settings": {"leaderboard": True}}))
    assert _board(api) == [HONEST]
    assert [
        c["case_id"] for c in _ok(api.call("GET", "/v1/moderation/cases", token=moderator))["cases"]
    ] == []

    # an appeal: cleared, back on the leaderboard (they asked to be on it)
    cleared = _ok(
        api.call(
            "POST",
            f"/v1/moderation/cases/{case['case_id']}",
            token=moderator,
            body={"decision": "clear", "note": "Appeal heard."},
        )
    )
    assert cleared["status"] == "cleared" and cleared["decisions"] == 2
    assert _board(api) == [ASSISTED, HONEST]
    assert _record(api, tokens[ASSISTED], ASSISTED)["status"] == "clear"
    everything = _ok(
        api.call("GET", "/v1/moderation/cases", token=moderator, query={"status": "all"})
    )
    assert [c["case_id"] for c in everything["cases"]] == [case["case_id"]]
    # every decision is an item of its own, kept
    log = list(
        dynamo.query(
            "pk = :pk AND begins_with(sk, :prefix)",
            {":pk": {"S": keys.MODERATION_PK}, ":prefix": {"S": f"DECISION#{case['case_id']}#"}},
        )
    )
    assert [(d["decision"]["S"], d["previous_status"]["S"]) for d in log] == [
        ("restrict", "open"),
        ("clear", "restricted"),
    ]
    assert all(d["moderator"]["S"] == MODERATOR for d in log)
