"""``mineduel analyze FILE|-``: exact mine chances and the bot's move for positions;
``mineduel analyze --game FILE|URL|-``: a finished game's luck against skill.

``--game`` reads a Verification document (as ``mineduel verify`` does) and prints its analysis
as one JSON object: exactly what ``GET /v1/games/{game_id}/analysis`` serves, because both are
the engine's ``analysis.analyze_document`` on the same document (docs/analysis.md). Exit codes:
0 analysed, 1 the document is not a finished game whose moves replay, 2 it cannot be read.

A player's analysis tool, and a way for anyone to check the bot: each input line is one JSON
object describing what one seat sees (``docs/bot.md`` lists every key):

- ``variant``: ``mine-duel`` (default), ``mineseeker`` or ``windows-duel``;
- ``board``: api.md rows (``.`` covered, ``0``-``8`` open, ``A``-``D`` a mine flagged or found by
  seat 0-3, which counts as a known mine; windows-duel also ``a``/``b`` hit mines and ``?`` the
  seat's own wrong guesses, known safe);
- ``width``, ``height``, ``mines``: default to the variant's own;
- mine-duel: ``seats`` (seats still in, default 2); mineseeker: ``seat`` (the seat to move,
  default 0), ``bomb_used`` (default false) and ``options`` (``{"bomb_when_behind": false}``);
- ``commitment`` (default 64 zeros) and ``move_number`` (default 1) key the public tie-break
  stream, so a game's bot move can be reproduced exactly.

Each output line is ``{"probabilities": [[...]], "move": {"action", "row", "col"}}`` (rows of
floats, null for open cells, 1.0 for known mines, 0.0 for known-safe ``?`` cells; ``move`` null
when nothing is covered), plus ``bomb`` (mineseeker: the square with the most expected mines)
or ``guess`` and ``reveal`` (windows-duel: the best of each and its expected points). A line
that cannot be read, or a board no mine layout fits, gives ``{"error": "..."}`` and the exit
code 1 (2 if the input itself cannot be opened).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mineduel_engine import InvalidSettings
from mineduel_engine.analysis import AnalysisError, analyze_document
from mineduel_engine.bot import BOT_LEVELS, DEFAULT_LEVEL, Position, SeatView, decide, solve
from mineduel_engine.bot.choice import best_cells
from mineduel_engine.bot.mineseeker import square_values
from mineduel_engine.bot.windows import guess_value, reveal_value
from mineduel_engine.fairness import bot_stream
from mineduel_engine.settings import SEAT_LETTERS, VARIANT_SPECS, make_options, spec_of
from mineduel_engine.state import WRONG_GUESS

from .sources import Unreadable
from .verify import load

HELP = "Exact mine chances and the bot's move for positions; --game: luck and skill."
DEFAULT_COMMITMENT = "0" * 64


class BadLine(ValueError):
    """One input line is not a position this command can analyse; the message says why."""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add ``analyze``'s arguments."""
    parser.add_argument(
        "source", metavar="FILE|-", nargs="?", help="JSON lines of positions, or - for stdin"
    )
    parser.add_argument(
        "--game",
        metavar="FILE|URL|-",
        help="analyse a finished game instead: its Verification document (a file, an http(s) "
        "URL such as .../v1/games/<id>/verify, or - for standard input)",
    )
    parser.add_argument(
        "--level",
        choices=BOT_LEVELS,
        default=DEFAULT_LEVEL,
        help=f"the bot level whose move is reported (default {DEFAULT_LEVEL})",
    )


def run(args: argparse.Namespace) -> int:
    """Analyse every line; return 0 if all were analysed, 1 if one failed, 2 if unreadable."""
    if args.game is not None:
        return analyze_game(str(args.game))
    if args.source is None:
        print("mineduel analyze: give positions (FILE or -) or --game FILE|URL|-", file=sys.stderr)
        return 2
    source = str(args.source)
    try:
        if source == "-":
            return analyze_all(sys.stdin, str(args.level))
        with Path(source).open(encoding="utf-8") as lines:
            return analyze_all(lines, str(args.level))
    except OSError as exc:
        print(f"mineduel analyze: cannot read {source}: {exc.strerror}", file=sys.stderr)
        return 2


