"""``POST /v1/daily/play``: the caller's one game of the day, against the hard bot on the
day's field (docs/daily.md).

Every daily game of a day is a ``mineduel/v1`` game on the day's seed (``seeds``) whose key
uses the field id ``daily-YYYY-MM-DD`` in place of the game id and empty client seeds: the same
field for everyone, and the bot (public information and the commitment's tie-break stream only)
plays the same way against everyone. No daily game runs past its day (every deadline is capped
at midnight UTC). One attempt per player a day: the attempt item is written in the game's own
transaction, conditioned on not existing. Guests may play; only accounts are ranked.

A play never makes the day's commitment: it reads the day that housekeeping prepared (and
``GET /v1/daily`` has shown) ahead of time, or refuses with ``DailyNotReady``. So every daily
game's commitment was readable before its first move, a new deployment's first day included.
"""

from __future__ import annotations

import uuid
from typing import Any

from mineduel_engine import Settings, rules_for

from ..games import writes
from ..games.deadlines import deadline_after
from ..games.record import GameRecord, Seat
from ..games.views import game_view
from ..people.names import display_name
from ..platform import auth, clock, crypto
from ..platform.dynamo import WriteConflict
from ..platform.observability import count, logger
from .errors import DailyAlreadyPlayed, DailyNotReady
from .seeds import checked_seed
from .store import Play, day_end, get_day, get_play, new_play_op, today

VARIANT = "mine-duel"
BOT_LEVEL = "hard"
MOVE_DEADLINE_S = 3600
"""Each turn of a daily game has an hour, and never runs past the end of its day."""


def play(caller: auth.Caller) -> dict[str, Any]:
    """Today's daily game for the caller (once a day), against the hard bot on the day's field;
    ``DailyAlreadyPlayed`` for a second attempt, ``DailyNotReady`` while the day's commitment
    is not published."""
    now = clock.now()
    day = today(now)
    previous = get_play(day, caller.player_id)
    if previous is not None:
        raise _already_played(day, previous.game_id)
    the_day = get_day(day)
    if the_day is None:
        logger.warning("daily play before the day was prepared", extra={"day": day})
        raise DailyNotReady()
    seed = checked_seed(the_day)
    game_id = str(uuid.uuid4())
    ciphertext = crypto.encrypt_seed(seed, game_id)
    del seed
    name = display_name(caller)
    seats = (
        Seat(
            kind=caller.kind,
            player_id=caller.player_id,
            name=name,
            token_hash=caller.token_hash,
            token_expires=caller.expires_at,
        ),
        Seat(kind="bot", player_id=f"bot-{BOT_LEVEL}", name=f"Bot ({BOT_LEVEL})"),
    )
    settings = Settings.for_variant(VARIANT, seats=2)
    record = GameRecord(
        game_id=game_id,
        state=rules_for(VARIANT).new_game(settings),
        seats=seats,
        status="active",
        commitment=the_day.commitment,
        seed_ciphertext=ciphertext,
        move_deadline_s=MOVE_DEADLINE_S,
        rated=False,
        bot_level=BOT_LEVEL,
        created_at=clock.iso(now),
        deadline=min(deadline_after(now, MOVE_DEADLINE_S), day_end(day)),
        daily=day,
    )
    attempt = Play(day, caller.player_id, game_id, name, caller.kind == "account", clock.iso(now))
    try:
        writes.persist(record, None, extra=[new_play_op(attempt)])
    except WriteConflict:
        found = get_play(day, caller.player_id)
        raise _already_played(day, found.game_id if found else None) from None
    # No schedule: a daily game is one person against the bot, so nobody waits on its turns;
    # the sweeper ends (and warns) them (``play.advance.follow_schedule``).
    count("DailyGamesStarted")
    logger.info("daily game started", extra={"game_id": game_id, "day": day})
    return game_view(record)


def _already_played(day: str, game_id: str | None) -> DailyAlreadyPlayed:
    where = f" (game {game_id})" if game_id else ""
    return DailyAlreadyPlayed(f"You have had your attempt at {day}'s daily duel{where}.")
