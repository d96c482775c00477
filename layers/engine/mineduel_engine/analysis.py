"""Post-game analysis: how much of a finished game was luck, and how much was play.

For every cell action of a finished game, the position just before it is read as the moving
seat saw it (the public board, with its flags as known mines and the mine total; in
windows-duel also the seat's own wrong guesses, which it knows are safe, and nothing else), and
the exact engine (``bot.probability``) gives every covered cell's chance of being a mine. Then:

- ``p_mine``: the chance that the cell the seat chose was a mine; ``p_best``: the highest
  chance on that board (in windows-duel also ``p_safest``, the lowest);
- ``bot``: the cell (and ``bot_action``) the ``hard`` bot plays on that position, with the
  game's public tie-break stream, so a hard bot seat's own moves are its choices exactly;
- a seat's ``expected_mines`` is the sum of its ``p_mine`` (a bomb adds its square's expected
  mines), ``luck`` is ``mines - expected_mines`` (found more than the chances promised: lucky),
  ``skill_loss`` the sum of ``p_best - p_mine`` (chances given up against the best cell; a
  bomb gives up ``best square - its square``);
- windows-duel's actions score points: a guess on chance ``p`` is worth ``7p - 2`` expected
  points, a reveal ``-5p``; there ``skill_loss`` is in points (the best action's expected points
  minus the one taken), and ``points_luck`` is ``points - expected_points``. ``mines``,
  ``expected_mines`` and ``luck`` count guesses only (a reveal never finds a mine);
- ``swings``: the moves whose outcome differed most from what their chances promised.

Work is bounded per position and per game: the exact count of a position runs under a budget
of ``POSITION_BUDGET`` work units (``bot.budget``: counted, never timed, so every run gives the
same numbers), and all of a game's counts together under ``GAME_BUDGET``. A position past
either is estimated by local counting (each open number spreads its missing mines evenly over
its covered neighbours; cells next to no number share the global density) and listed in
``budget.estimated``; its moves say ``"exact": false``. The hard bot's choice on each position
is bounded by the bot's own budgets.

Everything here is pure: the same Verification document always gives the same analysis, which
is how the service's stored analysis and ``mineduel analyze --game`` agree to the last digit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .bot import SeatView, decide
from .bot.local import local_chances
from .bot.mineseeker import square_values
from .bot.position import Position
from .bot.probability import Budget, Inconsistent, TooHard, solve
from .bot.windows import guess_value, reveal_value
from .errors import EngineError
from .fairness import bot_stream
from .field import Field
from .geometry import bomb_square
from .moves import Move
from .replay import replay_move
from .rules import rules_for
from .settings import Settings
from .state import COVERED, GameState
from .verify_daily import field_id_of

ANALYSIS = "mineduel-analysis/v1"
ANALYSIS_LEVEL = "hard"
POSITION_BUDGET = 250_000
"""Work units the exact count of one position may use (50 times the bot's own budget; no
position of real games comes near it: they take a few hundred)."""
GAME_BUDGET = 2_000_000
"""Work units the exact counts of one game's positions may use together (a real game of 100
moves takes some 50,000): with the bot's own budgets, a game's analysis is bounded."""
ESTIMATE = "local counting"
DIGITS = 6
SWINGS = 5
TOLERANCE = 1e-9
POINT_ACTIONS = ("guess", "reveal")


class AnalysisError(ValueError):
    """The document cannot be analysed (not finished, malformed, or its moves do not replay on
    its field); the message says why."""


@dataclass(frozen=True)
class Judged:
    """One cell action and what its position offered.

    ``found`` and ``expected`` are mines found and expected; ``best`` the expected mines of the
    best choice of the same kind (the likeliest cell, the best square). windows-duel adds the
    action's expected points, the best action's and the points it scored.
    """

    move: Move
    p_mine: float | None
    p_best: float | None
    p_safest: float | None
    found: int
    expected: float
    best: float
    bot: tuple[str, int, int] | None
    exact: bool
    expected_points: float | None = None
    best_points: float | None = None

    @property
    def luck(self) -> float:
        """Mines found beyond those expected."""
        return self.found - self.expected

    @property
    def points_luck(self) -> float:
        """Points scored beyond those expected (windows-duel)."""
        return float(self.move.points or 0) - (self.expected_points or 0.0)

    @property
    def loss(self) -> float:
        """What the choice gave up against the best one: mines, or points in windows-duel."""
        if self.expected_points is not None and self.best_points is not None:
            return self.best_points - self.expected_points
        return self.best - self.expected

    @property
    def swing(self) -> float:
        """Luck in the variant's unit (points in windows-duel, else mines)."""
        return self.points_luck if self.expected_points is not None else self.luck


def _r(value: float) -> float:
    """Rounded for publishing (``+ 0.0`` turns a negative zero into zero)."""
    return round(value, DIGITS) + 0.0


