"""The work budget: how much counting a caller can afford, in units that track time.

Counting a board exactly is fast on every board real play reaches, but a pathological one (a
wide, tangled frontier) could take minutes. So every part of the work that grows with the board
(reading it, deducing, ordering, counting, combining) spends from a ``Budget`` as it goes, in
*work units* calibrated so that a unit costs about the same time whatever the part; passing the
budget raises ``TooHard``. No clock is read: the same board and budget always give the same
answer, so a bot's move and an analysis are reproducible to the last digit, and a budget of
``N`` units is a bound on the time (``docs/bot.md`` gives the measured rate).
"""

from __future__ import annotations


class TooHard(RuntimeError):
    """Counting would pass the caller's budget (only with a budget)."""


class Budget:
    """Work a caller can afford, in work units (module docstring).

    Counting is exact or it stops: passing the budget raises ``TooHard``, so a pathological
    board costs a bounded amount of work instead of a timeout. ``left`` is what remains.
    """

    def __init__(self, units: int) -> None:
        self.left = units

    def spend(self, units: int) -> None:
        """Take ``units`` from the budget; raise ``TooHard`` once it is overdrawn."""
        self.left -= units
        if self.left < 0:
            raise TooHard("the board needs more counting than the budget allows")
