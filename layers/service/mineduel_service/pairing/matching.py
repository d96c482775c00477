"""What makes two seeks fit, and which of those that fit is taken first: pure rules, no I/O.

Two seeks fit when they ask for the same game (variant, move deadline, rated: the matching
key), belong to two players, are both open, and each player's displayed rating (as it was when
they asked) is inside the other's range, both ends included; a seek without a range takes any
rating. Of the seeks that fit, the nearest in rating is taken first, then the one that has
waited longest.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from .store import POOL_RATINGS, Seek

ANY_RATING = POOL_RATINGS
"""The window of a seek without a range: every rating the pool can hold."""


def takes(seek: Seek, rating: int | None) -> bool:
    """Whether ``seek``'s range takes a player rated ``rating`` (both ends included)."""
    if seek.rating_range is None:
        return True
    if rating is None:
        return False
    low, high = seek.rating_range
    return low <= rating <= high


def same_game(a: Seek, b: Seek) -> bool:
    """Both ask for the same game: the matching key."""
    return (a.variant, a.move_deadline_s, a.rated) == (b.variant, b.move_deadline_s, b.rated)


def fits(a: Seek, b: Seek, now: datetime) -> bool:
    """Whether ``a`` and ``b`` may be paired at ``now``."""
    return (
        a.player_id != b.player_id
        and a.seek_id != b.seek_id
        and same_game(a, b)
        and a.open_at(now)
        and b.open_at(now)
        and takes(a, b.rating)
        and takes(b, a.rating)
    )


def window(seek: Seek) -> tuple[int, int]:
    """The ratings of the seeks ``seek`` may be paired with (its range, or any)."""
    if seek.rating_range is None:
        return ANY_RATING
    return seek.rating_range


def nearest_first(seek: Seek, candidates: Iterable[Seek], now: datetime) -> list[Seek]:
    """The candidates that fit ``seek``, nearest in rating first, then longest waiting (each
    once)."""
    mine = seek.rating or 0
    found = {c.seek_id: c for c in candidates if fits(seek, c, now)}
    return sorted(found.values(), key=lambda c: (abs((c.rating or 0) - mine), c.created_at))
