"""``mineduel analyze FILE|-``: exact mine chances and the bot's move for positions;
``mineduel analyze --game FILE|URL|-``: a finished game's luck against skill.

``--game`` reads a Verification document (as ``mineduel verify`` does) and prints its analysis
as one JSON object: exactly what ``GET /v1/games/{game_id}/analysis`` serves, because both are
the engine's ``analysis.analyze_document`` on the same document (docs/analysis.md). Exit codes:
0 analysed, 1 the document is not a finished game whose moves replay, 2 it cannot be read.

A player's analysis tool, and a way for anyone to check the bot: each input line is one JSON
object describing what one seat sees (``docs/bot.md`` lists every key):

- ``variant``: ``mine-duel`` (default), ``mineseeker`` or ``windows-duel``;
- ``board``: docs/api.md rows (``.`` covered, ``0``-``8`` open, ``A``-``D`` a mine flagged or
  found by seat 0-3, which counts as a known mine; windows-duel also ``a``/``b`` hit mines and
  ``?`` the seat's own wrong guesses, known safe);
- ``width``, ``height``, ``mines``: default to the variant's own;
- mine-duel: ``seats`` (seats still in, default 2); mineseeker: ``seat`` (the seat to move,
  default 0), ``bomb_used`` (default false) and ``options`` (``{"bomb_when_behind": false}``);
- ``commitment`` (default 64 zeros) and ``move_number`` (default 1) key the public tie-break
  stream, so a game's bot move can be reproduced exactly.

Each output line is ``{"probabilities": [[...]], "move": {"action", "row", "col"}}`` (rows of
floats, null for open cells, 1.0 for known mines, 0.0 for known-safe ``?`` cells; ``move`` null
when nothing is covered), plus ``bomb`` (mineseeker: the square with the most expected mines)
or ``guess`` and ``reveal`` (windows-duel: the best of each and its expected points). With
``--human`` (the default when standard output is a terminal) each position is drawn instead: the
board with every covered cell's chance in percent, then the move.

Counting is exact, and on a pathological board (a wide, tangled frontier) exact counting can
take minutes and gigabytes; so it runs under a work budget (``--max-work`` programme steps,
and ``--time-limit`` seconds if given): past it the line answers ``{"error": ...}`` saying so,
instead of hanging. Exit codes: ``EXIT_CODES``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TextIO

from mineduel_engine import InvalidSettings
from mineduel_engine.analysis import AnalysisError, analyze_document
from mineduel_engine.bot import BOT_LEVELS, DEFAULT_LEVEL, Position, SeatView, decide, solve
from mineduel_engine.bot.choice import best_cells
from mineduel_engine.bot.mineseeker import square_values
from mineduel_engine.bot.probability import Budget, TooHard
from mineduel_engine.bot.windows import guess_value, reveal_value
from mineduel_engine.fairness import bot_stream
from mineduel_engine.settings import SEAT_LETTERS, VARIANT_SPECS, make_options, spec_of
from mineduel_engine.state import WRONG_GUESS

from .sources import Unreadable, load

HELP = "Exact mine chances and the bot's move for positions; --game: luck and skill."
DEFAULT_COMMITMENT = "0" * 64
DEFAULT_MAX_WORK = 1_000_000
"""Programme steps one position may take (``probability.Budget``): 1 to 2 s and 80 MB on a
2-core machine. Real games' positions take a few thousand; only constructed, tangled
frontiers come near it."""

OK, BAD_LINE, UNREADABLE, TOO_HARD = 0, 1, 2, 3
EXIT_CODES = {
    OK: "every position was analysed",
    BAD_LINE: "a line is not a position (its answer says why), or no mine layout fits it",
    UNREADABLE: "the input could not be opened",
    TOO_HARD: "a position needed more work than --max-work or --time-limit allow (and no line "
    "was bad)",
}


class BadLine(ValueError):
    """One input line is not a position this command can analyse; the message says why."""


class TimedBudget(Budget):
    """The engine's work budget, plus a wall-clock limit (the engine itself reads no clock)."""

    def __init__(self, terms: int, seconds: float | None, clock: Callable[[], float]) -> None:
        super().__init__(terms)
        self._clock = clock
        self._deadline = None if seconds is None else clock() + seconds

    def spend(self, terms: int) -> None:
        """Spend as the engine does; also stop once the time is up."""
        super().spend(terms)
        if self._deadline is not None and self._clock() > self._deadline:
            raise TooHard("the board needs more time than the limit allows")


