"""A game as the service keeps it: the public state plus what only the server holds.

One DynamoDB item holds everything a commit needs (public snapshot, seats with player ids and
guest token hashes, client seeds, seed ciphertext, commitment, deadline), so a commit reads
exactly one item. Nothing here is hidden information: the seed is ciphertext until the game
ends, and the state is the public board (the engine's ``GameState`` holds nothing else).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Literal

from mineduel_engine import GameState, Settings
from mineduel_engine.daily import field_id

from ..platform import clock

if TYPE_CHECKING:
    from ..ratings.model import GameRating

WARNING_AT = 0.8
"""A turn's "time almost up" warning comes at this share of its time (docs/live.md)."""
WARNED_DEADLINE_S = 3600
"""Only turns of at least this many seconds are warned: a shorter game is watched live."""
SWEEP_SHARE = 10
"""A turn on which nobody waits is ended (or warned) by the sweeper at most a tenth of the
turn's time late (``due_key``)..."""
SWEEP_BUCKET_MIN_S = 60
"""...but never in buckets finer than the sweeper's minute..."""
SWEEP_BUCKET_MAX_S = 3600
"""...nor more than an hour late."""
PEOPLE = ("account", "guest")

SeatKind = Literal["account", "guest", "bot", "open"]
Status = Literal["waiting", "active", "finished", "cancelled"]


@dataclass(frozen=True)
class Seat:
    """Who sits in a seat, and for guests the hash of their token (how the commit checks them)."""

    kind: SeatKind
    player_id: str | None = None
    name: str = "Open seat"
    client_seed: str = ""
    token_hash: str | None = None
    token_expires: int | None = None
    reserved_for: str | None = None
    reserved_id: str | None = None

    def evolve(self, **changes: Any) -> Seat:
        """A copy with ``changes``."""
        return replace(self, **changes)


