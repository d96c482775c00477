"""Every key of the one table, built here and only here (docs/data-model.md, "Items").

One function per item type gives its ``pk``/``sk``; the partition prefixes and sort-key
prefixes that queries and parsers need are named once beside them, and so are the sparse
indexes' partition keys (their shards are hashes of a stable id, so a hot moment spreads over
several partitions). The shard counts are fixed for the table's life: changing one would
strand items in the old shards.
"""

from __future__ import annotations

import hashlib
from typing import Any

Key = dict[str, Any]

GAME = "GAME#"
PLAYER = "PLAYER#"
DAILY = "DAILY#"
CONNECTION = "CONN#"
GAME_SK = "GAME"
PROFILE_SK = "PROFILE"
RATING_SK = "RATING#"
CONNECTION_SK = "CONN"
IDEMPOTENCY_SK = "IDEM"
MOVE_SK = "MOVE#"
MOVE_DIGITS = 6
MOVES_END = "MOVE#~"
"""Sorts after every move's sort key: the upper end of a range over a game's log."""
SUBSCRIPTION_SK = "GAME#SUB#"
RUNNING_SK = "GAME#A#"
FINISHED_SK = "GAME#F#"
INVITATION_SK = "INVITE#"
PLAY_SK = "PLAY#"
PUSH_SK = "PUSH#"
PUSH_COUNT_SK = "PUSH"
"""The player's count of push subscriptions: sorts just before them (``PUSH#...``)."""
PUSH_ADDRESS = "PUSHADDR#"
PUSH_OWNER_SK = "OWNER"
NOTIFIED_SK = "NOTIFIED#"
EXPORTS_PK = "EXPORT#MONTHLY"
SEEK_SK = "SEEK#"
SEEKING_SK = "SEEKING#"
PLAYER_CONNECTION_SK = "CONN#"
FAIR_PLAY_SK = "FAIRPLAY"
MODERATION_PK = "MODERATION"
CASE_SK = "CASE#"
DECISION_SK = "DECISION#"
SCREENED_PK = "FAIRPLAY#SCREENED"
RATING_DIGITS = 5
"""A seek's rating in its pool's sort key: zero-padded, so the pool sorts by rating."""
DEADLINE_DIGITS = 7
"""A seek's move deadline in its pool's sort key (at most 604,800 seconds)."""
LIMIT_PREFIX = "LIMIT#"

DEADLINE_INDEX = "deadlines"
DEADLINE_SHARDS = 32
"""The deadline index is write-sharded: a commit may move its game's ``due_at``, and one
partition key for all games would cap the whole service at one index partition's write rate
(docs/scale.md)."""
LOBBY_INDEX = "lobby"
PENDING_INDEX = "pending"
PENDING_SHARDS = 8
FINISHED_INDEX = "finished"
FINISHED_SHARDS = 8
"""Finished games by the month they ended (the monthly export reads them): eight partitions a
month, so the games ending at any one moment spread over them."""
LEADERBOARD_INDEX = "leaderboard"
LEADERBOARD_SHARDS = 8
"""Every rated game rewrites its players' rating items, and one partition per variant would cap
rated games at one index partition's write rate."""


def _key(pk: str, sk: str) -> Key:
    return {"pk": {"S": pk}, "sk": {"S": sk}}


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()


# ---------------------------------------------------------------------------- a game's partition
def game_partition(game_id: str) -> str:
    """The partition of a game: its item, its move log and its subscriptions."""
    return f"{GAME}{game_id}"


def game(game_id: str) -> Key:
    """The game item."""
    return _key(game_partition(game_id), GAME_SK)


def move_sort_key(n: int) -> str:
    """A move log item's sort key (zero-padded, so the log sorts by move number)."""
    return f"{MOVE_SK}{n:0{MOVE_DIGITS}d}"


def moves(game_id: str, last: int) -> Key:
    """The log item holding one write's moves, keyed by the last move's number."""
    return _key(game_partition(game_id), move_sort_key(last))


def subscription(game_id: str, connection_id: str) -> Key:
    """One connection following one game: in the game's partition, sorting between the game
    item and its moves."""
    return _key(game_partition(game_id), f"{SUBSCRIPTION_SK}{connection_id}")


def game_id_of(item: dict[str, Any]) -> str:
    """The game id of any item in a game's partition (or of a game in an index)."""
    return str(item["pk"]["S"]).removeprefix(GAME)


def idempotency(player_id: str, key_hash: str) -> Key:
    """The first answer to one caller's Idempotency-Key (scoped to the caller, so keys never
    collide across players)."""
    return _key(f"IDEM#{player_id}#{key_hash}", IDEMPOTENCY_SK)


def analysis(game_id: str) -> Key:
    """A finished game's stored analysis (its own partition: whoever may write it cannot touch
    the game)."""
    return _key(f"ANALYSIS#{game_id}", "ANALYSIS")


# ---------------------------------------------------------------------------- a player's partition
def player_partition(player_id: str) -> str:
    """The partition of a player (an account or a guest): profile, ratings, games, invitations."""
    return f"{PLAYER}{player_id}"


