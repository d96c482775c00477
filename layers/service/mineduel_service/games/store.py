"""DynamoDB: the games table (one item per game, one per move, guests, idempotency records).

Layout (single table, ``pk``/``sk``; the whole design is in docs/data-model.md):
- ``GAME#<id>`` / ``GAME``: the game item (``records.GameRecord``), with ``status``,
  ``move_count``, ``turn_seat``, ``deadline`` and ``version`` as top-level attributes so
  writes can be conditioned on them, and ``due_shard``/``due_at`` (the sparse ``deadlines``
  index) while the game waits or runs, so the sweeper can find every game whose time is up;
- ``GAME#<id>`` / ``MOVE#<n, 6 digits>``: one append-only item per move, never rewritten;
- ``GUEST#<token hash>`` / ``GUEST``: a guest (expires by TTL);
- ``IDEM#<player>#<key hash>`` / ``IDEM``: the first answer to an Idempotency-Key (TTL).

A commit is one ``TransactWriteItems``: the game item conditioned on the exact state it was
computed from, every new move conditioned on not existing, and the idempotency record likewise,
so of racing commits exactly one lands and nothing is ever half-written. Reads are consistent.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from botocore.exceptions import ClientError

from ..platform import aws
from ..platform.config import get_config
from .record import GameRecord

MOVE_DIGITS = 6
NO_TURN = -1
DEADLINE_INDEX = "deadlines"
DEADLINE_SHARDS = 32
"""The deadline index is write-sharded: a commit may move its game's ``due_at``, and one
partition key for all games would cap the whole service at one index partition's write rate
(docs/scale.md). Fixed for the table's life: changing it would strand items in old shards."""
CONFLICT_RETRIES = 4
COMPRESSION = 9
"""The game's body is zlib-compressed JSON: a game item then stays under 1 KB, one write unit
(two in a transaction) instead of two (four), in every commit (docs/cost.md)."""
LOBBY_INDEX = "lobby"
PENDING_INDEX = "pending"
PENDING_SHARDS = 8
FINISHED_INDEX = "finished"
FINISHED_SHARDS = 8
"""Finished games by the month they ended (the monthly export reads them): eight partitions a
month, so the games ending at any one moment spread over them."""


class WriteConflict(Exception):
    """A conditional write lost: the game changed, or the same move/record already exists."""

    def __init__(self, reasons: Sequence[str]) -> None:
        super().__init__("conditional write refused")
        self.reasons = tuple(reasons)

    @property
    def game_changed(self) -> bool:
        """The game item no longer matched what the write was computed from."""
        return bool(self.reasons) and self.reasons[0] == "ConditionalCheckFailed"

    @property
    def idempotency_record_exists(self) -> bool:
        """The idempotency record was written by a concurrent duplicate request."""
        return bool(self.reasons) and self.reasons[-1] == "ConditionalCheckFailed"

    @property
    def transient(self) -> bool:
        """Only another transaction on one of the same items was in the way (DynamoDB's
        ``TransactionConflict``): no condition failed, so the same write may simply be retried."""
        return (
            "TransactionConflict" in self.reasons and "ConditionalCheckFailed" not in self.reasons
        )


@dataclass(frozen=True)
class IdempotencyRecord:
    """What the first request with one caller's Idempotency-Key did, just enough to answer a
    retry the same way: the request's fingerprint, and either the numbers of the moves it
    played (the answer is rebuilt from the log) or the refusal it got."""

    fingerprint: str
    first_move: int = 0
    last_move: int = 0
    status: int = 200
    code: str | None = None
    message: str | None = None


@dataclass(frozen=True)
class IdempotencyWrite:
    """An idempotency record to write with a commit: whose key it is and when it expires."""

    player_id: str
    key_hash: str
    record: IdempotencyRecord
    expires_at: int


@dataclass(frozen=True)
class Guest:
    """A stored guest."""

    player_id: str
    expires_at: int
    claimed_by: str | None = None


def _table() -> str:
    return get_config().table_name


def game_key(game_id: str) -> dict[str, Any]:
    """The game item's key."""
    return {"pk": {"S": f"GAME#{game_id}"}, "sk": {"S": "GAME"}}


def move_sort_key(n: int) -> str:
    """A move's sort key; zero-padded so the log sorts by move number."""
    return f"MOVE#{n:0{MOVE_DIGITS}d}"


