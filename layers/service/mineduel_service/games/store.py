"""The games in the table: the game item, its move log, and the first answer to each
Idempotency-Key (the whole design is in docs/data-model.md; keys are built in ``keys``).

- ``GAME#<id>`` / ``GAME``: the game item (``record.GameRecord``), with ``status``,
  ``move_count``, ``turn_seat``, ``deadline`` and ``version`` as top-level attributes so
  writes can be conditioned on them, and ``due_shard``/``due_at`` (the sparse ``deadlines``
  index) while the game waits or runs, so the sweeper can find every game whose time is up;
- ``GAME#<id>`` / ``MOVE#<n, 6 digits>``: one append-only log item per write that played
  moves, keyed by the last move's number and holding every move that write added (a commit's
  tap and the bots' replies), never rewritten; a write made for a request with an
  Idempotency-Key also carries the key's mark and the request's fingerprint (``key``, ``fp``):
  that is the first answer to the key, kept as long as the log;
- ``IDEM#<player>#<key hash>`` / ``IDEM``: the first answer to an Idempotency-Key whose request
  was refused (a passed deadline: nothing of it is in the log), for 24 hours (TTL).

A commit is one ``TransactWriteItems``: the game item conditioned on the exact state it was
computed from and the new log item conditioned on not existing (or a refusal's idempotency
record likewise), so of racing commits exactly one lands and nothing is ever half-written. A
played request's key rides in its log item rather than an item of its own: two write units a
keyed commit fewer (docs/cost.md). Reads are consistent.
"""

from __future__ import annotations

import hashlib
import json
import uuid
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar, overload

from mineduel_engine import Move

from ..platform import dynamo, keys
from .errors import GameConflict
from .record import GameRecord
from .views import game_summary
from .watchers import WATCHERS_COUNTED, Subscription, watchers

T = TypeVar("T")

if TYPE_CHECKING:
    from ..ratings.model import GameRating

NO_TURN = -1
COMPRESSION = 9
"""The game's body is zlib-compressed JSON: a game item then stays under 1 KB, one write unit
(two in a transaction) instead of two (four), in every commit (docs/cost.md)."""


STATUS_PLAYED = "200"
STATUS_REFUSED = "409"
"""An idempotency record's ``status`` attribute, as its item has always stored it: the status
the first answer had. Every refusal a record keeps is a conflict over a passed deadline
(``play.errors.DeadlinePassed``, ``TurnTimedOut``); a retry is answered from ``code`` and
``message`` alone, and only the edge decides statuses (``api.problems``)."""


@dataclass(frozen=True)
class FirstAnswer:
    """The idempotency item: what the first request with one caller's Idempotency-Key did, just
    enough to answer a
    retry the same way: the request's fingerprint, and either the numbers of the moves it
    played (the answer is rebuilt from the log) or the refusal it got (``code``, ``message``)."""

    fingerprint: str
    first_move: int = 0
    last_move: int = 0
    code: str | None = None
    message: str | None = None
    moves: tuple[dict[str, Any], ...] | None = None
    """The moves it played, when they were found in the log with the key (so a retry's answer
    reads the log once); None when only their numbers are known."""


FINGERPRINT_KEPT = 32
"""Hex digits of a request's fingerprint a log item keeps (128 bits: a log item stays small)."""


def key_mark(player_id: str, key_hash: str) -> str:
    """What a log item keeps of the caller's Idempotency-Key: 128 bits of a hash of whose key
    it is and the key's own hash (keys are the caller's own: another player's equal key differs)."""
    return hashlib.sha256(f"{player_id}#{key_hash}".encode()).hexdigest()[:FINGERPRINT_KEPT]


