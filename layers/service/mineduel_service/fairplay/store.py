"""Fair play as the table keeps it (docs/data-model.md, "Fair play").

- a player's record, ``PLAYER#<id>`` / ``FAIRPLAY``: the figures of their last ``WINDOW``
  screened rated games (``screening.GameFigures``), how many were ever screened, ``status``
  (``clear``, ``review`` while a case is open, ``restricted``), the last case and when a
  moderator last decided (``reviewed_at``), and ``version``, which every write is conditioned
  on;
- a case, ``MODERATION`` / ``CASE#<case id>``: the player, the window that opened it (z,
  figures, games), ``status`` (``open``, ``cleared``, ``restricted``) and the last decision;
  case ids begin with the time they were opened, so the partition lists them in order;
- a decision, ``MODERATION`` / ``DECISION#<case id>#<decided at>#<n>``: one moderator's
  decision on a case, written once and kept (the log);
- how far screening has read each partition of the ``finished`` index,
  ``FAIRPLAY#SCREENED`` / ``FIN#<month>#<n>``.

Moderation is a handful of writes a day, so one partition holds every case and decision.
This is the one module of ``fairplay`` that speaks to the table (``platform.dynamo``) or knows
its keys (``platform.keys``).
"""

from __future__ import annotations

import contextlib
import json
import secrets
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Literal, TypeVar

from ..platform import clock, dynamo, keys
from .errors import FairPlayConflict
from .screening import GameFigures, Window

RecordStatus = Literal["clear", "review", "restricted"]
CaseStatus = Literal["open", "cleared", "restricted"]


@dataclass(frozen=True)
class FairPlayRecord:
    """A player's fair-play record."""

    player_id: str
    games: tuple[GameFigures, ...] = ()
    screened: int = 0
    status: RecordStatus = "clear"
    case_id: str | None = None
    reviewed_at: str | None = None
    version: int = 0
    stored: bool = False
    """Read from the table (False: the record of a player never screened)."""

    def evolve(self, **changes: Any) -> FairPlayRecord:
        """A copy with ``changes``."""
        return replace(self, **changes)


def record_item(record: FairPlayRecord, now: datetime) -> dict[str, Any]:
    """The record's item."""
    item: dict[str, Any] = {
        **keys.fair_play(record.player_id),
        "version": {"N": str(record.version)},
        "games": {"S": json.dumps([g.to_dict() for g in record.games], separators=(",", ":"))},
        "screened": {"N": str(record.screened)},
        "status": {"S": record.status},
        "updated_at": {"S": clock.iso(now)},
    }
    if record.case_id:
        item["case_id"] = {"S": record.case_id}
    if record.reviewed_at:
        item["reviewed_at"] = {"S": record.reviewed_at}
    return item


def parse_record(item: dict[str, Any]) -> FairPlayRecord:
    """A record from its item."""
    return FairPlayRecord(
        player_id=keys.player_id_of(item),
        games=tuple(GameFigures.from_dict(g) for g in json.loads(item["games"]["S"])),
        screened=int(item["screened"]["N"]),
        status=item["status"]["S"],
        case_id=item["case_id"]["S"] if "case_id" in item else None,
        reviewed_at=item["reviewed_at"]["S"] if "reviewed_at" in item else None,
        version=int(item["version"]["N"]),
        stored=True,
    )


def get_record(player_id: str) -> FairPlayRecord:
    """The player's record (one consistent ``GetItem``; an empty one if never screened)."""
    found = dynamo.get(keys.fair_play(player_id))
    return parse_record(found) if found else FairPlayRecord(player_id)


def record_put(after: FairPlayRecord, before: FairPlayRecord, now: datetime) -> dict[str, Any]:
    """A transaction's ``Put`` of ``after``, conditioned on ``before`` being what is stored."""
    return dynamo.versioned_put_op(
        record_item(after, now), before.version if before.stored else None
    )


# ---------------------------------------------------------------------------- cases
@dataclass(frozen=True)
class Case:
    """A case opened for a moderator, and its last decision."""

    case_id: str
    player_id: str
    username: str
    z: float
    engine_match: float
    accuracy: float
    mean_loss: float
    games: tuple[str, ...]
    opened_at: str
    status: CaseStatus = "open"
    decided_at: str | None = None
    decided_by: str | None = None
    note: str | None = None
    decisions: int = 0
    version: int = 0

    def evolve(self, **changes: Any) -> Case:
        """A copy with ``changes``."""
        return replace(self, **changes)


