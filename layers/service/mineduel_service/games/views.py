"""What a caller sees of a game: docs/api.md's Game and Move objects, built from public data only.

The view is made from the record's public state (the engine's ``GameState`` has no hidden
cells) and its seats; guest token hashes never leave the record. The seed appears only once the
game is finished, when it is public by design, and with it the field laid open: the answer that
ends a game then shows every square, with no second request for the Verification document.
"""

from __future__ import annotations

from typing import Any

from mineduel_engine import Field

from .record import GameRecord


def game_view(record: GameRecord, viewer: int | None = None) -> dict[str, Any]:
    """docs/api.md's Game object as ``viewer`` (a seat, or None for anybody else) may see it: the
    public board, plus ``?`` on the viewer's own wrong guesses in windows-duel."""
    state = record.state
    settings = record.settings
    result = state.result
    extra = settings.spec.seat_fields
    seats = [
        {
            "seat": i,
            "player_id": seat.player_id,
            "name": seat.name,
            "kind": seat.kind,
            "mines": public.mines,
            "safe_taps": public.safe_taps,
            "out": public.out,
            "client_seed": seat.client_seed,
            "place": result.places[i] if result else None,
            **{name: getattr(public, name) for name in extra},
            **rating_change(record, i),
        }
        for i, (seat, public) in enumerate(zip(record.seats, state.seats, strict=True))
    ]
    active = record.status == "active" and state.turn is not None and record.deadline
    finished = record.status == "finished"
    return {
        "game_id": record.game_id,
        "variant": settings.variant,
        "status": record.status,
        "width": settings.width,
        "height": settings.height,
        "mines": settings.mines,
        "mines_left": state.mines_left,
        "move_deadline_s": record.move_deadline_s,
        "rated": record.rated,
        "created_at": record.created_at,
        "creator_seat": record.creator_seat,
        "seats": seats,
        "turn": {"seat": state.turn, "deadline": record.deadline} if active else None,
        "move_count": state.move_count,
        "board": state.board(viewer),
        "commitment": record.commitment,
        "seed": record.seed_hex if finished else None,
        "field": laid_open(record) if finished else None,
        "result": result.to_dict() if result else None,
        "bot_level": record.bot_level if any(s.kind == "bot" for s in record.seats) else None,
        "options": settings.options_dict(),
        "chain": record.chain,
        "daily": record.daily,
        "spectators_off": record.spectators_off,
    }


def laid_open(record: GameRecord) -> list[str] | None:
    """The field of a finished game whose seed is published (``*`` a mine, ``0``-``8``), as the
    Verification document has it; None while the seed is not (a daily game until its day is
    over). Derived from the seed (``mineduel/v1``, a tenth of a millisecond), never stored."""
    if record.seed_hex is None:
        return None
    settings = record.settings
    seed = bytes.fromhex(record.seed_hex)
    field = Field.from_seed(
        seed, record.field_id, record.client_seeds, settings.width, settings.height, settings.mines
    )
    return field.to_strings()


def rating_change(record: GameRecord, seat: int) -> dict[str, int | None]:
    """The seat's displayed rating before and after the game: null until a rated game's result
    is applied, and for unrated games; equal in an aborted one."""
    line = record.rating.seat(seat) if record.rating is not None else None
    if line is None:
        return {"rating_before": None, "rating_after": None}
    return {"rating_before": line.before.rating, "rating_after": line.after.rating}


def move_view(stored: dict[str, Any], viewer: int | None, finished: bool) -> dict[str, Any]:
    """docs/api.md's Move as ``viewer`` may see it: while the game runs, another seat's wrong guess
    shows no cell (everything is public once it is finished)."""
    private = stored.get("action") == "guess" and stored.get("result") == "miss"
    if not private or finished or viewer == stored.get("seat"):
        return stored
    return {**stored, "row": None, "col": None}


def moves_view(
    stored: list[dict[str, Any]], viewer: int | None, finished: bool
) -> list[dict[str, Any]]:
    """``move_view`` of each move."""
    return [move_view(move, viewer, finished) for move in stored]


def game_summary(record: GameRecord, my_seat: int | None = None) -> dict[str, Any]:
    """docs/api.md's GameSummary: who sits where, how far it is, and the caller's seat (if any)."""
    state = record.state
    result = state.result
    active = record.status == "active" and state.turn is not None and record.deadline
    return {
        "game_id": record.game_id,
        "variant": record.settings.variant,
        "status": record.status,
        "created_at": record.created_at,
        "ended_at": record.ended_at,
        "rated": record.rated,
        "seats": [
            {
                "seat": i,
                "player_id": seat.player_id,
                "name": seat.name,
                "kind": seat.kind,
                "mines": public.mines,
                "place": result.places[i] if result else None,
            }
            for i, (seat, public) in enumerate(zip(record.seats, state.seats, strict=True))
        ],
        "turn": {"seat": state.turn, "deadline": record.deadline} if active else None,
        "move_count": state.move_count,
        "my_seat": my_seat,
        "daily": record.daily,
        "move_deadline_s": record.move_deadline_s,
    }
