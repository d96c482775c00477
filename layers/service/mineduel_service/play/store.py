"""What play stores: no item of its own, but the transaction that counts a finished game
(the game out of the ``pending`` index, every seat's profile and rating items: the ops come from
the stores that own them, ``games.store``, ``people.store`` and ``ratings.store``), and the
sweeper's walk over the sharded indexes it reads (``games.store`` reads each shard).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from ..games import store as games
from ..platform import dynamo, keys

T = TypeVar("T")


def due_games(until: str, limit_per_shard: int) -> Iterator[str]:
    """Ids of the games whose ``due_at`` is at or before ``until``, shard after shard (lazily:
    a shard is read when the one before is used up)."""
    for shard in keys.deadline_shards():
        yield from games.due_games(shard, until, limit_per_shard)


def pending_games(limit_per_shard: int) -> Iterator[str]:
    """Ids of the finished games whose result is still to be counted, shard after shard
    (lazily, as ``due_games``)."""
    for shard in keys.pending_shards():
        yield from games.pending_games(shard, limit_per_shard)


def count_result(ops: Sequence[dict[str, Any]]) -> None:
    """Write a game's counting in one transaction (all or nothing); ``WriteConflict`` when
    the game was counted already or another write changed one of its players meanwhile."""
    dynamo.transact(ops)


class NotCountedYet(Exception):
    """Every attempt lost to another write: the game stays pending, for the sweeper."""


def until_counted(attempt: Callable[[], T], attempts: int) -> T:
    """Run ``attempt`` (read, count, write conditioned on what was read) again while its write
    loses to another, at most ``attempts`` times; then ``NotCountedYet``."""
    return dynamo.read_modify_write(attempt, attempts, NotCountedYet)
