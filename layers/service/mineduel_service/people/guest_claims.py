"""A guest who signs up takes their games along: ``POST /v1/me/claim`` with the guest token
moves the guest's running games, history and statistics to the calling account, once.

Every step can be repeated without counting anything twice, so a claim that fails half-way is
finished by calling it again:
1. the guest is marked claimed by this account (conditional: never by two accounts); from then
   on the guest token is refused, and results still to be counted go to the account;
2. each running game's seat passes to the account (the game's own conditional write, with its
   index items);
3. each finished game's history item moves (put under the account only if not there yet, in
   the same transaction as its deletion under the guest: ``games.store.finished_items_moved``);
4. the guest's statistics are merged into the account's (both profiles conditioned on their
   versions, the guest's marked claimed so it is merged only once).
"""

from __future__ import annotations

from typing import Any

from ..games import store, writes
from ..games.record import GameRecord, Seat
from ..games.store import finished_items, running_seats
from ..platform import auth, clock
from ..platform.observability import count
from .errors import ClaimConflict, GuestTokenInvalid, NotAGuestToken
from .identity import account_only
from .names import display_name
from .profiles import Profile, Stats, new_profile
from .store import get_guest, get_profiles, mark_claimed, save_profiles, until_saved

ATTEMPTS = 3
PAIRS_PER_WRITE = 40


def claim(caller: auth.Caller, guest_token: str) -> dict[str, Any]:
    """Move the guest's games and statistics to the calling account; how many games moved."""
    account_only(caller)
    guest_id, token_hash = _checked_guest(guest_token)
    mark_claimed(token_hash, caller.player_id)  # GuestAlreadyClaimed for another account
    name = display_name(caller)
    moved = _move_running(guest_id, caller, name) + _move_finished(guest_id, caller, name)
    _merge_stats(guest_id, caller.player_id)
    count("GuestsClaimed")
    return {"claimed_games": moved}


def _checked_guest(guest_token: str) -> tuple[str, str]:
    """The guest to claim, from its token (sent in the body: it names the guest, it is not the
    caller's credential)."""
    try:
        cred = auth.credential(guest_token)
    except Exception:
        cred = None
    if cred is None or cred.kind != "guest":
        raise NotAGuestToken()
    guest = get_guest(cred.token_hash)
    if guest is None or guest.player_id != cred.player_id:
        raise GuestTokenInvalid("That guest token is unknown.")
    if guest.expires_at <= clock.now().timestamp():
        raise GuestTokenInvalid("That guest token has expired; its games are gone.")
    return cred.player_id, cred.token_hash


class _StillRacing(Exception):
    """A game changed on every attempt to move its seat: it is left for a repeated claim."""


def _move_running(guest_id: str, caller: auth.Caller, name: str) -> int:
    moved = 0
    for game_id in store.get_game(list(running_seats(guest_id))):

        def attempt(game_id: str = game_id) -> bool:
            record = store.get_game(game_id)
            if record is None or guest_id not in record.player_seats.values():
                return False
            writes.persist(_seated(record, guest_id, caller, name), record)
            return True

        try:
            moved += store.until_written(attempt, ATTEMPTS, _StillRacing)
        except _StillRacing:
            continue
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
    return record.evolve(seats=seats)


def _move_finished(guest_id: str, caller: auth.Caller, name: str) -> int:
    items = finished_items(guest_id)
    return sum(
        store.finished_items_moved(
            items[start : start + PAIRS_PER_WRITE], guest_id, caller.player_id, name
        )
        for start in range(0, len(items), PAIRS_PER_WRITE)
    )


def _merge_stats(guest_id: str, account_id: str) -> None:
    def attempt() -> None:
        profiles = get_profiles([guest_id, account_id])
        guest = profiles.get(guest_id)
        if guest is not None and guest.claimed_by is not None:
            return
        account = profiles.get(account_id)
        base = account or new_profile(account_id, "account")
        merged = base.evolve(
            stats=base.stats.merged(guest.stats if guest else Stats()),
            version=0 if account is None else account.version + 1,
        )
        closed: Profile = (guest or new_profile(guest_id, "guest")).evolve(
            stats=Stats(), claimed_by=account_id, version=0 if guest is None else guest.version + 1
        )
        save_profiles([(merged, account), (closed, guest)])

    until_saved(attempt, ATTEMPTS, ClaimConflict)
