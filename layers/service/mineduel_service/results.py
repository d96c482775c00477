"""Applying a finished game's result to its players' statistics, exactly once.

The write that ends a game puts it in the ``pending`` index (same transaction). ``apply`` then
reads the seats' profiles, counts the game into each, and writes every profile conditioned on
the version it read, in one transaction with taking the game out of the index (conditioned on
it still being in). Whoever runs it (the request that ended the game, right after its write, or
the sweeper for any game a crash left pending) and however often, each game counts once: a
second run finds the game no longer pending. Two games of one player ending at once conflict on
that player's profile version; the loser reads again and counts on top.
"""

from __future__ import annotations

from typing import Any

from . import store
from .config import get_config
from .observability import count, logger
from .profiles import PlayerKind, Profile, get_profiles, new_profile, profile_put
from .records import GameRecord

ATTEMPTS = 5


def _done(game_id: str) -> dict[str, Any]:
    """Take the game out of the ``pending`` index, only if it is still in."""
    return {
        "Update": {
            "TableName": get_config().table_name,
            "Key": store.game_key(game_id),
            "UpdateExpression": "REMOVE pending_shard, pending_at",
            "ConditionExpression": "attribute_exists(pending_shard)",
        }
    }


def outcome_of(record: GameRecord, seat: int) -> tuple[bool, bool]:
    """(won, drew) for ``seat``: a win is first place alone, a draw a shared first place."""
    result = record.state.result
    if result is None:
        return False, False
    firsts = [i for i, place in enumerate(result.places) if place == 1]
    return firsts == [seat], len(firsts) > 1 and seat in firsts


def apply(record: GameRecord) -> bool:
    """Count the finished ``record`` into its players' statistics; True if this call did it.

    ``record`` is the game as its ending write stored it; on a conflict it is read again.
    """
    current: GameRecord | None = record
    for _ in range(ATTEMPTS):
        if current is None or not current.results_pending:
            return False
        try:
            store.transact(_items(current))
        except store.WriteConflict:
            current = store.get_game(record.game_id)
            continue
        count("ResultsApplied")
        return True
    logger.warning("result not applied yet", extra={"game_id": record.game_id})
    return False


def _items(record: GameRecord) -> list[dict[str, Any]]:
    players = record.player_seats
    stored = get_profiles(list(players.values()))
    owners = {
        player_id: profile.claimed_by
        for player_id, profile in stored.items()
        if profile.claimed_by is not None
    }
    if owners:  # a claimed guest's results count for the account that claimed it
        stored.update(get_profiles(list(owners.values())))
    month = (record.ended_at or record.created_at)[:7]
    counted: dict[str, tuple[Profile | None, Profile]] = {}
    for seat, player_id in players.items():
        target = owners.get(player_id, player_id)
        previous = stored.get(target)
        kind: PlayerKind = "guest" if target.startswith("guest-") else "account"
        base = previous or new_profile(target, kind)
        won, drew = outcome_of(record, seat)
        stats = base.stats.counted(
            won=won, drew=drew, mines=record.state.seats[seat].mines, month=month
        )
        counted[target] = (previous, base.evolve(stats=stats))
    items = [_done(record.game_id)]
    for previous, profile in counted.values():
        version = 0 if previous is None else previous.version + 1
        items.append(profile_put(profile.evolve(version=version), previous))
    return items


def apply_pending(limit_per_shard: int = 100) -> dict[str, int]:
    """Apply every finished game still pending (the sweeper's second duty)."""
    applied = failed = 0
    for shard in store.pending_shards():
        for game_id in store.pending_games(shard, limit_per_shard):
            record = store.get_game(game_id)
            if record is None:
                continue
            try:
                applied += 1 if apply(record) else 0
            except Exception as exc:
                failed += 1
                logger.error(
                    "result could not be applied",
                    extra={"game_id": game_id, "error": type(exc).__name__},
                )
    return {"results-applied": applied, "results-failed": failed}
