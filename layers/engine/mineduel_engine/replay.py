"""Replay a move log on a field under the rules.

Replaying is how anybody checks a finished game (``verify``), how benchmarks and the bot's
tests reach a position, and how the service could rebuild a state from its log: the rules are
the only thing that turns moves into states, so the log alone is enough.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .errors import ReplayMismatch
from .field import Field
from .moves import Move
from .rules import RuleSet, rules_for
from .settings import Settings
from .state import GameState


def as_move(record: Move | Mapping[str, Any]) -> Move:
    """A ``Move`` from a ``Move`` or its docs/api.md dict (extra keys such as ``at`` ignored)."""
    return record if isinstance(record, Move) else Move.from_dict(record)


def replay_move(
    rules: RuleSet, state: GameState, field: Field, move: Move, seat: int | None = None
) -> tuple[GameState, Move]:
    """Play ``move``'s action again, by ``seat`` (default: the seat the move names).

    Returns the new state and the move record the rules produce, which a checker compares with
    the logged one. Raises an ``IllegalMove`` subclass when the rules refuse the move.
    """
    by = move.seat if seat is None else seat
    if move.is_elimination:
        return rules.eliminate(state, by, move.action)
    if move.row is None or move.col is None:
        what = "a wrong guess whose cell is not published" if move.is_private else move.action
        raise ReplayMismatch(f"move {move.n}: {what}: replaying it needs its cell")
    return rules.play(state, field, by, move.action, move.row, move.col)


def replay(
    settings: Settings, field: Field, moves: Iterable[Move | Mapping[str, Any]]
) -> GameState:
    """The state after replaying ``moves`` from a new game of ``settings`` on ``field``.

    Every move must be legal (else an ``IllegalMove`` subclass) and must record exactly the
    outcome the rules give it (else ``ReplayMismatch``). ``verify`` does the same, but collects
    every problem in plain words instead of stopping at the first.
    """
    rules = rules_for(settings.variant)
    state = rules.new_game(settings)
    for record in moves:
        move = as_move(record)
        state, actual = replay_move(rules, state, field, move)
        if actual != move:
            raise ReplayMismatch(f"move {move.n}: the log says {move}, the rules give {actual}")
    return state
