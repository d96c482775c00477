"""A finished game told briefly, for a history line or a page to share: who played, how it
ended, how it played out (lead changes, each seat's longest run of mines).

Computed from the game and its public move log; nothing here is hidden, the game being over.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..games import store
from ..games.current import current
from ..games.errors import GameNotFinished
from ..games.record import GameRecord
from ..games.views import game_summary, rating_change
from ..people.profiles import avatar_url
from ..people.store import get_profiles


def lead_changes(moves: Sequence[dict[str, Any]], seats: int) -> int:
    """How often the sole lead (strictly most mines) passed from one seat to another; a tie
    is nobody's lead, and taking the lead from a tie counts only if someone else held it last."""
    mines = [0] * seats
    holder: int | None = None
    changes = 0
    for move in moves:
        found = len(move.get("flagged") or [])
        if not found:
            continue
        mines[move["seat"]] += found
        top = max(mines)
        leaders = [i for i, m in enumerate(mines) if m == top]
        if len(leaders) == 1 and leaders[0] != holder:
            if holder is not None:
                changes += 1
            holder = leaders[0]
    return changes


def longest_runs(moves: Sequence[dict[str, Any]], seats: int) -> list[int]:
    """Each seat's longest run of mine-finding moves in a row (a mine keeps the turn)."""
    best = [0] * seats
    run_seat, run = -1, 0
    for move in moves:
        if move.get("result") == "mine":
            run = run + 1 if move["seat"] == run_seat else 1
            run_seat = move["seat"]
            best[run_seat] = max(best[run_seat], run)
        else:
            run_seat, run = -1, 0
    return best


def _rating_lines(record: GameRecord, seat: int) -> dict[str, int | None]:
    """Before, after and the change of the seat's displayed rating (null when not rated)."""
    change = rating_change(record, seat)
    before, after = change["rating_before"], change["rating_after"]
    delta = after - before if before is not None and after is not None else None
    return {**change, "rating_change": delta}


def summary(game_id: str) -> dict[str, Any]:
    """``GET /v1/games/{id}/summary``: ``GameNotFinished`` before the end."""
    record = current(game_id)
    if record.status != "finished":
        raise GameNotFinished(f"The game is {record.status}; its summary comes at the end.")
    return summarize(record, store.list_moves(game_id))


def summarize(record: GameRecord, moves: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The Summary of a finished game from its record and move log."""
    base = game_summary(record)
    profiles = get_profiles(list(record.player_seats.values()))
    runs = longest_runs(moves, len(record.seats))
    seats = []
    for seat in base["seats"]:
        profile = profiles.get(seat["player_id"] or "")
        seats.append(
            {
                **seat,
                "avatar_url": avatar_url(profile.avatar) if profile else None,
                "longest_run": runs[seat["seat"]],
                **_rating_lines(record, seat["seat"]),
            }
        )
    result = record.state.result
    return {
        **base,
        "seats": seats,
        "result": result.to_dict() if result else None,
        "moves": len(moves),
        "lead_changes": lead_changes(moves, len(record.seats)),
        "commitment": record.commitment,
        "seed": record.seed_hex,
    }