def position_chances(
    position: Position, budget: int = POSITION_BUDGET, game: Budget | None = None
) -> tuple[dict[int, float], bool]:
    """Every covered cell's mine chance, exact within ``budget`` (and within what is left of
    the ``game``'s budget, which the count spends), else estimated."""
    room = budget if game is None else min(budget, max(game.left, 0))
    counted = Budget(room)
    try:
        return solve(position, counted).mine, True
    except TooHard:
        estimate = local_chances(position)
        for cell in position.safe:
            estimate[cell] = 0.0
        return estimate, False
    except Inconsistent as exc:
        raise AnalysisError(f"no mine layout fits the board before this move: {exc}") from None
    finally:
        if game is not None:
            game.left -= room - max(counted.left, 0)


def judge(
    state: GameState,
    move: Move,
    commitment: str,
    level: str,
    budget: int,
    game: Budget | None = None,
) -> Judged:
    """Judge one cell action from the state just before it (read as its seat saw it);
    ``game`` is what is left of the game's budget (``position_chances``)."""
    settings = state.settings
    view = SeatView.from_state(state, move.seat)
    position = view.position
    chances, exact = position_chances(position, budget, game)
    if move.row is None or move.col is None:
        raise AnalysisError(f"move {move.n} has no cell")
    cell = move.row * settings.width + move.col
    bot: tuple[str, int, int] | None = None
    if position.covered:
        action, chosen = decide(view, bot_stream(commitment, state.move_count + 1), level)
        bot = (action, *divmod(chosen, settings.width))
    top = max(chances.values(), default=0.0)
    low = min(chances.values(), default=0.0)
    if move.action == "bomb":
        square = bomb_square(settings.width, settings.height, move.row, move.col)
        expected = sum(chances.get(c, 0.0) for c in square if state.cells[c] == COVERED)
        best = max(square_values(position, chances).values(), default=0.0)
        return Judged(move, None, None, None, len(move.flagged), expected, best, bot, exact)
    p = chances.get(cell)
    if p is None:
        raise AnalysisError(f"move {move.n} plays a cell that was not covered")
    found = 1 if move.result == "mine" and move.action in ("tap", "guess") else 0
    if move.action in POINT_ACTIONS:
        guessed = move.action == "guess"
        points = guess_value(p) if guessed else reveal_value(p)
        best_points = max(guess_value(top), reveal_value(low))
        expected = p if guessed else 0.0
        best = top if guessed else 0.0
        return Judged(move, p, top, low, found, expected, best, bot, exact, points, best_points)
    return Judged(move, p, top, None, found, p, top, bot, exact)


def analyze(
    game_id: str,
    settings: Settings,
    field: Field,
    moves: Sequence[Move],
    commitment: str,
    *,
    level: str = ANALYSIS_LEVEL,
    budget: int = POSITION_BUDGET,
) -> dict[str, Any]:
    """The analysis of a finished game (its moves replayed on its field; see the docstring).

    The field only replays the moves to reach each position; every chance is counted from what
    the moving seat saw. Raises ``AnalysisError`` when a move does not replay as logged.
    """
    rules = rules_for(settings.variant)
    state = rules.new_game(settings)
    judged: list[Judged] = []
    game = Budget(GAME_BUDGET)
    for move in moves:
        if not move.is_elimination:
            judged.append(judge(state, move, commitment, level, budget, game))
        try:
            state, actual = replay_move(rules, state, field, move)
        except EngineError as exc:
            raise AnalysisError(f"move {move.n} is refused by the rules: {exc}") from None
        if actual != move:
            raise AnalysisError(f"move {move.n} does not replay as logged on the game's field")
    if not state.finished:
        raise AnalysisError("the game is not finished: only finished games are analysed")
    return _report(game_id, settings, judged, level, budget)


def _report(
    game_id: str, settings: Settings, judged: list[Judged], level: str, budget: int
) -> dict[str, Any]:
    points = settings.variant == "windows-duel"
    seats = [
        _seat(i, [j for j in judged if j.move.seat == i], points) for i in range(settings.seats)
    ]
    ranked = sorted(judged, key=lambda j: (-abs(j.swing), j.move.n))
    return {
        "game_id": game_id,
        "analysis": ANALYSIS,
        "variant": settings.variant,
        "bot_level": level,
        "skill_unit": "points" if points else "mines",
        "budget": {
            "terms": budget,
            "estimated": [j.move.n for j in judged if not j.exact],
            "estimate": ESTIMATE,
        },
        "moves": [_entry(j) for j in judged],
        "seats": seats,
        "swings": [
            {"n": j.move.n, "seat": j.move.seat, "action": j.move.action, "swing": _r(j.swing)}
            for j in ranked[:SWINGS]
            if abs(j.swing) > TOLERANCE
        ],
    }