@dataclass(frozen=True)
class IdempotencyWrite:
    """What a write keeps of a commit's Idempotency-Key: whose key it is, what the request did
    and, for a refusal's record, when it expires. A played request's key is marked on the log
    item of each write it made (the first and a bots-only game's further ones,
    ``play.advance.write``); a refused one's is an item of its own."""

    player_id: str
    key_hash: str
    answer: FirstAnswer
    expires_at: int

    def extended_to(self, last_move: int) -> IdempotencyWrite:
        """The same key's first answer, now through ``last_move`` (a further write's moves)."""
        return replace(self, answer=replace(self.answer, last_move=last_move))

    @property
    def played(self) -> bool:
        """The request played moves (its key rides on their log items)."""
        return self.answer.code is None

    def mark(self) -> dict[str, Any]:
        """The attributes a log item of the request carries: the key's mark, the fingerprint."""
        return {
            "key": {"S": key_mark(self.player_id, self.key_hash)},
            "fp": {"S": self.answer.fingerprint[:FINGERPRINT_KEPT]},
        }


# ---------------------------------------------------------------------------- the game item
def game_item(record: GameRecord) -> dict[str, Any]:
    """The DynamoDB item of a game."""
    turn = record.state.turn
    return {
        **keys.game(record.game_id),
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
        **_rating(record),
    }


def _rating(record: GameRecord) -> dict[str, Any]:
    """``rating``: what the game did to its players' ratings, once applied (``play.results``)."""
    if record.rating is None:
        return {}
    return {"rating": {"S": json.dumps(record.rating.to_dict(), separators=(",", ":"))}}


def _lobby_index(record: GameRecord) -> dict[str, Any]:
    """``lobby``/``lobby_at`` while anybody may join the game (the sparse ``lobby`` index)."""
    if not record.in_lobby:
        return {}
    return {
        "lobby": {"S": keys.lobby_partition(record.settings.variant)},
        "lobby_at": {"S": f"{record.created_at}#{record.game_id}"},
    }


def _pending_index(record: GameRecord) -> dict[str, Any]:
    """``pending_shard``/``pending_at`` while the finished game's result is not applied yet."""
    if not record.results_pending:
        return {}
    return {
        "pending_shard": {"S": keys.pending_shard(record.game_id)},
        "pending_at": {"S": f"{record.ended_at or ''}#{record.game_id}"},
    }


def _finished_index(record: GameRecord) -> dict[str, Any]:
    """``fin_shard``/``fin_at`` once the game is finished: the sparse ``finished`` index lists
    each month's finished games by when they ended."""
    if record.status != "finished" or not record.ended_at:
        return {}
    return {
        "fin_shard": {"S": keys.finished_shard(record.ended_at[:7], record.game_id)},
        "fin_at": {"S": f"{record.ended_at}#{record.game_id}"},
    }


def _deadline_index(record: GameRecord) -> dict[str, Any]:
    """``due_shard``/``due_at`` while the game has a time limit, absent once it is over (the
    index is sparse: finished games cost it nothing). ``due_at`` here is the record's
    ``due_key``: coarse on a turn on which nobody waits, so that most commits of such a game
    leave the index untouched; the exact deadline is the item's ``deadline``."""
    due = record.due_key
    if due is None:
        return {}
    return {"due_shard": {"S": keys.deadline_shard(record.game_id)}, "due_at": {"S": due}}


def parse_game(item: dict[str, Any]) -> GameRecord:
    """A game record from its item (a stored one, an index's projection of all attributes, or a
    stream image)."""
    stored = item["body"]
    body = stored["S"] if "S" in stored else zlib.decompress(bytes(stored["B"])).decode("utf-8")
    return GameRecord.from_parts(
        game_id=keys.game_id_of(item),
        body=body,
        status=item["status"]["S"],
        deadline=item["deadline"]["S"] or None,
        version=int(item["version"]["N"]),
        seed_ciphertext=bytes(item["seed_ct"]["B"]),
        results_pending="pending_shard" in item,
        rating=item["rating"]["S"] if "rating" in item else None,
    )


# ---------------------------------------------------------------------------- reading games
def plausible_id(game_id: str) -> bool:
    """Game ids are canonical UUIDs; anything else is not looked up at all."""
    try:
        return str(uuid.UUID(game_id)) == game_id
    except ValueError:
        return False


KeyOwner = tuple[str, str]
"""Whose Idempotency-Key, and its hash: ``(player_id, key_hash)``."""


