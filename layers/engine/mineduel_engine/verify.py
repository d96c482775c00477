"""Check a finished game from its Verification document alone, and build such documents.

``verify_document`` trusts nothing in the document: it recomputes the commitment from the
seed, the field from the seeds (``mineduel/v1``), and every move from the rules, and it reports
every problem it finds in plain words rather than stopping at the first, so a person reading
the report sees the whole extent of a tampering. It never raises on a malformed document: a
shape error is one more problem.

A running game (``seed`` null, ``status`` ``waiting`` or ``active``) cannot be checked yet,
because the seed is secret until the game ends: its verdict is ``checked=False, ok=False`` with no
problems, which says "nothing to check yet" and not "something is wrong". The same holds for a
finished daily game (``field_id`` set) until its day is over: its seed is the whole day's. Its
hash chain and head need no seed, though: when they do not hold (a log changed or cut short),
the verdict is ``checked=True, ok=False`` with those problems.

Every document says where its log ends: ``move_count`` and ``chain``, the last move's chain
value (``chain-head``). The links of a hash chain all still hold when moves are dropped from
its end; the head does not, so a log cut short fails from the document alone, before and
without any replay.

Every variant's document carries ``options`` (the creation options) and ``seats`` (each seat's
counters and place); both are checked against the replay. A mine-duel document may lack them
(documents published before they were added, whose checks are otherwise complete); the other
variants' documents need them, because an option decides which moves are legal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import chain as _chain
from typing import Any

from .chain import CHAIN_FIELD, broken_links
from .errors import EngineError, MalformedRecord
from .fairness import PROTOCOL, SEED_BYTES, commitment, is_valid_client_seed
from .field import Field
from .moves import ELIMINATIONS, Move
from .outcome import Result
from .replay import as_move, replay_move
from .rules import RuleSet, rules_for
from .settings import MAX_SIDE, Options, Settings, make_options, spec_of
from .state import GameState, SeatState
from .verify_daily import daily_checks, field_id_of
from .verify_text import cell_list, describe_cells, describe_flags, result_text
from .verify_times import deadline_problems, deadline_s

STATUSES = ("waiting", "active", "finished")
RUNNING = ("waiting", "active")


CHECK_NAMES: dict[str, str] = {
    "document": "the document is a JSON object",
    "protocol": f"the protocol is {PROTOCOL}",
    "status": "the game is finished and has an id",
    "settings": "the settings are the variant's own",
    "options": "the options are the variant's own, with values of the right type",
    "client-seeds": "every client seed uses only A-Z a-z 0-9 . _ ~ - and at most 64 characters",
    "commitment": "SHA-256 of the seed equals the commitment published at the start",
    "field": "the published field is exactly the one the seeds give (mineduel/v1)",
    "moves": "every move, replayed on that field, was made by the seat to move, was legal, and "
    "had exactly the logged outcome",
    "end": "the game ends exactly where the rules end it",
    "result": "the declared result (reason, winner, places) is the one the rules give",
    "seats": "every seat's declared counters and place are the ones the rules give",
    "times": "by the move times, every move came within its turn's deadline",
    "chain": "every move's chain value follows from the commitment and the records before",
    "chain-head": "the log ends where the document says: its move count, and its last move's "
    "chain value equal to the document's chain head",
    "daily-field": "the field id names a day (daily-YYYY-MM-DD) and every client seed is empty",
    "daily-month-key": "SHA-256 of the month key equals the month's commitment published in "
    "advance",
    "daily-day-seed": "the server seed is the day's seed: HMAC-SHA256(month key, "
    "'mineduel/daily|YYYY-MM-DD')",
}
"""Every check ``verify_document`` can make, by its stable name, with its default wording
(most checks say more once they know the game: its size, its number of moves...)."""


@dataclass(frozen=True)
class CheckResult:
    """One check: its stable ``name`` (a key of ``CHECK_NAMES``), what it checked in words,
    whether it held, and each problem it found (empty when it held)."""

    name: str
    description: str
    ok: bool
    details: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """``{"name", "description", "ok", "details"}``."""
        return {
            "name": self.name,
            "description": self.description,
            "ok": self.ok,
            "details": list(self.details),
        }


@dataclass(frozen=True)
class Verdict:
    """The outcome of checking a Verification document.

    ``checked`` says whether there was anything to check (False while the game runs);
    ``ok`` is True only when checked and every check held; ``problems`` says, in plain words,
    each thing that failed, in the order found; ``results`` is the same per check, the ones
    that held included, in the order they were made; ``unchecked_because`` says why nothing
    was checked when ``checked`` is False.
    """

    checked: bool
    ok: bool
    problems: tuple[str, ...] = ()
    results: tuple[CheckResult, ...] = ()
    unchecked_because: str | None = None

    @property
    def checks(self) -> tuple[str, ...]:
        """What was checked, in words (every check, whether it held or not)."""
        return tuple(result.description for result in self.results)

    @property
    def failed(self) -> tuple[CheckResult, ...]:
        """The checks that did not hold."""
        return tuple(result for result in self.results if not result.ok)

    @property
    def passed(self) -> tuple[CheckResult, ...]:
        """The checks that held."""
        return tuple(result for result in self.results if result.ok)

    def to_dict(self) -> dict[str, Any]:
        """The Verification document's ``verdict`` object (docs/api.md)."""
        return {"checked": self.checked, "ok": self.ok, "problems": list(self.problems)}