def analyze_game(source: str) -> int:
    """Print the analysis of the finished game whose Verification document is at ``source``."""
    try:
        doc = load(source, sys.stdin)
    except Unreadable as exc:
        print(f"mineduel analyze: {exc}", file=sys.stderr)
        return 2
    try:
        result = analyze_document(doc)
    except AnalysisError as exc:
        print(f"mineduel analyze: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(result))
    return 0


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
        view, commitment, move_number = parse(line)
        solution = solve(view.position)
    except (BadLine, ValueError) as exc:
        return {"error": str(exc)}
    position = view.position
    width = position.width
    chances = solution.mine
    probabilities: list[list[float | None]] = []
    for row in range(position.height):
        values: list[float | None] = []
        for col in range(width):
            cell = row * width + col
            values.append(1.0 if position.is_flag(cell) else chances.get(cell))
        probabilities.append(values)
    answer: dict[str, Any] = {"probabilities": probabilities, "move": None}
    if position.covered:
        action, cell = decide(view, bot_stream(commitment, move_number), level)
        answer["move"] = {"action": action, "row": cell // width, "col": cell % width}
        if view.variant == "mineseeker":
            answer["bomb"] = best_square(position, chances)
        elif view.variant == "windows-duel":
            answer.update(best_guess_and_reveal(width, chances))
    return answer


def best_square(position: Position, chances: dict[int, float]) -> dict[str, Any]:
    """The square with the most expected mines (the first in index order on a tie)."""
    values = square_values(position, chances)
    centre = best_cells(values)[0]
    return {
        "row": centre // position.width,
        "col": centre % position.width,
        "expected_mines": values[centre],
    }


def best_guess_and_reveal(width: int, chances: dict[int, float]) -> dict[str, Any]:
    """The likeliest mine and the safest cell, each with its expected points."""
    guess = max(sorted(chances), key=lambda c: chances[c])
    reveal = min(sorted(chances), key=lambda c: chances[c])
    return {
        "guess": {
            "row": guess // width,
            "col": guess % width,
            "points": guess_value(chances[guess]),
        },
        "reveal": {
            "row": reveal // width,
            "col": reveal % width,
            "points": reveal_value(chances[reveal]),
        },
    }


def parse(line: str) -> tuple[SeatView, str, int]:
    """Read one position line; raise ``BadLine`` with a message a person can act on."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise BadLine(f"not JSON: {exc.msg}") from None
    if not isinstance(data, dict):
        raise BadLine("each line must be a JSON object")
    variant = data.get("variant", "mine-duel")
    if variant not in VARIANT_SPECS:
        raise BadLine(f"variant must be one of {', '.join(VARIANT_SPECS)}")
    spec = spec_of(variant)
    width = _int(data, "width", spec.width)
    height = _int(data, "height", spec.height)
    mines = _int(data, "mines", spec.mines)
    board = data.get("board")
    if not isinstance(board, list) or not all(isinstance(row, str) for row in board):
        raise BadLine("board must be a list of strings")
    seats = _int(data, "seats", spec.min_seats if spec.max_seats == spec.min_seats else 2)
    move_number = _int(data, "move_number", 1)
    commitment = data.get("commitment", DEFAULT_COMMITMENT)
    if not isinstance(commitment, str) or len(commitment) != 64:
        raise BadLine("commitment must be 64 hex characters")
    try:
        bytes.fromhex(commitment)
    except ValueError:
        raise BadLine("commitment must be 64 hex characters") from None
    if not spec.min_seats - 1 <= seats <= spec.max_seats or move_number < 1:
        raise BadLine(
            f"seats must be {spec.min_seats - 1} to {spec.max_seats} and move_number at least 1"
        )
    allowed = set("012345678." + SEAT_LETTERS + spec.board_chars)
    if variant == "windows-duel":
        allowed.add(WRONG_GUESS)
    if not set("".join(board)) <= allowed:
        raise BadLine(f"the board holds a character {variant} does not use")
    try:
        position = Position.from_board(width, height, mines, board)
    except ValueError as exc:
        raise BadLine(str(exc)) from None
    return _view(data, variant, position, seats), commitment, move_number


def _view(data: dict[str, Any], variant: str, position: Position, seats: int) -> SeatView:
    """The seat's view: for mineseeker, whether its bomb may be used now."""
    if variant != "mineseeker":
        return SeatView(variant, position, seat=0, seats_in=seats)
    seat = _int(data, "seat", 0)
    if seat not in (0, 1):
        raise BadLine("seat must be 0 or 1")
    bomb_used = data.get("bomb_used", False)
    if not isinstance(bomb_used, bool):
        raise BadLine("bomb_used must be true or false")
    given = data.get("options", {})
    if not isinstance(given, dict):
        raise BadLine("options must be an object")
    try:
        options = dict(make_options(variant, given))
    except InvalidSettings as exc:
        raise BadLine(f"options: {exc}") from None
    mines = tuple(position.cells.count(letter) for letter in SEAT_LETTERS[:2])
    behind = mines[seat] < mines[1 - seat]
    may_bomb = not bomb_used and (behind or not options["bomb_when_behind"])
    return SeatView(variant, position, seat, 2, mines, may_bomb)


def _int(data: dict[str, Any], key: str, default: int | None = None) -> int:
    value = data.get(key, default)
    if value is None:
        raise BadLine(f"missing key {key!r}")
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadLine(f"{key} must be an integer")
    return value