@overload
def get_game(game_id: str, *, consistent: bool = True) -> GameRecord | None: ...
@overload
def get_game(game_id: list[str], *, consistent: bool = True) -> dict[str, GameRecord]: ...
@overload
def get_game(
    game_id: str, *, first_answer_to: KeyOwner
) -> tuple[GameRecord | None, FirstAnswer | None]: ...
@overload
def get_game(game_id: str, *, watchers_at: datetime) -> tuple[GameRecord | None, int]: ...
def get_game(
    game_id: str | list[str],
    *,
    consistent: bool = True,
    first_answer_to: KeyOwner | None = None,
    watchers_at: datetime | None = None,
) -> Any:
    """The one way to read games, one AWS call whatever is asked, consistent unless told:

    - a game id: the game (one ``GetItem``), None when there is no such game;
    - a list of ids: those games (``BatchGetItem``, 100 a call), missing ones left out, in the
      order asked;
    - ``first_answer_to=(player_id, key_hash)``: the game and the first answer to the caller's
      Idempotency-Key when it was refused (``IDEM`` item), in one ``BatchGetItem``;
    - ``watchers_at=now``: the game and how many spectators follow it at ``now``, in one
      ``Query`` of the game's partition up to its first move: the game item, then its
      subscriptions (counted up to ``WATCHERS_COUNTED``). For a game with up to about 20
      subscriptions that is one read unit, what the ``GetItem`` of the game alone costs.
    """
    if isinstance(game_id, list):
        return _games(game_id, consistent)
    if first_answer_to is not None:
        return _game_with_first_answer(game_id, *first_answer_to)
    if watchers_at is not None:
        return _game_and_watchers(game_id, watchers_at)
    found = dynamo.get(keys.game(game_id), consistent=consistent)
    return parse_game(found) if found else None


def _games(game_ids: list[str], consistent: bool) -> dict[str, GameRecord]:
    wanted = list(dict.fromkeys(game_ids))
    found = {
        keys.game_id_of(item): parse_game(item)
        for item in dynamo.batch_get([keys.game(g) for g in wanted], consistent=consistent)
    }
    return {g: found[g] for g in wanted if g in found}


def _game_with_first_answer(
    game_id: str, player_id: str, key_hash: str
) -> tuple[GameRecord | None, FirstAnswer | None]:
    found = dynamo.batch_get([keys.game(game_id), keys.idempotency(player_id, key_hash)])
    game = next((i for i in found if i["sk"]["S"] == keys.GAME_SK), None)
    idem = next((i for i in found if i["sk"]["S"] == keys.IDEMPOTENCY_SK), None)
    return (
        parse_game(game) if game else None,
        _parse_idempotency(idem) if idem else None,
    )


def _game_and_watchers(game_id: str, now: datetime) -> tuple[GameRecord | None, int]:
    items, _ = dynamo.query_page(
        "pk = :pk AND sk BETWEEN :game AND :subs",
        {
            ":pk": {"S": keys.game_partition(game_id)},
            ":game": {"S": keys.GAME_SK},
            ":subs": {"S": f"{keys.SUBSCRIPTION_SK}\uffff"},
        },
        consistent=True,
        limit=WATCHERS_COUNTED + 1,
    )
    game = next((i for i in items if i["sk"]["S"] == keys.GAME_SK), None)
    if game is None:
        return None, 0
    subs = [parse_subscription(i) for i in items if i["sk"]["S"].startswith(keys.SUBSCRIPTION_SK)]
    return parse_game(game), watchers(subs, now)


def first_answer_in_log(
    game_id: str, after: int, player_id: str, key_hash: str
) -> FirstAnswer | None:
    """The first answer to the caller's key when its request played the moves after ``after``
    (the position it was committed on): the log items from move ``after + 1`` on that carry
    the key's mark, read consistently; None when the move after ``after`` came from elsewhere.
    Its fingerprint is the part a log item keeps (``FINGERPRINT_KEPT``); its moves are those
    items' moves, so the retry's answer needs no second read of the log."""
    mark = key_mark(player_id, key_hash)
    fingerprint, last = "", after
    moves: list[dict[str, Any]] = []
    for item in _log_items(game_id, after, consistent=True):
        first = int((item.get("first") or item["n"])["N"])
        if item.get("key", {}).get("S") != mark or first != last + 1:
            break
        fingerprint = fingerprint or item["fp"]["S"]
        last = int(item["n"]["N"])
        moves.extend(moves_of(item))
    if not fingerprint:
        return None
    return FirstAnswer(fingerprint, after + 1, last, moves=tuple(moves))


