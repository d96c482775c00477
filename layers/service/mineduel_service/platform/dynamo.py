"""DynamoDB, spoken in one place: the table, single-item calls, transactions retried over
transient conflicts, batched reads, paged queries, versioned puts and read-modify-write.

Everything is one table (docs/data-model.md); every key is built in ``keys``. A refused
condition is a ``WriteConflict`` wherever it happens (a transaction, a conditional put or
update), so callers tell "someone else changed it first" from every other failure the same
way. Each helper makes exactly the calls its docstring says: what a request costs is counted
in AWS calls (``make bench``), and nothing here adds one.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar

from . import aws
from .config import get_config

Item = dict[str, Any]
Key = dict[str, Any]
CONFLICT_RETRIES = 4
BATCH_GET_KEYS = 100
"""``BatchGetItem`` takes at most 100 keys a call."""
BATCH_WRITE_ITEMS = 25
"""``BatchWriteItem`` takes at most 25 requests a call."""

T = TypeVar("T")

if TYPE_CHECKING:
    from botocore.exceptions import ClientError
    from typing_extensions import Unpack


def table() -> str:
    """The one table's name (from the function's configuration)."""
    return get_config().table_name


class WriteConflict(Exception):
    """A conditional write lost: the item changed, or the item it may not overwrite exists.

    ``reasons`` has one code per transaction item, in order (``ConditionalCheckFailed``,
    ``TransactionConflict`` or ``None``); a single-item write has one.
    """

    def __init__(self, reasons: Sequence[str]) -> None:
        super().__init__("conditional write refused")
        self.reasons = tuple(reasons)

    def failed(self, index: int) -> bool:
        """Item ``index`` of the transaction (negative: from the end) failed its condition."""
        try:
            return self.reasons[index] == "ConditionalCheckFailed"
        except IndexError:
            return False

    @property
    def transient(self) -> bool:
        """Only another transaction on one of the same items was in the way (DynamoDB's
        ``TransactionConflict``): no condition failed, so the same write may simply be retried."""
        return (
            "TransactionConflict" in self.reasons and "ConditionalCheckFailed" not in self.reasons
        )


def _refused(exc: ClientError) -> bool:
    return exc.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException"


# ---------------------------------------------------------------------------- one item
def get(key: Key, *, consistent: bool = True) -> Item | None:
    """One item by key (one ``GetItem``, consistent unless told); None when there is none."""
    found = aws.dynamodb().get_item(TableName=table(), Key=key, ConsistentRead=consistent)
    item = found.get("Item")
    return dict(item) if item else None


def put(
    item: Item,
    *,
    condition: str | None = None,
    values: Item | None = None,
    names: dict[str, str] | None = None,
) -> None:
    """One ``PutItem``; with ``condition``, ``WriteConflict`` when it does not hold."""
    request = put_op(item, condition=condition, values=values, names=names)["Put"]
    try:
        aws.dynamodb().put_item(**request)
    except aws.client_error() as exc:
        if condition is not None and _refused(exc):
            raise WriteConflict(["ConditionalCheckFailed"]) from None
        raise


def put_new(item: Item) -> bool:
    """Put ``item`` unless an item with its key exists (one ``PutItem``); False when one did
    (someone made it first, and theirs stands)."""
    try:
        put(item, condition="attribute_not_exists(pk)")
    except WriteConflict:
        return False
    return True


def update(
    key: Key,
    expression: str,
    *,
    condition: str | None = None,
    names: dict[str, str] | None = None,
    values: Item | None = None,
) -> None:
    """One ``UpdateItem``; with ``condition``, ``WriteConflict`` when it does not hold."""
    request = update_op(key, expression, condition=condition, names=names, values=values)
    try:
        aws.dynamodb().update_item(**request["Update"])
    except aws.client_error() as exc:
        if condition is not None and _refused(exc):
            raise WriteConflict(["ConditionalCheckFailed"]) from None
        raise


def delete(
    key: Key,
    *,
    returning_old: bool = False,
    condition: str | None = None,
    values: Item | None = None,
) -> Item | None:
    """One ``DeleteItem`` (a missing item is fine); with ``returning_old``, what was stored;
    with ``condition``, ``WriteConflict`` when it does not hold."""
    request: dict[str, Any] = delete_op(key, condition=condition, values=values)["Delete"]
    if returning_old:
        request["ReturnValues"] = "ALL_OLD"
    try:
        old = aws.dynamodb().delete_item(**request).get("Attributes")
    except aws.client_error() as exc:
        if condition is not None and _refused(exc):
            raise WriteConflict(["ConditionalCheckFailed"]) from None
        raise
    return dict(old) if old else None


# ---------------------------------------------------------------------------- transactions
def put_op(
    item: Item,
    *,
    condition: str | None = None,
    values: Item | None = None,
    names: dict[str, str] | None = None,
) -> Item:
    """A transaction's ``Put``."""
    op: dict[str, Any] = {"TableName": table(), "Item": item}
    if condition is not None:
        op["ConditionExpression"] = condition
    if names:
        op["ExpressionAttributeNames"] = names
    if values:
        op["ExpressionAttributeValues"] = values
    return {"Put": op}


