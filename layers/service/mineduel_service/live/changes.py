"""What a stored change of a game means, derived in one place from the game before and after.

Every write of a game (``games.writes.persist``) reaches the table's stream with both images,
and the fan-out (``fanout``) asks this module what happened: the ``event`` of the push message
(docs/live.md) and the events for the stack's bus. Nothing here reads anything but the two
records, except ``event_of``'s one look at the move log when a seat went out (to tell a
resignation from a timeout, which the game item does not record).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, Literal

from ..games.record import GameRecord

Event = Literal["join", "move", "resign", "timeout", "finished", "warning"]
SOURCE = "mineduel.game"
ELIMINATIONS = ("resign", "timeout")

MovesBetween = Callable[[str, int, int], Sequence[dict[str, Any]]]
"""The game's moves numbered above the first number, up to the second
(``games.store.list_moves``)."""


def warned(before: GameRecord | None, after: GameRecord) -> bool:
    """The write gave the running turn's "time almost up" warning."""
    return (
        after.deadline is not None
        and after.warned_for == after.deadline
        and (before is None or before.warned_for != after.warned_for)
    )


def event_of(
    before: GameRecord | None, after: GameRecord, moves_between: MovesBetween
) -> Event | None:
    """The push ``event`` of the change ``before`` -> ``after``; None when subscribers need
    not hear of it (a new game nobody follows yet, a result counted, spectators turned off).

    - ``resign`` / ``timeout``: a seat went out (the game may have ended with it: ``status``
      says so);
    - ``move``: moves were played and the game goes on; ``finished``: moves ended the game, or
      it ended without one (cancelled, lapsed);
    - ``join``: the seats changed while the game was waiting (someone joined, which may have
      started it, or an invited player declined);
    - ``warning``: the turn's time is almost up.
    """
    if before is None:
        return None
    played = after.state.move_count - before.state.move_count
    if played > 0:
        went_out = any(
            a.out and not b.out for a, b in zip(after.state.seats, before.state.seats, strict=True)
        )
        if went_out:
            moves = moves_between(after.game_id, before.state.move_count, after.state.move_count)
            reasons = [str(m.get("action")) for m in moves if m.get("action") in ELIMINATIONS]
            if reasons:
                return reasons[-1]  # type: ignore[return-value]
        return "finished" if after.status == "finished" else "move"
    if after.status != before.status and after.status in ("finished", "cancelled"):
        return "finished"
    if before.status == "waiting" and (after.seats != before.seats or after.status != "waiting"):
        return "join"
    if warned(before, after):
        return "warning"
    return None


def spectators_turned_off(before: GameRecord | None, after: GameRecord) -> bool:
    """A player turned spectators off with this write."""
    return after.spectators_off and (before is None or not before.spectators_off)


def bus_events(before: GameRecord | None, after: GameRecord) -> list[dict[str, Any]]:
    """The stack bus's entries for the change (``PutEvents`` entries without the bus name):
    ``GameStarted``, ``MovePlayed`` (one per write that played moves), ``GameFinished`` and
    ``TurnAlmostUp``. Details name players by id: the bus is the operator's, not a client's."""
    found: list[dict[str, Any]] = []
    started = after.status == "active" and (before is None or before.status != "active")
    if started:
        found.append(_entry("GameStarted", _game_detail(after)))
    previous = before.state.move_count if before is not None else 0
    if after.state.move_count > previous:
        detail = {
            **_game_detail(after),
            "from_move": previous + 1,
            "to_move": after.state.move_count,
        }
        found.append(_entry("MovePlayed", detail))
    if after.status == "finished" and (before is None or before.status != "finished"):
        result = after.state.result
        found.append(
            _entry(
                "GameFinished",
                {**_game_detail(after), "result": result.to_dict() if result else None},
            )
        )
    if warned(before, after) and after.state.turn is not None:
        seat = after.state.turn
        detail = {
            **_game_detail(after),
            "seat": seat,
            "player_id": after.seats[seat].player_id,
            "player_kind": after.seats[seat].kind,
        }
        found.append(_entry("TurnAlmostUp", detail))
    return found


def _game_detail(record: GameRecord) -> dict[str, Any]:
    turn = record.state.turn if record.status == "active" else None
    return {
        "game_id": record.game_id,
        "variant": record.settings.variant,
        "status": record.status,
        "move_count": record.state.move_count,
        "turn": None if turn is None else {"seat": turn, "deadline": record.deadline},
        "seats": [
            {"seat": i, "kind": seat.kind, "player_id": seat.player_id}
            for i, seat in enumerate(record.seats)
        ],
    }


def _entry(detail_type: str, detail: dict[str, Any]) -> dict[str, Any]:
    return {
        "Source": SOURCE,
        "DetailType": detail_type,
        "Detail": json.dumps(detail, separators=(",", ":")),
    }