NOT_YET = Verdict(
    checked=False,
    ok=False,
    unchecked_because="the game is not finished; its seed stays secret until it ends",
)
"""A running game: nothing could be checked (its seed is still secret), nothing is wrong."""
DAY_NOT_OVER = Verdict(
    checked=False,
    ok=False,
    unchecked_because="a daily game's seed is its whole day's, published when the day ends",
)
"""A finished daily game of a day not over yet: nothing can be checked before the day ends."""


class _Report:
    """Collects each check made and each problem found, problems filed under their check."""

    def __init__(self) -> None:
        self.descriptions: dict[str, str] = {}
        self.details: dict[str, list[str]] = {}
        self.problems: list[str] = []

    def check(self, name: str, description: str | None = None) -> None:
        """Note that check ``name`` is made (worded as ``description``, or its default)."""
        self.descriptions[name] = description or CHECK_NAMES[name]
        self.details.setdefault(name, [])

    def problem(self, name: str, what: str) -> None:
        """Record a problem found by check ``name`` (which counts as made)."""
        if name not in self.descriptions:
            self.check(name)
        self.details[name].append(what)
        self.problems.append(what)

    def extend(self, name: str, problems: list[str]) -> None:
        """Record several problems of check ``name``."""
        for what in problems:
            self.problem(name, what)

    def verdict(self) -> Verdict:
        results = tuple(
            CheckResult(name, description, not self.details[name], tuple(self.details[name]))
            for name, description in self.descriptions.items()
        )
        return Verdict(True, not self.problems, tuple(self.problems), results)


def verify_document(doc: Mapping[str, Any]) -> Verdict:
    """Check a Verification document (docs/api.md) from itself alone; see the module docstring."""
    if not isinstance(doc, Mapping):
        report = _Report()
        report.problem("document", "the document is not a JSON object")
        return report.verdict()
    if doc.get("seed") is None and doc.get("status") in RUNNING:
        return _chain_only(doc) or NOT_YET
    if doc.get("seed") is None and doc.get("field_id") is not None:
        return _chain_only(doc) or DAY_NOT_OVER
    report = _Report()
    _check_status(doc, report)
    settings = _read_settings(doc, report)
    client_seeds = _read_client_seeds(doc, report)
    seed = _read_seed(doc, report)
    for name, description, problems in daily_checks(doc, seed, client_seeds):
        report.check(name, description)
        report.extend(name, problems)
    seed_field = _derive_field(doc, settings, client_seeds, seed)
    published = _read_field(doc, settings, seed_field, report)
    field = seed_field or published
    if settings is None or field is None:
        report.problem(
            "moves", "the moves could not be replayed: the settings or the field are unknown"
        )
        return report.verdict()
    replayed = _Replayed()
    state = _replay_log(doc, settings, field, report, replayed)
    if state is not None:
        _check_end(doc, state, report)
        _check_seats(doc, state, report)
    _check_times(doc, replayed, report)
    _check_chain(doc, report)
    return report.verdict()