def _parse_idempotency(item: dict[str, Any]) -> FirstAnswer:
    return FirstAnswer(
        fingerprint=item["fingerprint"]["S"],
        first_move=int(item["first"]["N"]),
        last_move=int(item["last"]["N"]),
        code=item["code"]["S"] if "code" in item else None,
        message=item["message"]["S"] if "message" in item else None,
    )


# ---------------------------------------------------------------------------- who follows a game
def parse_subscription(item: dict[str, Any]) -> Subscription:
    """A subscription from its item (a stored one, or a stream image)."""
    seat = item.get("seat")
    return Subscription(
        game_id=keys.game_id_of(item),
        connection_id=str(item["sk"]["S"]).removeprefix(keys.SUBSCRIPTION_SK),
        role=item["role"]["S"],
        seat=int(seat["N"]) if seat else None,
        expires_at=int(item["expires_ttl"]["N"]),
    )


def subscriptions(game_id: str) -> list[Subscription]:
    """Every subscription of a game (one ``Query``, eventually consistent: a subscriber reads
    the game right after subscribing, so a change it just missed is never lost to it)."""
    return [
        parse_subscription(item)
        for item in dynamo.query(
            "pk = :pk AND begins_with(sk, :sub)",
            {":pk": {"S": keys.game_partition(game_id)}, ":sub": {"S": keys.SUBSCRIPTION_SK}},
        )
    ]


# ---------------------------------------------------------------------------- the move log
def logged_move(move: Move, at: str) -> dict[str, Any]:
    """A move as the log stores it: the engine's whole record (a wrong guess's cell included)
    plus the time it was played. Never sent as it is: see ``views.move_view``."""
    return {**move.to_record(), "at": at}


def moves_item(
    game_id: str, moves: Sequence[dict[str, Any]], mark: dict[str, Any] | None = None
) -> dict[str, Any]:
    """One log item for all the moves one write adds, keyed by the LAST move's number: a
    commit's tap and the bots' replies cost one small item, not one each (two write units per
    item in a transaction), and ``sk > MOVE#<n>`` still finds every item holding a move after
    ``n``. ``mark``: the Idempotency-Key of the request that played them
    (``IdempotencyWrite.mark``)."""
    return {
        **keys.moves(game_id, int(moves[-1]["n"])),
        "first": {"N": str(moves[0]["n"])},
        "n": {"N": str(moves[-1]["n"])},
        "moves": {"S": json.dumps(list(moves), separators=(",", ":"))},
        **(mark or {}),
    }


def moves_of(item: dict[str, Any]) -> list[dict[str, Any]]:
    """The moves a log item holds (one write's moves; a single ``move`` in older items)."""
    if "moves" in item:
        found: list[dict[str, Any]] = json.loads(item["moves"]["S"])
        return found
    return [json.loads(item["move"]["S"])]


def list_moves(
    game_id: str, after: int = 0, until: int | None = None, *, consistent: bool = True
) -> list[dict[str, Any]]:
    """The game's moves numbered above ``after`` (and up to ``until``), oldest first
    (a consistent read unless told: a finished game's log never changes, so half the units do).
    Log items are keyed by their last move, so the first item found may also hold moves up to
    ``after``: those are left out."""
    moves: list[dict[str, Any]] = []
    for item in _log_items(game_id, after, consistent=consistent):
        if until is not None and int((item.get("first") or item["n"])["N"]) > until:
            return moves
        moves.extend(
            m for m in moves_of(item) if m["n"] > after and (until is None or m["n"] <= until)
        )
    return moves


def _log_items(game_id: str, after: int, *, consistent: bool) -> Iterator[dict[str, Any]]:
    """The game's log items that may hold a move numbered above ``after``, oldest first
    (items are keyed by their last move), lazily: a caller that stops early reads no more."""
    return dynamo.query(
        "pk = :pk AND sk BETWEEN :from AND :to",
        {
            ":pk": {"S": keys.game_partition(game_id)},
            ":from": {"S": keys.move_sort_key(after + 1)},
            ":to": {"S": keys.MOVES_END},
        },
        consistent=consistent,
    )