def player_id_of(item: dict[str, Any]) -> str:
    """The player id of any item in a player's partition."""
    return str(item["pk"]["S"]).removeprefix(PLAYER)


def profile(player_id: str) -> Key:
    """The player's profile."""
    return _key(player_partition(player_id), PROFILE_SK)


def rating(player_id: str, variant: str) -> Key:
    """The player's rating in a rated variant."""
    return _key(player_partition(player_id), f"{RATING_SK}{variant}")


def running_game(player_id: str, game_id: str) -> Key:
    """A player's running-game item (the game is waiting or active)."""
    return _key(player_partition(player_id), f"{RUNNING_SK}{game_id}")


def finished_game(player_id: str, ended_at: str, game_id: str) -> Key:
    """A player's finished-game item: sorts by when the game ended."""
    return _key(player_partition(player_id), f"{FINISHED_SK}{ended_at}#{game_id}")


def invitation(player_id: str, game_id: str) -> Key:
    """An invitation waiting for a player."""
    return _key(player_partition(player_id), f"{INVITATION_SK}{game_id}")


def player_connection(player_id: str, connection_id: str) -> Key:
    """A pointer from a player to one of their live connections (written with the connection,
    gone with it), so a message for the player finds every socket they have open."""
    return _key(player_partition(player_id), f"{PLAYER_CONNECTION_SK}{connection_id}")


def seek(player_id: str, seek_id: str) -> Key:
    """One of a player's seeks (quick pairing), in the owner's partition: only its owner can
    name it."""
    return _key(player_partition(player_id), f"{SEEK_SK}{seek_id}")


def seek_lock(player_id: str, variant: str) -> Key:
    """The item that exists while the player has an open seek in ``variant`` (one at a time)."""
    return _key(player_partition(player_id), f"{SEEKING_SK}{variant}")


def seek_id_of(item: dict[str, Any]) -> str:
    """The seek id of a seek item."""
    return str(item["sk"]["S"]).removeprefix(SEEK_SK)


def fair_play(player_id: str) -> Key:
    """A player's fair-play record: the figures of their last screened rated games."""
    return _key(player_partition(player_id), FAIR_PLAY_SK)


def avatar_upload(player_id: str) -> Key:
    """The item naming the player's current avatar upload."""
    return _key(player_partition(player_id), "AVATAR#UPLOAD")


def push_subscription(player_id: str, subscription_id: str) -> Key:
    """One of a player's push subscriptions (a browser's Web Push endpoint, a device token).
    Sorts right after the profile (``PROFILE`` < ``PUSH`` < ``PUSH#...``), so one ``Query``
    reads the profile, the count and every subscription (``push_range``)."""
    return _key(player_partition(player_id), f"{PUSH_SK}{subscription_id}")


def push_count(player_id: str) -> Key:
    """The item counting a player's push subscriptions (the limit is held by it)."""
    return _key(player_partition(player_id), PUSH_COUNT_SK)


def push_owner(subscription_id: str) -> Key:
    """Whose a browser's endpoint or a device's token is now (``player_id``): one player's at
    a time, so a browser or phone someone else signs in on stops telling the one before."""
    return _key(f"{PUSH_ADDRESS}{subscription_id}", PUSH_OWNER_SK)


def push_range() -> tuple[str, str]:
    """The sort keys from the profile to the last push subscription, both ends included."""
    return PROFILE_SK, f"{PUSH_SK}\uffff"


def notified(player_id: str, notice_key: str) -> Key:
    """The mark that one notification was taken for delivery (at most once: a retried stream
    batch or a repeated message finds it)."""
    return _key(player_partition(player_id), f"{NOTIFIED_SK}{notice_key}")


def username(name: str) -> Key:
    """A username's item: the name case-folded, so names are unique without regard to case."""
    return _key(f"USERNAME#{name.casefold()}", "USERNAME")


def guest(token_hash: str) -> Key:
    """A guest, under its token's hash (never the token)."""
    return _key(f"GUEST#{token_hash}", "GUEST")


def avatar(avatar_id: str) -> Key:
    """A stored avatar (its id is the SHA-256 of its bytes)."""
    return _key(f"AVATAR#{avatar_id}", "AVATAR")


# ---------------------------------------------------------------------------- other partitions
def leaderboard(variant: str, sk: str) -> Key:
    """One of a variant's leaderboard snapshot items (``HEAD``, ``RANKS``, ``PAGE#...``)."""
    return _key(f"LEADERBOARD#{variant}", sk)


def leaderboard_page_sk(snapshot: str, page: int) -> str:
    """The sort key of a snapshot's page (pages after the first)."""
    return f"PAGE#{snapshot}#{page}"


def connection(connection_id: str) -> Key:
    """A live connection."""
    return _key(f"{CONNECTION}{connection_id}", CONNECTION_SK)


def connection_id_of(item: dict[str, Any]) -> str:
    """The connection id of a connection item."""
    return str(item["pk"]["S"]).removeprefix(CONNECTION)