def new_case_id(now: datetime) -> str:
    """A case id that sorts by the time it was opened."""
    return f"{now.strftime('%Y%m%dT%H%M%SZ')}-{secrets.token_hex(4)}"


def open_case(
    player_id: str, username: str, window: Window, games: tuple[str, ...], now: datetime
) -> Case:
    """A new case for the window that crossed the threshold."""
    return Case(
        case_id=new_case_id(now),
        player_id=player_id,
        username=username,
        z=window.z or 0.0,
        engine_match=window.engine_match or 0.0,
        accuracy=window.accuracy or 0.0,
        mean_loss=window.mean_loss or 0.0,
        games=games,
        opened_at=clock.iso(now),
    )


def case_item(case: Case) -> dict[str, Any]:
    """The case's item."""
    item: dict[str, Any] = {
        **keys.moderation_case(case.case_id),
        "player_id": {"S": case.player_id},
        "username": {"S": case.username},
        "z": {"N": repr(case.z)},
        "engine_match": {"N": repr(case.engine_match)},
        "accuracy": {"N": repr(case.accuracy)},
        "mean_loss": {"N": repr(case.mean_loss)},
        "games": {"S": json.dumps(list(case.games), separators=(",", ":"))},
        "opened_at": {"S": case.opened_at},
        "status": {"S": case.status},
        "decisions": {"N": str(case.decisions)},
        "version": {"N": str(case.version)},
    }
    for name in ("decided_at", "decided_by", "note"):
        value = getattr(case, name)
        if value:
            item[name] = {"S": value}
    return item


def parse_case(item: dict[str, Any]) -> Case:
    """A case from its item."""
    return Case(
        case_id=keys.case_id_of(item),
        player_id=item["player_id"]["S"],
        username=item["username"]["S"],
        z=float(item["z"]["N"]),
        engine_match=float(item["engine_match"]["N"]),
        accuracy=float(item["accuracy"]["N"]),
        mean_loss=float(item["mean_loss"]["N"]),
        games=tuple(json.loads(item["games"]["S"])),
        opened_at=item["opened_at"]["S"],
        status=item["status"]["S"],
        decided_at=item["decided_at"]["S"] if "decided_at" in item else None,
        decided_by=item["decided_by"]["S"] if "decided_by" in item else None,
        note=item["note"]["S"] if "note" in item else None,
        decisions=int(item["decisions"]["N"]),
        version=int(item["version"]["N"]),
    )


def get_case(case_id: str) -> Case | None:
    """The case (one consistent ``GetItem``), or None."""
    found = dynamo.get(keys.moderation_case(case_id))
    return parse_case(found) if found else None


def case_page(
    status: str | None, start: dict[str, Any] | None, limit: int
) -> tuple[list[Case], dict[str, Any] | None]:
    """One page of cases, newest first (one ``Query``; ``status`` filters what it read)."""
    values: dict[str, Any] = {
        ":pk": {"S": keys.MODERATION_PK},
        ":prefix": {"S": keys.CASE_SK},
    }
    if status is not None:
        values[":status"] = {"S": status}
    items, last = dynamo.query_page(
        "pk = :pk AND begins_with(sk, :prefix)",
        values,
        consistent=True,
        newest_first=True,
        limit=limit,
        start=start,
        filter_="#status = :status" if status is not None else None,
        names={"#status": "status"} if status is not None else None,
    )
    return [parse_case(item) for item in items], last


def case_put(after: Case, before: Case | None) -> dict[str, Any]:
    """A transaction's ``Put`` of a case, conditioned on its version (or on being new)."""
    return dynamo.versioned_put_op(case_item(after), None if before is None else before.version)


def decision_put(
    case: Case, decision: str, note: str, moderator_id: str, moderator: str, at: str
) -> dict[str, Any]:
    """A transaction's ``Put`` of one decision's log item (new: the log is never rewritten)."""
    return dynamo.new_item_op(
        {
            **keys.moderation_decision(case.case_id, at, case.decisions + 1),
            "case_id": {"S": case.case_id},
            "player_id": {"S": case.player_id},
            "username": {"S": case.username},
            "decision": {"S": decision},
            "note": {"S": note},
            "moderator_id": {"S": moderator_id},
            "moderator": {"S": moderator},
            "previous_status": {"S": case.status},
            "decided_at": {"S": at},
        }
    )


