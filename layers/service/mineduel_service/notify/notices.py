"""Who is told what, and when: the notices a stored change of a game calls for.

Derived in one place from the game before and after a write (as ``live.changes`` derives the
live ``event``), on the table's stream, never in the request that wrote. A notice names one
player and one thing that concerns them (docs/notifications.md):

- ``your_turn``: the turn passed to an account's seat. Never for a bot's turn, never to the
  player whose own move (or join) it was (they hold the answer), never for a game's first
  write (a paired game says ``paired`` instead), and once a turn: a turn is known by the move
  count it began at, which the delivery marks as taken (``key``);
- ``time_almost_up``: the write that gave the running turn's 80% warning (which a conditional
  write gives exactly once a turn: ``play.turn_warnings``);
- ``invited``: a seat was reserved for the player while the game waits;
- ``game_over``: the game finished; each account's seat, with its result;
- ``paired``: quick pairing made the game (``paired``, called by the pairing, which knows).

A player whose live connection follows the game (``open_seats``) is not told about it: their
page shows it already. What a notice says is public: seat names, the variant, move counts,
deadlines and, once the game is over, the result; never a cell, a seed or a seat's private part.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Collection
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any, Literal

from ..games.record import GameRecord
from ..platform import clock

NoticeType = Literal["your_turn", "time_almost_up", "invited", "game_over", "paired"]
NOTICE_TYPES: tuple[NoticeType, ...] = (
    "your_turn",
    "time_almost_up",
    "invited",
    "game_over",
    "paired",
)
Urgency = Literal["very-low", "low", "normal", "high"]

VARIANT_NAMES = {
    "mine-duel": "Mine Duel",
    "mineseeker": "Mineseeker",
    "windows-duel": "Windows Duel",
}
DAY_S = 86400
MIN_TTL_S = 60
MAX_TTL_S = 28 * DAY_S
"""Push services keep a message at most about four weeks (FCM: 28 days)."""
INVITATION_TTL_S = 7 * DAY_S
"""A waiting game lapses after a week: an invitation is worth keeping as long."""
RESULT_TTL_S = 3 * DAY_S
URGENCY: dict[NoticeType, Urgency] = {
    "your_turn": "normal",
    "time_almost_up": "high",
    "invited": "normal",
    "game_over": "low",
    "paired": "high",
}
"""RFC 8030 section 5.3: how soon a device on battery should wake for it."""


@dataclass(frozen=True)
class Notice:
    """One thing to tell one player; what is queued for delivery (``outbox``)."""

    type: NoticeType
    player_id: str
    game_id: str
    move_count: int
    deadline: str | None
    title: str
    body: str
    key: str
    """Names the notice for "at most once": the same turn, warning or result has the same key."""
    ttl_s: int
    """How long a push service keeps it for a device that is offline (RFC 8030 section 5.2)."""

    @property
    def urgency(self) -> Urgency:
        """RFC 8030's ``Urgency`` of this type."""
        return URGENCY[self.type]

    @property
    def topic(self) -> str:
        """RFC 8030's ``Topic`` (section 5.4): one per game, so a newer notice of a game
        replaces an older one that a push service still holds for an offline device."""
        digest = hashlib.sha256(self.game_id.encode("utf-8")).digest()
        return base64.urlsafe_b64encode(digest).decode("ascii")[:32]

    @property
    def path(self) -> str:
        """The web client's screen for it (the game: playing, waiting with Accept, or over)."""
        return f"#/game/{self.game_id}"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Notice:
        fields = {name: data[name] for name in cls.__dataclass_fields__}
        return cls(**fields)


def of_change(
    before: GameRecord | None,
    after: GameRecord,
    open_seats: Collection[int] = (),
    now: datetime | None = None,
) -> list[Notice]:
    """The notices the write ``before`` -> ``after`` calls for; ``open_seats`` are the seats
    whose player follows the game on a live connection (told nothing)."""
    moment = now or clock.now()
    found: list[Notice] = []
    found.extend(_invitations(before, after))
    turn = _your_turn(before, after, moment)
    if turn is not None:
        found.append(turn)
    warning = _time_almost_up(before, after, moment)
    if warning is not None:
        found.append(warning)
    found.extend(_game_over(before, after))
    seats = {player: seat for seat, player in after.player_seats.items()}
    return [n for n in found if seats.get(n.player_id) not in open_seats or n.type == "invited"]