def idempotency_key(player_id: str, key_hash: str) -> dict[str, Any]:
    """An idempotency record's key: scoped to the caller, so keys never collide across players."""
    return {"pk": {"S": f"IDEM#{player_id}#{key_hash}"}, "sk": {"S": "IDEM"}}


# ---------------------------------------------------------------------------- games
def game_item(record: GameRecord) -> dict[str, Any]:
    """The DynamoDB item of a game."""
    turn = record.state.turn
    return {
        **game_key(record.game_id),
        "status": {"S": record.status},
        "move_count": {"N": str(record.state.move_count)},
        "turn_seat": {"N": str(NO_TURN if turn is None else turn)},
        "deadline": {"S": record.deadline or ""},
        "version": {"N": str(record.version)},
        "body": {"B": zlib.compress(record.body_json().encode("utf-8"), COMPRESSION)},
        "seed_ct": {"B": record.seed_ciphertext},
        **_deadline_index(record),
        **_lobby_index(record),
        **_pending_index(record),
        **_finished_index(record),
        **_rating_record(record),
    }


def _rating_record(record: GameRecord) -> dict[str, Any]:
    """``rating``: what the game did to its players' ratings, once applied (``results``)."""
    if record.rating is None:
        return {}
    return {"rating": {"S": json.dumps(record.rating.to_dict(), separators=(",", ":"))}}


def _lobby_index(record: GameRecord) -> dict[str, Any]:
    """``lobby``/``lobby_at`` while anybody may join the game (the sparse ``lobby`` index)."""
    if not record.in_lobby:
        return {}
    return {
        "lobby": {"S": f"LOBBY#{record.settings.variant}"},
        "lobby_at": {"S": f"{record.created_at}#{record.game_id}"},
    }


def pending_shard(game_id: str) -> str:
    """The ``pending`` index partition of a game (stable: a hash of its id)."""
    digest = hashlib.sha256(game_id.encode("utf-8")).digest()
    return f"PENDING#{digest[2] % PENDING_SHARDS}"


def _pending_index(record: GameRecord) -> dict[str, Any]:
    """``pending_shard``/``pending_at`` while the finished game's result is not applied yet."""
    if not record.results_pending:
        return {}
    return {
        "pending_shard": {"S": pending_shard(record.game_id)},
        "pending_at": {"S": f"{record.ended_at or ''}#{record.game_id}"},
    }


def finished_shard(month: str, game_id: str) -> str:
    """The ``finished`` index partition of a game that ended in ``month`` (``YYYY-MM``)."""
    digest = hashlib.sha256(game_id.encode("utf-8")).digest()
    return f"FIN#{month}#{digest[3] % FINISHED_SHARDS}"


def _finished_index(record: GameRecord) -> dict[str, Any]:
    """``fin_shard``/``fin_at`` once the game is finished: the sparse ``finished`` index lists
    each month's finished games by when they ended."""
    if record.status != "finished" or not record.ended_at:
        return {}
    return {
        "fin_shard": {"S": finished_shard(record.ended_at[:7], record.game_id)},
        "fin_at": {"S": f"{record.ended_at}#{record.game_id}"},
    }


def deadline_shard(game_id: str) -> str:
    """The deadline index partition of a game (stable: a hash of its id)."""
    digest = hashlib.sha256(game_id.encode("utf-8")).digest()
    return f"DUE#{int.from_bytes(digest[:2], 'big') % DEADLINE_SHARDS:02d}"


def _deadline_index(record: GameRecord) -> dict[str, Any]:
    """``due_shard``/``due_at`` while the game has a time limit, absent once it is over (the
    index is sparse: finished games cost it nothing). ``due_at`` here is the record's
    ``due_key``: coarse on a turn on which nobody waits, so that most commits of such a game
    leave the index untouched; the exact deadline is the item's ``deadline``."""
    due = record.due_key
    if due is None:
        return {}
    return {"due_shard": {"S": deadline_shard(record.game_id)}, "due_at": {"S": due}}


def parse_game(game_id: str, item: dict[str, Any]) -> GameRecord:
    """A game record from its item."""
    stored = item["body"]
    body = stored["S"] if "S" in stored else zlib.decompress(bytes(stored["B"])).decode("utf-8")
    return GameRecord.from_parts(
        game_id=game_id,
        body=body,
        status=item["status"]["S"],
        deadline=item["deadline"]["S"] or None,
        version=int(item["version"]["N"]),
        seed_ciphertext=bytes(item["seed_ct"]["B"]),
        results_pending="pending_shard" in item,
        rating=item["rating"]["S"] if "rating" in item else None,
    )