def decisions_of(case_id: str) -> Iterator[dict[str, Any]]:
    """The log of a case's decisions, oldest first (``Query`` pages)."""
    yield from dynamo.query(
        "pk = :pk AND begins_with(sk, :prefix)",
        {
            ":pk": {"S": keys.MODERATION_PK},
            ":prefix": {"S": f"{keys.DECISION_SK}{case_id}#"},
        },
        consistent=True,
    )


# ---------------------------------------------------------------------------- the screener's place
def screened_up_to(shard: str) -> str:
    """The ``fin_at`` of the last game screening read in ``shard`` ("" before any)."""
    found = dynamo.get(keys.screened_up_to(shard))
    return str(found["last"]["S"]) if found else ""


def mark_screened(shard: str, last: str) -> None:
    """Screening has read ``shard`` up to ``last`` (never moved back)."""
    with contextlib.suppress(dynamo.WriteConflict):  # another run got further
        dynamo.put(
            {**keys.screened_up_to(shard), "last": {"S": last}},
            condition="attribute_not_exists(pk) OR #last < :last",
            values={":last": {"S": last}},
            names={"#last": "last"},
        )


def finished_between(shard: str, after: str, until: str, limit: int) -> Iterator[tuple[str, str]]:
    """(game id, ``fin_at``) of the games in a partition of the ``finished`` index after
    ``after`` and up to ``until``, oldest first (``Query`` pages of ``limit``)."""
    for item in dynamo.query(
        "fin_shard = :shard AND fin_at BETWEEN :after AND :until",
        # A key value may not be empty: "0" sorts before every time (they start with "2").
        {":shard": {"S": shard}, ":after": {"S": after or "0"}, ":until": {"S": until}},
        index=keys.FINISHED_INDEX,
        limit=limit,
    ):
        fin_at = str(item["fin_at"]["S"])
        if fin_at > after:
            yield keys.game_id_of(item), fin_at


def finished_shards(month: str) -> list[str]:
    """The partitions of ``month`` in the ``finished`` index: the screener keeps its place in
    each (``screened_up_to``)."""
    return keys.finished_shards(month)


# ---------------------------------------------------------------------------- a decision's reads
@dataclass(frozen=True)
class DecisionItems:
    """What a moderator's decision rewrites about the player, as read (foreign items raw, for
    their own domains to parse), and the moderator's profile item (their name for the log)."""

    profile: dict[str, Any] | None
    record: FairPlayRecord
    ratings: list[dict[str, Any]]
    moderator_profile: dict[str, Any] | None


def decision_items(player_id: str, moderator_id: str, variants: Iterable[str]) -> DecisionItems:
    """The player's profile, fair-play record and rating items in ``variants``, and the
    moderator's profile: one consistent ``BatchGetItem``."""
    wanted = [
        keys.profile(player_id),
        keys.fair_play(player_id),
        *(keys.rating(player_id, variant) for variant in variants),
        keys.profile(moderator_id),
    ]
    profile: dict[str, Any] | None = None
    moderator_profile: dict[str, Any] | None = None
    record = FairPlayRecord(player_id)
    ratings: list[dict[str, Any]] = []
    for item in dynamo.batch_get(wanted):
        owner, sk = keys.player_id_of(item), item["sk"]["S"]
        if sk == keys.PROFILE_SK:
            if owner == moderator_id:
                moderator_profile = item
            if owner == player_id:
                profile = item
        elif sk == keys.FAIR_PLAY_SK:
            record = parse_record(item)
        else:
            ratings.append(item)
    return DecisionItems(profile, record, ratings, moderator_profile)


# ---------------------------------------------------------------------------- writing
T = TypeVar("T")


def write_together(items: Sequence[dict[str, Any]]) -> None:
    """One transaction of fair-play items and the other domains' items a change carries with
    them (a profile, rating items): all written or none, ``WriteConflict`` when a condition
    fails."""
    dynamo.transact(items)


def until_written(attempt: Callable[[], T], attempts: int) -> T:
    """Run ``attempt`` (read, decide, write conditioned on what was read) again while its write
    finds a record or case changed meanwhile, at most ``attempts`` times; then
    ``FairPlayConflict``. A refusal ``attempt`` raises goes through at once."""
    return dynamo.read_modify_write(attempt, attempts, FairPlayConflict)