def daily_partition(day_or_month: str) -> str:
    """The partition of a daily duel's day (``YYYY-MM-DD``) or month (``YYYY-MM``)."""
    return f"{DAILY}{day_or_month}"


def daily_month(month: str) -> Key:
    """A month's daily key item."""
    return _key(daily_partition(month), "MONTH")


def daily_day(day: str) -> Key:
    """A day of the daily duel."""
    return _key(daily_partition(day), "DAY")


def daily_play(day: str, player_id: str) -> Key:
    """A player's one attempt at ``day``'s daily duel."""
    return _key(daily_partition(day), f"{PLAY_SK}{player_id}")


def daily_table(day: str, page: int) -> Key:
    """One page of ``day``'s table."""
    return _key(daily_partition(day), f"TABLE#{page:05d}")


def monthly_export(month: str) -> Key:
    """A month's export entry."""
    return _key(EXPORTS_PK, f"MONTH#{month}")


def seek_pool_partition(variant: str) -> str:
    """The partition of a variant's open seeks (its pool), sorted by deadline, rated and
    rating, so the seeks one seek may be paired with are one sort-key range."""
    return f"SEEKS#{variant}"


def seek_pool_prefix(move_deadline_s: int, rated: bool) -> str:
    """The part of a pool entry's sort key that seeks must share to be paired (with the
    partition's variant: the matching key)."""
    return f"{move_deadline_s:0{DEADLINE_DIGITS}d}#{'R' if rated else 'U'}#"


def seek_pool_rating(rating: int) -> str:
    """A rating as the pool's sort key holds it (clamped to the digits it has)."""
    return f"{min(max(rating, 0), 10**RATING_DIGITS - 1):0{RATING_DIGITS}d}"


def seek_pool_entry(
    variant: str, move_deadline_s: int, rated: bool, rating: int, created_at: str, seek_id: str
) -> Key:
    """An open seek's entry in its variant's pool (deleted when it is paired or cancelled)."""
    prefix = seek_pool_prefix(move_deadline_s, rated)
    sort = f"{prefix}{seek_pool_rating(rating)}#{created_at}#{seek_id}"
    return _key(seek_pool_partition(variant), sort)


def moderation_case(case_id: str) -> Key:
    """A fair-play case for moderators (every case in one partition: a handful a day)."""
    return _key(MODERATION_PK, f"{CASE_SK}{case_id}")


def case_id_of(item: dict[str, Any]) -> str:
    """The case id of a case item."""
    return str(item["sk"]["S"]).removeprefix(CASE_SK)


def moderation_decision(case_id: str, decided_at: str, number: int) -> Key:
    """One moderator's decision on a case, kept for good (the log of every decision)."""
    return _key(MODERATION_PK, f"{DECISION_SK}{case_id}#{decided_at}#{number:04d}")


def screened_up_to(shard: str) -> Key:
    """How far fair-play screening has read one partition of the ``finished`` index."""
    return _key(SCREENED_PK, shard)


def limit_counter(scope: str, address: str, window: int) -> Key:
    """The counter of ``address`` for ``scope`` in minute ``window`` (epoch seconds // 60)."""
    return _key(f"{LIMIT_PREFIX}{scope}#{address}#{window}", "LIMIT")


# ---------------------------------------------------------------------------- index partitions
def deadline_shard(game_id: str) -> str:
    """The ``deadlines`` index partition of a game."""
    digest = _digest(game_id)
    return f"DUE#{int.from_bytes(digest[:2], 'big') % DEADLINE_SHARDS:02d}"


def deadline_shards() -> list[str]:
    """Every partition of the ``deadlines`` index."""
    return [f"DUE#{n:02d}" for n in range(DEADLINE_SHARDS)]


def lobby_partition(variant: str) -> str:
    """The ``lobby`` index partition of a variant's open games."""
    return f"LOBBY#{variant}"


def pending_shard(game_id: str) -> str:
    """The ``pending`` index partition of a finished game whose result is not applied yet."""
    return f"PENDING#{_digest(game_id)[2] % PENDING_SHARDS}"


def pending_shards() -> list[str]:
    """Every partition of the ``pending`` index."""
    return [f"PENDING#{n}" for n in range(PENDING_SHARDS)]


def finished_shard(month: str, game_id: str) -> str:
    """The ``finished`` index partition of a game that ended in ``month`` (``YYYY-MM``)."""
    return f"FIN#{month}#{_digest(game_id)[3] % FINISHED_SHARDS}"


def finished_shards(month: str) -> list[str]:
    """Every partition of ``month`` in the ``finished`` index."""
    return [f"FIN#{month}#{n}" for n in range(FINISHED_SHARDS)]


def leaderboard_shard(variant: str, player_id: str) -> str:
    """The ``leaderboard`` index partition of a player's rating in ``variant``."""
    return f"LB#{variant}#{_digest(player_id)[0] % LEADERBOARD_SHARDS}"


def leaderboard_shards(variant: str) -> list[str]:
    """Every partition of ``variant``'s leaderboard index."""
    return [f"LB#{variant}#{n}" for n in range(LEADERBOARD_SHARDS)]
