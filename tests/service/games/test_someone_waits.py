"""Which turns someone waits for (they get a schedule and an exact sweeper key) and how coarse
the sweeper's key of the others is: ``GameRecord.someone_waits``, ``sweep_bucket_s`` and
``due_key``, on records built from the engine (no AWS)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st
from mineduel_engine import Settings, rules_for
from mineduel_service.games.record import GameRecord, Seat
from mineduel_service.platform import clock

START = datetime(2026, 11, 30, 12, 7, 21, tzinfo=UTC)
PEOPLE = {"account": Seat("account", "p-a", "Ann"), "guest": Seat("guest", "p-g", "Guest")}
BOT = Seat("bot", "bot-easy", "Bot (easy)")


def _record(
    seats: tuple[Seat, ...],
    *,
    deadline_s: int = 86400,
    out: tuple[int, ...] = (),
    turn: int = 0,
    deadline: datetime | None = None,
    daily: str | None = None,
) -> GameRecord:
    """An active game of ``seats`` whose seats ``out`` resigned, with ``turn`` to move."""
    rules = rules_for("mine-duel")
    state = rules.new_game(Settings.for_variant("mine-duel", seats=len(seats)))
    for seat in out:
        state, _ = rules.eliminate(state, seat, "resign")
    state = state.evolve(turn=turn) if state.turn != turn else state
    return GameRecord(
        game_id="g",
        state=state,
        seats=seats,
        status="active",
        commitment="c",
        seed_ciphertext=b"",
        move_deadline_s=deadline_s,
        rated=False,
        bot_level="easy",
        created_at=clock.iso(START),
        deadline=clock.iso(deadline or START + timedelta(seconds=deadline_s)),
        daily=daily,
    )


def test_someone_waits_only_when_another_person_still_in_the_game_does() -> None:
    ann, bob = PEOPLE["account"], Seat("account", "p-b", "Bob")
    assert not _record((PEOPLE["guest"], BOT)).someone_waits  # a guest against the bot
    assert not _record((ann, BOT, BOT)).someone_waits
    assert _record((ann, bob)).someone_waits
    assert _record((ann, bob, BOT)).someone_waits
    assert not _record((ann, bob, BOT), out=(1,)).someone_waits  # bob resigned
    assert _record((ann, BOT), turn=1).someone_waits  # a bot to move, the person waits
    waiting = _record((ann, bob)).evolve(status="waiting")
    assert not waiting.someone_waits and not waiting.evolve(status="finished").someone_waits


def test_a_turn_someone_waits_for_keeps_its_exact_key() -> None:
    record = _record((PEOPLE["account"], Seat("account", "p-b", "Bob")), deadline_s=3000)
    assert record.due_key == record.due_at == record.deadline


def test_a_bot_to_move_keeps_an_exact_key_even_with_nobody_waiting() -> None:
    """Bots left alone play on at once (``advance.write``): due now, never put off."""
    record = _record((PEOPLE["account"], BOT, BOT), out=(0,), turn=1, deadline=START)
    assert not record.someone_waits and record.due_key == record.deadline


@given(
    deadline_s=st.integers(min_value=60, max_value=7 * 86400),
    offset_s=st.integers(min_value=0, max_value=7 * 86400),
)
def test_the_key_of_a_turn_nobody_waits_for_is_rounded_up_by_less_than_a_bucket(
    deadline_s: int, offset_s: int
) -> None:
    deadline = START + timedelta(seconds=offset_s)
    record = _record((PEOPLE["guest"], BOT), deadline_s=deadline_s, deadline=deadline)
    bucket = record.sweep_bucket_s
    assert bucket == min(3600, max(60, deadline_s // 10))
    assert record.due_key is not None and record.due_at is not None
    key, due = clock.parse_iso(record.due_key), clock.parse_iso(record.due_at)
    assert due <= key < due + timedelta(seconds=bucket)  # never early, less than a bucket late
    assert key.timestamp() % bucket == 0  # so a bucket's commits share one key
    later = record.evolve(deadline=clock.iso(deadline + timedelta(seconds=1)))
    if (key - due).total_seconds() >= 1:
        assert later.due_key == record.due_key


def test_a_daily_game_key_never_passes_the_end_of_its_day() -> None:
    """The deadline is capped at midnight; rounding up must not carry the key past it."""
    midnight = datetime(2026, 12, 1, tzinfo=UTC)
    record = _record((PEOPLE["guest"], BOT), deadline_s=7000, deadline=midnight, daily="2026-11-30")
    assert record.ends_by == clock.iso(midnight)
    assert midnight.timestamp() % record.sweep_bucket_s != 0  # rounding would pass it
    assert record.due_key == record.ends_by == record.deadline
