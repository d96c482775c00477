"""A guest who signs up takes their games along: ``POST /v1/me/claim`` with the guest token
moves the guest's running games, history and statistics to the calling account, once.

Every step can be repeated without counting anything twice, so a claim that fails half-way is
finished by calling it again:
1. the guest is marked claimed by this account (conditional: never by two accounts); from then
   on the guest token is refused, and results still to be counted go to the account;
2. each running game's seat passes to the account (the game's own conditional write, with its
   index items);
3. each finished game's history item moves (put under the account only if not there yet, in
   the same transaction as its deletion under the guest);
4. the guest's statistics are merged into the account's (both profiles conditioned on their
   versions, the guest's marked claimed so it is merged only once).
"""

from __future__ import annotations

import json
from typing import Any

from ..games import store, writes
from ..games.player_items import finished_key
from ..games.record import GameRecord, Seat
from ..lobby.start import display_name
from ..platform import auth, clock
from ..platform.config import get_config
from ..platform.errors import conflict, invalid
from ..platform.observability import count
from .history import games_by_id, prefix_query, query_all
from .players import account_caller
from .profiles import Profile, Stats, get_profiles, new_profile, profile_put

ATTEMPTS = 3
PAIRS_PER_WRITE = 40


def claim(token: str | None, guest_token: str) -> dict[str, Any]:
    """Move the guest's games and statistics to the calling account; how many games moved."""
    caller = account_caller(token)
    guest_id, token_hash = _checked_guest(guest_token)
    try:
        store.claim_guest(token_hash, caller.player_id)
    except store.WriteConflict:
        raise conflict(
            "guest-already-claimed", "Another account has already claimed this guest's games."
        ) from None
    name = display_name(caller)
    moved = _move_running(guest_id, caller, name) + _move_finished(guest_id, caller, name)
    _merge_stats(guest_id, caller.player_id)
    count("GuestsClaimed")
    return {"claimed_games": moved}


def _checked_guest(guest_token: str) -> tuple[str, str]:
    try:
        cred = auth.credential(guest_token)
    except Exception:
        cred = None
    if cred is None or cred.kind != "guest":
        raise invalid("not-a-guest-token", "Send the guest token (mdg1...) of the guest to claim.")
    guest = store.get_guest(cred.token_hash)
    if guest is None or guest.player_id != cred.player_id:
        raise invalid("guest-token-invalid", "That guest token is unknown.")
    if guest.expires_at <= clock.now().timestamp():
        raise invalid("guest-token-invalid", "That guest token has expired; its games are gone.")
    return cred.player_id, cred.token_hash


def _move_running(guest_id: str, caller: auth.Caller, name: str) -> int:
    items = query_all(prefix_query(guest_id, "GAME#A#"))
    moved = 0
    for game_id in games_by_id([item["game_id"]["S"] for item in items]):
        for _ in range(ATTEMPTS):
            record = store.get_game(game_id)
            if record is None or guest_id not in record.player_seats.values():
                break
            after = _seated(record, guest_id, caller, name)
            try:
                writes.persist(after, record)
            except store.WriteConflict:
                continue
            moved += 1
            break
    return moved


def _seated(record: GameRecord, guest_id: str, caller: auth.Caller, name: str) -> GameRecord:
    seats = tuple(
        Seat(
            kind="account",
            player_id=caller.player_id,
            name=name,
            client_seed=seat.client_seed,
        )
        if seat.player_id == guest_id
        else seat
        for seat in record.seats
    )
    return record.evolve(seats=seats, version=record.version + 1)


def _move_finished(guest_id: str, caller: auth.Caller, name: str) -> int:
    table = get_config().table_name
    items = query_all(prefix_query(guest_id, "GAME#F#"))
    moved = 0
    for start in range(0, len(items), PAIRS_PER_WRITE):
        batch: list[dict[str, Any]] = []
        for item in items[start : start + PAIRS_PER_WRITE]:
            summary = json.loads(item["summary"]["S"])
            for seat in summary["seats"]:
                if seat["player_id"] == guest_id:
                    seat.update(kind="account", player_id=caller.player_id, name=name)
            ended_at = item["sk"]["S"].split("#")[2]
            copy = {
                **item,
                **finished_key(caller.player_id, ended_at, item["game_id"]["S"]),
                "summary": {"S": json.dumps(summary, separators=(",", ":"))},
            }
            batch.append(
                {
                    "Put": {
                        "TableName": table,
                        "Item": copy,
                        "ConditionExpression": "attribute_not_exists(pk)",
                    }
                }
            )
            batch.append(
                {"Delete": {"TableName": table, "Key": {"pk": item["pk"], "sk": item["sk"]}}}
            )
        try:
            store.transact(batch)
            moved += len(batch) // 2
        except store.WriteConflict:
            moved += _move_one_by_one(batch)
    return moved


def _move_one_by_one(batch: list[dict[str, Any]]) -> int:
    """After a batch was refused (some copies were there already: a repeated claim), move the
    rest pair by pair."""
    moved = 0
    for put, delete in zip(batch[::2], batch[1::2], strict=True):
        try:
            store.transact([put, delete])
            moved += 1
        except store.WriteConflict:
            store.transact([delete])
    return moved


def _merge_stats(guest_id: str, account_id: str) -> None:
    for _ in range(ATTEMPTS):
        profiles = get_profiles([guest_id, account_id])
        guest = profiles.get(guest_id)
        if guest is not None and guest.claimed_by is not None:
            return
        account = profiles.get(account_id)
        base = account or new_profile(account_id, "account")
        items = [
            profile_put(
                base.evolve(
                    stats=base.stats.merged(guest.stats if guest else Stats()),
                    version=0 if account is None else account.version + 1,
                ),
                account,
            )
        ]
        closed: Profile = (guest or new_profile(guest_id, "guest")).evolve(
            stats=Stats(), claimed_by=account_id, version=0 if guest is None else guest.version + 1
        )
        items.append(profile_put(closed, guest))
        try:
            store.transact(items)
            return
        except store.WriteConflict:
            continue
    raise conflict("claim-conflict", "Your statistics changed at the same moment; claim again.")
