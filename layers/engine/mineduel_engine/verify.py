"""Check a finished game from its Verification document alone, and build such documents.

``verify_document`` trusts nothing in the document: it recomputes the commitment from the
seed, the field from the seeds (``mineduel/v1``), and every move from the rules, and it reports
every problem it finds in plain words rather than stopping at the first, so a person reading
the report sees the whole extent of a tampering. It never raises on a malformed document: a
shape error is one more problem.

A running game (``seed`` null, ``status`` ``waiting`` or ``active``) cannot be checked yet,
because the seed is secret until the game ends: its verdict is ``checked=False, ok=False`` with no
problems, which says "nothing to check yet" and not "something is wrong".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import EngineError, MalformedRecord
from .fairness import PROTOCOL, SEED_BYTES, commitment, is_valid_client_seed
from .field import Field
from .moves import Move
from .outcome import Result
from .replay import as_move, replay_move
from .rules import RuleSet, rules_for
from .settings import MAX_SIDE, Settings
from .state import GameState
from .verify_text import cell_list, describe_cells, describe_flags, result_text
from .verify_times import deadline_problems, deadline_s

STATUSES = ("waiting", "active", "finished")
RUNNING = ("waiting", "active")


@dataclass(frozen=True)
class Verdict:
    """The outcome of checking a Verification document.

    ``checked`` says whether there was anything to check (False while the game runs);
    ``ok`` is True only when checked and every check held; ``problems`` says, in plain words,
    each thing that failed; ``checks`` lists what was checked, for a human-readable report.
    """

    checked: bool
    ok: bool
    problems: tuple[str, ...] = ()
    checks: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The api.md ``verdict`` object."""
        return {"checked": self.checked, "ok": self.ok, "problems": list(self.problems)}


NOT_YET = Verdict(
    checked=False,
    ok=False,
    checks=("nothing: the game is not finished, so its seed is still secret",),
)


class _Report:
    """Collects what was checked and what failed."""

    def __init__(self) -> None:
        self.checks: list[str] = []
        self.problems: list[str] = []

    def check(self, what: str) -> None:
        self.checks.append(what)

    def problem(self, what: str) -> None:
        self.problems.append(what)

    def verdict(self) -> Verdict:
        return Verdict(True, not self.problems, tuple(self.problems), tuple(self.checks))


def verify_document(doc: Mapping[str, Any]) -> Verdict:
    """Check a Verification document (api.md) from itself alone; see the module docstring."""
    if not isinstance(doc, Mapping):
        return Verdict(True, False, ("the document is not a JSON object",))
    if doc.get("seed") is None and doc.get("status") in RUNNING:
        return NOT_YET
    report = _Report()
    _check_status(doc, report)
    settings = _read_settings(doc, report)
    client_seeds = _read_client_seeds(doc, report)
    seed = _read_seed(doc, report)
    seed_field = _derive_field(doc, settings, client_seeds, seed)
    published = _read_field(doc, settings, seed_field, report)
    field = seed_field or published
    if settings is None or field is None:
        report.problem("the moves could not be replayed: the settings or the field are unknown")
        return report.verdict()
    replayed = _Replayed()
    state = _replay_log(doc, settings, field, report, replayed)
    if state is not None:
        _check_end(doc, state, report)
    _check_times(doc, replayed, report)
    return report.verdict()


def _check_status(doc: Mapping[str, Any], report: _Report) -> None:
    protocol = doc.get("protocol")
    report.check(f"the protocol is {PROTOCOL}")
    if protocol != PROTOCOL:
        report.problem(f"the protocol is {protocol!r}, not {PROTOCOL!r}")
    status = doc.get("status")
    if status not in STATUSES:
        report.problem(f"the status is {status!r}, not one of {', '.join(STATUSES)}")
    elif status != "finished":
        report.problem(f"the seed is published but the game is {status}, not finished")
    if not isinstance(doc.get("game_id"), str):
        report.problem("the game id is missing or not a string")


def _read_settings(doc: Mapping[str, Any], report: _Report) -> Settings | None:
    seeds = doc.get("client_seeds")
    seats = len(seeds) if isinstance(seeds, list) else 0
    try:
        rules_for(str(doc.get("variant")))
        width, height, mines = (_int(doc, key) for key in ("width", "height", "mines"))
        settings = Settings(str(doc["variant"]), width, height, mines, seats)
    except (EngineError, KeyError) as exc:
        report.problem(f"the game's settings are not playable: {_plain(exc)}")
        return None
    standard = Settings.for_variant(settings.variant, seats)
    report.check(
        f"the settings are {settings.variant}'s own: {width}x{height}, {mines} mines, {seats} seats"
    )
    if settings != standard:
        report.problem(
            f"{settings.variant} is played on {standard.width}x{standard.height} with "
            f"{standard.mines} mines, not {width}x{height} with {mines}"
        )
    return settings


def _int(doc: Mapping[str, Any], key: str) -> int:
    value = doc.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise MalformedRecord(f"{key} must be an integer, not {value!r}")
    return value


