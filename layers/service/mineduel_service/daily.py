"""The daily duel: one field a day, the same for everyone, against the hard bot (docs/daily.md).

How a day's field is made so that nobody can choose it once anything is known:

1. Before a month starts, a 32-byte *month key* is drawn from the CSPRNG and kept only as KMS
   ciphertext (encryption context ``{"daily_month": "YYYY-MM"}``); its commitment
   ``SHA-256(month key)`` is published at once (``GET /v1/daily`` shows this month's and the
   next one's).
2. Each day's server seed is ``HMAC-SHA256(month key, "mineduel/daily|YYYY-MM-DD")``
   (``mineduel_engine.daily``); the day's commitment ``SHA-256(day seed)`` is published before
   the day starts (today's and tomorrow's are shown).
3. Every daily game of the day is a ``mineduel/v1`` game on that seed whose key uses the field id
   ``daily-YYYY-MM-DD`` in place of the game id and empty client seeds: the same field for
   everyone, and the bot (public information and the commitment's tie-break stream only) plays
   the same way against everyone.
4. No daily game runs past its day (every deadline is capped at midnight UTC). When the day is
   over, housekeeping publishes the day's seed (in every game of the day and in the day's
   table); when the month is over, the month key.

One attempt per player a day (the attempt item is written in the game's own transaction,
conditioned on not existing). Guests may play; only accounts are ranked. The table ranks by mines
found, then fewer safe taps, then who finished first; it is rebuilt by housekeeping every five
minutes and made final when the day closes (with the games' ids, which stay unlisted while the
day runs so that nobody is pointed at a board of the day's field).
"""

from __future__ import annotations

import json
import secrets
import uuid
from datetime import datetime, timedelta
from typing import Any

from botocore.exceptions import ClientError
from mineduel_engine import Settings, commitment, rules_for
from mineduel_engine.daily import day_seed, is_date

from . import aws, clock, crypto, pagination, store, writes
from .config import get_config
from .daily_store import (
    TABLE_PAGE,
    Day,
    Month,
    Play,
    day_key,
    day_over,
    day_start,
    get_item,
    get_month,
    month_key_key,
    month_of,
    month_over,
    next_day,
    next_month,
    parse_day,
    parse_month,
    parse_play,
    play_item,
    play_key,
    previous_day,
    table_key,
)
from .deadlines import deadline_after
from .errors import ApiError, conflict, invalid
from .identity import authenticate
from .lobby import display_name
from .observability import count, logger
from .records import GameRecord, Seat
from .views import game_summary, game_view

VARIANT = "mine-duel"
BOT_LEVEL = "hard"
MOVE_DEADLINE_S = 3600
"""Each turn of a daily game has an hour, and never runs past the end of its day."""
MONTH_CONTEXT = "daily_month"
LOOKBACK_DAYS = 7
"""Housekeeping looks this many days back for days still to close."""


def _table() -> str:
    return get_config().table_name


def today(now: datetime) -> str:
    """The UTC day of ``now``."""
    return now.date().isoformat()


def day_end(day: str) -> str:
    """The moment ``day`` ends, in the API's time format."""
    return clock.iso(day_start(day) + timedelta(days=1))


# ---------------------------------------------------------------------------- keys (KMS)
def _month_context(month: str) -> dict[str, str]:
    return {MONTH_CONTEXT: month}


def month_key(month: Month) -> bytes:
    """The month key (one KMS ``Decrypt``; never logged, never sent until the month is over)."""
    answer = aws.kms().decrypt(
        CiphertextBlob=month.ciphertext,
        KeyId=get_config().seed_key_id,
        EncryptionContext=_month_context(month.month),
    )
    key: bytes = answer["Plaintext"]
    if commitment(key) != month.commitment:
        raise ApiError(500, "daily-key-mismatch", "The month's key does not match its commitment.")
    return key


def ensure_month(month: str) -> Month:
    """The month's key item, drawn and committed to now if it is not there yet."""
    found = get_month(month)
    if found is not None:
        return found
    key = secrets.token_bytes(32)
    ciphertext = aws.kms().encrypt(
        KeyId=get_config().seed_key_id, Plaintext=key, EncryptionContext=_month_context(month)
    )["CiphertextBlob"]
    made = Month(month, commitment(key), ciphertext, clock.iso(clock.now()))
    del key
    item = {
        **month_key_key(month),
        "commitment": {"S": made.commitment},
        "key_ct": {"B": made.ciphertext},
        "created_at": {"S": made.created_at},
    }
    if not _put_new(item):
        again = get_month(month)
        if again is None:  # pragma: no cover  (a conflict means it exists)
            raise RuntimeError("the month's key item vanished")
        return again
    count("DailyMonthsCommitted")
    return made