def new_item_op(item: Item) -> Item:
    """A transaction's ``Put`` of an item that must not exist yet."""
    return put_op(item, condition="attribute_not_exists(pk)")


def versioned_put_op(item: Item, previous_version: int | None) -> Item:
    """A transaction's ``Put`` of a versioned item (one with a ``version`` attribute),
    conditioned on the stored version being ``previous_version``, or, for None, on there being
    no such item yet: of two writes computed from the same read, exactly one lands."""
    if previous_version is None:
        return new_item_op(item)
    return put_op(item, condition="version = :v", values={":v": {"N": str(previous_version)}})


def update_op(
    key: Key,
    expression: str,
    *,
    condition: str | None = None,
    names: dict[str, str] | None = None,
    values: Item | None = None,
) -> Item:
    """A transaction's ``Update``."""
    op: dict[str, Any] = {"TableName": table(), "Key": key, "UpdateExpression": expression}
    if condition is not None:
        op["ConditionExpression"] = condition
    if names:
        op["ExpressionAttributeNames"] = names
    if values:
        op["ExpressionAttributeValues"] = values
    return {"Update": op}


def delete_op(key: Key, *, condition: str | None = None, values: Item | None = None) -> Item:
    """A transaction's ``Delete``."""
    op: dict[str, Any] = {"TableName": table(), "Key": key}
    if condition is not None:
        op["ConditionExpression"] = condition
    if values:
        op["ExpressionAttributeValues"] = values
    return {"Delete": op}


def condition_check_op(key: Key, condition: str, *, values: Item | None = None) -> Item:
    """A transaction's ``ConditionCheck``: the transaction lands only if ``condition`` holds for
    the item at ``key`` (which it does not write)."""
    op: dict[str, Any] = {"TableName": table(), "Key": key, "ConditionExpression": condition}
    if values:
        op["ExpressionAttributeValues"] = values
    return {"ConditionCheck": op}


def transact(items: Sequence[Item]) -> None:
    """One ``TransactWriteItems``, all or nothing; ``WriteConflict`` with the per-item reasons
    if refused. A cancellation that was only another transaction in the way
    (``TransactionConflict``, e.g. two games of one player ending at once and both touching that
    player's items) is retried, up to ``CONFLICT_RETRIES`` times with a little jitter: nothing
    refused the write itself."""
    for attempt in range(CONFLICT_RETRIES + 1):
        try:
            aws.dynamodb().transact_write_items(TransactItems=list(items))  # type: ignore[arg-type]
            return
        except aws.client_error() as exc:
            if exc.response.get("Error", {}).get("Code") != "TransactionCanceledException":
                raise
            reasons = exc.response.get("CancellationReasons") or []
            conflict = WriteConflict([str(r.get("Code", "None")) for r in reasons])
            if not conflict.transient or attempt == CONFLICT_RETRIES:
                raise conflict from None
        time.sleep(random.uniform(0.01, 0.05) * (attempt + 1))  # noqa: S311  (jitter, not secrets)


