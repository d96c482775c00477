"""A property of the whole deadline machinery: random commits, clock advances, schedule
deliveries, sweeps, claims and reads, some racing each other in threads, never leave a running
game without a live way to end on time.

"Live" means: while another person waits for the turn, of the game's schedules exactly one
would end the current turn (its input names the game's current move count and deadline, and it
is not a warning schedule whose warning was given already; every other one is a stale delivery
that changes nothing), and none does once nobody waits (the sweeper alone ends such a turn); and
the sweeper's deadline index lists the game at its next due time (the turn's warning time while a
warning is due, else its deadline): exactly while someone waits, else rounded up by less than
one bucket. Whenever the local Scheduler has run at or after the deadline of a turn someone waits
for, that deadline has been recorded; after any sweep, a running game's key is still ahead.
Games are between two people, alone or with a bot (a timeout or a claim can leave the last
person with the bot); turns of an hour are played too, so warnings come into it.
"""

from __future__ import annotations

import json
import threading
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import boto3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mineduel_service.games import store
from mineduel_service.games.deadlines import overdue
from mineduel_service.platform import clock
from mineduel_service.platform.config import get_config

from mineduel.local.invoke import Invoker
from mineduel.local.lambda_service import LocalLambda
from mineduel.local.stack import scheduler_for

if TYPE_CHECKING:
    from conftest import Api

DEADLINE_S = 60
LONG_DEADLINE_S = 3600  # warned at 80%: the warning schedule, then the deadline schedule
OPS = st.lists(
    st.one_of(
        st.just(("commit",)),
        st.tuples(st.just("advance"), st.integers(min_value=5, max_value=90)),
        st.just(("fire",)),
        st.just(("race",)),
        st.just(("sweep",)),
        st.just(("read",)),
        st.just(("claim",)),
    ),
    min_size=1,
    max_size=12,
)


def _live_schedules(game_id: str, move_count: int, deadline: str, warned: bool) -> int:
    scheduler = boto3.client("scheduler", region_name=get_config().region)
    pages = scheduler.get_paginator("list_schedules").paginate(
        GroupName=get_config().schedule_group, NamePrefix=f"turn-{game_id}-"
    )
    live = 0
    for page in pages:
        for summary in page["Schedules"]:
            schedule = scheduler.get_schedule(
                Name=summary["Name"], GroupName=get_config().schedule_group
            )
            event = json.loads(schedule["Target"]["Input"])
            current = (event["move_count"], event["deadline"]) == (move_count, deadline)
            if current and not (event.get("warning") and warned):
                live += 1
    return live


def _check(api: Api, game_id: str, scheduler_ran_at: Any, swept_at: Any) -> None:
    record = store.get_game(game_id)
    assert record is not None
    if record.status != "active":
        return
    assert record.deadline is not None and record.due_at is not None
    warned = record.warned_for == record.deadline
    live = _live_schedules(game_id, record.state.move_count, record.deadline, warned)
    assert live == (1 if record.someone_waits else 0)
    key = api.deadline_key(game_id)
    assert key is not None and key == record.due_key
    assert record.due_at in (record.deadline, record.warning_at)
    late = clock.parse_iso(key) - clock.parse_iso(record.due_at)
    if record.someone_waits:
        assert late == timedelta(0)
    else:
        assert timedelta(0) <= late < timedelta(seconds=record.sweep_bucket_s)
    if (
        record.someone_waits
        and scheduler_ran_at is not None
        and scheduler_ran_at >= clock.parse_iso(record.deadline)
    ):
        raise AssertionError("the Scheduler ran after the deadline and the game still runs")
    if swept_at is not None and swept_at >= clock.parse_iso(key):
        raise AssertionError("the sweeper ran at the game's key and left it due")


@settings(max_examples=12, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS, three_seats=st.booleans(), long_turns=st.booleans())
def test_every_running_game_always_has_exactly_one_live_way_to_end_on_time(
    served_api: Api, ops: list[tuple[Any, ...]], three_seats: bool, long_turns: bool
) -> None:
    clock.reset()
    api = served_api
    deadline_s = LONG_DEADLINE_S if long_turns else DEADLINE_S
    scale = deadline_s // DEADLINE_S
    loop = scheduler_for(api.stack, LocalLambda(api.stack, Invoker(api.stack).invoke))
    tokens, game = api.people_game(
        "prop-a",
        "prop-b",
        bots=1 if three_seats else 0,
        bot_level="easy",
        move_deadline_s=deadline_s,
    )
    game_id = game["game_id"]
    ran_at: list[Any] = [None]

    def commit() -> None:
        record = store.get_game(game_id)
        if record is None or record.status != "active" or record.state.turn is None:
            return
        seat = record.state.turn
        if seat >= len(tokens):
            return
        covered = [i for i, c in enumerate(record.state.cells) if c == "."]
        cell = covered[len(covered) // 2]
        width = record.settings.width
        api.commit(tokens[seat], game_id, cell // width, cell % width, record.state.move_count)

    def fire() -> None:
        # The local clock is real time plus the test's advances, so it moves during the run:
        # what the tick must have fired is what was due when it began, not when it returned.
        began = clock.now()
        loop.tick()
        ran_at[0] = began

    for op in ops:
        kind = op[0]
        if kind == "commit":
            commit()
        elif kind == "advance":
            clock.advance(op[1] * scale)
        elif kind == "fire":
            fire()
        elif kind == "race":
            threads = [threading.Thread(target=commit), threading.Thread(target=fire)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            fire()  # what fired before the commit's schedule existed fires now
        elif kind == "sweep":
            ran_at[0] = clock.now()  # (the sweep looks at least this far)
            api.sweep()
        elif kind == "read":
            api.call("GET", f"/v1/games/{game_id}")
        elif kind == "claim":
            api.call("POST", f"/v1/games/{game_id}/timeout", token=tokens[-1])
        ran = ran_at[0] if kind in ("fire", "race", "sweep") else None
        _check(api, game_id, ran if kind != "sweep" else None, ran if kind == "sweep" else None)
    # However the run ended, one Scheduler run now leaves the game within its deadline; a turn
    # nobody waits for, one sweep at its key.
    fire()
    ended_by = ran_at[0]
    record = store.get_game(game_id)
    assert record is not None
    if record.status == "active" and not record.someone_waits and record.due_key is not None:
        clock.advance(max(0.0, (clock.parse_iso(record.due_key) - clock.now()).total_seconds()))
        ended_by = clock.now()
        api.sweep()
        record = store.get_game(game_id)
        assert record is not None
    assert not overdue(record, ended_by)
