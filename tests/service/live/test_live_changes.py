"""What a change of a game means, derived from the records before and after it (the one place
the push message's ``event`` and the bus events come from)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from mineduel_service.games import store
from mineduel_service.live.changes import bus_events, event_of, spectators_turned_off

if TYPE_CHECKING:
    from conftest import Api


def _kinds(entries: list[dict[str, str]]) -> list[str]:
    return [e["DetailType"] for e in entries]


def test_each_kind_of_change_has_its_event(api: Api) -> None:
    token = api.guest()
    game_id = api.bot_game(token, bot_level="easy")["game_id"]
    created = store.get_game(game_id)
    assert created is not None
    assert event_of(None, created, store.list_moves) is None  # nobody follows it yet
    assert _kinds(bus_events(None, created)) == ["GameStarted"]
    # A known safe cell showing a number: the bot replies, from one number too little to win
    # from, so the game goes on and its warning and resignation below are checked every run
    # (after a tap on an unknown cell the bot may win at once).
    known = api.field(game_id)
    cell = next(c for c in range(256) if not known.is_mine(c) and known.numbers[c] > 0)
    width = created.settings.width
    assert api.commit(token, game_id, cell // width, cell % width, 0).status == 200
    played = store.get_game(game_id)
    assert played is not None and played.status == "active"
    assert event_of(created, played, store.list_moves) == "move"
    kinds = _kinds(bus_events(created, played))
    assert kinds[0] == "MovePlayed"
    detail = json.loads(bus_events(created, played)[0]["Detail"])
    assert (detail["from_move"], detail["to_move"]) == (1, played.state.move_count)
    # Nothing a subscriber needs: a result counted, a version bumped.
    assert event_of(played, played.evolve(version=played.version + 1), store.list_moves) is None
    # The seats of a waiting game changing, or the game starting: a join.
    waiting = created.evolve(status="waiting", deadline=None)
    assert event_of(waiting, created, store.list_moves) == "join"
    # Ending without a move (cancelled, lapsed): finished.
    assert event_of(waiting, waiting.evolve(status="cancelled"), store.list_moves) == "finished"
    # The turn's warning.
    warned = played.evolve(warned_for=played.deadline, version=played.version + 1)
    assert event_of(played, warned, store.list_moves) == "warning"
    assert _kinds(bus_events(played, warned)) == ["TurnAlmostUp"]
    assert event_of(warned, warned, store.list_moves) is None  # said once
    off = played.evolve(spectators_off=True)
    assert spectators_turned_off(played, off) and not spectators_turned_off(off, off)
    assert event_of(played, off, store.list_moves) is None
    assert api.call("POST", f"/v1/games/{game_id}/resign", token=token).status == 200
    resigned = store.get_game(game_id)
    assert resigned is not None
    assert event_of(played, resigned, store.list_moves) == "resign"
    assert "GameFinished" in _kinds(bus_events(played, resigned))
