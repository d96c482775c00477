"""Moving a running game on: what every write of one shares, whatever caused it (a commit, a
resignation, a timeout, the sweeper).

Each such write goes through the same steps, each a function of its own:

1. **decide** (``after_moves``, ``time_out``): given the moves just made, bots reply, the
   deadline moves on, and the game ends (its seed published) or not; the engine does the
   game's part, nothing here is stored yet;
2. **write** (``write``): one conditional transaction of the game, its new log item and the
   player items that follow (``games.writes``); a game left to bots alone plays on in further
   writes;
3. **schedule** (``follow_schedule``): the next turn gets its Scheduler schedule when someone
   waits for it;
4. **count** (``count_result``): a game that just ended is counted into its players'
   statistics and ratings, and the game is returned as then stored, its rating record with it.

``store_outcome`` runs steps 2 to 4 for the write paths that have nothing else to do between
them; the commit (``commit``) spells them out. The seed is decrypted here only when the field is
needed: a bot must move, or the game is over and its seed is published.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from mineduel_engine import Field, GameState, Move, rules_for
from mineduel_engine.chain import chained

from ..games import store, writes
from ..games.deadlines import deadline_after
from ..games.record import GameRecord, Seat
from ..platform import clock, crypto, scheduling
from ..platform.dynamo import WriteConflict
from ..platform.observability import count, logger
from .bots import bot_replies, bot_to_move

MAX_MOVES_PER_WRITE = 88
"""One write stores at most this many moves (in its one log item): only a game left to bots
alone can make more in one go, and it plays on in further writes (``write``), each a complete
game a crash can resume from, so no request plays unboundedly long."""

Log = list[dict[str, Any]]
"""Moves as the log stores them (``games.store.logged_move``), chained."""


@dataclass(frozen=True)
class Stored:
    """A write's result: the game as finally stored, and every move written (in order)."""

    game: GameRecord
    moves: Log = field(default_factory=list)


def field_for(record: GameRecord, seats: tuple[Seat, ...], seed: bytes) -> Field:
    """The game's field from its seed and the seats' client seeds (``mineduel/v1``; a daily
    game's key uses the day's field id in place of the game id)."""
    s = record.settings
    client_seeds = [seat.client_seed for seat in seats]
    return Field.from_seed(seed, record.field_id, client_seeds, s.width, s.height, s.mines)


def _kinds(record: GameRecord) -> list[str]:
    return [seat.kind for seat in record.seats]


def seed_if_needed(record: GameRecord, state: GameState) -> bytes | None:
    """Decrypt only when the field is needed: a bot must move, or the seed must be published."""
    if state.finished or bot_to_move(state, _kinds(record)) is not None:
        return crypto.decrypt_seed(record.seed_ciphertext, record.game_id)
    return None


# ---------------------------------------------------------------------------- 1. decide
def after_moves(
    record: GameRecord,
    state: GameState,
    moves: list[Move],
    now: datetime,
    seed: bytes | None,
    field: Field | None = None,
) -> tuple[GameRecord, Log]:
    """The game after ``moves`` (already played on ``state``): bots reply, then the record to
    store and the moves' log entries.

    ``field`` is the field the caller already derived for the same seats, if any, so a commit
    derives it once for the human's tap and the bots' replies alike. Bots stop after
    ``MAX_MOVES_PER_WRITE`` moves with their turn's deadline at ``now``; ``write`` plays on.
    """
    kinds = _kinds(record)
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
    if deadline is not None and record.ends_by is not None:
        deadline = min(deadline, record.ends_by)  # a daily game ends with its day
    # A daily game's seed is its whole day's: it is published when the day is over
    # (``daily.housekeeping``).
    publish = finished and seed is not None and record.daily is None
    moved = set(record.seats_moved) | {m.seat for m in moves if not m.is_elimination}
    after = record.evolve(
        state=state,
        seats_moved=tuple(sorted(moved)),
        status="finished" if finished else record.status,
        deadline=deadline,
        seed_hex=seed.hex() if publish and seed is not None else None,
        ended_at=clock.iso(now) if finished else None,
        results_pending=finished and bool(record.player_seats),
    )
    at = clock.iso(now)
    log = chained(record.chain or record.commitment, [store.logged_move(m, at) for m in moves])
    if log:
        after = after.evolve(chain=log[-1]["chain"])
    return after, log


def time_out(
    record: GameRecord, seat: int, now: datetime, seed: bytes | None
) -> tuple[GameRecord, Log]:
    """The seat to move missed its deadline: it goes out, and bots reply if it is their turn.

    A bot never misses a deadline: when one is due, it is a bot game too long for one write
    (see ``after_moves``), and the bots simply play on.
    """
    if record.seats[seat].kind == "bot":
        if seed is None:
            seed = crypto.decrypt_seed(record.seed_ciphertext, record.game_id)
        return after_moves(record, record.state, [], now, seed)
    state, move = rules_for(record.settings.variant).eliminate(record.state, seat, "timeout")
    if seed is None:
        seed = seed_if_needed(record, state)
    return after_moves(record, state, [move], now, seed)