def paired(record: GameRecord, now: datetime | None = None) -> list[Notice]:
    """``paired``: each account's seat of a game quick pairing just made (the pairing calls
    this with the game it stored, then ``outbox.send``; docs/notifications.md)."""
    moment = now or clock.now()
    found = []
    for seat, player_id in _accounts(record).items():
        others = _others(record, seat)
        to_move = record.state.turn == seat and record.status == "active"
        body = f"You play {others} at {_variant(record)}."
        body += " Your move: " + _left(record.deadline, moment) if to_move else " They move first."
        found.append(
            Notice(
                type="paired",
                player_id=player_id,
                game_id=record.game_id,
                move_count=record.state.move_count,
                deadline=record.deadline,
                title="Game found",
                body=body,
                key=f"paired:{record.game_id}",
                ttl_s=_until(record.deadline, moment, DAY_S),
            )
        )
    return found


# ---------------------------------------------------------------------------- the rules
def _invitations(before: GameRecord | None, after: GameRecord) -> list[Notice]:
    if after.status != "waiting":
        return []
    already = set(before.invited.values()) if before is not None else set()
    host = next((s.name for s in after.seats if s.kind == "account"), "A player")
    return [
        Notice(
            type="invited",
            player_id=player_id,
            game_id=after.game_id,
            move_count=after.state.move_count,
            deadline=None,
            title="You are invited",
            body=f"{host} invites you to a game of {_variant(after)}.",
            key=f"invited:{after.game_id}",
            ttl_s=INVITATION_TTL_S,
        )
        for player_id in after.invited.values()
        if player_id not in already
    ]


def _your_turn(before: GameRecord | None, after: GameRecord, now: datetime) -> Notice | None:
    seat = after.state.turn
    if before is None or after.status != "active" or seat is None:
        return None
    player_id = _accounts(after).get(seat)
    if player_id is None:
        return None  # a bot's turn, or a guest's (guests are never pushed)
    if before.status == "active":
        if after.state.move_count == before.state.move_count:
            return None  # the same turn (a warning, spectators turned off)
        if before.state.turn == seat:
            return None  # the seat's own move came back to it (the bots replied)
    elif before.seats[seat].kind == "open":
        return None  # the seat's own join started the game
    opening = _what_happened(before, after)
    return Notice(
        type="your_turn",
        player_id=player_id,
        game_id=after.game_id,
        move_count=after.state.move_count,
        deadline=after.deadline,
        title="Your turn",
        body=f"{opening} Your move in {_variant(after)} with {_others(after, seat)}: "
        + _left(after.deadline, now),
        key=f"your_turn:{after.game_id}:{after.state.move_count}",
        ttl_s=_until(after.deadline, now, DAY_S),
    )


def _time_almost_up(before: GameRecord | None, after: GameRecord, now: datetime) -> Notice | None:
    gave = (
        after.deadline is not None
        and after.warned_for == after.deadline
        and (before is None or before.warned_for != after.warned_for)
    )
    seat = after.state.turn
    if not gave or seat is None or after.status != "active":
        return None
    player_id = _accounts(after).get(seat)
    if player_id is None:
        return None
    return Notice(
        type="time_almost_up",
        player_id=player_id,
        game_id=after.game_id,
        move_count=after.state.move_count,
        deadline=after.deadline,
        title="Time is almost up",
        body=f"Move in {_variant(after)} with {_others(after, seat)}: {_left(after.deadline, now)}"
        " Otherwise the turn times out.",
        key=f"time_almost_up:{after.game_id}:{after.deadline}",
        ttl_s=_until(after.deadline, now, DAY_S),
    )


