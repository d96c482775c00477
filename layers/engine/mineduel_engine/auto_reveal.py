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
  nothing. (With exact certainty a second pass never finds more, because the numbers it opened
  were already implied; the loop makes the definition hold whatever the counter.)

Everything here is a function of the public board: the field is not even an argument.
"""

from __future__ import annotations

from collections.abc import Sequence

from .bot.position import FLAG_CHARS, Position
from .bot.probability import solve
from .geometry import neighbours
from .state import COVERED


def proven(width: int, height: int, mines: int, cells: Sequence[str]) -> tuple[set[int], set[int]]:
    """Covered cells public information proves safe, and those it proves mines."""
    solution = solve(Position(width, height, mines, tuple(cells)))
    return set(solution.certain_safe), set(solution.certain_mines)


def fixed_cells(width: int, height: int, mines: int, cells: Sequence[str]) -> list[tuple[int, int]]:
    """One pass: ``(cell, number)`` for every covered cell proven safe whose number is fixed."""
    safe, sure_mines = proven(width, height, mines, cells)
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
    return found


def auto_reveal(width: int, height: int, mines: int, cells: Sequence[str]) -> list[tuple[int, int]]:
    """Every cell auto-reveal opens on this public board, as ``(cell, number)`` in index order."""
    board = list(cells)
    opened: dict[int, int] = {}
    while True:
        found = fixed_cells(width, height, mines, board)
        if not found:
            return sorted(opened.items())
        for cell, number in found:
            board[cell] = str(number)
            opened[cell] = number