@dataclass(frozen=True)
class GameRecord:
    """Everything stored about one game, in its single item."""

    game_id: str
    state: GameState
    seats: tuple[Seat, ...]
    status: Status
    commitment: str
    seed_ciphertext: bytes = field(repr=False)
    move_deadline_s: int
    rated: bool
    bot_level: str
    created_at: str
    deadline: str | None
    version: int = 0
    seed_hex: str | None = field(default=None, repr=False)
    lapses_at: str | None = None
    ended_at: str | None = None
    results_pending: bool = False
    rematch_of: str | None = None
    chain: str | None = None
    """The chain value of the last move (``mineduel_engine.chain``); None before the first."""
    rating: GameRating | None = None
    """What the game did to its players' ratings, once its result is applied (rated games)."""
    daily: str | None = None
    """The day (``YYYY-MM-DD``) of a daily duel game: its field is that day's (``daily``)."""

    @property
    def field_id(self) -> str:
        """What the field's key is derived with in place of the game id: the day's field id
        for a daily game (every daily game of a day has the same field), else the game id."""
        return field_id(self.daily) if self.daily else self.game_id

    @property
    def ends_by(self) -> str | None:
        """A daily game's last moment (the end of its day, UTC): no turn runs past it, so the
        day's seed can be published once the day is over. None for other games."""
        if self.daily is None:
            return None
        day = datetime.strptime(self.daily, "%Y-%m-%d").replace(tzinfo=UTC)
        return (day + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%SZ")

    seats_moved: tuple[int, ...] = ()
    """The seats that have made a move of their own (not counting going out), in seat order."""
    warned_for: str | None = None
    """The deadline of the turn whose "time almost up" warning was given (once per turn)."""
    spectators_off: bool = False
    """A player turned spectators off for the rest of the game (docs/live.md)."""
    creator_seat: int = 0
    """The seat of the player who made the game, and who may cancel it while it waits: seat 0,
    except in a rematch, whose seats are rotated so that another person moves first."""

    @property
    def warning_at(self) -> str | None:
        """When the player to move is warned that the turn's time is almost up; None when this
        turn gets no warning: turns shorter than an hour, a bot to move, a seat in the game
        that has not moved yet, or the warning already given."""
        seat = self.state.turn
        if (
            self.status != "active"
            or self.deadline is None
            or seat is None
            or self.move_deadline_s < WARNED_DEADLINE_S
            or self.seats[seat].kind == "bot"
            or self.warned_for == self.deadline
            or any(i not in self.seats_moved for i in self.state.seats_in)
        ):
            return None
        lead = timedelta(seconds=self.move_deadline_s * (1 - WARNING_AT))
        return clock.iso(clock.parse_iso(self.deadline) - lead)

    @property
    def due_at(self) -> str | None:
        """When the sweeper must look at this game: the turn's warning time while one is due,
        then its deadline while it is active; the moment a waiting game lapses; None once it
        is over."""
        if self.status == "active":
            return self.warning_at or self.deadline
        if self.status == "waiting":
            return self.lapses_at
        return None

    @property
    def someone_waits(self) -> bool:
        """True when a person waits for the running turn to end: a seat still in the game,
        other than the one to move, is held by an account or a guest.

        Only such a turn gets a Scheduler schedule of its own (``play.advance.follow_schedule``) and
        an exact key in the sweeper's index: nobody is kept waiting by a turn that ends late,
        so any other turn (a person against bots, the last person among bots) is left to the
        sweeper, at a coarse key (``due_key``), which costs neither a schedule nor an index
        write per commit (docs/cost.md).
        """
        seat = self.state.turn
        if self.status != "active" or self.deadline is None or seat is None:
            return False
        return any(i != seat and self.seats[i].kind in PEOPLE for i in self.state.seats_in)

    @property
    def sweep_bucket_s(self) -> int:
        """How coarse the sweeper's key of a turn on which nobody waits is: a tenth of the
        turn's time, at least a minute, at most an hour."""
        share = self.move_deadline_s // SWEEP_SHARE
        return min(SWEEP_BUCKET_MAX_S, max(SWEEP_BUCKET_MIN_S, share))

    @property
    def due_key(self) -> str | None:
        """What the sweeper's ``deadlines`` index sorts the game by: ``due_at``, except on a
        person's turn on which nobody waits, where it is ``due_at`` rounded up to the next
        multiple of ``sweep_bucket_s`` (capped at a daily game's end).

        Rounded up, never down: the sweeper never finds a game before its time (and acts on
        the exact times of the game itself, ``play.timeouts.expire_turn``), and finds it at
        most one bucket late. Every commit of such a game moves its deadline, but within one
        bucket the key stays the same, and DynamoDB writes nothing to an index whose key
        attributes did not change. A bot to move is due at once (bots playing on): exact.
        """
        due = self.due_at
        seat = self.state.turn
        if (
            due is None
            or self.status != "active"
            or self.someone_waits
            or seat is None
            or self.seats[seat].kind not in PEOPLE
        ):
            return due
        bucket = self.sweep_bucket_s
        at = int(clock.parse_iso(due).timestamp())
        key = clock.iso(datetime.fromtimestamp(-(-at // bucket) * bucket, UTC))
        return key if self.ends_by is None else min(key, self.ends_by)

    @property
    def settings(self) -> Settings:
        """The game's fixed settings."""
        return self.state.settings

    @property
    def player_seats(self) -> dict[int, str]:
        """Seat number -> player id of every seat a person holds (accounts and guests)."""
        return {
            i: seat.player_id
            for i, seat in enumerate(self.seats)
            if seat.kind in ("account", "guest") and seat.player_id
        }

    @property
    def invited(self) -> dict[int, str]:
        """Seat number -> player id of every open seat reserved for an invited player."""
        return {
            i: seat.reserved_id
            for i, seat in enumerate(self.seats)
            if seat.kind == "open" and seat.reserved_id
        }

    @property
    def in_lobby(self) -> bool:
        """A waiting game with a seat anybody may take (open and not reserved)."""
        return self.status == "waiting" and any(
            seat.kind == "open" and not seat.reserved_id for seat in self.seats
        )

    @property
    def client_seeds(self) -> list[str]:
        """One client seed per seat, in seat order (docs/fairness.md step 4)."""
        return [seat.client_seed for seat in self.seats]

    def evolve(self, **changes: Any) -> GameRecord:
        """A copy with ``changes`` (its ``version`` is the store's to move: a write stores the
        version after the one it was computed from, ``store.write_game``)."""
        return replace(self, **changes)

    def cancelled(self, at: str) -> GameRecord:
        """The game cancelled at ``at`` before it started (by its creator, or lapsed after a
        week with seats nobody took)."""
        return self.evolve(status="cancelled", lapses_at=None, ended_at=at)

    def _private_parts(self) -> dict[str, Any]:
        """Each seat's private part (a windows-duel seat's wrong guesses), kept in the item for
        the server (the seat's own view, its bot) and never in a public rendering; left out
        when every part is empty, so the other variants' items do not grow."""
        parts = [self.state.private_dict(i) for i in range(len(self.state.seats))]
        if not any(part["wrong_guesses"] for part in parts):
            return {}
        return {"private": parts}

    def body_json(self) -> str:
        """The JSON document stored in the item (everything but the ciphertext)."""
        return json.dumps(
            {
                "state": self.state.to_dict(),
                **self._private_parts(),
                "seats": [asdict(seat) for seat in self.seats],
                "commitment": self.commitment,
                "move_deadline_s": self.move_deadline_s,
                "rated": self.rated,
                "bot_level": self.bot_level,
                "created_at": self.created_at,
                "seed": self.seed_hex,
                "lapses_at": self.lapses_at,
                "ended_at": self.ended_at,
                "rematch_of": self.rematch_of,
                "chain": self.chain,
                **({"daily": self.daily} if self.daily else {}),
                "seats_moved": list(self.seats_moved),
                "warned_for": self.warned_for,
                "spectators_off": self.spectators_off,
                **({"creator_seat": self.creator_seat} if self.creator_seat else {}),
            },
            separators=(",", ":"),
        )

    @classmethod
    def from_parts(
        cls,
        *,
        game_id: str,
        body: str,
        status: str,
        deadline: str | None,
        version: int,
        seed_ciphertext: bytes,
        results_pending: bool = False,
        rating: str | None = None,
    ) -> GameRecord:
        """Rebuild a record from its stored parts."""
        data = json.loads(body)
        return cls(
            game_id=game_id,
            state=GameState.from_dict(data["state"], private=data.get("private")),
            seats=tuple(Seat(**seat) for seat in data["seats"]),
            status=status,  # type: ignore[arg-type]
            commitment=data["commitment"],
            seed_ciphertext=seed_ciphertext,
            move_deadline_s=int(data["move_deadline_s"]),
            rated=bool(data["rated"]),
            bot_level=str(data["bot_level"]),
            created_at=str(data["created_at"]),
            deadline=deadline,
            version=version,
            seed_hex=data.get("seed"),
            lapses_at=data.get("lapses_at"),
            ended_at=data.get("ended_at"),
            results_pending=results_pending,
            rematch_of=data.get("rematch_of"),
            chain=data.get("chain"),
            seats_moved=tuple(data.get("seats_moved", ())),
            warned_for=data.get("warned_for"),
            spectators_off=bool(data.get("spectators_off", False)),
            creator_seat=int(data.get("creator_seat", 0)),
            rating=_rating(rating),
            daily=data.get("daily"),
        )


def _rating(stored: str | None) -> GameRating | None:
    """A rated game's stored rating record. The rating model is imported only here: a game
    has one once it ended rated, so most commits never load it (docs/cost.md, *Cold starts*)."""
    if not stored:
        return None
    from ..ratings.model import GameRating  # noqa: PLC0415

    return GameRating.from_dict(json.loads(stored))
