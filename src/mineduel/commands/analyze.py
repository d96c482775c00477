"""``mineduel analyze FILE|-``: exact mine chances and the bot's move for public positions.

A player's analysis tool, and a way for anyone to check the bot: each input line is one JSON
object ``{"width", "height", "mines", "board"}`` (``board`` as api.md: ``.`` covered, ``0``-``8``
open, ``A``-``D`` flagged, which counts as a known mine). Optional keys reproduce a game's bot
move exactly: ``seats`` (seats still in, default 2), ``commitment`` (the game's, default 64
zeros) and ``move_number`` (the move the bot would make, default 1), which key the public
tie-break stream. Each output line is ``{"probabilities": [[...]], "move": {"row", "col"}}``:
rows of floats, null for open cells, 1.0 for flagged ones; ``move`` is null when nothing is
covered. A line that cannot be read, or a board no mine layout fits, gives ``{"error": "..."}``
and the exit code 1 (2 if the input itself cannot be opened).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mineduel_engine.bot import BOT_LEVELS, DEFAULT_LEVEL, Position, choose_cell, solve

HELP = "Exact mine probabilities and the bot's move for positions (JSON lines)."
DEFAULT_COMMITMENT = "0" * 64


class BadLine(ValueError):
    """One input line is not a position this command can analyse; the message says why."""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add ``analyze``'s arguments."""
    parser.add_argument("source", metavar="FILE|-", help="JSON lines of positions, or - for stdin")
    parser.add_argument(
        "--level",
        choices=BOT_LEVELS,
        default=DEFAULT_LEVEL,
        help=f"the bot level whose move is reported (default {DEFAULT_LEVEL})",
    )


def run(args: argparse.Namespace) -> int:
    """Analyse every line; return 0 if all were analysed, 1 if one failed, 2 if unreadable."""
    source = str(args.source)
    try:
        if source == "-":
            return analyze_all(sys.stdin, str(args.level))
        with Path(source).open(encoding="utf-8") as lines:
            return analyze_all(lines, str(args.level))
    except OSError as exc:
        print(f"mineduel analyze: cannot read {source}: {exc.strerror}", file=sys.stderr)
        return 2


def analyze_all(lines: Iterable[str], level: str) -> int:
    """Print one answer per non-blank line; 1 if any line failed, else 0."""
    code = 0
    for line in lines:
        if not line.strip():
            continue
        result = analyze_line(line, level)
        code = max(code, 1 if "error" in result else 0)
        print(json.dumps(result), flush=True)
    return code


def analyze_line(line: str, level: str = DEFAULT_LEVEL) -> dict[str, Any]:
    """The answer for one input line: chances and the bot's move, or an error."""
    try:
        position, seats, commitment, move_number = parse(line)
        solution = solve(position)
    except (BadLine, ValueError) as exc:
        return {"error": str(exc)}
    width = position.width
    probabilities: list[list[float | None]] = []
    for row in range(position.height):
        values: list[float | None] = []
        for col in range(width):
            cell = row * width + col
            values.append(1.0 if position.is_flag(cell) else solution.mine.get(cell))
        probabilities.append(values)
    move = None
    if position.covered:
        cell = choose_cell(position, seats, commitment, move_number, level)
        move = {"row": cell // width, "col": cell % width}
    return {"probabilities": probabilities, "move": move}


def parse(line: str) -> tuple[Position, int, str, int]:
    """Read one position line; raise ``BadLine`` with a message a person can act on."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise BadLine(f"not JSON: {exc.msg}") from None
    if not isinstance(data, dict):
        raise BadLine("each line must be a JSON object")
    try:
        width, height, mines = _int(data, "width"), _int(data, "height"), _int(data, "mines")
        board = data["board"]
    except KeyError as exc:
        raise BadLine(f"missing key {exc}") from None
    if not isinstance(board, list) or not all(isinstance(row, str) for row in board):
        raise BadLine("board must be a list of strings")
    seats = _int(data, "seats", 2)
    move_number = _int(data, "move_number", 1)
    commitment = data.get("commitment", DEFAULT_COMMITMENT)
    if not isinstance(commitment, str) or len(commitment) != 64:
        raise BadLine("commitment must be 64 hex characters")
    try:
        bytes.fromhex(commitment)
    except ValueError:
        raise BadLine("commitment must be 64 hex characters") from None
    if not 1 <= seats <= 4 or move_number < 1:
        raise BadLine("seats must be 1 to 4 and move_number at least 1")
    try:
        position = Position.from_board(width, height, mines, board)
    except ValueError as exc:
        raise BadLine(str(exc)) from None
    return position, seats, commitment, move_number


def _int(data: dict[str, Any], key: str, default: int | None = None) -> int:
    value = data.get(key, default)
    if value is None:
        raise KeyError(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadLine(f"{key} must be an integer")
    return value
