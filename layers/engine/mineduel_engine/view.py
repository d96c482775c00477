"""The public view, built from the moves played and never cut down from the field.

``public_board`` takes only the settings and the move log. It cannot leak a covered cell
because it is never handed the field: what it shows is exactly what the moves made public.
"""

from __future__ import annotations

from collections.abc import Iterable

from .moves import Move
from .rules import rules_for
from .settings import Settings
from .state import COVERED


def public_cells(settings: Settings, moves: Iterable[Move]) -> list[str]:
    """Cell codes (``.``, ``0``-``8``, a seat letter) after ``moves``, in index order."""
    rules = rules_for(settings.variant)
    cells = [COVERED] * settings.size
    for move in moves:
        rules.apply_to_cells(settings, cells, move)
    return cells


def public_board(settings: Settings, moves: Iterable[Move]) -> list[str]:
    """The api.md ``board``: ``height`` strings of ``width`` characters, from the moves alone."""
    joined = "".join(public_cells(settings, moves))
    w = settings.width
    return [joined[r * w : (r + 1) * w] for r in range(settings.height)]