def _game_over(before: GameRecord | None, after: GameRecord) -> list[Notice]:
    if after.status != "finished" or (before is not None and before.status == "finished"):
        return []
    result = after.state.result
    found = []
    for seat, player_id in _accounts(after).items():
        title, body = _result_words(after, seat)
        found.append(
            Notice(
                type="game_over",
                player_id=player_id,
                game_id=after.game_id,
                move_count=after.state.move_count,
                deadline=None,
                title=title,
                body=body,
                key=f"game_over:{after.game_id}",
                ttl_s=RESULT_TTL_S,
            )
        )
    return found if result is not None else []


# ---------------------------------------------------------------------------- words
def _accounts(record: GameRecord) -> dict[int, str]:
    """Seat -> player id of every seat an account holds (only accounts are pushed)."""
    return {
        i: seat.player_id
        for i, seat in enumerate(record.seats)
        if seat.kind == "account" and seat.player_id
    }


def _variant(record: GameRecord) -> str:
    variant = record.settings.variant
    return VARIANT_NAMES.get(variant, variant)


def _names(names: list[str]) -> str:
    if not names:
        return "nobody"
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def _others(record: GameRecord, seat: int) -> str:
    return _names([s.name for i, s in enumerate(record.seats) if i != seat and s.kind != "open"])


def _what_happened(before: GameRecord, after: GameRecord) -> str:
    """What passed the turn, in words: the seat whose turn it was moved, or went out (time ran
    out, or it resigned), or the game started."""
    seat = before.state.turn
    if after.state.move_count <= before.state.move_count or seat is None:
        return "The game has started."
    name = before.seats[seat].name
    if after.state.seats[seat].out and not before.state.seats[seat].out:
        return f"{name} is out."
    return f"{name} moved."


def _left(deadline: str | None, now: datetime) -> str:
    """How long the turn has left, in words (``"23 hours left."``)."""
    if deadline is None:
        return "no time limit."
    seconds = max(0, int((clock.parse_iso(deadline) - now).total_seconds()))
    if seconds >= 2 * DAY_S:
        amount = f"{seconds // DAY_S} days"
    elif seconds >= 2 * 3600:
        amount = f"{seconds // 3600} hours"
    elif seconds >= 3600:
        minutes = (seconds - 3600) // 60
        amount = "1 hour" + (f" {minutes} minutes" if minutes else "")
    else:
        amount = f"{max(1, seconds // 60)} minutes"
    return f"{amount} left."


def _until(deadline: str | None, now: datetime, otherwise: int) -> int:
    """A push service's TTL for a notice about a turn: until the turn's deadline (after it
    the notice is moot), within what push services keep."""
    if deadline is None:
        return otherwise
    seconds = int((clock.parse_iso(deadline) - now).total_seconds())
    return max(MIN_TTL_S, min(MAX_TTL_S, seconds))


_ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}
_REASONS = {
    "reach": "reached the mines needed",
    "field-done": "the field is done",
    "resign": "resigned",
    "timeout": "time ran out",
}


def _result_words(record: GameRecord, seat: int) -> tuple[str, str]:
    """The notification's title and body of a finished game for ``seat``."""
    result = record.state.result
    if result is None:
        return "Game over", f"{_variant(record)} with {_others(record, seat)} is over."
    places = list(result.places)
    place = places[seat] if seat < len(places) else None
    shared = place is not None and places.count(place) > 1
    if result.winner == seat:
        title = "You won"
    elif place == 1 and shared:
        title = "A draw" if len(places) == 2 else "You share first place"
    elif len(places) == 2 or place is None:
        title = "You lost"
    else:
        title = f"You placed {_ORDINALS.get(place, f'{place}th')}"
    reason = _REASONS.get(result.reason, result.reason)
    if result.reason in ("resign", "timeout"):
        out = [record.seats[i].name for i, s in enumerate(record.state.seats) if s.out]
        reason = f"{_names(out)}: {reason}" if out else reason
    body = f"{_variant(record)} with {_others(record, seat)} is over ({reason})."
    return title, body
