"""Every write of a game moves its version in one place (``store.write_game``, and counting its
result: ``store.results_counted``), conditioned on the state it was computed from: so of two
writes computed from one read exactly one lands, whichever they are, and a game whose result
is counted is never written back as still pending (a daily game's seed published from a read
made before the count)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from mineduel_engine import rules_for
from mineduel_service.games import store
from mineduel_service.games.record import GameRecord
from mineduel_service.platform import clock
from mineduel_service.platform.dynamo import WriteConflict
from mineduel_service.play import results

if TYPE_CHECKING:
    from conftest import Api

SEED_HEX = "ab" * 32


def _finished_pending(api: Api) -> GameRecord:
    """A game against a bot that its person just resigned, its result not counted yet (as a
    crash right after the ending write leaves it for the sweeper)."""
    game_id = api.bot_game(api.guest(), bot_level="easy")["game_id"]
    before = store.get_game(game_id)
    assert before is not None and before.status == "active"
    state, _ = rules_for(before.settings.variant).eliminate(before.state, 0, "resign")
    after = before.evolve(
        state=state,
        status="finished",
        deadline=None,
        ended_at=clock.iso(clock.now()),
        results_pending=True,
    )
    stored = store.write_game(after, before)
    assert stored.version == before.version + 1
    assert store.get_game(game_id) == stored
    return stored


def test_a_write_stores_the_next_version_whatever_the_caller_holds(api: Api) -> None:
    game_id = api.bot_game(api.guest(), bot_level="easy")["game_id"]
    before = store.get_game(game_id)
    assert before is not None
    stored = store.write_game(before.evolve(spectators_off=True, version=99), before)
    again = store.get_game(game_id)
    assert again is not None and again.version == stored.version == before.version + 1
    with pytest.raises(WriteConflict):  # computed from a read the first write made stale
        store.write_game(before.evolve(spectators_off=True), before)


def test_a_result_counted_after_another_write_counts_on_top_of_it(api: Api) -> None:
    stale = _finished_pending(api)
    published = store.write_game(stale.evolve(seed_hex=SEED_HEX), stale)
    counted = results.apply(stale)  # read before the seed was published: it reads again
    stored = store.get_game(stale.game_id)
    assert counted is not None and counted == stored
    assert not stored.results_pending and stored.seed_hex == SEED_HEX
    assert stored.version == published.version + 1
    assert results.apply(stale) is None  # counted once


def test_a_write_computed_before_the_count_does_not_undo_it(api: Api) -> None:
    stale = _finished_pending(api)
    counted = results.apply(stale)
    assert counted is not None and not counted.results_pending
    with pytest.raises(WriteConflict):
        store.write_game(stale.evolve(seed_hex=SEED_HEX), stale)
    stored = store.get_game(stale.game_id)
    assert stored == counted and not stored.results_pending
