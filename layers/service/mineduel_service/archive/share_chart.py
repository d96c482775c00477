"""The share page's luck chart: each seat's mines found against the mines it could expect, move
by move, as inline SVG (no script, nothing loaded), drawn from the game's analysis.

A solid line is what a seat found, the dashed line of the same colour what its chances promised
(the running sum of ``expected_mines``); where the solid line runs above the dashed one, the seat
was lucky. Below the chart, each seat's totals in words: mines, expected mines, luck and the
chances it gave up against the best cell (``skill_loss``). Every value put in is escaped.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 40, 12, 12, 28
COLOURS = ("#2f6fdb", "#d2452f", "#1f9d55", "#a35bd6")
"""One colour a seat (seats 0 to 3), distinguishable for most colour vision."""


def _text(value: Any) -> str:
    return html.escape(str(value), quote=True)


def series(analysis: dict[str, Any], seats: int) -> list[list[tuple[int, int, float]]]:
    """Per seat, ``(move number, mines found so far, mines expected so far)`` after each of
    its moves, starting from ``(0, 0, 0.0)``."""
    lines: list[list[tuple[int, int, float]]] = [[(0, 0, 0.0)] for _ in range(seats)]
    for move in analysis["moves"]:
        seat = move["seat"]
        if not 0 <= seat < seats:
            continue
        _, found, expected = lines[seat][-1]
        lines[seat].append(
            (move["n"], found + int(move["found"]), expected + float(move["expected_mines"]))
        )
    return lines


def _path(points: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{'M' if i == 0 else 'L'}{x:.1f},{y:.1f}" for i, (x, y) in enumerate(points))


def chart(analysis: dict[str, Any], names: Sequence[str]) -> str:
    """The chart and the seats' totals, as HTML (an ``<svg>`` and a list)."""
    lines = series(analysis, len(names))
    last_move = max((move["n"] for move in analysis["moves"]), default=1) or 1
    top = max((max(p[1], p[2]) for line in lines for p in line), default=1.0)
    top = max(1.0, float(int(top) + 1))
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(n: float) -> float:
        return LEFT + inner_w * n / last_move

    def y(value: float) -> float:
        return TOP + inner_h * (1.0 - value / top)

    label = "Mines found against mines expected, move by move: " + "; ".join(
        f"{name}: {s['mines']} found, {float(s['expected_mines']):.1f} expected"
        for name, s in zip(names, analysis["seats"], strict=False)
    )
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" role="img" '
        f'aria-label="{_text(label)}" xmlns="http://www.w3.org/2000/svg">'
    ]
    step = max(1, int(top) // 5)
    for tick in range(0, int(top) + 1, step):
        parts.append(
            f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(tick):.1f}" '
            f'y2="{y(tick):.1f}"/><text class="tick" x="{LEFT - 6}" y="{y(tick) + 4:.1f}" '
            f'text-anchor="end">{tick}</text>'
        )
    parts.append(
        f'<text class="tick" x="{LEFT}" y="{HEIGHT - 8}">move 1</text>'
        f'<text class="tick" x="{WIDTH - RIGHT}" y="{HEIGHT - 8}" text-anchor="end">'
        f"move {last_move}</text>"
    )
    for seat, line in enumerate(lines):
        colour = COLOURS[seat % len(COLOURS)]
        expected = _path([(x(n), y(e)) for n, _, e in line])
        found = _path([(x(n), y(f)) for n, f, _ in line])
        parts.append(
            f'<path d="{expected}" fill="none" stroke="{colour}" stroke-width="2" '
            'stroke-dasharray="5 4" opacity="0.8"/>'
            f'<path d="{found}" fill="none" stroke="{colour}" stroke-width="2.5"/>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n" + _totals(analysis, names)


def _totals(analysis: dict[str, Any], names: Sequence[str]) -> str:
    unit = analysis.get("skill_unit", "mines")
    items = []
    for seat, (name, line) in enumerate(zip(names, analysis["seats"], strict=False)):
        colour = COLOURS[seat % len(COLOURS)]
        expected = f"{float(line['expected_mines']):.1f}"
        luck = f"{float(line['luck']):+.1f}"
        loss = f"{float(line['skill_loss']):.1f}"
        items.append(
            f'<li><span class="key" style="background:{colour}"></span>'
            f"<strong>{_text(name)}</strong>: {_text(line['mines'])} mines, "
            f"{_text(expected)} expected (luck {_text(luck)}); gave up {_text(loss)} "
            f"{_text(unit)} against the best choices</li>"
        )
    return '<ul class="luck">' + "".join(items) + "</ul>"
