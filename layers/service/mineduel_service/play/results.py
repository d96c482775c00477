"""Applying a finished game's result to its players' statistics and ratings, exactly once.

The write that ends a game puts it in the ``pending`` index (same transaction). ``apply`` then
reads the seats' profiles and, for a rated game, their rating items (one ``BatchGetItem``),
counts the game into each profile, computes the rating update, and writes, in one transaction:
the game (out of the index, conditioned on it still being in, with its rating record), every
profile and every rating item, each conditioned on the version it read. Whoever runs it (the
request that ended the game, right after its write, or the sweeper for any game a crash left
pending) and however often, each game counts once: a second run finds the game no longer
pending. Two games of one player ending at once conflict on that player's versions; the loser
reads again and counts on top. The failure cases are in docs/ratings.md.
"""

from __future__ import annotations

from typing import Any

from ..games import store
from ..games.record import GameRecord
from ..people.profiles import (
    PlayerKind,
    Profile,
    get_profiles,
    new_profile,
    parse_profile,
    profile_put,
)
from ..platform import clock, dynamo, keys
from ..platform.observability import count, logger
from ..ratings.model import (
    GameRating,
    PlayerRating,
    RatingSystem,
    rate_game,
    seats_that_moved,
    system_for,
)
from ..ratings.store import current_rating, parse_rating, rating_put

ATTEMPTS = 5


def outcome_of(record: GameRecord, seat: int) -> tuple[bool, bool]:
    """(won, drew) for ``seat``: a win is first place alone, a draw a shared first place."""
    result = record.state.result
    if result is None:
        return False, False
    firsts = [i for i, place in enumerate(result.places) if place == 1]
    return firsts == [seat], len(firsts) > 1 and seat in firsts


def rating_system(record: GameRecord) -> RatingSystem | None:
    """The rating model a finished game is rated by, or None when it is not rated: it must be
    created rated, in a variant with ratings, with every seat an account (creation refuses
    anything else; this is the applier's own check)."""
    if not record.rated or record.state.result is None:
        return None
    if not all(seat.kind == "account" and seat.player_id for seat in record.seats):
        return None
    return system_for(record.settings.variant)


def apply(record: GameRecord) -> GameRecord | None:
    """Count the finished ``record`` into its players' statistics and ratings; the game as it
    then stands if this call did it, None if it was not pending (applied already, or never
    pending).

    ``record`` is the game as its ending write stored it; on a conflict (another of a player's
    games counted at the same moment) it is read again and counted on top.
    """
    current: GameRecord | None = record

    def attempt() -> GameRecord | None:
        nonlocal current
        if current is None or not current.results_pending:
            return None
        items, counted = _items(current)
        try:
            dynamo.transact(items)
        except dynamo.WriteConflict:
            current = store.get_game(record.game_id)
            raise
        count("ResultsApplied")
        rating = counted.rating
        if rating is not None:
            count("RatingsApplied" if rating.outcome == "rated" else "RatingsAborted")
        return counted

    try:
        return dynamo.read_modify_write(attempt, ATTEMPTS, _NotYet)
    except _NotYet:
        logger.warning("result not applied yet", extra={"game_id": record.game_id})
        return None


class _NotYet(Exception):
    """Every attempt lost to another write: the game stays pending for the sweeper."""


Ratings = dict[tuple[str, str], PlayerRating]


def _read(record: GameRecord, system: RatingSystem | None) -> tuple[dict[str, Profile], Ratings]:
    """The seats' profiles and (rated games) rating items, in one consistent read."""
    players = list(record.player_seats.values())
    wanted = [keys.profile(p) for p in players]
    if system is not None:
        wanted += [keys.rating(p, system.variant) for p in players]
    profiles: dict[str, Profile] = {}
    ratings: Ratings = {}
    for item in dynamo.batch_get(wanted):
        player_id = keys.player_id_of(item)
        if item["sk"]["S"] == keys.PROFILE_SK:
            profiles[player_id] = parse_profile(player_id, item)
        else:
            rating = parse_rating(item)
            ratings[(rating.player_id, rating.variant)] = rating
    return profiles, ratings


def _items(record: GameRecord) -> tuple[list[dict[str, Any]], GameRecord]:
    """The transaction that counts ``record``, and the game as it stores it."""
    system = rating_system(record)
    players = record.player_seats
    stored, ratings = _read(record, system)
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
    rating = None
    if system is not None and record.state.result is not None:
        seats = [(s, current_rating(ratings, p, system)) for s, p in sorted(players.items())]
        rating = rate_game(
            system, seats, record.state.result.places, seats_that_moved(record.state)
        )
    counted_game, done = store.results_counted(record, rating)
    items = [done]
    for previous, profile in counted.values():
        version = 0 if previous is None else previous.version + 1
        items.append(profile_put(profile.evolve(version=version), previous))
    if rating is not None and rating.outcome == "rated":
        items.extend(_rating_puts(record, rating, ratings, counted))
    return items, counted_game


def _rating_puts(
    record: GameRecord,
    rating: GameRating,
    stored: Ratings,
    counted: dict[str, tuple[Profile | None, Profile]],
) -> list[dict[str, Any]]:
    """Each seat's rating item after the game, conditioned on the version it was computed
    from; the profile's username and setting copied in for the leaderboard."""
    ended_at = record.ended_at or record.created_at
    now = clock.now()
    puts = []
    for line in rating.seats:
        previous = stored.get((line.player_id, rating.variant))
        system = system_for(rating.variant)
        assert system is not None  # noqa: S101  (rate_game only rates a rated variant)
        before = current_rating(stored, line.player_id, system)
        after = before.after_game(line.after, ended_at)
        profile = counted[line.player_id][1]
        puts.append(rating_put(after, previous, profile.username, profile.listed, now))
    return puts


def apply_pending(limit_per_shard: int = 100) -> dict[str, int]:
    """Apply every finished game still pending (the sweeper's second duty)."""
    applied = failed = 0
    for shard in keys.pending_shards():
        for game_id in store.pending_games(shard, limit_per_shard):
            record = store.get_game(game_id)
            if record is None:
                continue
            try:
                applied += 1 if apply(record) is not None else 0
            except Exception as exc:
                failed += 1
                logger.error(
                    "result could not be applied",
                    extra={"game_id": game_id, "error": type(exc).__name__},
                )
    return {"results-applied": applied, "results-failed": failed}