def _chain_only(doc: Mapping[str, Any]) -> Verdict | None:
    """What a document whose seed is still secret can already show wrong: a broken chain or a
    log that does not end at its head (checked, not ok); None when both hold (not checked)."""
    report = _Report()
    _check_chain(doc, report)
    return report.verdict() if report.problems else None


def _check_chain(doc: Mapping[str, Any], report: _Report) -> None:
    """Each move's ``chain`` value follows from the one before and its record (``chain``), and
    the log ends where the document's head says (``chain-head``)."""
    moves = doc.get("moves")
    commitment = doc.get("commitment")
    if not isinstance(moves, list) or not all(isinstance(m, Mapping) for m in moves):
        return
    chained_log = any(CHAIN_FIELD in m for m in moves)
    _check_head(doc, moves, chained_log, report)
    if not chained_log:
        report.check("chain", "no hash chain to check (the log was published without chain values)")
        return
    report.check("chain")
    if not isinstance(commitment, str):
        report.problem("chain", "the hash chain cannot be checked: the commitment is missing")
        return
    for n in broken_links(commitment, moves):
        report.problem(
            "chain",
            f"the hash chain breaks at move {n}: its chain value is not the SHA-256 of the "
            "value before and its record",
        )


def _check_head(
    doc: Mapping[str, Any], moves: list[Mapping[str, Any]], chained_log: bool, report: _Report
) -> None:
    """The document's ``move_count`` and ``chain`` (the head: its last move's chain value, null
    before the first move) must be where its log ends (``chain-head``).

    Every link of a log cut short still holds, so the links alone cannot tell that moves were
    dropped from its end; the head can, from the document alone, and it is the value a client
    kept from the game (its ``chain`` and ``move_count``) to compare with. A document without a
    head is refused when its moves carry chain values: the head is published with every chained
    log, so its absence is a document cut short too. (Logs published without chain values, from
    before the chain, have no head to check.)
    """
    has_count, has_head = "move_count" in doc, CHAIN_FIELD in doc
    if not chained_log and not has_count and not has_head:
        return
    report.check("chain-head")
    count, head = doc.get("move_count"), doc.get(CHAIN_FIELD)
    if not has_count or not has_head:
        missing = " and ".join(
            name for name, there in (("move_count", has_count), ("chain", has_head)) if not there
        )
        report.problem(
            "chain-head",
            f"the document does not say where its log ends (no {missing}): a log cut short "
            "could not be told from a whole one",
        )
    if has_count:
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            report.problem("chain-head", f"the move count must be a whole number, not {count!r}")
        elif count != len(moves):
            report.problem(
                "chain-head",
                f"the document says the game has {count} moves, but its log has {len(moves)}"
                + ("; moves are missing from its end" if count > len(moves) else ""),
            )
    if not has_head:
        return
    last = moves[-1].get(CHAIN_FIELD) if moves else None
    if head is None and chained_log:
        report.problem("chain-head", f"the chain head is null, but the log has {len(moves)} moves")
    elif head is not None and not chained_log:
        report.problem(
            "chain-head", "the chain head is set, but the log carries no chain values to end in it"
        )
    elif chained_log and head != last:
        report.problem(
            "chain-head",
            f"the log's last move (move {moves[-1].get('n')!r}) has the chain value {last!r}, "
            f"but the document's chain head is {head!r}: the log does not end where it says",
        )


