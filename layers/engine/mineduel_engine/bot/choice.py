"""Public tie-breaks: pick among equally good cells with the bot's public stream.

Every draw comes from ``fairness.bot_stream(commitment, move number)`` (docs/fairness.md step 8),
so anybody who sees the game can re-run each bot choice.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..fairness import Stream

TOLERANCE = 1e-9


def best_cells(scores: Mapping[int, float], tolerance: float = TOLERANCE) -> list[int]:
    """Cells whose score is within ``tolerance`` of the best, in index order."""
    top = max(scores.values())
    return sorted(c for c, s in scores.items() if s >= top - tolerance)


def pick(cells: list[int], stream: Stream) -> int:
    """One of ``cells`` (index order), chosen by the public stream; no draw for a single cell."""
    if len(cells) == 1:
        return cells[0]
    return cells[stream.below(len(cells))]
