"""Bot seats move inside the request that hands them the turn.

The bot is handed the public state and the public commitment, nothing else: ``play`` (which
holds the field) stays on this side, so the bot structurally cannot see a covered cell.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mineduel_engine import GameState, Move
from mineduel_engine.bot import choose_move

PlayTap = Callable[[GameState, int, int, int], tuple[GameState, Move]]


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
    play: PlayTap,
    limit: int,
) -> tuple[GameState, list[Move]]:
    """Let bots move until a human is to move, the game ends or ``limit`` moves are made."""
    moves: list[Move] = []
    # Every tap opens or flags at least one cell, so the loop ends within the board's size.
    for _ in range(min(limit, state.settings.size)):
        seat = bot_to_move(state, kinds)
        if seat is None:
            break
        row, col = choose_move(state, commitment, level)
        state, move = play(state, seat, row, col)
        moves.append(move)
    return state, moves
