"""Plain-words descriptions of how a logged move differs from what the rules give.

Kept apart from ``verify`` so the checking logic reads as a list of checks, and so every
message about cells has one shape: ``(row, col)`` lists, shortened after a few cells.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .outcome import Result

SHOWN = 5


def cell_list(cells: Iterable[tuple[object, ...]]) -> str:
    """``(3, 4), (3, 5)`` and ``... and N more`` after a few cells."""
    items = [f"({', '.join(map(str, cell))})" for cell in cells]
    shown = ", ".join(items[:SHOWN])
    return shown if len(items) <= SHOWN else f"{shown} and {len(items) - SHOWN} more"


def describe_cells(
    logged: Sequence[tuple[int, int, int]],
    actual: Sequence[tuple[int, int, int]],
    what: str = "opened",
) -> list[str]:
    """How a move's logged ``opened`` (or ``what``: ``auto-opened``) list differs from the
    one the rules give."""
    if tuple(logged) == tuple(actual):
        return []
    want = {(r, c): n for r, c, n in actual}
    got = {(r, c): n for r, c, n in logged}
    problems: list[str] = []
    missing = sorted(want.keys() - got.keys())
    extra = sorted(got.keys() - want.keys())
    wrong = sorted(cell for cell in want.keys() & got.keys() if want[cell] != got[cell])
    verb = "opened" if what == "opened" else f"{what}"
    if missing:
        problems.append(f"should also have {verb} {cell_list(missing)}")
    if extra:
        problems.append(f"lists as {what} {cell_list(extra)}, which the rules do not open")
    for row, col in wrong[:SHOWN]:
        problems.append(f"shows ({row}, {col}) as {got[(row, col)]}, but it is {want[(row, col)]}")
    if len(wrong) > SHOWN:
        problems.append(f"shows {len(wrong) - SHOWN} more cells with a wrong number")
    if not problems:
        problems.append(f"lists its {what} cells out of (row, col) order or more than once")
    return problems


def describe_flags(
    logged: Sequence[tuple[int, int]], actual: Sequence[tuple[int, int]]
) -> list[str]:
    """How a move's logged ``flagged`` list differs from the one the rules give."""
    if tuple(logged) == tuple(actual):
        return []
    said, given = cell_list(logged) or "nothing", cell_list(actual) or "nothing"
    return [f"flags {said}, but the rules flag {given}"]


def result_text(result: Result | None) -> str:
    """A result in words, for messages comparing a declared result with the replayed one."""
    if result is None:
        return "no result (the game goes on)"
    winner = "no single winner" if result.winner is None else f"seat {result.winner} wins"
    return f"{result.reason}, {winner}, places {list(result.places)}"