# ---------------------------------------------------------------------------- writing a game
def _versioned(before: GameRecord | None) -> tuple[int, str, dict[str, Any], dict[str, str]]:
    """The one place a game's version moves: the version a write over ``before`` stores
    (``before``'s plus one; 0 for a new game), and the condition that write carries, on the
    exact state it was computed from (move count, turn, status, deadline and version), or on
    there being no game yet: of two writes computed from one read, exactly one lands."""
    if before is None:
        return 0, "attribute_not_exists(pk)", {}, {}
    before_turn = before.state.turn
    condition = (
        "move_count = :mc AND turn_seat = :turn AND #status = :status "
        "AND deadline = :deadline AND version = :v"
    )
    values = {
        ":mc": {"N": str(before.state.move_count)},
        ":turn": {"N": str(NO_TURN if before_turn is None else before_turn)},
        ":status": {"S": before.status},
        ":deadline": {"S": before.deadline or ""},
        ":v": {"N": str(before.version)},
    }
    return before.version + 1, condition, values, {"#status": "status"}


def _game_put(after: GameRecord, before: GameRecord | None) -> tuple[GameRecord, dict[str, Any]]:
    """The game as the write stores it (``after`` at its next version) and the game item's
    ``Put``, conditioned on ``before`` (``_versioned``)."""
    version, condition, values, names = _versioned(before)
    stored = replace(after, version=version)
    return stored, dynamo.put_op(game_item(stored), condition=condition, values=values, names=names)


def results_counted(
    record: GameRecord, rating: GameRating | None
) -> tuple[GameRecord, dict[str, Any]]:
    """A finished game whose result is now counted into its players' statistics and ratings
    (``record``: the game as read; ``rating``: what it did to their ratings, when rated): the
    game as the write stores it, and the transaction's ``Update`` that takes it out of the
    ``pending`` index with its rating record, at its next version, conditioned like every write
    of a game on the state it was read in (so a write of the game made meanwhile, a daily
    game's seed published, is never overwritten by a game still pending, nor this by that)."""
    version, condition, values, names = _versioned(record)
    stored = replace(record, results_pending=False, rating=rating, version=version)
    sets = ["version = :next"]
    values = {**values, ":next": {"N": str(version)}}
    if rating is not None:
        sets.append("rating = :rating")
        values[":rating"] = _rating(stored)["rating"]
    op = dynamo.update_op(
        keys.game(record.game_id),
        f"SET {', '.join(sets)} REMOVE pending_shard, pending_at",
        condition=f"attribute_exists(pending_shard) AND {condition}",
        names=names,
        values=values,
    )
    return stored, op


def _refusal_op(idempotency: IdempotencyWrite) -> dict[str, Any]:
    """The record of a refused request's key (a played one's rides on its log item)."""
    record = idempotency.answer
    return dynamo.new_item_op(
        {
            **keys.idempotency(idempotency.player_id, idempotency.key_hash),
            "fingerprint": {"S": record.fingerprint},
            "first": {"N": str(record.first_move)},
            "last": {"N": str(record.last_move)},
            "status": {"N": STATUS_REFUSED if record.code else STATUS_PLAYED},
            **({"code": {"S": record.code}} if record.code else {}),
            **({"message": {"S": record.message}} if record.message else {}),
            "expires_ttl": {"N": str(idempotency.expires_at)},
        }
    )


def write_game(
    after: GameRecord,
    before: GameRecord | None,
    moves: Sequence[dict[str, Any]] = (),
    idempotency: IdempotencyWrite | None = None,
    related: Sequence[dict[str, Any]] = (),
) -> GameRecord:
    """Write a game's new state over ``before`` (None: a new game), the log item of its new
    moves (with the request's key, when it played them), the items that follow from the change
    (``related``) and a refused request's idempotency record, all or nothing, in one
    ``TransactWriteItems`` (``dynamo.transact``, which retries a transient conflict); the game
    as stored, at its next version (whatever version ``after`` holds). The game item comes
    first (``failed(0)``); ``dynamo.WriteConflict`` if the game is no longer ``before``."""
    played = idempotency is not None and idempotency.played
    stored, put = _game_put(after, before)
    items = [put]
    if moves:
        mark = idempotency.mark() if idempotency is not None and played else None
        items.append(dynamo.new_item_op(moves_item(after.game_id, moves, mark)))
    items.extend(related)
    if idempotency is not None and not played:
        items.append(_refusal_op(idempotency))
    dynamo.transact(items)
    return stored