def get_game(game_id: str) -> GameRecord | None:
    """The game, read consistently; None when there is no such game."""
    item = aws.dynamodb().get_item(TableName=_table(), Key=game_key(game_id), ConsistentRead=True)
    found = item.get("Item")
    return parse_game(game_id, found) if found else None


def batch_get(keys: Sequence[dict[str, Any]], *, consistent: bool = True) -> list[dict[str, Any]]:
    """Any items of the table by key, in ``BatchGetItem`` calls of at most 100 keys (one call
    for up to 100); missing items are left out."""
    found: list[dict[str, Any]] = []
    unique = list({json.dumps(k, sort_keys=True): k for k in keys}.values())
    for start in range(0, len(unique), 100):
        request: dict[str, Any] = {
            _table(): {"Keys": unique[start : start + 100], "ConsistentRead": consistent}
        }
        while request:
            answer = aws.dynamodb().batch_get_item(RequestItems=request)
            found.extend(answer.get("Responses", {}).get(_table(), []))
            request = answer.get("UnprocessedKeys") or {}
    return found


def get_game_with_record(
    game_id: str, player_id: str, key_hash: str
) -> tuple[GameRecord | None, IdempotencyRecord | None]:
    """The game and the caller's idempotency record, in one consistent ``BatchGetItem``."""
    keys = [game_key(game_id), idempotency_key(player_id, key_hash)]
    request: dict[str, Any] = {_table(): {"Keys": keys, "ConsistentRead": True}}
    found: list[dict[str, Any]] = []
    while request:
        answer = aws.dynamodb().batch_get_item(RequestItems=request)
        found.extend(answer.get("Responses", {}).get(_table(), []))
        request = answer.get("UnprocessedKeys") or {}
    game = next((i for i in found if i["sk"]["S"] == "GAME"), None)
    idem = next((i for i in found if i["sk"]["S"] == "IDEM"), None)
    return (
        parse_game(game_id, game) if game else None,
        _parse_idempotency(idem) if idem else None,
    )


def get_idempotency_record(player_id: str, key_hash: str) -> IdempotencyRecord | None:
    """One idempotency record (read after a concurrent duplicate won the race)."""
    answer = aws.dynamodb().get_item(
        TableName=_table(), Key=idempotency_key(player_id, key_hash), ConsistentRead=True
    )
    item = answer.get("Item")
    return _parse_idempotency(item) if item else None


def _parse_idempotency(item: dict[str, Any]) -> IdempotencyRecord:
    return IdempotencyRecord(
        fingerprint=item["fingerprint"]["S"],
        first_move=int(item["first"]["N"]),
        last_move=int(item["last"]["N"]),
        status=int(item["status"]["N"]),
        code=item["code"]["S"] if "code" in item else None,
        message=item["message"]["S"] if "message" in item else None,
    )


def _game_put(after: GameRecord, before: GameRecord | None) -> dict[str, Any]:
    """The game item's ``Put``, conditioned on the exact state it was computed from (move count,
    turn, status, deadline and version), or on not existing yet for a new game."""
    if before is None:
        return {
            "Put": {
                "TableName": _table(),
                "Item": game_item(after),
                "ConditionExpression": "attribute_not_exists(pk)",
            }
        }
    before_turn = before.state.turn
    return {
        "Put": {
            "TableName": _table(),
            "Item": game_item(after),
            "ConditionExpression": (
                "move_count = :mc AND turn_seat = :turn AND #status = :status "
                "AND deadline = :deadline AND version = :v"
            ),
            "ExpressionAttributeNames": {"#status": "status"},
            "ExpressionAttributeValues": {
                ":mc": {"N": str(before.state.move_count)},
                ":turn": {"N": str(NO_TURN if before_turn is None else before_turn)},
                ":status": {"S": before.status},
                ":deadline": {"S": before.deadline or ""},
                ":v": {"N": str(before.version)},
            },
        }
    }


