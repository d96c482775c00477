"""A game's state: the public part, and a separate private part per seat.

The public part (board, seats' counters, turn, result) holds no hidden information at all, so
it can be stored, cached and sent as it is; the rules take the field as a separate argument
whenever a move needs it.

Some variants give a seat knowledge the others lack: in windows-duel a seat knows where it
guessed wrong (those cells hold no mine), and nobody else does until the game ends. That
knowledge lives in ``GameState.private``, one ``SeatPrivate`` per seat, and is kept out of
every public rendering by construction:

- ``to_dict()`` (the snapshot to store and send) never contains it; ``private_dict(seat)``
  gives one seat's part, to store beside the snapshot or send to that seat alone;
- ``board()`` is the spectators' board; ``board(viewer)`` adds ``?`` on that viewer's own wrong
  guesses only;
- ``seen_by(seat)`` is the state as one seat knows it (the others' private parts emptied), which
  is what a bot of that seat is handed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .errors import MalformedRecord
from .outcome import Result
from .settings import HIT_LETTERS, SEAT_LETTERS, Settings, make_options

_new = object.__new__
_set = object.__setattr__

COVERED = "."
WRONG_GUESS = "?"
"""A viewer's own wrong guess (windows-duel), on that viewer's board only."""

SHOWN_MINES = frozenset(SEAT_LETTERS + HIT_LETTERS)
"""Board characters of a mine everybody sees: flagged or found (upper case) or hit (lower)."""


@dataclass(frozen=True)
class SeatState:
    """One seat's public counters.

    ``mines``: mines flagged (mine-duel, mineseeker) or found by a right guess (windows-duel);
    ``safe_taps``: taps (or windows-duel reveals) that opened safe ground; ``bomb_used``
    (mineseeker) and ``score`` (windows-duel) are published only for the variants that have them.
    """

    mines: int = 0
    safe_taps: int = 0
    out: bool = False
    bomb_used: bool = False
    score: int = 0


@dataclass(frozen=True)
class SeatPrivate:
    """What one seat alone knows: the cells (indexes, in the order guessed) it guessed wrong."""

    wrong_guesses: tuple[int, ...] = ()


@dataclass(frozen=True)
class GameState:
    """The state of a running or finished game (immutable: rules return new states).

    Everything but ``private`` is public; see the module docstring for how ``private`` is kept
    out of public renderings.
    """

    settings: Settings
    cells: tuple[str, ...]
    seats: tuple[SeatState, ...]
    turn: int | None
    move_count: int = 0
    eliminated: tuple[int, ...] = ()
    result: Result | None = None
    private: tuple[SeatPrivate, ...] = ()

    @classmethod
    def direct(
        cls,
        settings: Settings,
        cells: tuple[str, ...],
        seats: tuple[SeatState, ...],
        turn: int | None,
        move_count: int,
        eliminated: tuple[int, ...],
        result: Result | None,
        private: tuple[SeatPrivate, ...],
    ) -> GameState:
        """The same as the constructor, every field given, built in one step: the hot path of
        every move and replay (a frozen dataclass sets its fields one by one)."""
        state = _new(cls)
        _set(
            state,
            "__dict__",
            {
                "settings": settings,
                "cells": cells,
                "seats": seats,
                "turn": turn,
                "move_count": move_count,
                "eliminated": eliminated,
                "result": result,
                "private": private,
            },
        )
        return state

    @classmethod
    def new(cls, settings: Settings) -> GameState:
        """A fresh game: every cell covered, seat 0 to move."""
        return cls(
            settings=settings,
            cells=(COVERED,) * settings.size,
            seats=tuple(SeatState() for _ in range(settings.seats)),
            turn=0,
            private=tuple(SeatPrivate() for _ in range(settings.seats)),
        )

    @property
    def finished(self) -> bool:
        """True once the game has a result."""
        return self.result is not None

    @property
    def flagged(self) -> int:
        """How many mines everybody sees (flagged, found or hit), by anyone."""
        cells = self.cells
        return sum([cells.count(ch) for ch in SHOWN_MINES])

    @property
    def mines_left(self) -> int:
        """Mines nobody sees yet (still covered)."""
        return self.settings.mines - self.flagged

    @property
    def seats_in(self) -> list[int]:
        """Seats still in the game, in seat order."""
        return [i for i, seat in enumerate(self.seats) if not seat.out]

    def wrong_guesses(self, seat: int) -> tuple[int, ...]:
        """Cells ``seat`` guessed wrong (private to it while the game runs)."""
        return self.private[seat].wrong_guesses if seat < len(self.private) else ()

    def board(self, viewer: int | None = None) -> list[str]:
        """The docs/api.md ``board`` as ``viewer`` sees it: ``height`` strings of ``width`` cells.

        ``viewer`` None is a spectator (the public board); a seat also sees ``?`` on the cells it
        guessed wrong that are still covered. Never another seat's private part.
        """
        cells = self.cells
        if viewer is not None:
            mine = self.wrong_guesses(viewer)
            if mine:
                marked = list(cells)
                for cell in mine:
                    if marked[cell] == COVERED:
                        marked[cell] = WRONG_GUESS
                cells = tuple(marked)
        w = self.settings.width
        joined = "".join(cells)
        return [joined[r * w : (r + 1) * w] for r in range(self.settings.height)]

    def seen_by(self, seat: int | None) -> GameState:
        """The state as ``seat`` knows it: every other seat's private part emptied.

        ``None`` is a spectator: no private part at all.
        """
        blank = SeatPrivate()
        private = tuple(p if i == seat else blank for i, p in enumerate(self.private))
        return self if private == self.private else replace(self, private=private)

    def evolve(self, **changes: Any) -> GameState:
        """Return a copy with ``changes`` applied."""
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready snapshot of the PUBLIC state (safe to store and send).

        It never holds a seat's private part (see ``private_dict``). A variant's options and
        extra seat counters appear only for the variants that have them, so a mine-duel
        snapshot is exactly what it always was.
        """
        s = self.settings
        extra = s.spec.seat_fields
        snapshot: dict[str, Any] = {
            "variant": s.variant,
            "width": s.width,
            "height": s.height,
            "mines": s.mines,
            "seats": [_seat_dict(x, extra) for x in self.seats],
            "board": self.board(),
            "turn": self.turn,
            "move_count": self.move_count,
            "eliminated": list(self.eliminated),
            "result": self.result.to_dict() if self.result else None,
        }
        if s.options:
            snapshot["options"] = s.options_dict()
        return snapshot

    def private_dict(self, seat: int) -> dict[str, Any]:
        """One seat's private part, JSON-ready: for that seat's eyes (and storage) only."""
        w = self.settings.width
        return {"wrong_guesses": [list(divmod(c, w)) for c in self.wrong_guesses(seat)]}

    @classmethod
    def from_dict(
        cls, data: Mapping[str, Any], private: Sequence[Mapping[str, Any]] | None = None
    ) -> GameState:
        """Rebuild a snapshot written by ``to_dict``, with the seats' ``private_dict``s if kept.

        Without ``private`` the seats' private parts are empty.
        """
        try:
            variant = data["variant"]
            raw_seats = data["seats"]
            settings = Settings(
                variant,
                int(data["width"]),
                int(data["height"]),
                int(data["mines"]),
                len(raw_seats),
                make_options(variant, data.get("options") or {}),
            )
            extra = settings.spec.seat_fields
            seats = tuple(_seat_from(x, extra) for x in raw_seats)
            cells = tuple("".join(data["board"]))
            if len(cells) != settings.size:
                raise MalformedRecord("board does not match the settings")
            letters = SEAT_LETTERS[: settings.seats]
            allowed = set("012345678" + COVERED + letters + settings.spec.board_chars)
            if not set(cells) <= allowed:
                raise MalformedRecord("board holds an unknown character")
            result = Result.from_dict(data["result"]) if data.get("result") else None
            turn = data["turn"]
            parts = tuple(
                _private_from(part, settings) for part in (private or [{}] * settings.seats)
            )
            if len(parts) != settings.seats:
                raise MalformedRecord("one private part per seat, or none at all")
            return cls(
                settings=settings,
                cells=cells,
                seats=seats,
                turn=None if turn is None else int(turn),
                move_count=int(data["move_count"]),
                eliminated=tuple(int(x) for x in data.get("eliminated", ())),
                result=result,
                private=parts,
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise MalformedRecord(f"game state snapshot is malformed: {exc}") from None


def _seat_dict(seat: SeatState, extra: tuple[str, ...]) -> dict[str, Any]:
    found: dict[str, Any] = {"mines": seat.mines, "safe_taps": seat.safe_taps, "out": seat.out}
    for name in extra:
        found[name] = getattr(seat, name)
    return found


def _seat_from(data: Mapping[str, Any], extra: tuple[str, ...]) -> SeatState:
    return SeatState(
        int(data["mines"]),
        int(data["safe_taps"]),
        bool(data["out"]),
        bomb_used=bool(data["bomb_used"]) if "bomb_used" in extra else False,
        score=int(data["score"]) if "score" in extra else 0,
    )


def _private_from(data: Mapping[str, Any], settings: Settings) -> SeatPrivate:
    cells = []
    for row, col in data.get("wrong_guesses", ()):
        if not (0 <= int(row) < settings.height and 0 <= int(col) < settings.width):
            raise MalformedRecord("a wrong guess lies outside the board")
        cells.append(int(row) * settings.width + int(col))
    return SeatPrivate(tuple(cells))
