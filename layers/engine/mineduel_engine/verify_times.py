"""The optional deadline check of a Verification document: move times against the deadline.

The verifier cannot read the server's clock, so times prove less than the field and the moves
do; still, when every move carries its ``at`` time and the document its ``move_deadline_s``,
two things can be checked from the log alone (docs/rules.md, "Move deadline"):

- a move on the board (tap, bomb, guess, reveal) was committed before its turn's deadline
  (turn start + ``move_deadline_s``);
- a timeout came no earlier than that deadline.

A turn starts with the move that handed it over: any move on the board (a mine-duel mine
gives the same seat a new turn), or a resignation or timeout of the seat to move. A
resignation by another seat does not restart the clock. The first move's turn starts when the
game became active, which the document does not say, so the first move is not checked. Times
are compared in whole seconds (the API's ISO-8601 times may be truncated to seconds), allowing
one second for truncation.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from .moves import Move

MIN_DEADLINE_S = 60
MAX_DEADLINE_S = 604_800
TRUNCATION_S = 1.0


def parse_time(value: object) -> datetime | None:
    """An ISO-8601 time with a zone (``...Z`` or ``+00:00``); None if it is not one."""
    if not isinstance(value, str):
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else None


def deadline_s(doc: Any) -> int | None:
    """The document's ``move_deadline_s`` when it is a valid deadline, else None."""
    value = doc.get("move_deadline_s") if hasattr(doc, "get") else None
    if type(value) is int and MIN_DEADLINE_S <= value <= MAX_DEADLINE_S:
        return value
    return None


def deadline_problems(
    records: Sequence[Any], moves: Sequence[Move], renews: Sequence[bool], limit_s: int
) -> list[str] | None:
    """Problems with the moves' times; None when the times are not all there to check.

    ``renews[i]`` says whether move i started a new turn; ``moves`` are the parsed records.
    """
    parsed = [parse_time(r.get("at")) if isinstance(r, dict) else None for r in records]
    times = [t for t in parsed[: len(moves)] if t is not None]
    if not moves or len(times) != len(moves):
        return None
    problems: list[str] = []
    turn_start: datetime | None = None
    previous: datetime | None = None
    for index, (move, at) in enumerate(zip(moves, times, strict=True)):
        if previous is not None and at < previous:
            problems.append(f"move {index + 1} is dated before move {index}")
        if turn_start is not None:
            waited = (at - turn_start).total_seconds()
            if not move.is_elimination and waited > limit_s + TRUNCATION_S:
                problems.append(
                    f"move {index + 1} came {waited:.0f} s into its turn, after the "
                    f"{limit_s} s deadline"
                )
            elif move.action == "timeout" and waited < limit_s - TRUNCATION_S:
                problems.append(
                    f"move {index + 1} times seat {move.seat} out {waited:.0f} s into its turn, "
                    f"before the {limit_s} s deadline"
                )
        if renews[index]:
            turn_start = at
        previous = at
    return problems