def ensure_day(day: str) -> Day:
    """The day's item with its commitment, made now (from the month key) if not there yet."""
    item = get_item(day_key(day))
    if item is not None:
        return parse_day(item)
    seed = day_seed(month_key(ensure_month(month_of(day))), day)
    made = Day(day, commitment(seed), clock.iso(clock.now()))
    del seed
    fresh = {
        **day_key(day),
        "commitment": {"S": made.commitment},
        "published_at": {"S": made.published_at},
    }
    if not _put_new(fresh):
        again = get_item(day_key(day))
        if again is None:  # pragma: no cover
            raise RuntimeError("the day's item vanished")
        return parse_day(again)
    return made


def _put_new(item: dict[str, Any]) -> bool:
    """Put ``item`` unless it exists; False when it did (someone made it first)."""
    try:
        aws.dynamodb().put_item(
            TableName=_table(), Item=item, ConditionExpression="attribute_not_exists(pk)"
        )
    except ClientError as exc:
        if exc.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException":
            return False
        raise
    return True


# ---------------------------------------------------------------------------- play
def play(token: str | None) -> dict[str, Any]:
    """``POST /v1/daily/play``: today's daily game for the caller (once a day), against the
    hard bot on the day's field; 409 ``daily-already-played`` for a second attempt."""
    caller = authenticate(token)
    now = clock.now()
    day = today(now)
    previous = get_item(play_key(day, caller.player_id))
    if previous is not None:
        raise _already_played(day, parse_play(previous).game_id)
    the_day = ensure_day(day)
    seed = day_seed(month_key(ensure_month(month_of(day))), day)
    if commitment(seed) != the_day.commitment:
        raise ApiError(500, "daily-key-mismatch", "The day's seed does not match its commitment.")
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
    put_attempt = {
        "Put": {
            "TableName": _table(),
            "Item": play_item(attempt),
            "ConditionExpression": "attribute_not_exists(pk)",
        }
    }
    try:
        writes.persist(record, None, extra=[put_attempt])
    except store.WriteConflict:
        found = get_item(play_key(day, caller.player_id))
        raise _already_played(day, parse_play(found).game_id if found else None) from None
    # No schedule: a daily game is one person against the bot, so nobody waits on its turns;
    # the sweeper ends (and warns) them (``turns.follow_schedule``).
    count("DailyGamesStarted")
    logger.info("daily game started", extra={"game_id": game_id, "day": day})
    return game_view(record)


def _already_played(day: str, game_id: str | None) -> ApiError:
    where = f" (game {game_id})" if game_id else ""
    return conflict(
        "daily-already-played", f"You have had your attempt at {day}'s daily duel{where}."
    )


# ---------------------------------------------------------------------------- reads
def overview(token: str | None) -> dict[str, Any]:
    """``GET /v1/daily``: today's commitment (and tomorrow's, this month's and next month's),
    and the caller's game of the day, if any."""
    caller = authenticate(token) if token is not None else None
    now = clock.now()
    day = today(now)
    tomorrow, yesterday, month = next_day(day), previous_day(day), month_of(day)
    keys = [
        day_key(day),
        day_key(tomorrow),
        month_key_key(month),
        month_key_key(next_month(month)),
        day_key(yesterday),
    ]
    if caller is not None:
        keys.append(play_key(day, caller.player_id))
    found = {(i["pk"]["S"], i["sk"]["S"]): i for i in store.batch_get(keys)}

    def item(key: dict[str, Any]) -> dict[str, Any] | None:
        return found.get((key["pk"]["S"], key["sk"]["S"]))

    the_day, the_month = item(day_key(day)), item(month_key_key(month))
    after, later = item(day_key(tomorrow)), item(month_key_key(next_month(month)))
    before = item(day_key(yesterday))
    mine = item(play_key(day, caller.player_id)) if caller is not None else None
    game = None
    if mine is not None:
        record = store.get_game(parse_play(mine).game_id)
        game = game_summary(record, 0) if record is not None else None
    return {
        "date": day,
        "closes_at": day_end(day),
        "commitment": parse_day(the_day).commitment if the_day else None,
        "month": month,
        "month_commitment": parse_month(the_month).commitment if the_month else None,
        "tomorrow": (
            {"date": tomorrow, "commitment": parse_day(after).commitment} if after else None
        ),
        "next_month": (
            {"month": next_month(month), "commitment": parse_month(later).commitment}
            if later
            else None
        ),
        "played": mine is not None,
        "game": game,
        "table": f"/v1/daily/{day}/table",
        # Named only when that day had a duel, so a client asks for no table that is not there.
        "yesterday": (
            {"date": yesterday, "table": f"/v1/daily/{yesterday}/table"} if before else None
        ),
    }