def _entry(j: Judged) -> dict[str, Any]:
    move = j.move
    entry: dict[str, Any] = {
        "n": move.n,
        "seat": move.seat,
        "action": move.action,
        "row": move.row,
        "col": move.col,
        "result": move.result,
        "p_mine": None if j.p_mine is None else _r(j.p_mine),
        "p_best": None if j.p_best is None else _r(j.p_best),
        "bot": None if j.bot is None else [j.bot[1], j.bot[2]],
        "bot_action": None if j.bot is None else j.bot[0],
        "exact": j.exact,
        "found": j.found,
        "expected_mines": _r(j.expected),
        "luck": _r(j.luck),
        "loss": _r(j.loss),
    }
    if move.action == "bomb":
        entry["best_expected_mines"] = _r(j.best)
    if j.expected_points is not None and j.best_points is not None:
        entry["p_safest"] = None if j.p_safest is None else _r(j.p_safest)
        entry["expected_points"] = _r(j.expected_points)
        entry["best_points"] = _r(j.best_points)
        entry["points"] = move.points
        entry["points_luck"] = _r(j.points_luck)
    return entry


def _seat(seat: int, judged: list[Judged], points: bool) -> dict[str, Any]:
    mines = sum(j.found for j in judged)
    expected = sum(j.expected for j in judged)
    bot_moves = sum(
        1 for j in judged if j.bot is not None and j.bot == (j.move.action, j.move.row, j.move.col)
    )
    best_moves = sum(1 for j in judged if j.loss <= TOLERANCE)
    found: dict[str, Any] = {
        "seat": seat,
        "mines": mines,
        "expected_mines": _r(expected),
        "luck": _r(mines - expected),
        "skill_loss": _r(sum(j.loss for j in judged)),
        "moves": len(judged),
        "best_moves": best_moves,
        "bot_moves": bot_moves,
    }
    if points:
        scored = sum(j.move.points or 0 for j in judged)
        expected_points = sum(j.expected_points or 0.0 for j in judged)
        found["points"] = scored
        found["expected_points"] = _r(expected_points)
        found["points_luck"] = _r(scored - expected_points)
    return found


# ---------------------------------------------------------------------------- documents
def analyze_document(
    doc: Mapping[str, Any], *, level: str = ANALYSIS_LEVEL, budget: int = POSITION_BUDGET
) -> dict[str, Any]:
    """The analysis of a finished game from its Verification document alone.

    The field comes from the document (``field``, or rebuilt from ``seed`` as ``mineduel/v1``
    says); raises ``AnalysisError`` when the document is not a finished game whose moves replay.
    """
    if not isinstance(doc, Mapping):
        raise AnalysisError("the document is not a JSON object")
    if doc.get("status") != "finished":
        raise AnalysisError(
            f"the game is {doc.get('status')!r}: only finished games are analysed (until the end "
            "the field is secret)"
        )
    game_id = doc.get("game_id")
    commitment = doc.get("commitment")
    if not isinstance(game_id, str):
        raise AnalysisError("the document has no game id")
    if not isinstance(commitment, str) or not _is_hex(commitment, 32):
        raise AnalysisError("the document's commitment is not 64 hex characters")
    settings = _settings(doc)
    field = _field(doc, settings)
    records = doc.get("moves")
    if not isinstance(records, list):
        raise AnalysisError("the document's moves must be a list")
    try:
        moves = [Move.from_dict(record) for record in records]
    except EngineError as exc:
        raise AnalysisError(f"a move is malformed: {exc}") from None
    return analyze(game_id, settings, field, moves, commitment, level=level, budget=budget)


def _is_hex(text: str, size: int) -> bool:
    try:
        return len(bytes.fromhex(text)) == size
    except ValueError:
        return False


def _settings(doc: Mapping[str, Any]) -> Settings:
    seeds = doc.get("client_seeds")
    if not isinstance(seeds, list) or not all(isinstance(s, str) for s in seeds):
        raise AnalysisError("client_seeds must be a list of strings, one per seat")
    options = doc.get("options") or {}
    try:
        variant = str(doc.get("variant"))
        if not isinstance(options, Mapping):
            raise TypeError("options must be an object")
        settings = Settings.for_variant(variant, len(seeds), options)
    except (EngineError, TypeError, AttributeError) as exc:
        raise AnalysisError(f"the game's settings are not playable: {exc}") from None
    board = (doc.get("width"), doc.get("height"), doc.get("mines"))
    if board != (settings.width, settings.height, settings.mines):
        raise AnalysisError(f"{variant} is not played on a {board[0]}x{board[1]} board")
    return settings


def _field(doc: Mapping[str, Any], settings: Settings) -> Field:
    rows = doc.get("field")
    try:
        if isinstance(rows, list) and all(isinstance(r, str) for r in rows):
            field = Field.from_strings(rows)
        else:
            seed_hex, key_id = doc.get("seed"), field_id_of(doc)
            if not isinstance(seed_hex, str) or key_id is None or not _is_hex(seed_hex, 32):
                raise AnalysisError("the document publishes neither the field nor the seed")
            field = Field.from_seed(
                bytes.fromhex(seed_hex),
                key_id,
                doc["client_seeds"],
                settings.width,
                settings.height,
                settings.mines,
            )
    except (EngineError, ValueError) as exc:
        raise AnalysisError(f"the published field is malformed: {exc}") from None
    if (field.width, field.height) != (settings.width, settings.height):
        raise AnalysisError("the published field does not fit the board")
    return field
