"""The screener: every few minutes (``FairPlayScreenSchedule``), the rated games that finished
since its last run are screened, one after another, oldest first.

It reads the ``finished`` index (which every finished game enters with the write that ends it:
no extra write for screening) from where it stopped in each partition of this month and the
last, up to two minutes ago (an index is eventually consistent: a game that ended a moment ago
may not be in it yet). For each rated game whose seats are all accounts it takes the game's
analysis (the stored one, else computed and stored, as ``GET /v1/games/{id}/analysis`` does)
and each tapped position's difficulty (``positions``: the game replayed on its field, public
now), adds each seat's figures to that player's record, and opens a case when the player's window
crosses the threshold (``screening``). Only then does it move its place in that partition
past the game: a run that dies half-way screens the same games again, and a record that
already holds a game ignores it, so every game counts once for each of its players.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from mineduel_engine import Field

from ..archive.stored_analyses import stored_or_computed
from ..games import store as games
from ..games.record import GameRecord
from ..people.store import get_profile
from ..platform import clock
from ..platform.observability import count, logger
from ..ratings.model import system_for
from . import store
from .positions import difficulties
from .screening import GameFigures, recent, seat_figures, window_of
from .store import FairPlayRecord

LAG_S = 120
"""Games that ended less than this long ago wait for the next run."""
MAX_GAMES_PER_RUN = 150
"""A run's bound (about a second of analysis and a tenth of replay each at most, well inside
the timeout); the rest wait for the next run, every partition's place kept."""
PAGE = 100
ATTEMPTS = 4


def screened(record: GameRecord) -> bool:
    """A game the screening reads: finished, rated, in a rated variant, every seat an account,
    not a daily duel."""
    return (
        record.status == "finished"
        and record.rated
        and record.daily is None
        and system_for(record.settings.variant) is not None
        and all(seat.kind == "account" and seat.player_id for seat in record.seats)
    )


def _months(now: datetime) -> list[str]:
    """This month and the last (a game that ended just before midnight on the last day)."""
    first = now.replace(day=1)
    return [(first - timedelta(days=1)).strftime("%Y-%m"), now.strftime("%Y-%m")]


def run() -> dict[str, int]:
    """Screen what finished since the last run; the counts of what it did."""
    now = clock.now()
    until = f"{clock.iso(now - timedelta(seconds=LAG_S))}#~"
    done = {"games": 0, "screened": 0, "cases": 0, "failed": 0}
    for month in _months(now):
        for shard in store.finished_shards(month):
            if done["games"] >= MAX_GAMES_PER_RUN:
                return done
            _shard(shard, until, done)
    return done


def _shard(shard: str, until: str, done: dict[str, int]) -> None:
    after = store.screened_up_to(shard)
    last = after
    for game_id, fin_at in store.finished_between(shard, after, until, PAGE):
        if done["games"] >= MAX_GAMES_PER_RUN:
            break
        done["games"] += 1
        try:
            record = games.get_game(game_id)
            if record is not None and screened(record):
                done["cases"] += screen_game(record)
                done["screened"] += 1
        except Exception as exc:
            # Kept in place: the next run tries this game again (and those after it).
            done["failed"] += 1
            count("ScreeningFailures")
            logger.error(
                "screening failed", extra={"game_id": game_id, "error": type(exc).__name__}
            )
            break
        last = fin_at
    if last != after:
        store.mark_screened(shard, last)


def screen_game(record: GameRecord) -> int:
    """Add a finished rated game to each of its players' records; how many cases it opened."""
    analysis = stored_or_computed(record)
    if analysis is None or record.seed_hex is None:  # its seed is still secret (never a rated
        return 0  # game: daily games are not)
    settings = record.settings
    game_field = Field.from_seed(
        bytes.fromhex(record.seed_hex),
        record.field_id,
        record.client_seeds,
        settings.width,
        settings.height,
        settings.mines,
    )
    positions = difficulties(settings, game_field, games.list_moves(record.game_id))
    ended_at = record.ended_at or record.created_at
    opened = 0
    for seat, player_id in sorted(record.player_seats.items()):
        figures = seat_figures(analysis, seat, record.game_id, ended_at, positions)
        if figures is not None and add_game(player_id, figures):
            opened += 1
    count("GamesScreened")
    return opened


def add_game(player_id: str, figures: GameFigures) -> bool:
    """Add one game's figures to the player's record (once: a record that holds the game is
    left as it is), opening a case when the window crosses the threshold; True if it did."""

    def attempt() -> bool:
        now = clock.now()
        before = store.get_record(player_id)
        if any(g.game_id == figures.game_id for g in before.games):
            return False
        kept = tuple(recent([*before.games, figures]))
        window = window_of(kept)
        after = before.evolve(games=kept, screened=before.screened + 1, version=before.version + 1)
        items: list[dict[str, Any]] = []
        opens = _opens_case(before, kept, window.flagged)
        if opens:
            profile = get_profile(player_id)
            username = profile.display_name if profile else player_id
            case = store.open_case(player_id, username, window, _ids(kept), now)
            after = after.evolve(status="review", case_id=case.case_id)
            items.append(store.case_put(case, None))
            logger.info("fair-play case opened", extra={"case_id": case.case_id})
        items.insert(0, store.record_put(after, before, now))
        store.write_together(items)
        if opens:
            count("FairPlayCasesOpened")
        return opens

    return store.until_written(attempt, ATTEMPTS)


def _opens_case(before: FairPlayRecord, kept: tuple[GameFigures, ...], flagged: bool) -> bool:
    """A flagged window opens a case when none is open, the player is not restricted, and
    every game in it ended after a moderator's last decision (a cleared player is judged
    again on games played since)."""
    if not flagged or before.status != "clear":
        return False
    since = before.reviewed_at or ""
    return all(g.ended_at > since for g in kept)


def _ids(kept: tuple[GameFigures, ...]) -> tuple[str, ...]:
    return tuple(g.game_id for g in kept)