def check_date(day: str) -> str:
    """``day`` if it is a real ``YYYY-MM-DD`` date (422 ``bad-date`` otherwise)."""
    if is_date(day):
        try:
            datetime.strptime(day, "%Y-%m-%d")
            return day
        except ValueError:
            pass
    raise invalid("bad-date", "A day is written YYYY-MM-DD, e.g. 2026-12-01.")


def table(day: str, cursor: str | None) -> dict[str, Any]:
    """``GET /v1/daily/{date}/table``: one page of the day's ranking (accounts only), with the
    day's commitment, and its seed once the day is over and closed."""
    check_date(day)
    kind = f"daily-{day}"
    position = pagination.decode(kind, cursor) or {"page": 0}
    page = position.get("page")
    if not isinstance(page, int) or page < 0:
        raise pagination.bad_cursor()
    month = month_of(day)
    items = store.batch_get([day_key(day), table_key(day, page), month_key_key(month)])
    by_sk = {i["sk"]["S"]: i for i in items}
    if "DAY" not in by_sk:
        raise ApiError(404, "day-not-found", f"There is no daily duel for {day} (yet).")
    the_day = parse_day(by_sk["DAY"])
    the_month = parse_month(by_sk["MONTH"]) if "MONTH" in by_sk else None
    stored = by_sk.get(table_key(day, page)["sk"]["S"])
    entries = json.loads(stored["entries"]["S"]) if stored else []
    more = page + 1 < the_day.table_pages
    return {
        "date": day,
        "status": _status(the_day),
        "commitment": the_day.commitment,
        "seed": the_day.seed_hex,
        "month": month,
        "month_commitment": the_month.commitment if the_month else None,
        "month_key": the_month.key_hex if the_month else None,
        "players": the_day.players,
        "ranked": the_day.ranked,
        "updated_at": the_day.table_at,
        "entries": entries,
        "next": pagination.encode(kind, {"page": page + 1}) if more else None,
    }


def _status(the_day: Day) -> str:
    now = clock.now()
    if the_day.closed_at is not None:
        return "closed"
    if now < day_start(the_day.day):
        return "upcoming"
    return "closing" if day_over(the_day.day, now) else "open"


# ---------------------------------------------------------------------------- housekeeping
def housekeeping() -> dict[str, Any]:
    """Every five minutes: commit the coming month and day ahead, rebuild the tables of the days
    still open, close the days that are over (publish their seeds) and publish the keys of months
    that are over. Idempotent: any step a crash interrupts is done again by the next run."""
    now = clock.now()
    day = today(now)
    month = month_of(day)
    for m in (month, next_month(month)):
        ensure_month(m)
    for d in (day, next_day(day)):
        ensure_day(d)
    report: dict[str, Any] = {"tables": [], "closed": [], "waiting": [], "months": []}
    start = datetime.strptime(day, "%Y-%m-%d") - timedelta(days=LOOKBACK_DAYS)
    days = [(start + timedelta(days=i)).date().isoformat() for i in range(LOOKBACK_DAYS + 1)]
    for d in days:
        item = get_item(day_key(d))
        if item is None or "closed_at" in item:
            continue
        plays = rebuild_table(d, reveal=False)
        report["tables"].append(d)
        if not day_over(d, now):
            continue
        if close_day(parse_day(item), plays):
            report["closed"].append(d)
        else:
            report["waiting"].append(d)
    previous = month_of((day_start(f"{month}-01") - timedelta(days=1)).date().isoformat())
    if publish_month(previous, now):
        report["months"].append(previous)
    return report


def _plays(day: str) -> list[Play]:
    request: dict[str, Any] = {
        "TableName": _table(),
        "KeyConditionExpression": "pk = :pk AND begins_with(sk, :play)",
        "ExpressionAttributeValues": {":pk": {"S": f"DAILY#{day}"}, ":play": {"S": "PLAY#"}},
        "ConsistentRead": True,
    }
    plays: list[Play] = []
    while True:
        answer = aws.dynamodb().query(**request)
        plays.extend(parse_play(item) for item in answer.get("Items", []))
        last = answer.get("LastEvaluatedKey")
        if not last:
            return plays
        request["ExclusiveStartKey"] = last


def _games(game_ids: list[str]) -> dict[str, GameRecord]:
    found: dict[str, GameRecord] = {}
    for item in store.batch_get([store.game_key(g) for g in game_ids]):
        game_id = item["pk"]["S"].removeprefix("GAME#")
        found[game_id] = store.parse_game(game_id, item)
    return found