def _read_client_seeds(doc: Mapping[str, Any], report: _Report) -> list[str] | None:
    seeds = doc.get("client_seeds")
    if not isinstance(seeds, list) or not all(isinstance(s, str) for s in seeds):
        report.problem("client_seeds must be a list of strings, one per seat")
        return None
    report.check("every client seed uses only A-Z a-z 0-9 . _ ~ - and at most 64 characters")
    for seat, seed in enumerate(seeds):
        if not is_valid_client_seed(seed):
            report.problem(f"seat {seat}'s client seed {seed!r} is not allowed by the protocol")
    return seeds


def _read_seed(doc: Mapping[str, Any], report: _Report) -> bytes | None:
    raw = doc.get("seed")
    if raw is None:
        report.problem("the game is finished but its seed is not published")
        return None
    try:
        seed = bytes.fromhex(raw) if isinstance(raw, str) else None
    except ValueError:
        seed = None
    if seed is None or len(seed) != SEED_BYTES:
        report.problem(f"the seed must be {SEED_BYTES} bytes in hex, not {raw!r}")
        return None
    promised = doc.get("commitment")
    report.check("SHA-256 of the seed equals the commitment published at the start")
    if commitment(seed) != promised:
        report.problem(
            f"SHA-256 of the seed is {commitment(seed)}, but the commitment was {promised!r}"
        )
    return seed


def _derive_field(
    doc: Mapping[str, Any],
    settings: Settings | None,
    client_seeds: Sequence[str] | None,
    seed: bytes | None,
) -> Field | None:
    game_id = doc.get("game_id")
    if settings is None or client_seeds is None or seed is None or not isinstance(game_id, str):
        return None  # whichever part is missing has been reported already
    return Field.from_seed(
        seed, game_id, client_seeds, settings.width, settings.height, settings.mines
    )


def _read_field(
    doc: Mapping[str, Any], settings: Settings | None, derived: Field | None, report: _Report
) -> Field | None:
    rows = doc.get("field")
    if rows is None:
        report.problem("the finished game's field is not published")
        return None
    if derived is not None and rows == derived.to_strings():
        report.check("the published field is exactly the one the seeds give (mineduel/v1)")
        return derived
    if not isinstance(rows, list) or not all(isinstance(r, str) for r in rows):
        report.problem("the published field is malformed: it must be a list of strings")
        return None
    # The size is checked before parsing, so an oversized field costs nothing to reject.
    if settings is not None:
        size = f"{settings.width}x{settings.height}"
        fits = len(rows) == settings.height and all(len(r) == settings.width for r in rows)
    else:
        size = f"within {MAX_SIDE}x{MAX_SIDE}"
        fits = 0 < len(rows) <= MAX_SIDE and all(0 < len(r) <= MAX_SIDE for r in rows)
    if not fits:
        report.problem(f"the published field is not {size}")
        return None
    try:
        published = Field.from_strings(rows)
    except MalformedRecord as exc:
        report.problem(f"the published field is malformed: {_plain(exc)}")
        return None
    if derived is not None:
        report.check("the published field is exactly the one the seeds give (mineduel/v1)")
        differing = [
            r for r, (a, b) in enumerate(zip(rows, derived.to_strings(), strict=True)) if a != b
        ]
        which = (
            "every row differs"
            if len(differing) == len(rows)
            else "rows " + ", ".join(map(str, differing)) + " differ"
        )
        report.problem(f"the published field is not the one the seeds give: {which}")
    return published


class _Replayed:
    """The moves replayed so far, and whether each one started a new turn (for the times)."""

    def __init__(self) -> None:
        self.moves: list[Move] = []
        self.renews: list[bool] = []


def _replay_log(
    doc: Mapping[str, Any], settings: Settings, field: Field, report: _Report, done: _Replayed
) -> GameState | None:
    """Replay every logged move; None when the log cannot be replayed to its end."""
    records = doc.get("moves")
    if not isinstance(records, list):
        report.problem("the moves must be a list")
        return None
    rules = rules_for(settings.variant)
    state = rules.new_game(settings)
    report.check(
        f"all {len(records)} moves, replayed on that field, were each made by the seat whose "
        "turn it was, on a covered cell, with exactly the logged result, opened cells, numbers "
        "and flags"
    )
    for index, record in enumerate(records):
        label = f"move {index + 1}"
        try:
            move = as_move(record)
        except MalformedRecord as exc:
            report.problem(f"{label} is malformed ({_plain(exc)}); later moves were not checked")
            return None
        if move.n != index + 1:
            report.problem(f"{label} is numbered {move.n}")
        if state.finished:
            report.problem(
                f"the rules end the game at move {index} ({_reason(state)}), but the log goes "
                f"on for {len(records) - index} more moves"
            )
            return None
        stepped = _step(rules, state, field, move, label, report)
        if stepped is None:
            return None
        done.moves.append(move)
        done.renews.append(not move.is_elimination or state.turn == move.seat)
        state = stepped
    return state