class Limits:
    """How much work one position may take: programme steps (None: no limit) and seconds."""

    def __init__(
        self,
        max_work: int | None = DEFAULT_MAX_WORK,
        time_limit: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.max_work = max_work
        self.time_limit = time_limit
        self._clock = clock

    def budget(self) -> Budget | None:
        """A fresh budget for one position (None when nothing limits it)."""
        if self.max_work is None and self.time_limit is None:
            return None
        terms = self.max_work if self.max_work is not None else sys.maxsize
        return TimedBudget(terms, self.time_limit, self._clock)

    def exceeded(self) -> str:
        """The message of a position that passed the budget: what stopped it, what to do."""
        parts = []
        if self.max_work is not None:
            parts.append(f"{self.max_work:,} programme steps (--max-work)")
        if self.time_limit is not None:
            parts.append(f"{self.time_limit:g} s (--time-limit)")
        return (
            f"too much work: counting this board exactly needs more than {' or '.join(parts)}; "
            "its covered cells next to numbers form a wide, tangled frontier. Raise the limit "
            "(--max-work 0 --time-limit 0 lifts both) to wait for the exact answer"
        )


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
    shape = parser.add_mutually_exclusive_group()
    shape.add_argument(
        "--human",
        dest="human",
        action="store_true",
        default=None,
        help="draw each board with its chances in percent (the default on a terminal)",
    )
    shape.add_argument(
        "--json",
        dest="human",
        action="store_false",
        help="one JSON object per line (the default when the output is not a terminal)",
    )
    parser.add_argument(
        "--max-work",
        type=_whole,
        default=DEFAULT_MAX_WORK,
        metavar="STEPS",
        help=f"programme steps one position may take (default {DEFAULT_MAX_WORK:,}, 1 to 2 s; "
        "0: no limit)",
    )
    parser.add_argument(
        "--time-limit",
        type=_seconds,
        default=None,
        metavar="SECONDS",
        help="seconds one position may take (default: none; 0: none)",
    )
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = "exit codes:\n" + "\n".join(
        f"  {code}  {meaning}" for code, meaning in EXIT_CODES.items()
    )


def _whole(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError("give 0 (no limit) or more")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError("give 0 (no limit) or more seconds")
    return value


def run(args: argparse.Namespace) -> int:
    """Analyse every line (or ``--game``'s document); return the exit code (``EXIT_CODES``)."""
    if args.game is not None:
        return analyze_game(str(args.game))
    if args.source is None:
        print("mineduel analyze: give positions (FILE or -) or --game FILE|URL|-", file=sys.stderr)
        return UNREADABLE
    source = str(args.source)
    human = sys.stdout.isatty() if args.human is None else bool(args.human)
    limits = Limits(args.max_work or None, args.time_limit or None)
    try:
        if source == "-":
            return analyze_all(sys.stdin, str(args.level), limits, human)
        with Path(source).open(encoding="utf-8") as lines:
            return analyze_all(lines, str(args.level), limits, human)
    except OSError as exc:
        print(f"mineduel analyze: cannot read {source}: {exc.strerror}", file=sys.stderr)
        return UNREADABLE


def analyze_game(source: str) -> int:
    """Print the analysis of the finished game whose Verification document is at ``source``."""
    try:
        doc = load(source, sys.stdin)
    except Unreadable as exc:
        print(f"mineduel analyze: {exc}", file=sys.stderr)
        return UNREADABLE
    try:
        result = analyze_document(doc)
    except AnalysisError as exc:
        print(f"mineduel analyze: {exc}", file=sys.stderr)
        return BAD_LINE
    print(json.dumps(result))
    return OK


def analyze_all(
    lines: Iterable[str],
    level: str,
    limits: Limits | None = None,
    human: bool = False,
    out: TextIO | None = None,
) -> int:
    """Print one answer per non-blank line (JSON, or drawn for people); return the exit code."""
    limits = limits or Limits()
    out = out or sys.stdout
    bad = too_hard = False
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        result, view = _analyze(line, level, limits)
        if "error" in result:
            if result.get("too_hard"):
                too_hard = True
            else:
                bad = True
        if human:
            print(draw(number, view, result), file=out, flush=True)
        else:
            print(json.dumps(result), file=out, flush=True)
    return BAD_LINE if bad else TOO_HARD if too_hard else OK


def analyze_line(
    line: str, level: str = DEFAULT_LEVEL, limits: Limits | None = None
) -> dict[str, Any]:
    """The answer for one input line: chances and the bot's move, or an error (with
    ``"too_hard": true`` when the work budget stopped the count)."""
    return _analyze(line, level, limits or Limits())[0]


def _analyze(line: str, level: str, limits: Limits) -> tuple[dict[str, Any], SeatView | None]:
    """The answer, and the position it is about (None when the line is not one)."""
    try:
        view, commitment, move_number = parse(line)
    except (BadLine, ValueError) as exc:
        return {"error": str(exc)}, None
    try:
        solution = solve(view.position, limits.budget())
    except TooHard:
        return {"error": limits.exceeded(), "too_hard": True}, view
    except ValueError as exc:  # no mine layout fits (``Inconsistent``)
        return {"error": str(exc)}, view
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
    return answer, view


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


def draw(number: int, view: SeatView | None, answer: dict[str, Any]) -> str:
    """One position for people: the board with each covered cell's mine chance in percent
    (``100%`` and ``0%`` only when certain), open cells as their numbers, known mines as
    their letters, then the move and the variant's best actions."""
    title = f"position {number}"
    if view is None:
        return f"{title}: cannot analyse it: {answer['error']}\n"
    position = view.position
    head = (
        f"{title}: {view.variant}, {position.width}x{position.height}, {position.mines} mines, "
        f"{position.mines_left} still hidden"
    )
    if "error" in answer:
        return f"{head}\n  cannot analyse it: {answer['error']}\n"
    width = position.width
    rows = answer["probabilities"]
    lines = [head, "     " + "".join(f"{col:>5}" for col in range(width))]
    for row in range(position.height):
        shown = [_cell(position.cells[row * width + col], rows[row][col]) for col in range(width)]
        lines.append(f"{row:>5}" + "".join(f"{text:>5}" for text in shown))
    move = answer["move"]
    if move is None:
        lines.append("nothing is covered: no move")
    else:
        chance = rows[move["row"]][move["col"]]
        lines.append(
            f"move: {move['action']} row {move['row']}, col {move['col']} "
            f"({_percent(chance)} a mine)"
        )
    if "bomb" in answer:
        bomb = answer["bomb"]
        lines.append(
            f"best bomb: centred on row {bomb['row']}, col {bomb['col']}, "
            f"{bomb['expected_mines']:.2f} mines expected"
        )
    for action in ("guess", "reveal"):
        if action in answer:
            best = answer[action]
            lines.append(
                f"best {action}: row {best['row']}, col {best['col']}, "
                f"{best['points'] + 0.0:+.2f} points expected"
            )
    return "\n".join(lines) + "\n"


def _cell(char: str, chance: float | None) -> str:
    """A covered cell as its chance; any other as it shows on the board."""
    if char not in (".", WRONG_GUESS) or chance is None:
        return char
    return _percent(chance)


def _percent(chance: float) -> str:
    """A chance in whole percent, where 0% and 100% mean certain: an uncertain chance shows
    at least 1% and at most 99%."""
    if chance in (0.0, 1.0):
        return f"{round(chance * 100)}%"
    return f"{min(99, max(1, round(chance * 100)))}%"