def read_modify_write(
    attempt: Callable[[], T], attempts: int, exhausted: Callable[[], Exception]
) -> T:
    """Optimistic concurrency: run ``attempt`` (read, decide, write conditioned on what it
    read) until it returns, again while its write raises ``WriteConflict`` (someone changed the
    item first: read it again and decide anew), at most ``attempts`` times; then raise
    ``exhausted()``. Anything else ``attempt`` raises (a refusal) goes through at once."""
    for _ in range(attempts):
        try:
            return attempt()
        except WriteConflict:
            continue
    raise exhausted()


# ---------------------------------------------------------------------------- reading many
def batch_get(keys: Sequence[Key], *, consistent: bool = True) -> list[Item]:
    """Items by key, in ``BatchGetItem`` calls of at most 100 keys (one call for up to 100,
    more while DynamoDB leaves keys unprocessed); repeated keys are asked for once, missing
    items are left out."""
    found: list[Item] = []
    unique = list({json.dumps(k, sort_keys=True): k for k in keys}.values())
    for start in range(0, len(unique), BATCH_GET_KEYS):
        request: dict[str, Any] = {
            table(): {"Keys": unique[start : start + BATCH_GET_KEYS], "ConsistentRead": consistent}
        }
        while request:
            answer = aws.dynamodb().batch_get_item(RequestItems=request)
            found.extend(answer.get("Responses", {}).get(table(), []))
            request = answer.get("UnprocessedKeys") or {}
    return found


def batch_delete(keys: Sequence[Key]) -> None:
    """Delete items by key (missing ones are fine), in ``BatchWriteItem`` calls of 25."""
    requests = [{"DeleteRequest": {"Key": key}} for key in keys]
    for start in range(0, len(requests), BATCH_WRITE_ITEMS):
        pending: dict[str, Any] = {table(): requests[start : start + BATCH_WRITE_ITEMS]}
        while pending:
            answer = aws.dynamodb().batch_write_item(RequestItems=pending)
            pending = answer.get("UnprocessedItems") or {}


class QueryOptions(TypedDict, total=False):
    """What a ``Query`` may say besides its key condition."""

    index: str | None
    """A secondary index to read instead of the table."""
    consistent: bool
    """A strongly consistent read (the table only; twice the units)."""
    limit: int | None
    """Items a page at most."""
    newest_first: bool
    """Descending sort-key order."""
    start: Key | None
    """The key the page starts after (a page's ``LastEvaluatedKey``)."""
    filter_: str | None
    """A filter on the items read (they are paid for all the same)."""
    names: dict[str, str] | None
    """Expression attribute names."""


def query_page(
    condition: str, values: Item, **options: Unpack[QueryOptions]
) -> tuple[list[Item], Key | None]:
    """One ``Query`` (one page: up to ``limit`` items or 1 MB): its items, and the key the next
    page starts after (None on the last)."""
    request: dict[str, Any] = {"TableName": table()}
    if options.get("index") is not None:
        request["IndexName"] = options["index"]
    request["KeyConditionExpression"] = condition
    if options.get("names"):
        request["ExpressionAttributeNames"] = options["names"]
    request["ExpressionAttributeValues"] = values
    if options.get("filter_"):
        request["FilterExpression"] = options["filter_"]
    if options.get("consistent"):
        request["ConsistentRead"] = True
    if options.get("newest_first"):
        request["ScanIndexForward"] = False
    if options.get("limit") is not None:
        request["Limit"] = options["limit"]
    if options.get("start"):
        request["ExclusiveStartKey"] = options["start"]
    answer = aws.dynamodb().query(**request)
    return list(answer.get("Items", [])), answer.get("LastEvaluatedKey") or None


def query_pages(
    condition: str, values: Item, **options: Unpack[QueryOptions]
) -> Iterator[list[Item]]:
    """The pages of a ``Query`` (``limit`` is the page size), lazily: one ``Query`` a page, and
    only when the caller asks for the page after, so a caller that stops early pays for no
    further page."""
    while True:
        items, start = query_page(condition, values, **options)
        yield items
        if start is None:
            return
        options["start"] = start


def query(condition: str, values: Item, **options: Unpack[QueryOptions]) -> Iterator[Item]:
    """Every item of every page of a ``Query``, lazily (see ``query_pages``)."""
    for page in query_pages(condition, values, **options):
        yield from page
