"""The probability engine beside ms_toollib on classic minesweeper's three boards.

``make bench-bot``'s main sets are 16x16 boards with 51 mines, the board MineDuel plays; an
engine that is fast there could still be slow on another size or density, so this part times
the same comparison on beginner (9x9, 10 mines), intermediate (16x16, 40) and expert (30x16,
99): ms_toollib's home ground, the boards it was written for.

Positions come from classic single-player games played here (``play``): the first tap opens
an area (no mine on or around it, as today's clients make it), zeros open their neighbours,
and each turn opens every cell the engine proves safe or, when there is none, the cell with
the lowest chance of a mine; a game ends on a mine or a cleared board. Each position before a
tap is kept, ``SAMPLE`` times as many as are timed, and a seeded sample of them is timed: the
same boards every run. Nothing is flagged (a player who never flags), so both engines solve
the same flag-free problem.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from mineduel_engine.bot.position import Position
from mineduel_engine.bot.probability import solve
from mineduel_engine.geometry import neighbours

from .side_by_side import TABLE_HEAD, ratio_row, side_by_side

SAMPLE = 5
"""Positions played per position timed (the timed ones are a seeded sample of them)."""


@dataclass(frozen=True)
class Kind:
    """A classic board: its name, size and mines."""

    name: str
    width: int
    height: int
    mines: int

    def solve(self, text: str) -> dict[int, float]:
        """Our engine on a board of this kind (its cells as one string, parsing timed)."""
        return solve(Position(self.width, self.height, self.mines, text)).mine

    def toollib_solve(self, ms_toollib: Any, text: str) -> Any:
        """ms_toollib's whole-board call on a board of this kind, from its cells (10 marks a
        covered cell there): the conversion is timed, as our parsing is."""
        w = self.width
        board = [
            [10 if ch == "." else int(ch) for ch in text[r * w : (r + 1) * w]]
            for r in range(self.height)
        ]
        return ms_toollib.cal_probability_onboard(board, self.mines)


KINDS = (
    Kind("beginner", 9, 9, 10),
    Kind("intermediate", 16, 16, 40),
    Kind("expert", 30, 16, 99),
)


def play(kind: Kind, rng: random.Random, seen: list[str]) -> None:
    """One classic game (module docstring), each position before a tap added to ``seen``."""
    size = kind.width * kind.height
    near = neighbours(kind.width, kind.height)
    first = rng.randrange(size)
    keep_clear = {first, *near[first]}
    mines = set(rng.sample([c for c in range(size) if c not in keep_clear], kind.mines))
    cells = ["."] * size

    def open_from(cell: int) -> None:
        todo = [cell]
        while todo:
            c = todo.pop()
            if cells[c] != ".":
                continue
            shown = sum(1 for n in near[c] if n in mines)
            cells[c] = str(shown)
            if shown == 0:
                todo.extend(n for n in near[c] if cells[n] == ".")

    open_from(first)
    while cells.count(".") > kind.mines:
        text = "".join(cells)
        seen.append(text)
        found = solve(Position(kind.width, kind.height, kind.mines, text))
        if found.certain_safe:
            for cell in found.certain_safe:
                open_from(cell)
            continue
        cell = min(found.mine, key=lambda c: (found.mine[c], c))
        if cell in mines:
            return
        open_from(cell)


def positions(kind: Kind, count: int) -> list[str]:
    """``count`` positions of ``kind``: the same every run (seeded games, a seeded sample)."""
    rng = random.Random(f"mineduel bench-bot classic {kind.name}")
    seen: list[str] = []
    while len(seen) < count * SAMPLE:
        play(kind, rng, seen)
    return random.Random(1).sample(seen, count)


def max_difference(ms_toollib: Any, kind: Kind, boards: Sequence[str]) -> float:
    """The largest difference between the two engines' chance of any covered cell."""
    worst = 0.0
    for text in boards:
        theirs = kind.toollib_solve(ms_toollib, text)[0]
        for cell, p in kind.solve(text).items():
            worst = max(worst, abs(p - theirs[cell // kind.width][cell % kind.width]))
    return worst


def bench_classic(ms_toollib: Any, count: int, repeat: int) -> None:
    """Print the side-by-side table on the three classic boards (module docstring)."""
    print(
        f"  classic boards, {count} positions each from single-player games, against "
        "cal_probability_onboard:"
    )
    print(TABLE_HEAD)
    differences = []
    for kind in KINDS:
        boards = positions(kind, count)
        theirs = partial(kind.toollib_solve, ms_toollib)
        times = side_by_side(boards, {"ours": kind.solve, "theirs": theirs}, repeat)
        name = f"{kind.name} ({kind.width}x{kind.height}/{kind.mines})"
        print(ratio_row(name, times["ours"], times["theirs"]))
        differences.append(f"{kind.name} {max_difference(ms_toollib, kind, boards):.1e}")
    print(f"    max |ours - cal_probability_onboard|: {', '.join(differences)}")