MAX_LISTED = 500
"""A player's running games or invitations are read whole, up to about this many."""


# ---------------------------------------------------------------------------- a player's game items
def _player_items(player_id: str, prefix: str) -> list[dict[str, Any]]:
    """The player's items whose sort key starts with ``prefix`` (consistent ``Query`` pages,
    stopping after the page that reaches ``MAX_LISTED``)."""
    items: list[dict[str, Any]] = []
    for page in dynamo.query_pages(
        "pk = :pk AND begins_with(sk, :prefix)",
        {":pk": {"S": keys.player_partition(player_id)}, ":prefix": {"S": prefix}},
        consistent=True,
    ):
        items.extend(page)
        if len(items) >= MAX_LISTED:
            break
    return items


def running_seats(player_id: str) -> dict[str, int]:
    """The player's running games: each game's id and the player's seat in it (one ``Query``
    of their running-game items)."""
    return {
        item["game_id"]["S"]: int(item["seat"]["N"])
        for item in _player_items(player_id, keys.RUNNING_SK)
    }


def finished_items(player_id: str) -> list[dict[str, Any]]:
    """The player's finished-game items, oldest first (``game_id``, ``summary``)."""
    return _player_items(player_id, keys.FINISHED_SK)


def invited_to(player_id: str) -> list[str]:
    """The ids of the games whose invitations wait for the player (one ``Query``)."""
    return [item["game_id"]["S"] for item in _player_items(player_id, keys.INVITATION_SK)]


