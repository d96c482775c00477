"""The sweeper, every minute (``SweepDeadlinesSchedule``): every game whose time is up is
ended, warned or lapsed, and every finished game whose result is still to be counted is
counted.

The deadline index is eventually consistent, and its key is coarse (rounded up) on a turn
nobody waits for (``GameRecord.due_key``), so a game it lists may have moved on or not be due
yet: each one is re-read and checked against its exact times (``timeouts.expire_turn``), and one
not due is left for a later sweep (``early``). One game's failure never stops the sweep (it is
logged and counted, and the next sweep tries again).
"""

from __future__ import annotations

from collections import Counter

from ..platform import clock
from ..platform.observability import count, logger
from . import results, store
from .timeouts import expire_turn


def sweep(limit_per_shard: int = 100) -> dict[str, int]:
    """End every game whose time is up, through ``expire_turn``, and apply every finished
    game's result still pending (``results``); the outcomes counted."""
    until = clock.iso(clock.now())
    outcomes: Counter[str] = Counter()
    for game_id in store.due_games(until, limit_per_shard):
        try:
            outcomes[expire_turn(game_id)] += 1
        except Exception as exc:
            outcomes["failed"] += 1
            logger.error(
                "sweep could not expire a game",
                extra={"game_id": game_id, "error": type(exc).__name__},
            )
    outcomes.update(results.apply_pending())
    swept = outcomes["timed-out"] + outcomes["bots-moved"] + outcomes["lapsed"] + outcomes["warned"]
    if swept:
        count("SweptGames", swept)
    if outcomes["failed"]:
        count("SweepFailures", outcomes["failed"])
    return dict(outcomes)
