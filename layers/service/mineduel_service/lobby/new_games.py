"""A new game's record and its people's seats: what every way of starting a game shares
(creating, rematching, and quick pairing, ``pairing``).

A new game's seed is made here and immediately encrypted; only its commitment stays in the
clear.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from mineduel_engine import Settings, commitment, rules_for

from ..games.deadlines import WAITING_LAPSE_S, deadline_after
from ..games.record import GameRecord, Seat
from ..platform import auth, clock, crypto


def new_game(
    settings: Settings,
    seats: tuple[Seat, ...],
    move_deadline_s: int,
    rated: bool,
    bot_level: str,
    rematch_of: str | None = None,
    creator_seat: int = 0,
) -> GameRecord:
    """A game record with a fresh seed (only its ciphertext and commitment are kept): active at
    once when every seat is taken, else waiting (until it lapses a week later)."""
    now = clock.now()
    game_id = str(uuid.uuid4())
    seed = crypto.new_seed()
    ciphertext = crypto.encrypt_seed(seed, game_id)
    public_commitment = commitment(seed)
    del seed  # only the ciphertext is kept
    active = all(seat.kind != "open" for seat in seats)
    return GameRecord(
        game_id=game_id,
        state=rules_for(settings.variant).new_game(settings),
        seats=seats,
        status="active" if active else "waiting",
        commitment=public_commitment,
        seed_ciphertext=ciphertext,
        move_deadline_s=move_deadline_s,
        rated=rated,
        bot_level=bot_level,
        created_at=clock.iso(now),
        deadline=deadline_after(now, move_deadline_s) if active else None,
        lapses_at=None if active else _lapse_time(now),
        rematch_of=rematch_of,
        creator_seat=creator_seat,
    )


def _lapse_time(now: datetime) -> str:
    return clock.iso(now + timedelta(seconds=WAITING_LAPSE_S))


def seat_for(caller: auth.Caller, name: str, client_seed: str = "") -> Seat:
    """The seat of a verified caller, shown as ``name``."""
    return Seat(
        kind=caller.kind,
        player_id=caller.player_id,
        name=name,
        client_seed=client_seed,
        token_hash=caller.token_hash,
        token_expires=caller.expires_at,
    )