def _check_status(doc: Mapping[str, Any], report: _Report) -> None:
    protocol = doc.get("protocol")
    report.check("protocol")
    if protocol != PROTOCOL:
        report.problem("protocol", f"the protocol is {protocol!r}, not {PROTOCOL!r}")
    report.check("status")
    status = doc.get("status")
    if status not in STATUSES:
        report.problem("status", f"the status is {status!r}, not one of {', '.join(STATUSES)}")
    elif status != "finished":
        report.problem("status", f"the seed is published but the game is {status}, not finished")
    if not isinstance(doc.get("game_id"), str):
        report.problem("status", "the game id is missing or not a string")


def _read_settings(doc: Mapping[str, Any], report: _Report) -> Settings | None:
    report.check("settings")  # (worded once the settings are known)
    seeds = doc.get("client_seeds")
    seats = len(seeds) if isinstance(seeds, list) else 0
    try:
        rules_for(str(doc.get("variant")))
        width, height, mines = (_int(doc, key) for key in ("width", "height", "mines"))
        options = _read_options(doc, str(doc["variant"]), report)
        settings = Settings(str(doc["variant"]), width, height, mines, seats, options)
    except (EngineError, KeyError) as exc:
        report.problem("settings", f"the game's settings are not playable: {_plain(exc)}")
        return None
    standard = Settings.for_variant(settings.variant, seats, settings.options_dict())
    report.check(
        "settings",
        f"the settings are {settings.variant}'s own: {width}x{height}, {mines} mines, {seats} "
        "seats",
    )
    if settings != standard:
        report.problem(
            "settings",
            f"{settings.variant} is played on {standard.width}x{standard.height} with "
            f"{standard.mines} mines, not {width}x{height} with {mines}",
        )
    return settings


def _read_options(doc: Mapping[str, Any], variant: str, report: _Report) -> Options:
    """The document's creation options, checked; the defaults (after a problem) when unusable.

    Going on with the defaults keeps every other check running; the problem is reported.
    """
    spec = spec_of(variant)
    raw = doc.get("options")
    if raw is None:
        if spec.options:
            report.problem(
                "options",
                f"the game's options are not published ({variant} has "
                f"{', '.join(o.name for o in spec.options)}); the defaults were assumed",
            )
        return make_options(variant)
    report.check(
        "options", f"the options {raw!r} are {variant}'s own, with values of the right type"
    )
    if not isinstance(raw, Mapping):
        report.problem("options", f"the options must be an object, not {raw!r}")
        return make_options(variant)
    try:
        return make_options(variant, raw)
    except EngineError as exc:
        report.problem("options", f"the game's options are not valid: {_plain(exc)}")
        return make_options(variant)


def _int(doc: Mapping[str, Any], key: str) -> int:
    value = doc.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise MalformedRecord(f"{key} must be an integer, not {value!r}")
    return value


def _read_client_seeds(doc: Mapping[str, Any], report: _Report) -> list[str] | None:
    seeds = doc.get("client_seeds")
    if not isinstance(seeds, list) or not all(isinstance(s, str) for s in seeds):
        report.problem("client-seeds", "client_seeds must be a list of strings, one per seat")
        return None
    report.check("client-seeds")
    for seat, seed in enumerate(seeds):
        if not is_valid_client_seed(seed):
            report.problem(
                "client-seeds", f"seat {seat}'s client seed {seed!r} is not allowed by the protocol"
            )
    return seeds


def _read_seed(doc: Mapping[str, Any], report: _Report) -> bytes | None:
    raw = doc.get("seed")
    if raw is None:
        report.problem("commitment", "the game is finished but its seed is not published")
        return None
    try:
        seed = bytes.fromhex(raw) if isinstance(raw, str) else None
    except ValueError:
        seed = None
    if seed is None or len(seed) != SEED_BYTES:
        report.problem("commitment", f"the seed must be {SEED_BYTES} bytes in hex, not {raw!r}")
        return None
    promised = doc.get("commitment")
    report.check("commitment")
    if commitment(seed) != promised:
        report.problem(
            "commitment",
            f"SHA-256 of the seed is {commitment(seed)}, but the commitment was {promised!r}",
        )
    return seed


