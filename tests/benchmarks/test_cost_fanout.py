"""The live fan-out in the cost scenario: the table stream's records of each measured request
delivered to ``LiveFanoutFunction`` as the template's event source mapping would, each
invocation metered and charged to the request whose writes caused it."""

from __future__ import annotations

from typing import Any

import pytest

from mineduel.benchmarks.cost import Bench
from mineduel.benchmarks.fanout import (
    FUNCTION,
    MeteredFanout,
    Trigger,
    billed_bus_events,
    trigger_of,
)
from mineduel.benchmarks.indexes import physical_tables
from mineduel.benchmarks.metering import Call, Meter, Sample
from mineduel.local.stack import start_local_stack
from mineduel.template import load_template
from mineduel.testing.api_client import ApiClient
from mineduel.testing.fields import known_mines

pytestmark = pytest.mark.http


def test_without_a_batching_window_each_write_is_an_invocation() -> None:
    trigger = trigger_of(load_template().functions[FUNCTION].properties)
    assert trigger.window_s == 0
    assert trigger.records_per_invocation == 1
    assert "one invocation per write" in trigger.describe()
    assert Trigger(batch_size=100, window_s=5).records_per_invocation == 100


def _put_events(entries: list[dict[str, Any]], results: list[dict[str, Any]]) -> Sample:
    call = Call("EventBridge", "PutEvents", {"Entries": entries}, {"Entries": results})
    return Sample("fan-out", calls=[call])


def test_bus_events_are_billed_per_accepted_entry_and_64_kb_chunk() -> None:
    small = {"Source": "mineduel", "DetailType": "MovePlayed", "Detail": "{}"}
    large = {**small, "Detail": "x" * (64 * 1024)}
    sample = _put_events(
        [small, large, small], [{"EventId": "1"}, {"EventId": "2"}, {"ErrorCode": "Internal"}]
    )
    assert billed_bus_events(sample) == 1 + 2  # the failed entry is not put


def test_the_fan_out_of_each_measured_write_is_charged_to_its_request() -> None:
    meter = Meter()  # before the stack, so the service's clients come from the hooked session
    stack = start_local_stack(port=0, poll_schedules=False)
    try:
        meter.tables.update(physical_tables(stack.provisioned))
        fanout = MeteredFanout(stack, meter)
        bench = Bench(stack, meter, fanout)
        player = bench.client()
        bench.as_("guests")
        player.become_guest()
        bench.as_("create")
        game = player.create_game()
        path = f"/v1/games/{game['game_id']}"
        mines = known_mines(game["game_id"], forget=True)
        unmeasured = ApiClient(stack.api.handle, player.token).commit(game, *mines[0])
        assert unmeasured.status == 200
        game = bench.call(player, "get", "GET", path).json()
        bench.as_("commit")
        assert player.commit(game, *mines[1]).status == 200
    finally:
        stack.stop()

    groups = meter.by_label()
    for label in ("guests", "create", "get", "commit"):
        (request,) = groups[label]
        game_writes = sum(
            1 for call in request.calls for w in call.written if w.key["sk"] == {"S": "GAME"}
        )
        # one invocation per write of a game item; other items are filtered out (not billed);
        # the unmeasured commit's record was dropped, not charged to the read after it
        assert len(fanout.caused.get(label, [])) == game_writes, label
        assert game_writes == (1 if label in ("create", "commit") else 0), label
    invocations = fanout.caused["create"] + fanout.caused["commit"]
    assert groups["fan-out"] == invocations
    # no rule on the stack's bus: nothing is put (PutEvents is billed per entry, matched or
    # not); the rules are read once (ListRules, free) and trusted for listeners.FRESH_S
    assert sum(s.operations().get("EventBridge:ListRules", 0) for s in invocations) == 1
    for sample in invocations:
        calls = sample.operations()
        assert "EventBridge:PutEvents" not in calls
        assert billed_bus_events(sample) == 0
        assert "DynamoDB Streams:GetRecords" not in calls  # the trigger's reads: not billed
    (moved,) = fanout.caused["commit"]
    assert moved.operations()["DynamoDB:Query"] >= 1  # the game's subscriptions (none here)
    assert moved.read_units > 0