def _step(
    rules: RuleSet, state: GameState, field: Field, move: Move, label: str, report: _Report
) -> GameState | None:
    """Replay one move, report how its record differs; None when the rules refuse it."""
    seat = move.seat
    # Only the seat to move can tap or time out. When the log names another seat, report it and
    # go on as the seat whose turn it was, so that later moves are still checked.
    turn_bound = move.action == "timeout" or not move.is_elimination
    if turn_bound and state.turn is not None and move.seat != state.turn:
        report.problem(f"{label} is by seat {move.seat}, but it was seat {state.turn}'s turn")
        seat = state.turn
    try:
        after, actual = replay_move(rules, state, field, move, seat)
    except EngineError as exc:
        report.problem(
            f"{label} is refused by the rules ({_plain(exc)}); later moves were not checked"
        )
        return None
    _compare(move, actual, label, report)
    return after


def _compare(logged: Move, actual: Move, label: str, report: _Report) -> None:
    if logged == actual:
        return
    if logged.result != actual.result:
        report.problem(
            f"{label} at {cell_list([(logged.row, logged.col)])} is logged as "
            f"{logged.result!r}, but the cell is {'a mine' if actual.result == 'mine' else 'safe'}"
        )
    report.problems.extend(
        f"{label} {text}" for text in describe_cells(logged.opened, actual.opened)
    )
    report.problems.extend(
        f"{label} {text}" for text in describe_flags(logged.flagged, actual.flagged)
    )


def _check_end(doc: Mapping[str, Any], state: GameState, report: _Report) -> None:
    """The log must stop exactly where the rules end the game, with the declared result."""
    report.check("the game ends exactly where the rules end it")
    if not state.finished:
        report.problem(
            f"the log stops after move {state.move_count}, but the rules do not end the game "
            f"there (seat {state.turn} is to move, {state.mines_left} mines still covered)"
        )
    raw = doc.get("result")
    report.check("the declared result (reason, winner, places) is the one the rules give")
    if raw is None:
        if state.result is not None:
            report.problem(f"no result is declared; the rules give {result_text(state.result)}")
        return
    try:
        declared = Result.from_dict(raw)
    except MalformedRecord as exc:
        report.problem(f"the declared result is malformed: {_plain(exc)}")
        return
    if state.result is None:
        report.problem("a result is declared, but by the rules the game has not ended")
    elif declared != state.result:
        report.problem(
            f"the declared result is {result_text(declared)}, but the rules give "
            f"{result_text(state.result)}"
        )


def _check_times(doc: Mapping[str, Any], done: _Replayed, report: _Report) -> None:
    """The optional deadline check (``verify_times``), when the document has what it needs."""
    limit = deadline_s(doc)
    records = doc.get("moves")
    if limit is None or not isinstance(records, list):
        return
    problems = deadline_problems(records, done.moves, done.renews, limit)
    if problems is None:
        return
    report.check(
        f"by the move times, every tap came within its turn's {limit} s deadline and every "
        "timeout after it"
    )
    report.problems.extend(problems)


def _reason(state: GameState) -> str:
    return state.result.reason if state.result else "not ended"


def _plain(exc: Exception) -> str:
    return str(exc).strip("'\"")


def build_document(
    *,
    game_id: str,
    settings: Settings,
    commitment: str,
    client_seeds: Sequence[str],
    moves: Sequence[Move | Mapping[str, Any]],
    status: str,
    seed: bytes | None,
    result: Result | None,
    field: Field | None = None,
    move_deadline_s: int | None = None,
) -> dict[str, Any]:
    """The api.md Verification document of a game, with the verdict ``verify_document`` gives.

    Hidden information never leaks through it: unless ``status`` is ``finished``, the seed and
    the field are left out (null) whatever the caller passes. Move dicts keep any extra keys
    (``at``) the caller put in. A finished game's field is derived from the seed unless given.
    With ``move_deadline_s`` (and ``at`` on every move) the verdict also checks the move times.
    """
    finished = status == "finished"
    published_seed = seed if finished else None
    rows: list[str] | None = None
    if published_seed is not None:
        if field is None:
            field = Field.from_seed(
                published_seed,
                game_id,
                client_seeds,
                settings.width,
                settings.height,
                settings.mines,
            )
        rows = field.to_strings()
    doc: dict[str, Any] = {
        "game_id": game_id,
        "protocol": PROTOCOL,
        "variant": settings.variant,
        "status": status,
        "width": settings.width,
        "height": settings.height,
        "mines": settings.mines,
        "commitment": commitment,
        "seed": published_seed.hex() if published_seed is not None else None,
        "client_seeds": list(client_seeds),
        "field": rows,
        "moves": [m.to_dict() if isinstance(m, Move) else dict(m) for m in moves],
        "result": result.to_dict() if result is not None else None,
    }
    if move_deadline_s is not None:
        doc["move_deadline_s"] = move_deadline_s
    doc["verdict"] = verify_document(doc).to_dict()
    return doc