def _derive_field(
    doc: Mapping[str, Any],
    settings: Settings | None,
    client_seeds: Sequence[str] | None,
    seed: bytes | None,
) -> Field | None:
    key_id = field_id_of(doc)  # the game id, or a daily game's field id (``verify_daily``)
    if settings is None or client_seeds is None or seed is None or key_id is None:
        return None  # whichever part is missing has been reported already
    return Field.from_seed(
        seed, key_id, client_seeds, settings.width, settings.height, settings.mines
    )


def _read_field(
    doc: Mapping[str, Any], settings: Settings | None, derived: Field | None, report: _Report
) -> Field | None:
    rows = doc.get("field")
    if rows is None:
        report.problem("field", "the finished game's field is not published")
        return None
    if derived is not None and rows == derived.to_strings():
        report.check("field")
        return derived
    if not isinstance(rows, list) or not all(isinstance(r, str) for r in rows):
        report.problem("field", "the published field is malformed: it must be a list of strings")
        return None
    # The size is checked before parsing, so an oversized field costs nothing to reject.
    if settings is not None:
        size = f"{settings.width}x{settings.height}"
        fits = len(rows) == settings.height and all(len(r) == settings.width for r in rows)
    else:
        size = f"within {MAX_SIDE}x{MAX_SIDE}"
        fits = 0 < len(rows) <= MAX_SIDE and all(0 < len(r) <= MAX_SIDE for r in rows)
    if not fits:
        report.problem("field", f"the published field is not {size}")
        return None
    try:
        published = Field.from_strings(rows)
    except MalformedRecord as exc:
        report.problem("field", f"the published field is malformed: {_plain(exc)}")
        return None
    if derived is not None:
        report.check("field")
        differing = [
            r for r, (a, b) in enumerate(zip(rows, derived.to_strings(), strict=True)) if a != b
        ]
        which = (
            "every row differs"
            if len(differing) == len(rows)
            else "rows " + ", ".join(map(str, differing)) + " differ"
        )
        report.problem("field", f"the published field is not the one the seeds give: {which}")
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
        report.problem("moves", "the moves must be a list")
        return None
    rules = rules_for(settings.variant)
    state = rules.new_game(settings)
    report.check(
        "moves",
        f"all {len(records)} moves, replayed on that field, were each made by the seat whose "
        "turn it was, were legal (a covered cell; in mineseeker one bomb a seat, under the "
        "game's options), and had exactly the logged result, opened cells, numbers and flags "
        "(in windows-duel also points and auto-opened cells; every wrong guess's cell shown)",
    )
    for index, record in enumerate(records):
        if not state.finished:
            fast = _as_logged(rules, state, field, record, index + 1)
            if fast is not None:
                done.moves.append(fast[1])
                done.renews.append(not fast[1].is_elimination or state.turn == fast[1].seat)
                state = fast[0]
                continue
        label = f"move {index + 1}"
        try:
            move = as_move(record)
        except MalformedRecord as exc:
            report.problem(
                "moves", f"{label} is malformed ({_plain(exc)}); later moves were not checked"
            )
            return None
        if move.n != index + 1:
            report.problem("moves", f"{label} is numbered {move.n}")
        if state.finished:
            report.problem(
                "end",
                f"the rules end the game at move {index} ({_reason(state)}), but the log goes "
                f"on for {len(records) - index} more moves",
            )
            return None
        if move.is_private and (move.row is None or move.col is None):
            report.problem(
                "moves",
                f"{label} is a wrong guess whose cell is not published (a finished game shows "
                "every move's cell); later moves were not checked",
            )
            return None
        stepped = _step(rules, state, field, move, label, report)
        if stepped is None:
            return None
        done.moves.append(move)
        done.renews.append(not move.is_elimination or state.turn == move.seat)
        state = stepped
    return state


