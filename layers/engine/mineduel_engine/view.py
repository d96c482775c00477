"""The public view, built from the moves played and never cut down from the field.

``public_board`` takes only the settings and the move log. It cannot leak a covered cell
because it is never handed the field: what it shows is exactly what the moves made public.

A viewer (a seat) may also see its own private knowledge: in windows-duel, ``?`` on the cells
it guessed wrong that are still covered. ``viewer=None`` is a spectator and sees no private
knowledge at all; a seat never sees another seat's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .moves import Move
from .rules import rules_for
from .settings import Settings
from .state import COVERED, WRONG_GUESS


def public_cells(settings: Settings, moves: Iterable[Move], viewer: int | None = None) -> list[str]:
    """Cell codes (``.``, ``0``-``8``, a seat letter, ...) after ``moves``, in index order, as
    ``viewer`` sees them (None: a spectator)."""
    rules = rules_for(settings.variant)
    cells = [COVERED] * settings.size
    own: list[int] = []
    for move in moves:
        rules.apply_to_cells(settings, cells, move)
        if move.is_private and move.seat == viewer and move.row is not None:
            own.append(move.row * settings.width + (move.col or 0))
    for cell in own:
        if cells[cell] == COVERED:
            cells[cell] = WRONG_GUESS
    return cells


def public_board(settings: Settings, moves: Iterable[Move], viewer: int | None = None) -> list[str]:
    """The docs/api.md ``board`` as ``viewer`` sees it, from the moves alone."""
    joined = "".join(public_cells(settings, moves, viewer))
    w = settings.width
    return [joined[r * w : (r + 1) * w] for r in range(settings.height)]


def moves_view(moves: Sequence[Move], viewer: int | None, finished: bool) -> list[dict[str, Any]]:
    """The docs/api.md ``Move`` objects as ``viewer`` may see them (``Move.view`` for each)."""
    return [move.view(viewer, finished) for move in moves]


def wrong_guesses(moves: Iterable[Move], seat: int) -> list[tuple[int, int]]:
    """``(row, col)`` of every wrong guess ``seat`` made, in order (for that seat only).

    Rebuilds a seat's private part from the complete log (``Move.to_record``), e.g. when the
    private parts were not stored beside the state.
    """
    return [
        (move.row, move.col)
        for move in moves
        if move.is_private and move.seat == seat and move.row is not None and move.col is not None
    ]
