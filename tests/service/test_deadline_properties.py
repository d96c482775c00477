"""A property of the whole deadline machinery: random commits, clock advances, schedule
deliveries, sweeps, claims and reads, some racing each other in threads, never leave a running
game without exactly one live way to end on time.

"Live" means: of the game's schedules, exactly one would end the current turn (its input names
the game's current move count and deadline, and it is not a warning schedule whose warning was
given already; every other one is a stale delivery that changes nothing), and the sweeper's
deadline index lists the game at its next due time (the turn's warning time while a warning is
due, else its deadline). And whenever the local Scheduler has run at or after a deadline, that
deadline has been recorded. Turns of an hour are played too, so warnings come into it.
"""

from __future__ import annotations

import json
import threading
from typing import TYPE_CHECKING, Any

import boto3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mineduel_service import clock, store
from mineduel_service.config import get_config
from mineduel_service.deadlines import overdue

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


def _indexed_at(game_id: str) -> str | None:
    shard = store.deadline_shard(game_id)
    for found in store.due_games(shard, "9999"):
        if found == game_id:
            record = store.get_game(game_id)
            return None if record is None else record.due_at
    return None


def _check(game_id: str, scheduler_ran_at: Any) -> None:
    record = store.get_game(game_id)
    assert record is not None
    if record.status != "active":
        return
    assert record.deadline is not None
    warned = record.warned_for == record.deadline
    assert _live_schedules(game_id, record.state.move_count, record.deadline, warned) == 1
    assert _indexed_at(game_id) == record.due_at
    assert record.due_at in (record.deadline, record.warning_at)
    if scheduler_ran_at is not None and scheduler_ran_at >= clock.parse_iso(record.deadline):
        raise AssertionError("the Scheduler ran after the deadline and the game still runs")


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
    if three_seats:
        tokens = [api.account("prop-a"), api.account("prop-b")]
        created = api.call(
            "POST",
            "/v1/games",
            token=tokens[0],
            body={"seats": 3, "bots": 1, "bot_level": "easy", "move_deadline_s": deadline_s},
        ).body
        api.call("POST", f"/v1/games/{created['game_id']}/join", token=tokens[1])
        game_id = created["game_id"]
    else:
        tokens = [api.guest()]
        game_id = api.bot_game(tokens[0], bot_level="easy", move_deadline_s=deadline_s)["game_id"]
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
        loop.tick()
        ran_at[0] = clock.now()

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
            api.sweep()
        elif kind == "read":
            api.call("GET", f"/v1/games/{game_id}")
        elif kind == "claim":
            api.call("POST", f"/v1/games/{game_id}/timeout", token=tokens[-1])
        _check(game_id, ran_at[0] if kind in ("fire", "race") else None)
    # However the run ended, one Scheduler run now leaves the game within its deadline.
    fire()
    record = store.get_game(game_id)
    assert record is not None and not overdue(record, clock.now())