def _as_logged(
    rules: RuleSet, state: GameState, field: Field, record: object, n: int
) -> tuple[GameState, Move] | None:
    """The fast path of a move that replays exactly as logged: the state after it and the
    move, or None when anything differs or is out of shape (then the full path parses the
    record and says what is wrong).

    Parsing every record before replaying it was most of a verification's time; a record
    equal to the one the rules give, key for key and with integers where integers belong, is
    exactly what ``Move.from_dict`` would have read, so it needs no parsing of its own.
    """
    if type(record) is not dict:
        return None
    seat, action, row, col = record.get("seat"), record.get("action"), record.get("row"), None
    if type(seat) is not int or seat != state.turn or record.get("n") != n:
        return None
    try:
        if action in ELIMINATIONS:
            if row is not None or record.get("col") is not None:
                return None
            after, actual = rules.eliminate(state, seat, action)
        else:
            col = record.get("col")
            if type(row) is not int or type(col) is not int or type(action) is not str:
                return None
            after, actual = rules.play(state, field, seat, action, row, col)
    except EngineError:
        return None
    if type(record["n"]) is not int or record.get("result") != actual.result:
        return None
    points = record.get("points")
    if points != actual.points or (points is not None and type(points) is not int):
        return None
    for key, cells in (
        ("opened", actual.opened),
        ("flagged", actual.flagged),
        ("auto_opened", actual.auto_opened),
    ):
        logged = record.get(key)
        if cells:
            if not _int_lists(logged) or tuple(map(tuple, logged)) != cells:  # type: ignore[arg-type]
                return None
        elif logged != ([] if key != "auto_opened" or points is not None else None):
            return None
    return after, actual


def _int_lists(cells: object) -> bool:
    """A list of lists of integers (bools and floats that compare equal are not)."""
    return (
        type(cells) is list
        and set(map(type, cells)) == {list}
        and set(map(type, _chain.from_iterable(cells))) == {int}
    )


def _step(
    rules: RuleSet, state: GameState, field: Field, move: Move, label: str, report: _Report
) -> GameState | None:
    """Replay one move, report how its record differs; None when the rules refuse it."""
    seat = move.seat
    # Only the seat to move can tap or time out. When the log names another seat, report it and
    # go on as the seat whose turn it was, so that later moves are still checked.
    turn_bound = move.action == "timeout" or not move.is_elimination
    if turn_bound and state.turn is not None and move.seat != state.turn:
        report.problem(
            "moves", f"{label} is by seat {move.seat}, but it was seat {state.turn}'s turn"
        )
        seat = state.turn
    try:
        after, actual = replay_move(rules, state, field, move, seat)
    except EngineError as exc:
        report.problem(
            "moves",
            f"{label} is refused by the rules ({_plain(exc)}); later moves were not checked",
        )
        return None
    _compare(move, actual, label, report)
    return after


def _compare(logged: Move, actual: Move, label: str, report: _Report) -> None:
    if logged == actual:
        return
    if logged.result != actual.result:
        at = cell_list([(logged.row, logged.col)])
        if actual.action in ("tap", "reveal"):
            truth = "a mine" if actual.result == "mine" else "safe"
            report.problem(
                "moves", f"{label} at {at} is logged as {logged.result!r}, but the cell is {truth}"
            )
        else:
            report.problem(
                "moves",
                f"{label} ({actual.action} at {at}) is logged as {logged.result!r}, but the rules "
                f"give {actual.result!r}",
            )
    report.extend(
        "moves", [f"{label} {text}" for text in describe_cells(logged.opened, actual.opened)]
    )
    report.extend(
        "moves", [f"{label} {text}" for text in describe_flags(logged.flagged, actual.flagged)]
    )
    if logged.points != actual.points:
        report.problem(
            "moves", f"{label} logs {logged.points!r} points, but the rules give {actual.points}"
        )
    report.extend(
        "moves",
        [
            f"{label} {text}"
            for text in describe_cells(logged.auto_opened, actual.auto_opened, "auto-opened")
        ],
    )