# ---------------------------------------------------------------------------- 2. write
def write(
    before: GameRecord,
    after: GameRecord,
    log: Sequence[dict[str, Any]],
    now: datetime,
    seed: bytes | None = None,
    idempotency: store.IdempotencyWrite | None = None,
) -> Stored:
    """Write ``after`` over ``before`` (``WriteConflict`` if the game moved meanwhile),
    then play a bots-only game on to its end in further writes.

    Each further write is a conditional transaction of its own (moving the caller's
    Idempotency-Key's first answer on to its last move, when there is one), and each stored
    state is a complete, valid game with its deadline at ``now`` while a bot is to move: if
    the process dies between two writes, the sweeper finds the game due and plays on from
    there. A game that ended forgets its seed (it is public now).
    """
    last = writes.persist(after, before, log, idempotency)
    written = list(log)
    while bot_to_move(last.state, _kinds(last)) is not None:
        if seed is None:
            seed = crypto.decrypt_seed(last.seed_ciphertext, last.game_id)
        following, more = after_moves(last, last.state, [], now, seed)
        # The request's key keeps up: a retry answers with every move this request caused.
        kept = idempotency.extended_to(more[-1]["n"]) if idempotency and more else None
        try:
            last = writes.persist(following, last, more, kept)
        except WriteConflict:
            break  # someone else is playing this game on; their write stands
        written.extend(more)
    if last.status == "finished":
        crypto.forget_seed(last.game_id)
    return Stored(last, written)


# ---------------------------------------------------------------------------- 3. schedule
def follow_schedule(before: GameRecord | None, after: GameRecord) -> None:
    """Give the new turn its own schedule when someone waits for it, or remove the last one
    when it is no longer needed (the game ended, or nobody waits any more).

    At most one Scheduler call, and none at all for a turn on which nobody waits
    (``GameRecord.someone_waits``: a person against bots): the sweeper ends such a turn, and
    warns it, from its coarse key in the deadline index. When the turn gets a "time almost up"
    warning, its schedule fires at the warning time instead of the deadline, and the expiry
    function arms the deadline then (``platform.scheduling``); a turn that loses its schedule
    after its warning deletes that deadline schedule. The schedule removed is always the
    previous turn's (the only one a write can make useless): when someone waited for it and
    nobody waits now (the other person left, or the game ended), it would only fire stale. A
    failure is logged and counted (``ScheduleFailures``, which alarms), never raised: the write
    is stored, every request on the game enforces the deadline itself, and the sweeper ends the
    game on time without a schedule.
    """
    try:
        if after.someone_waits and after.deadline is not None:
            scheduling.arm(after.game_id, after.state.move_count, after.deadline, after.warning_at)
        elif before is not None and before.someone_waits:
            warned = before.deadline is not None and before.warned_for == before.deadline
            scheduling.disarm(before.game_id, before.state.move_count, warned=warned)
    except Exception as exc:
        logger.warning(
            "schedule not updated", extra={"game_id": after.game_id, "error": type(exc).__name__}
        )
        count("ScheduleFailures")


# ---------------------------------------------------------------------------- 4. count
def count_result(record: GameRecord) -> GameRecord:
    """Count a game that just ended into its players' statistics and ratings now (``results``),
    and return it as it then stands (with its rating record); a game not pending is returned as
    it is. If counting fails, the game stays pending and the sweeper counts it within a minute
    (then a read shows the ratings, the answer of this write does not)."""
    if not record.results_pending:
        return record
    # Statistics and ratings are loaded when a game ends (once a game), not with every commit.
    from . import results  # noqa: PLC0415

    try:
        applied = results.apply(record)
    except Exception as exc:
        logger.warning(
            "result not applied", extra={"game_id": record.game_id, "error": type(exc).__name__}
        )
        return record
    return applied or record


# ---------------------------------------------------------------------------- 2 to 4
def store_outcome(
    before: GameRecord,
    after: GameRecord,
    log: Sequence[dict[str, Any]],
    now: datetime,
    seed: bytes | None = None,
    idempotency: store.IdempotencyWrite | None = None,
) -> Stored:
    """Write, schedule, count: ``after`` stored over ``before`` (``WriteConflict`` if
    the game moved meanwhile), and the game as finally stored with every move written."""
    stored = write(before, after, log, now, seed, idempotency)
    follow_schedule(before, stored.game)
    return Stored(count_result(stored.game), stored.moves)
