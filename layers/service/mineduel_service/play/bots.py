"""Bot seats move inside the request that hands them the turn.

The bot is handed the public state and the public commitment, nothing else: ``play`` (which
holds the field) stays on this side, so the bot structurally cannot see a covered cell.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mineduel_engine import GameState, Move

Play = Callable[[GameState, int, str, int, int], tuple[GameState, Move]]
"""Plays ``(state, seat, action, row, col)`` with the game's field and rules."""


def bot_to_move(state: GameState, kinds: Sequence[str]) -> int | None:
    """The bot seat whose turn it is, or None when a human is to move or the game is over."""
    if state.finished or state.turn is None:
        return None
    return state.turn if kinds[state.turn] == "bot" else None


def bot_replies(
    state: GameState,
    kinds: Sequence[str],
    commitment: str,
    level: str,
    play: Play,
    limit: int,
) -> tuple[GameState, list[Move]]:
    """Let bots move until a human is to move, the game ends or ``limit`` moves are made."""
    moves: list[Move] = []
    # A bot's move opens or shows at least one cell, or is a windows-duel wrong guess, which a
    # bot never repeats (it knows that cell is safe): so bots alone end within this many moves.
    bound = (state.settings.seats + 1) * state.settings.size
    for _ in range(min(limit, bound)):
        seat = bot_to_move(state, kinds)
        if seat is None:
            break
        # The bot (its exact-probability solver is a third of a commit's cold import) is
        # loaded the first time a bot is to move: a game between people never needs it.
        from mineduel_engine.bot import choose_action  # noqa: PLC0415

        chosen = choose_action(state, commitment, level)
        state, move = play(state, seat, chosen.action, chosen.row, chosen.col)
        moves.append(move)
    return state, moves