def rebuild_table(day: str, *, reveal: bool) -> list[Play]:
    """Note the results of the day's games that ended since the last run, rank the day's
    accounts and write the table's pages (with the games' ids only when ``reveal``)."""
    plays = _plays(day)
    open_ids = [p.game_id for p in plays if p.mines is None]
    records = _games(open_ids) if open_ids else {}
    noted: list[Play] = []
    for p in plays:
        record = records.get(p.game_id)
        if p.mines is None and record is not None and record.status == "finished":
            seat = record.state.seats[0]
            p = Play(  # noqa: PLW2901  (the attempt with its result)
                p.day,
                p.player_id,
                p.game_id,
                p.name,
                p.ranked,
                p.started_at,
                seat.mines,
                seat.safe_taps,
                record.ended_at,
            )
            aws.dynamodb().put_item(TableName=_table(), Item=play_item(p))
        noted.append(p)
    ranked = sorted(
        (p for p in noted if p.ranked and p.mines is not None),
        key=lambda p: (-(p.mines or 0), p.safe_taps or 0, p.ended_at or "", p.player_id),
    )
    entries: list[dict[str, Any]] = []
    for index, p in enumerate(ranked):
        previous = entries[-1] if entries else None
        tied = previous is not None and (previous["mines"], previous["safe_taps"]) == (
            p.mines,
            p.safe_taps,
        )
        entries.append(
            {
                "rank": previous["rank"] if tied and previous else index + 1,
                "name": p.name,
                "mines": p.mines,
                "safe_taps": p.safe_taps,
                "ended_at": p.ended_at,
                "game_id": p.game_id if reveal else None,
            }
        )
    pages = max(1, -(-len(entries) // TABLE_PAGE))
    for page in range(pages):
        chunk = entries[page * TABLE_PAGE : (page + 1) * TABLE_PAGE]
        aws.dynamodb().put_item(
            TableName=_table(),
            Item={
                **table_key(day, page),
                "entries": {"S": json.dumps(chunk, separators=(",", ":"))},
            },
        )
    aws.dynamodb().update_item(
        TableName=_table(),
        Key=day_key(day),
        UpdateExpression="SET table_pages = :pages, table_at = :at, players = :n, ranked = :r",
        ExpressionAttributeValues={
            ":pages": {"N": str(pages)},
            ":at": {"S": clock.iso(clock.now())},
            ":n": {"N": str(len(plays))},
            ":r": {"N": str(len(entries))},
        },
    )
    return noted


def close_day(the_day: Day, plays: list[Play]) -> bool:
    """Publish an ended day's seed in each of its games and in the day, with the final table;
    False (to try again next run) while one of its games is still being recorded as over."""
    if any(p.mines is None for p in plays):
        return False  # a game still running: its capped deadline ends it within minutes
    day = the_day.day
    seed = day_seed(month_key(ensure_month(month_of(day))), day)
    if commitment(seed) != the_day.commitment:
        raise ApiError(500, "daily-key-mismatch", "The day's seed does not match its commitment.")
    for game_id, record in _games([p.game_id for p in plays]).items():
        if record.seed_hex is not None:
            continue
        after = record.evolve(seed_hex=seed.hex(), version=record.version + 1)
        try:
            writes.persist(after, record)
        except store.WriteConflict:
            logger.warning("daily seed not published yet", extra={"game_id": game_id})
            return False
    rebuild_table(day, reveal=True)
    aws.dynamodb().update_item(
        TableName=_table(),
        Key=day_key(day),
        UpdateExpression="SET seed = :seed, closed_at = :at",
        ExpressionAttributeValues={
            ":seed": {"S": seed.hex()},
            ":at": {"S": clock.iso(clock.now())},
        },
    )
    count("DailyDaysClosed")
    return True


def publish_month(month: str, now: datetime) -> bool:
    """Publish the key of a month that is over once every one of its days is closed."""
    if not month_over(month, now):
        return False
    found = get_month(month)
    if found is None or found.key_hex is not None:
        return False
    first = day_start(f"{month}-01")
    days = []
    current = first
    while month_of(current.date().isoformat()) == month:
        days.append(current.date().isoformat())
        current += timedelta(days=1)
    items = store.batch_get([day_key(d) for d in days])
    if any("closed_at" not in item for item in items):
        return False
    key = month_key(found)
    aws.dynamodb().update_item(
        TableName=_table(),
        Key=month_key_key(month),
        UpdateExpression="SET #key = :key, published_at = :at",
        ExpressionAttributeNames={"#key": "key"},
        ExpressionAttributeValues={
            ":key": {"S": key.hex()},
            ":at": {"S": clock.iso(now)},
        },
    )
    return True