def _check_end(doc: Mapping[str, Any], state: GameState, report: _Report) -> None:
    """The log must stop exactly where the rules end the game, with the declared result."""
    report.check("end")
    if not state.finished:
        report.problem(
            "end",
            f"the log stops after move {state.move_count}, but the rules do not end the game "
            f"there (seat {state.turn} is to move, {state.mines_left} mines still covered)",
        )
    raw = doc.get("result")
    report.check("result")
    if raw is None:
        if state.result is not None:
            report.problem(
                "result", f"no result is declared; the rules give {result_text(state.result)}"
            )
        return
    try:
        declared = Result.from_dict(raw)
    except MalformedRecord as exc:
        report.problem("result", f"the declared result is malformed: {_plain(exc)}")
        return
    if state.result is None:
        report.problem("result", "a result is declared, but by the rules the game has not ended")
    elif declared != state.result:
        report.problem(
            "result",
            f"the declared result is {result_text(declared)}, but the rules give "
            f"{result_text(state.result)}",
        )


SEAT_KEYS = ("mines", "safe_taps", "out")


def _check_seats(doc: Mapping[str, Any], state: GameState, report: _Report) -> None:
    """The declared seats (counters, places, client seeds) must be what the replay gives."""
    raw = doc.get("seats")
    variant = state.settings.variant
    if raw is None:
        if state.settings.spec.seat_fields or state.settings.options:
            report.problem("seats", f"the seats are not published ({variant} documents carry them)")
        return  # a mine-duel document from before seats were published
    extra = state.settings.spec.seat_fields
    keys = ", ".join(k.replace("_", " ") for k in (*SEAT_KEYS, *extra, "place"))
    report.check("seats", f"every seat's declared {keys} are the ones the rules give")
    if not isinstance(raw, list) or len(raw) != len(state.seats):
        report.problem(
            "seats", f"the seats must be a list of {len(state.seats)} objects, one per seat"
        )
        return
    places = state.result.places if state.result else (None,) * len(state.seats)
    seeds = doc.get("client_seeds")
    for i, (declared, actual) in enumerate(zip(raw, state.seats, strict=True)):
        if not isinstance(declared, Mapping):
            report.problem("seats", f"seat {i} is not an object")
            continue
        wanted = _seat_facts(actual, extra, places[i])
        if declared.get("seat", i) != i:
            report.problem("seats", f"seat {i} is numbered {declared.get('seat')!r}")
        for key, value in wanted.items():
            got = declared.get(key)
            if got != value or type(got) is not type(value):
                name = key.replace("_", " ")
                report.problem(
                    "seats", f"seat {i}'s {name} is declared {got!r}, but the rules give {value!r}"
                )
        seed = declared.get("client_seed", seeds[i]) if isinstance(seeds, list) else None
        if isinstance(seeds, list) and i < len(seeds) and seed != seeds[i]:
            report.problem("seats", f"seat {i}'s client seed differs from client_seeds[{i}]")