def finished_page(
    player_id: str, start: dict[str, Any] | None, limit: int
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """One page of the player's finished games (their summaries), newest first, and the key the
    next page starts after (one consistent ``Query``)."""
    items, last = dynamo.query_page(
        "pk = :pk AND begins_with(sk, :prefix)",
        {":pk": {"S": keys.player_partition(player_id)}, ":prefix": {"S": keys.FINISHED_SK}},
        consistent=True,
        newest_first=True,
        limit=limit,
        start=start,
    )
    return [json.loads(item["summary"]["S"]) for item in items], last


def ended_at_of(item: dict[str, Any]) -> str:
    """When the game of a finished-game item ended (from its sort key)."""
    return str(item["sk"]["S"]).split("#")[2]


def running_item(record: GameRecord, seat: int, player_id: str) -> dict[str, Any]:
    """The running-game item of the player in ``seat``."""
    return {
        **keys.running_game(player_id, record.game_id),
        "game_id": {"S": record.game_id},
        "seat": {"N": str(seat)},
        "variant": {"S": record.settings.variant},
        "created_at": {"S": record.created_at},
    }


def finished_item(record: GameRecord, seat: int, player_id: str) -> dict[str, Any]:
    """The finished-game item of the player in ``seat``: the summary their history shows."""
    ended_at = record.ended_at or record.created_at
    summary = json.dumps(game_summary(record, seat), separators=(",", ":"))
    return {
        **keys.finished_game(player_id, ended_at, record.game_id),
        "game_id": {"S": record.game_id},
        "seat": {"N": str(seat)},
        "variant": {"S": record.settings.variant},
        "rated": {"BOOL": record.rated},
        "summary": {"S": summary},
    }


def invitation_item(record: GameRecord, player_id: str) -> dict[str, Any]:
    """An invitation to ``record`` for ``player_id``."""
    host = record.seats[0]
    return {
        **keys.invitation(player_id, record.game_id),
        "game_id": {"S": record.game_id},
        "from": {"S": host.name},
        "variant": {"S": record.settings.variant},
        "created_at": {"S": record.created_at},
    }


def running_game_put(record: GameRecord, seat: int, player_id: str) -> dict[str, Any]:
    """A transaction's ``Put`` of the running-game item of the player in ``seat``."""
    return dynamo.put_op(running_item(record, seat, player_id))


def running_game_delete(player_id: str, game_id: str) -> dict[str, Any]:
    """A transaction's ``Delete`` of a player's running-game item."""
    return dynamo.delete_op(keys.running_game(player_id, game_id))


def finished_game_put(record: GameRecord, seat: int, player_id: str) -> dict[str, Any]:
    """A transaction's ``Put`` of the finished-game item of the player in ``seat``."""
    return dynamo.put_op(finished_item(record, seat, player_id))


def invitation_put(record: GameRecord, player_id: str) -> dict[str, Any]:
    """A transaction's ``Put`` of an invitation to ``record`` for ``player_id``."""
    return dynamo.put_op(invitation_item(record, player_id))


def invitation_delete(player_id: str, game_id: str) -> dict[str, Any]:
    """A transaction's ``Delete`` of an invitation."""
    return dynamo.delete_op(keys.invitation(player_id, game_id))


def finished_items_moved(
    items: Sequence[dict[str, Any]], from_id: str, to_id: str, name: str
) -> int:
    """Move finished-game items (``finished_items`` of ``from_id``, a claimed guest) to
    ``to_id`` (the account, shown as ``name`` in their summaries), in one transaction: each
    copy put only if not there yet, with the deletion of its original. When that is refused
    (some copies were there already: a repeated claim), the rest move pair by pair, each pair
    again one transaction (a copy already there: only the original is deleted). How many
    moved."""
    pairs = [_moved_finished(item, from_id, to_id, name) for item in items]
    try:
        dynamo.transact([op for pair in pairs for op in pair])
        return len(pairs)
    except dynamo.WriteConflict:
        pass
    moved = 0
    for put, delete in pairs:
        try:
            dynamo.transact([put, delete])
            moved += 1
        except dynamo.WriteConflict:
            dynamo.transact([delete])
    return moved


def _moved_finished(
    item: dict[str, Any], from_id: str, to_id: str, name: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    summary = json.loads(item["summary"]["S"])
    for seat in summary["seats"]:
        if seat["player_id"] == from_id:
            seat.update(kind="account", player_id=to_id, name=name)
    copy = {
        **item,
        **keys.finished_game(to_id, ended_at_of(item), item["game_id"]["S"]),
        "summary": {"S": json.dumps(summary, separators=(",", ":"))},
    }
    return dynamo.new_item_op(copy), dynamo.delete_op({"pk": item["pk"], "sk": item["sk"]})


# ---------------------------------------------------------------------------- the sweeper's indexes
def due_games(shard: str, until: str, limit: int = 100) -> Iterator[str]:
    """Ids of the games in deadline ``shard`` whose ``due_at`` is at or before ``until``
    (oldest first; ``limit`` a page). The index is eventually consistent: the caller re-reads
    each game."""
    for item in dynamo.query(
        "due_shard = :shard AND due_at <= :until",
        {":shard": {"S": shard}, ":until": {"S": until}},
        index=keys.DEADLINE_INDEX,
        limit=limit,
    ):
        yield keys.game_id_of(item)


def pending_games(shard: str, limit: int = 100) -> Iterator[str]:
    """Ids of the finished games in ``pending`` index ``shard`` (oldest first)."""
    for item in dynamo.query(
        "pending_shard = :shard",
        {":shard": {"S": shard}},
        index=keys.PENDING_INDEX,
        limit=limit,
    ):
        yield keys.game_id_of(item)


# ---------------------------------------------------------------------------- changing a game again
def until_written(
    attempt: Callable[[], T],
    attempts: int,
    exhausted: Callable[[], Exception] = GameConflict,
) -> T:
    """Run ``attempt`` (read the game, decide, write conditioned on what was read) again while
    its write finds the game changed meanwhile, at most ``attempts`` times; then raise
    ``exhausted()`` (``GameConflict`` unless the use case names its own). A refusal
    ``attempt`` raises goes through at once."""
    return dynamo.read_modify_write(attempt, attempts, exhausted)
