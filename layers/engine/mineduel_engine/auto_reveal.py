"""windows-duel's auto-reveal: open what public information already fixes.

Definition (the rule the engine and the verifier apply after every windows-duel action):

- *Public information* is the public board (open numbers, shown mines: found ``A``/``B`` or hit
  ``a``/``b``, covered cells) and the game's mine total. Nothing else: never the field, never a
  seat's private wrong guesses.
- A covered cell is *proven safe* (or *proven a mine*) when it is safe (a mine) in EVERY
  arrangement of the uncovered mines that fits every open number and the mine total. This is
  exact: not a list of deduction patterns but the certainty itself, computed by the exact
  counter of ``bot.probability`` (a chance of exactly 0 or 1, in integers).
- A covered cell is *auto-opened* when it is proven safe and every one of its neighbours is open,
  a shown mine, or itself proven safe or proven a mine: then its number is fixed too (the shown
  and proven mines around it), and opening it tells nobody anything new.
- The opened cells show that number; a 0 opened this way does not flood (its neighbours open only
  if they qualify themselves). The rule is applied again on the new board until a pass opens
  nothing. With exact certainty a second pass never finds more: the numbers it opened were
  already implied, so the layouts, hence the certainties, are the same, and a cell that did not
  qualify still does not. So a pass that was counted exactly is the last one.

The count runs under a work budget (``AUTO_REVEAL_BUDGET``, counted in work units, never a
clock, so the rules and every verifier agree to the cell). A board past it (a pathological
tangle no real game reaches) is judged by what local deduction proves instead: what single
numbers and pairs of numbers prove mine or safe (``bot.deduction``), a sound subset of the exact
certainty, so auto-reveal may open less there but never anything unproven; such passes repeat
until one opens nothing.

Everything here is a function of the public board: the field is not even an argument.
"""

from __future__ import annotations

from collections.abc import Sequence

from .bot.board_bits import cells_of
from .bot.budget import Budget, TooHard
from .bot.deduction import deduce
from .bot.position import FLAG_CHARS, Position
from .bot.probability import solve
from .geometry import neighbours
from .state import COVERED

AUTO_REVEAL_BUDGET = 200_000
"""Work units one pass may count (``bot.budget``: about 0.2 to 0.4 s on a loaded 2-core
machine); windows-duel boards of real games take a few hundred, the worst constructed 11 x 11
tangles a few thousand."""


def proven(
    width: int, height: int, mines: int, cells: Sequence[str]
) -> tuple[set[int], set[int], bool]:
    """Covered cells public information proves safe, those it proves mines, and whether that
    is the exact certainty (False: the board passed the budget, and local deduction decided)."""
    position = Position(width, height, mines, tuple(cells))
    try:
        solution = solve(position, Budget(AUTO_REVEAL_BUDGET))
    except TooHard:
        settled = deduce(position)
        settled.pairs(list(range(len(settled.numbers))), None)
        return set(cells_of(settled.safe)), set(cells_of(settled.mines)), False
    return set(solution.certain_safe), set(solution.certain_mines), True


def fixed_cells(width: int, height: int, mines: int, cells: Sequence[str]) -> list[tuple[int, int]]:
    """One pass: ``(cell, number)`` for every covered cell proven safe whose number is fixed."""
    return _fixed(width, height, mines, cells)[0]


def _fixed(
    width: int, height: int, mines: int, cells: Sequence[str]
) -> tuple[list[tuple[int, int]], bool]:
    """``fixed_cells``, and whether the pass was counted exactly (``proven``)."""
    safe, sure_mines, exact = proven(width, height, mines, cells)
    table = neighbours(width, height)
    found: list[tuple[int, int]] = []
    for cell in sorted(safe):
        number = 0
        for n in table[cell]:
            ch = cells[n]
            if ch in FLAG_CHARS or n in sure_mines:
                number += 1
            elif ch == COVERED and n not in safe:
                break  # a neighbour nobody can call: the number is not fixed
        else:
            found.append((cell, number))
    return found, exact


def auto_reveal(width: int, height: int, mines: int, cells: Sequence[str]) -> list[tuple[int, int]]:
    """Every cell auto-reveal opens on this public board, as ``(cell, number)`` in index order."""
    board = list(cells)
    opened: dict[int, int] = {}
    while True:
        found, exact = _fixed(width, height, mines, board)
        for cell, number in found:
            board[cell] = str(number)
            opened[cell] = number
        if not found or exact:  # an exact pass is the last one (module docstring)
            return sorted(opened.items())