def _seat_facts(seat: SeatState, extra: Sequence[str], place: int | None) -> dict[str, Any]:
    facts: dict[str, Any] = {key: getattr(seat, key) for key in (*SEAT_KEYS, *extra)}
    facts["place"] = place
    return facts


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
        "times",
        f"by the move times, every move came within its turn's {limit} s deadline and every "
        "timeout after it",
    )
    report.extend("times", problems)


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
    state: GameState | None = None,
    seat_details: Sequence[Mapping[str, Any]] | None = None,
    field_id: str | None = None,
    daily: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The docs/api.md Verification document of a game, with the verdict ``verify_document`` gives.

    Hidden information never leaks through it: unless ``status`` is ``finished``, the seed and
    the field are left out (null) whatever the caller passes, and every wrong guess shows no cell
    (``Move.to_dict``; dict moves are masked the same way). Move dicts keep any extra keys
    (``at``) the caller put in. A finished game's field is derived from the seed unless given.
    With ``move_deadline_s`` (and ``at`` on every move) the verdict also checks the move times.

    ``seats`` come from ``state`` (the game's state after the last move) or, for a finished game
    without it, from replaying the moves; ``seat_details`` (one object a seat, e.g. the
    service's ``player_id``, ``name``, ``kind``) are merged into them. A running game without
    ``state`` has ``seats`` null.

    A daily game passes its ``field_id`` (``daily-YYYY-MM-DD``, which the field is derived
    with in place of the game id) and its ``daily`` object (``verify_daily``).

    ``move_count`` and ``chain`` (the head: the last move's chain value, null before the first
    move or for a log without chain values) say where the log ends, so that a document with
    moves dropped from its end fails on its own (``chain-head``).
    """
    finished = status == "finished"
    published_seed = seed if finished else None
    rows: list[str] | None = None
    if published_seed is not None:
        if field is None:
            field = Field.from_seed(
                published_seed,
                field_id or game_id,
                client_seeds,
                settings.width,
                settings.height,
                settings.mines,
            )
        rows = field.to_strings()
    if state is None and finished and field is not None:
        state = _replayed_state(settings, field, moves)
    published = [_published(m, finished) for m in moves]
    doc: dict[str, Any] = {
        "game_id": game_id,
        "protocol": PROTOCOL,
        "variant": settings.variant,
        "status": status,
        "width": settings.width,
        "height": settings.height,
        "mines": settings.mines,
        "options": settings.options_dict(),
        "commitment": commitment,
        "seed": published_seed.hex() if published_seed is not None else None,
        "client_seeds": list(client_seeds),
        "field": rows,
        "seats": _seats_of(state, client_seeds, seat_details),
        "moves": published,
        "move_count": len(published),
        "chain": published[-1].get(CHAIN_FIELD) if published else None,
        "result": result.to_dict() if result is not None else None,
    }
    if move_deadline_s is not None:
        doc["move_deadline_s"] = move_deadline_s
    if field_id is not None:
        doc["field_id"] = field_id
        doc["daily"] = dict(daily) if daily is not None else None
    doc["verdict"] = verify_document(doc).to_dict()
    return doc


def _published(move: Move | Mapping[str, Any], finished: bool) -> dict[str, Any]:
    """A move as the document shows it: whole once finished, wrong guesses masked before."""
    if isinstance(move, Move):
        return move.to_record() if finished else move.to_dict()
    record = dict(move)
    if not finished and record.get("action") == "guess" and record.get("result") == "miss":
        record["row"] = record["col"] = None
    return record


def _replayed_state(
    settings: Settings, field: Field, moves: Sequence[Move | Mapping[str, Any]]
) -> GameState | None:
    """The state after the moves, or None when they do not replay (the verdict says why)."""
    rules = rules_for(settings.variant)
    state = rules.new_game(settings)
    try:
        for record in moves:
            state, _ = replay_move(rules, state, field, as_move(record))
    except EngineError:
        return None
    return state


def _seats_of(
    state: GameState | None,
    client_seeds: Sequence[str],
    details: Sequence[Mapping[str, Any]] | None,
) -> list[dict[str, Any]] | None:
    """docs/api.md's seats (public counters and places), with the caller's details merged in."""
    if state is None:
        return None
    extra = state.settings.spec.seat_fields
    places = state.result.places if state.result else None
    seats: list[dict[str, Any]] = []
    for i, seat in enumerate(state.seats):
        entry: dict[str, Any] = {"seat": i}
        if details is not None and i < len(details):
            entry.update(details[i])
        entry.update(_seat_facts(seat, extra, places[i] if places else None))
        entry["client_seed"] = client_seeds[i] if i < len(client_seeds) else ""
        seats.append(entry)
    return seats