def moves_item(game_id: str, moves: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One log item for all the moves one write adds, keyed by the LAST move's number: a
    commit's tap and the bots' replies cost one small item, not one each (two write units per
    item in a transaction), and ``sk > MOVE#<n>`` still finds every item holding a move after
    ``n``."""
    return {
        "pk": {"S": f"GAME#{game_id}"},
        "sk": {"S": move_sort_key(int(moves[-1]["n"]))},
        "first": {"N": str(moves[0]["n"])},
        "n": {"N": str(moves[-1]["n"])},
        "moves": {"S": json.dumps(list(moves), separators=(",", ":"))},
    }


def _moves_put(game_id: str, moves: Sequence[dict[str, Any]]) -> dict[str, Any]:
    return {
        "Put": {
            "TableName": _table(),
            "Item": moves_item(game_id, moves),
            "ConditionExpression": "attribute_not_exists(pk)",
        }
    }


def moves_of(item: dict[str, Any]) -> list[dict[str, Any]]:
    """The moves a log item holds (one write's moves; a single ``move`` in older items)."""
    if "moves" in item:
        found: list[dict[str, Any]] = json.loads(item["moves"]["S"])
        return found
    return [json.loads(item["move"]["S"])]


def _idempotency_put(game_id: str, idempotency: IdempotencyWrite) -> dict[str, Any]:
    record = idempotency.record
    return {
        "Put": {
            "TableName": _table(),
            "Item": {
                **idempotency_key(idempotency.player_id, idempotency.key_hash),
                "fingerprint": {"S": record.fingerprint},
                "first": {"N": str(record.first_move)},
                "last": {"N": str(record.last_move)},
                "status": {"N": str(record.status)},
                **({"code": {"S": record.code}} if record.code else {}),
                **({"message": {"S": record.message}} if record.message else {}),
                "expires_ttl": {"N": str(idempotency.expires_at)},
            },
            "ConditionExpression": "attribute_not_exists(pk)",
        }
    }


def write_game(
    after: GameRecord,
    before: GameRecord | None,
    moves: Sequence[dict[str, Any]] = (),
    idempotency: IdempotencyWrite | None = None,
    related: Sequence[dict[str, Any]] = (),
) -> None:
    """Write a game's new state, its new moves, the items that follow from the change
    (``related``) and the idempotency record, all or nothing, in one ``TransactWriteItems``.

    The game item comes first and the idempotency record last, so ``WriteConflict`` can tell
    which of them refused. A cancellation that was only another transaction in the way
    (``TransactionConflict``, e.g. two games of one player ending at once and both touching that
    player's items) is retried with a little jitter: nothing refused the write itself.
    """
    items = [_game_put(after, before)]
    if moves:
        items.append(_moves_put(after.game_id, moves))
    items.extend(related)
    if idempotency is not None:
        items.append(_idempotency_put(after.game_id, idempotency))
    transact(items)


def transact(items: Sequence[dict[str, Any]]) -> None:
    """One ``TransactWriteItems``; ``WriteConflict`` with the per-item reasons if refused, after
    retrying transient conflicts (see ``write_game``)."""
    for attempt in range(CONFLICT_RETRIES + 1):
        try:
            aws.dynamodb().transact_write_items(TransactItems=list(items))  # type: ignore[arg-type]
            return
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") != "TransactionCanceledException":
                raise
            reasons = exc.response.get("CancellationReasons") or []
            conflict = WriteConflict([str(r.get("Code", "None")) for r in reasons])
            if not conflict.transient or attempt == CONFLICT_RETRIES:
                raise conflict from None
        time.sleep(random.uniform(0.01, 0.05) * (attempt + 1))  # noqa: S311  (jitter, not secrets)


def due_games(shard: str, until: str, limit: int = 100) -> Iterator[str]:
    """Ids of the games in deadline ``shard`` whose ``due_at`` is at or before ``until``
    (oldest first). The index is eventually consistent: the caller re-reads each game."""
    request: dict[str, Any] = {
        "TableName": _table(),
        "IndexName": DEADLINE_INDEX,
        "KeyConditionExpression": "due_shard = :shard AND due_at <= :until",
        "ExpressionAttributeValues": {":shard": {"S": shard}, ":until": {"S": until}},
        "Limit": limit,
    }
    while True:
        answer = aws.dynamodb().query(**request)
        for item in answer.get("Items", []):
            yield item["pk"]["S"].removeprefix("GAME#")
        last = answer.get("LastEvaluatedKey")
        if not last:
            return
        request["ExclusiveStartKey"] = last


def pending_games(shard: str, limit: int = 100) -> Iterator[str]:
    """Ids of the finished games in ``pending`` index ``shard`` (oldest first)."""
    request: dict[str, Any] = {
        "TableName": _table(),
        "IndexName": PENDING_INDEX,
        "KeyConditionExpression": "pending_shard = :shard",
        "ExpressionAttributeValues": {":shard": {"S": shard}},
        "Limit": limit,
    }
    while True:
        answer = aws.dynamodb().query(**request)
        for item in answer.get("Items", []):
            yield item["pk"]["S"].removeprefix("GAME#")
        last = answer.get("LastEvaluatedKey")
        if not last:
            return
        request["ExclusiveStartKey"] = last


def pending_shards() -> list[str]:
    """Every partition of the ``pending`` index."""
    return [f"PENDING#{n}" for n in range(PENDING_SHARDS)]


def deadline_shards() -> list[str]:
    """Every partition of the deadline index."""
    return [f"DUE#{n:02d}" for n in range(DEADLINE_SHARDS)]


def list_moves(
    game_id: str, after: int = 0, until: int | None = None, *, consistent: bool = True
) -> list[dict[str, Any]]:
    """The game's moves numbered above ``after`` (and up to ``until``), oldest first
    (a consistent read unless told: a finished game's log never changes, so half the units do).
    Log items are keyed by their last move, so the first item found may also hold moves up to
    ``after``: those are left out."""
    moves: list[dict[str, Any]] = []
    request: dict[str, Any] = {
        "TableName": _table(),
        "KeyConditionExpression": "pk = :pk AND sk BETWEEN :from AND :to",
        "ExpressionAttributeValues": {
            ":pk": {"S": f"GAME#{game_id}"},
            ":from": {"S": move_sort_key(after + 1)},
            ":to": {"S": "MOVE#~"},
        },
        "ConsistentRead": consistent,
    }
    while True:
        answer = aws.dynamodb().query(**request)
        for item in answer.get("Items", []):
            if until is not None and int(item.get("first", item["n"])["N"]) > until:
                return moves
            moves.extend(
                m for m in moves_of(item) if m["n"] > after and (until is None or m["n"] <= until)
            )
        last = answer.get("LastEvaluatedKey")
        if not last:
            return moves
        request["ExclusiveStartKey"] = last


# ---------------------------------------------------------------------------- guests
def put_guest(token_hash: str, player_id: str, expires_at: int) -> None:
    """Store a guest under its token hash (never the token); TTL removes it after expiry."""
    aws.dynamodb().put_item(
        TableName=_table(),
        Item={
            "pk": {"S": f"GUEST#{token_hash}"},
            "sk": {"S": "GUEST"},
            "player_id": {"S": player_id},
            "expires_ttl": {"N": str(expires_at)},
        },
        ConditionExpression="attribute_not_exists(pk)",
    )


def get_guest(token_hash: str) -> Guest | None:
    """The guest whose token hashes to ``token_hash``."""
    answer = aws.dynamodb().get_item(
        TableName=_table(),
        Key={"pk": {"S": f"GUEST#{token_hash}"}, "sk": {"S": "GUEST"}},
        ConsistentRead=True,
    )
    item = answer.get("Item")
    if not item:
        return None
    claimed = item.get("claimed_by")
    return Guest(
        player_id=item["player_id"]["S"],
        expires_at=int(item["expires_ttl"]["N"]),
        claimed_by=claimed["S"] if claimed else None,
    )


def claim_guest(token_hash: str, account_id: str) -> None:
    """Mark the guest as claimed by ``account_id`` (again by the same account is fine);
    ``WriteConflict`` when another account claimed it first."""
    try:
        aws.dynamodb().update_item(
            TableName=_table(),
            Key={"pk": {"S": f"GUEST#{token_hash}"}, "sk": {"S": "GUEST"}},
            UpdateExpression="SET claimed_by = :account",
            ConditionExpression=(
                "attribute_exists(pk) AND "
                "(attribute_not_exists(claimed_by) OR claimed_by = :account)"
            ),
            ExpressionAttributeValues={":account": {"S": account_id}},
        )
    except ClientError as exc:
        if exc.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException":
            raise WriteConflict(["ConditionalCheckFailed"]) from None
        raise
