"""The steps every write on a running game shares: bots reply, the deadline moves on, the
record is finished (seed published) or not, and the game's schedule follows.

The seed is decrypted here only when the field is needed: a bot must move, or the game is over
and its seed is published.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from mineduel_engine import Field, GameState, Move, rules_for

from . import clock, crypto, scheduling
from .bots import bot_replies, bot_to_move
from .observability import count, logger
from .records import GameRecord, Seat
from .views import move_view

# TransactWriteItems takes 100 items: the game, the idempotency record and at most this many moves.
MAX_MOVES_PER_WRITE = 96


def deadline_after(now: datetime, seconds: int) -> str:
    """The deadline of a turn starting ``now``, in the API's time format."""
    return clock.iso(now + timedelta(seconds=seconds))


def field_for(record: GameRecord, seats: tuple[Seat, ...], seed: bytes) -> Field:
    """The game's field from its seed and the seats' client seeds (``mineduel/v1``)."""
    s = record.settings
    client_seeds = [seat.client_seed for seat in seats]
    return Field.from_seed(seed, record.game_id, client_seeds, s.width, s.height, s.mines)


def seed_if_needed(record: GameRecord, state: GameState) -> bytes | None:
    """Decrypt only when the field is needed: a bot must move, or the seed must be published."""
    kinds = [seat.kind for seat in record.seats]
    if state.finished or bot_to_move(state, kinds) is not None:
        return crypto.decrypt_seed(record.seed_ciphertext, record.game_id)
    return None


def conclude(
    record: GameRecord,
    state: GameState,
    moves: list[Move],
    now: datetime,
    seed: bytes | None,
    field: Field | None = None,
) -> tuple[GameRecord, list[dict[str, Any]]]:
    """Let bots reply, then build the record to store and the moves' log entries.

    ``field`` is the field the caller already derived for the same seats, if any, so a commit
    derives it once for the human's tap and the bots' replies alike.

    One write holds at most ``MAX_MOVES_PER_WRITE`` moves (a transaction takes 100 items). Only
    a game left to bots alone can need more; then the bots stop there, their turn's deadline is
    now, and the expiry function plays on from the schedule, one transaction at a time.
    """
    kinds = [seat.kind for seat in record.seats]
    if seed is not None and bot_to_move(state, kinds) is not None:
        field_ = field or field_for(record, record.seats, seed)
        rules = rules_for(record.settings.variant)

        def play(
            s: GameState, seat: int, action: str, row: int, col: int
        ) -> tuple[GameState, Move]:
            return rules.play(s, field_, seat, action, row, col)

        state, replies = bot_replies(
            state,
            kinds,
            record.commitment,
            record.bot_level,
            play,
            limit=MAX_MOVES_PER_WRITE - len(moves),
        )
        moves = [*moves, *replies]
    finished = state.finished
    turn_moved = any(m.seat == record.state.turn and not m.is_elimination for m in moves) or (
        state.turn != record.state.turn
    )
    if finished:
        deadline = None
    elif bot_to_move(state, kinds) is not None:
        deadline = clock.iso(now)
    elif turn_moved or record.deadline is None:
        deadline = deadline_after(now, record.move_deadline_s)
    else:
        deadline = record.deadline
    after = record.evolve(
        state=state,
        status="finished" if finished else record.status,
        deadline=deadline,
        version=record.version + 1,
        seed_hex=seed.hex() if finished and seed is not None else None,
    )
    at = clock.iso(now)
    return after, [move_view(move, at) for move in moves]


def rearm(record: GameRecord, *, first: bool = False) -> None:
    """Point the game's schedule at its deadline, or delete it once the game is over.

    ``first`` marks a game that has just become active (create or the last join), whose
    schedule is created rather than updated.

    A failure here is logged, not raised: the move is already stored, and the commit path
    enforces the deadline itself, so a missing schedule only delays an automatic timeout.
    """
    try:
        if record.status == "finished":
            scheduling.disarm(record.game_id)
        elif record.status == "active" and record.deadline is not None:
            scheduling.arm(
                record.game_id,
                record.state.move_count,
                clock.parse_iso(record.deadline),
                record.deadline,
                first=first,
            )
    except Exception as exc:
        logger.warning(
            "schedule not updated", extra={"game_id": record.game_id, "error": type(exc).__name__}
        )
        count("ScheduleFailures")


def time_out(
    record: GameRecord, seat: int, now: datetime, seed: bytes | None
) -> tuple[GameRecord, list[dict[str, Any]]]:
    """The seat to move missed its deadline: it goes out, and bots reply if it is their turn.

    A bot never misses a deadline: when one is due, it is a bot game too long for one write
    (see ``conclude``), and the bots simply play on.
    """
    if record.seats[seat].kind == "bot":
        if seed is None:
            seed = crypto.decrypt_seed(record.seed_ciphertext, record.game_id)
        return conclude(record, record.state, [], now, seed)
    state, move = rules_for(record.settings.variant).eliminate(record.state, seat, "timeout")
    if seed is None:
        seed = seed_if_needed(record, state)
    return conclude(record, state, [move], now, seed)
