"""A game's state: public information only.

The state holds the public board, the seats' counters, whose turn it is and the result. It
holds no hidden information at all, so it can be stored, cached and sent as it is; the rules
take the field as a separate argument whenever a move needs it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from .errors import MalformedRecord
from .outcome import Result
from .settings import SEAT_LETTERS, Settings

COVERED = "."


@dataclass(frozen=True)
class SeatState:
    """One seat's public counters."""

    mines: int = 0
    safe_taps: int = 0
    out: bool = False


@dataclass(frozen=True)
class GameState:
    """The public state of a running or finished game (immutable: rules return new states)."""

    settings: Settings
    cells: tuple[str, ...]
    seats: tuple[SeatState, ...]
    turn: int | None
    move_count: int = 0
    eliminated: tuple[int, ...] = ()
    result: Result | None = None

    @classmethod
    def new(cls, settings: Settings) -> GameState:
        """A fresh game: every cell covered, seat 0 to move."""
        return cls(
            settings=settings,
            cells=(COVERED,) * settings.size,
            seats=tuple(SeatState() for _ in range(settings.seats)),
            turn=0,
        )

    @property
    def finished(self) -> bool:
        """True once the game has a result."""
        return self.result is not None

    @property
    def flagged(self) -> int:
        """How many mines have been flagged, by anyone."""
        return sum(seat.mines for seat in self.seats)

    @property
    def mines_left(self) -> int:
        """Mines still covered."""
        return self.settings.mines - self.flagged

    @property
    def seats_in(self) -> list[int]:
        """Seats still in the game, in seat order."""
        return [i for i, seat in enumerate(self.seats) if not seat.out]

    def board(self) -> list[str]:
        """The api.md ``board``: ``height`` strings of ``width`` characters."""
        w = self.settings.width
        joined = "".join(self.cells)
        return [joined[r * w : (r + 1) * w] for r in range(self.settings.height)]

    def evolve(self, **changes: Any) -> GameState:
        """Return a copy with ``changes`` applied."""
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready snapshot (public, safe to store and send)."""
        s = self.settings
        return {
            "variant": s.variant,
            "width": s.width,
            "height": s.height,
            "mines": s.mines,
            "seats": [
                {"mines": x.mines, "safe_taps": x.safe_taps, "out": x.out} for x in self.seats
            ],
            "board": self.board(),
            "turn": self.turn,
            "move_count": self.move_count,
            "eliminated": list(self.eliminated),
            "result": self.result.to_dict() if self.result else None,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameState:
        """Rebuild a snapshot written by ``to_dict``."""
        try:
            seats = tuple(
                SeatState(int(x["mines"]), int(x["safe_taps"]), bool(x["out"]))
                for x in data["seats"]
            )
            settings = Settings(
                data["variant"],
                int(data["width"]),
                int(data["height"]),
                int(data["mines"]),
                len(seats),
            )
            cells = tuple("".join(data["board"]))
            if len(cells) != settings.size:
                raise MalformedRecord("board does not match the settings")
            allowed = set("012345678" + COVERED + SEAT_LETTERS[: settings.seats])
            if not set(cells) <= allowed:
                raise MalformedRecord("board holds an unknown character")
            result = Result.from_dict(data["result"]) if data.get("result") else None
            turn = data["turn"]
            return cls(
                settings=settings,
                cells=cells,
                seats=seats,
                turn=None if turn is None else int(turn),
                move_count=int(data["move_count"]),
                eliminated=tuple(int(x) for x in data.get("eliminated", ())),
                result=result,
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise MalformedRecord(f"game state snapshot is malformed: {exc}") from None
