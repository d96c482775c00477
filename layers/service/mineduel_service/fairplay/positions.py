"""How hard each tapped position of a finished game was (``screening.Difficulty``), from the
game's field and its move log: pure (no I/O), the engine's own counting.

The post-game analysis publishes, per tap, the chosen cell's chance and the best chance on the
board, not how many cells shared the best one, how far the next one lay behind it, nor how
many lay close to it; the screening needs all three to tell a hard position from an obvious
one or from a tap among ties, and to grade it (``Difficulty.grade``).
So the screener replays the game and counts each position's chances again, as the analysis
does (``mineduel_engine.analysis.position_chances``, under the same budgets, so a position the
analysis estimated is estimated here too): well under a millisecond a position, a tenth of a
second for a long game. Only finished games are replayed: the field is public by then.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mineduel_engine import Field, Settings, rules_for
from mineduel_engine.analysis import GAME_BUDGET, POSITION_BUDGET, position_chances
from mineduel_engine.bot import SeatView
from mineduel_engine.bot.probability import Budget
from mineduel_engine.moves import Move
from mineduel_engine.replay import replay_move

from .screening import Difficulty, difficulty


def difficulties(
    settings: Settings, field: Field, moves: Sequence[Mapping[str, Any]]
) -> dict[int, Difficulty]:
    """Each cell action's position, by move number, as the moving seat saw it."""
    rules = rules_for(settings.variant)
    state = rules.new_game(settings)
    game = Budget(GAME_BUDGET)
    found: dict[int, Difficulty] = {}
    for record in moves:
        move = Move.from_dict(record)
        if not move.is_elimination:
            view = SeatView.from_state(state, move.seat)
            chances, exact = position_chances(view.position, POSITION_BUDGET, game)
            found[move.n] = difficulty(chances, exact)
        state, _ = replay_move(rules, state, field, move)
    return found
