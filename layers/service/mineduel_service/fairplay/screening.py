"""The screening rule, pure (no I/O): a rated game's figures per seat, from its post-game
analysis and each tapped position's difficulty, and a player's window of recent games
against people's (docs/fair-play.md).

Most taps say nothing about a player: a certain mine on the board (everybody takes it), every
cell equally likely (the first tap), the best cell among many equal ones (a tap among ties
is a likeliest tap by luck), or a best cell far ahead of the rest (anybody sees it). What a
person does not do is find the best cell, again and again, where it is *not obvious*: so each
tap's position is classed (``Difficulty.kind``) from every covered cell's chance:

- ``trivial``: estimated past the analysis's work budget, a certain mine on the board, or
  no cell ahead of another;
- ``tied``: more than ``MAX_TIES`` likeliest cells;
- ``clear``: the likeliest leads the next chance by ``HARD_GAP`` or more;
- ``hard``: by less; ``subtle``: by less than ``SUBTLE_GAP`` (people do little better than
  chance there, whatever their strength).

A tap *matches* when it is on a cell an engine would have chosen: a likeliest cell (what
exact-greedy play taps) or the hard bot's own (``bot`` in the analysis, its choice with the
game's public tie-break stream: for a player fed the hard bot, every tap).

Hard and subtle positions are graded further by the lead and by how many cells lie within
``HARD_GAP`` of the likeliest (``Difficulty.grade``), clear ones by the lead: people match
the engine on 0.3 to 0.95 of a grade depending on the grade and their strength, an engine
always.

Per player, the last ``WINDOW`` screened rated games, pooled, grade by grade: ``z`` says how
much better their matches are explained by a person helped by an engine on some share of
their taps than by any person alone, against people's profiles (``profiles.PROFILES``:
simulated honest players' long-run match on each grade, every kind and strength). A
player fed the engine on a random half of taps looks like a stronger person on clear taps,
but no person matches that often where people rarely do while missing as often as he does
where the lead is plain. None before ``MIN_GAMES`` games and ``MIN_HARD_TAPS`` hard and
subtle taps, so short games and trivial positions never make a case. A window at or over
``REVIEW_Z`` opens a case for a moderator; nothing happens to the player until one decides.
The profiles and the threshold come from the simulated players of
``mineduel.benchmarks.fair_play`` (each from its own seed), which also measures the rates at
``REVIEW_Z`` on players of a third seed. ``PEOPLE`` (one line per kind of hard position)
is the rule before, kept for the record's ``expected_hard_match`` and for comparison
(``kind_z``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

from .profiles import PROFILES

WINDOW = 20
"""Rated games a player's statistic is computed over (the last ones screened)."""
MIN_GAMES = 10
"""No ``z`` before the player has this many screened rated games (the number that makes a
rating established and listed on a leaderboard)..."""
MIN_HARD_TAPS = 40
"""...nor before their window holds this many hard and subtle taps (a full game holds about
seven)."""
TOLERANCE = 1e-9
"""A tap whose published loss is at most this took a likeliest cell (losses are published
rounded to six decimals)."""
PEOPLE: dict[str, tuple[tuple[tuple[float, float], ...], float]] = {
    "hard": (
        (
            (0.2, 0.15),
            (0.4, 0.171),
            (0.5, 0.4),
            (0.7, 0.4),
            (0.85, 0.47),
            (0.92, 0.55),
            (0.96, 0.635),
            (0.98, 0.749),
            (1.0, 0.839),
        ),
        0.048,
    ),
    "subtle": (
        (
            (0.2, 0.134),
            (0.4, 0.134),
            (0.5, 0.298),
            (0.7, 0.298),
            (0.85, 0.298),
            (0.92, 0.335),
            (0.96, 0.373),
            (0.98, 0.423),
            (1.0, 0.476),
        ),
        0.037,
    ),
}
"""People's engine match on hard and on subtle taps against their match on clear ones: a
broken line through these points (clear match, match), fitted by least squares to the
simulated honest players' own rates (``mineduel.benchmarks.fair_play``, ``CALIBRATE=1``),
and how far people's own match lies around it (beyond the binomial spread of a window's
counts)."""
TOP_Z = 1.96
"""A window's clear-tap match is taken this many standard deviations up (the top of its 95%
range): a player of few clear taps is compared with the better people they might be."""
REVIEW_Z = 3.75
"""A window whose ``z`` reaches this opens a case (set on a calibration run's honest players,
measured on another seed's: docs/fair-play.md)."""
DIGITS = 4
CERTAIN = 1.0 - TOLERANCE
"""A cell at this chance or more is a certain mine: a position holding one asks nothing."""
MAX_TIES = 4
"""More likeliest cells than this and a tap on one of them is a tap among ties (the first
tap of a game ties every cell): no information."""
HARD_GAP = 0.1
"""A position whose likeliest cell leads the next chance on the board by less than this is
hard: the best tap is not obvious..."""
SUBTLE_GAP = 0.02
"""...and by less than this, subtle: below what a person can tell apart."""
GAP_EDGES = (SUBTLE_GAP, 0.05)
"""Where a hard position's lead bands part: under ``SUBTLE_GAP``, under 0.05, under
``HARD_GAP``..."""
NEAR_EDGES = (2, 4)
"""...and its candidates' (``Difficulty.near``): two, three or four, five or more."""
HARD_GRADES = (len(GAP_EDGES) + 1) * (len(NEAR_EDGES) + 1)
"""Hard and subtle positions are graded by lead and candidates (``Difficulty.grade``): people
of the same strength match the engine on 0.3 to 0.95 of them depending on the grade, the
fewer the candidates and the wider the lead the more (docs/fair-play.md)."""
CLEAR_EDGES = (0.2,)
"""Clear positions are graded by lead too (under 0.2, and more): how often a player matches
where the lead is plain but narrow tells a strong person's strength."""
GRADES = HARD_GRADES + len(CLEAR_EDGES) + 1
"""Every grade a tap is counted in (``GameFigures.graded``): the hard ones, then the clear."""

TapKind = Literal["trivial", "tied", "clear", "hard", "subtle"]


@dataclass(frozen=True)
class Difficulty:
    """What a position asked of the player who tapped it, from every covered cell's chance."""

    p_best: float
    ties: int
    """Covered cells at ``p_best``."""
    gap: float
    """``p_best`` minus the next lower chance on the board (1.0 when every covered cell ties)."""
    exact: bool
    near: int = 0
    """Covered cells within ``HARD_GAP`` of ``p_best`` (the likeliest ones included): the
    candidates a person weighs on a hard position."""

    @property
    def kind(self) -> TapKind:
        """``trivial`` (estimated, a certain mine on the board, or every covered cell as
        likely as the next: nothing to choose), ``tied`` (more than ``MAX_TIES`` likeliest
        cells), ``hard`` (the lead is under ``HARD_GAP``) or ``clear``."""
        if not self.exact or self.p_best >= CERTAIN or self.gap >= 1.0:
            return "trivial"
        if self.ties > MAX_TIES:
            return "tied"
        if self.gap < SUBTLE_GAP:
            return "subtle"
        return "hard" if self.gap < HARD_GAP else "clear"

    @property
    def grade(self) -> int | None:
        """A position's grade (``GRADES``): a hard or subtle one's by its lead's band and its
        candidates' band, then a clear one's by its lead's band; None for the other kinds."""
        if self.kind == "clear":
            return HARD_GRADES + sum(self.gap >= edge for edge in CLEAR_EDGES)
        if self.kind not in ("hard", "subtle"):
            return None
        lead = sum(self.gap >= edge for edge in GAP_EDGES)
        crowd = sum(self.near > edge for edge in NEAR_EDGES)
        return lead * (len(NEAR_EDGES) + 1) + crowd


def difficulty(chances: Mapping[int, float], exact: bool = True) -> Difficulty:
    """A position's difficulty from its covered cells' chances."""
    if not chances:
        return Difficulty(0.0, 0, 1.0, exact)
    top = max(chances.values())
    ties = near = 0
    below = -1.0
    for p in chances.values():
        if p >= top - TOLERANCE:
            ties += 1
        elif p > below:
            below = p
        if p > top - HARD_GAP:
            near += 1
    return Difficulty(top, ties, 1.0 if below < 0 else top - below, exact, near)


@dataclass(frozen=True)
class Tap:
    """One tap as the screening judges it: the position's difficulty, whether the cell was a
    likeliest one, whether it was an engine's (a likeliest cell or the hard bot's own), and the
    chance given up against the likeliest."""

    difficulty: Difficulty
    likeliest: bool
    engine: bool
    loss: float


@dataclass(frozen=True)
class GameFigures:
    """One rated game's figures for one seat: counts, so windows pool taps exactly.
    ``hard`` counts the taps on hard positions (``Difficulty.kind``), ``hard_matched`` those
    of them on an engine's cell: the taps the statistic is made of."""

    game_id: str
    ended_at: str
    taps: int
    best: int
    matched: int
    loss: float
    hard: int = 0
    hard_matched: int = 0
    clear: int = 0
    clear_matched: int = 0
    subtle: int = 0
    subtle_matched: int = 0
    graded: tuple[tuple[int, int], ...] = ()
    """Per grade of position (``GRADES``: the hard ones, then the clear ones): taps and taps
    matched (empty for a game screened before grades were counted: it then weighs nothing in
    ``z``)."""

    def to_dict(self) -> dict[str, Any]:
        """The stored form."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameFigures:
        """Parse ``to_dict``'s form (a game screened before hard taps were counted has none)."""
        return cls(
            game_id=str(data["game_id"]),
            ended_at=str(data["ended_at"]),
            taps=int(data["taps"]),
            best=int(data["best"]),
            matched=int(data["matched"]),
            loss=float(data["loss"]),
            hard=int(data.get("hard", 0)),
            hard_matched=int(data.get("hard_matched", 0)),
            clear=int(data.get("clear", 0)),
            clear_matched=int(data.get("clear_matched", 0)),
            subtle=int(data.get("subtle", 0)),
            subtle_matched=int(data.get("subtle_matched", 0)),
            graded=tuple((int(n), int(m)) for n, m in data.get("graded", ())),
        )

    @classmethod
    def of_taps(cls, game_id: str, ended_at: str, taps: Iterable[Tap]) -> GameFigures | None:
        """A seat's figures from its taps (those on positions counted exactly); None for none."""
        counted = [t for t in taps if t.difficulty.exact]
        if not counted:
            return None
        hard = [t for t in counted if t.difficulty.kind == "hard"]
        clear = [t for t in counted if t.difficulty.kind == "clear"]
        subtle = [t for t in counted if t.difficulty.kind == "subtle"]
        graded = [[0, 0] for _ in range(GRADES)]
        for t in counted:
            if (grade := t.difficulty.grade) is not None:
                graded[grade][0] += 1
                graded[grade][1] += t.engine
        return cls(
            game_id,
            ended_at,
            taps=len(counted),
            best=sum(t.likeliest for t in counted),
            matched=sum(t.engine for t in counted),
            loss=round(sum(t.loss for t in counted), 6),
            hard=len(hard),
            hard_matched=sum(t.engine for t in hard),
            clear=len(clear),
            clear_matched=sum(t.engine for t in clear),
            subtle=len(subtle),
            subtle_matched=sum(t.engine for t in subtle),
            graded=tuple((n, m) for n, m in graded),
        )


def seat_figures(
    analysis: Mapping[str, Any],
    seat: int,
    game_id: str,
    ended_at: str,
    positions: Mapping[int, Difficulty],
) -> GameFigures | None:
    """The seat's figures in a game, from its analysis and each tapped position's difficulty
    (by move number, ``positions.difficulties``); None when the seat tapped no cell."""
    taps: list[Tap] = []
    for move in analysis.get("moves", ()):
        if move.get("seat") != seat or move.get("action", "tap") != "tap":
            continue
        if move.get("p_mine") is None or move.get("exact") is False:
            continue  # a bomb or a guess; or a position past the work budget (estimated)
        found = positions.get(int(move["n"]))
        if found is None:
            continue
        lost = float(move["loss"])
        likeliest = lost <= TOLERANCE
        bot = move.get("bot") == [move.get("row"), move.get("col")]
        taps.append(Tap(found, likeliest, likeliest or bot, lost))
    return GameFigures.of_taps(game_id, ended_at, taps)


@dataclass(frozen=True)
class Window:
    """A player's recent rated games, pooled."""

    games_screened: int
    accuracy: float | None
    mean_loss: float | None
    engine_match: float | None
    hard_taps: int
    hard_match: float | None
    clear_taps: int
    clear_match: float | None
    expected: float | None
    z: float | None

    @property
    def flagged(self) -> bool:
        """At or over the review threshold."""
        return self.z is not None and self.z >= REVIEW_Z


def recent(games: Sequence[GameFigures]) -> list[GameFigures]:
    """The last ``WINDOW`` games, oldest first (each game once)."""
    unique = {g.game_id: g for g in games}
    return sorted(unique.values(), key=lambda g: (g.ended_at, g.game_id))[-WINDOW:]


def broken_line_at(points: Sequence[tuple[float, float]], x: float) -> float:
    """A broken line through ``points`` at ``x`` (flat before the first and after the last)."""
    if x <= points[0][0]:
        return points[0][1]
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        if x <= x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return points[-1][1]


def expected_match(kind: str, clear_match: float) -> float:
    """What people who match the engine on ``clear_match`` of their clear taps match on
    ``hard`` or ``subtle`` ones (``PEOPLE``, kept inside [0.05, 0.95])."""
    return min(max(broken_line_at(PEOPLE[kind][0], clear_match), 0.05), 0.95)


def _ratio(games: Sequence[GameFigures], kind: str) -> tuple[int, float, float]:
    """A kind of taps pooled over ``games``: how many, the share matched (a tap or two added,
    so that a handful stays inside (0, 1)) and its variance. Taps of one game are not
    independent (a board suits a player's way of reasoning or it does not), so the variance
    is the larger of the binomial one and the one between games (games as clusters)."""
    counts = [(getattr(g, kind), getattr(g, kind + "_matched")) for g in games]
    n = sum(c for c, _ in counts)
    share = (sum(m for _, m in counts) + 1) / (n + 2)
    binomial = share * (1 - share) / (n + 2)
    clusters = len([c for c, _ in counts if c])
    between = 0.0
    if clusters > 1:
        spread = sum((m - share * c) ** 2 for c, m in counts)
        between = spread / (n * n) * clusters / (clusters - 1)
    return n, share, max(binomial, between)


def kind_z(games: Sequence[GameFigures]) -> float | None:
    """The rule before profiles, kept for comparison (the benchmark prints its rates): how
    far games' match on hard and subtle taps lies above what people of the same clear-tap
    match reach (``PEOPLE``), the clear-tap match taken at the top of its 95% range
    (``TOP_Z``: a window is judged against the better players it might be): each kind's
    excess in standard deviations of its own spread and of people's, the two combined weighed
    by the root of their taps. None below ``MIN_HARD_TAPS`` hard and subtle taps."""
    kinds = {kind: _ratio(games, kind) for kind in ("hard", "subtle")}
    if sum(n for n, _, _ in kinds.values()) < MIN_HARD_TAPS:
        return None
    _, clear, spread = _ratio(games, "clear")
    top = min(1.0, clear + TOP_Z * math.sqrt(spread))
    total = weights = 0.0
    for kind, (n, share, variance) in kinds.items():
        if n == 0:
            continue
        e = expected_match(kind, top)
        matched = share * (n + 2) - 1
        z = (matched / n - e) / math.sqrt(max(variance, e * (1 - e) / n) + PEOPLE[kind][1] ** 2)
        total += math.sqrt(n) * z
        weights += n
    return round(total / math.sqrt(weights), 2)


ENGINE_SHARES = (0.15, 0.3, 0.45, 0.6, 0.75, 0.9)
"""The shares of taps on the engine a window is also tried against (``z_of``)."""


def _log_tables() -> tuple[tuple[tuple[tuple[float, float], ...], ...], ...]:
    """Per engine share (none first, then ``ENGINE_SHARES``), per profile, per class, the
    logs of a match's and of a miss's chance for such a person with such help."""
    tables = []
    for share in (0.0, *ENGINE_SHARES):
        tables.append(
            tuple(
                tuple(
                    (math.log(r := share + (1 - share) * q), math.log(max(1 - r, 1e-9)))
                    for q in profile
                )
                for profile in PROFILES
            )
        )
    return tuple(tables)


def z_of(games: Sequence[GameFigures]) -> float | None:
    """How much better a window is explained by a person helped by the engine on some share
    of their taps than by any person alone: the likelihood of its matches on each grade of
    position under each of people's profiles (``PROFILES``), alone or with each of
    ``ENGINE_SHARES`` of taps on an engine's cell (a person of match ``q`` then matches
    ``a + (1 - a) q``), the best helped against the best alone, as the root of twice the log
    ratio (0 or more). The helped explanation wins most where people rarely match, so a match
    on a subtle position among many candidates weighs far more than one on a plain lead.
    Binomial counts, though a window's taps are not independent (a board suits a way of
    reasoning or not): ``REVIEW_Z`` is set on honest windows, not read off a normal table.
    None below ``MIN_HARD_TAPS`` hard and subtle taps counted by grade (a game screened
    before grades were counted adds none)."""
    total = _graded_sum(games)
    if sum(n for n, _ in total[:HARD_GRADES]) < MIN_HARD_TAPS:
        return None
    cells = [(m, n - m) for n, m in total]
    best = [
        max(
            sum(m * hit + k * miss for (m, k), (hit, miss) in zip(cells, row, strict=True))
            for row in table
        )
        for table in LOG_TABLES
    ]
    gain = max(max(best[1:]) - best[0], 0.0)
    return round(math.sqrt(2 * gain), 2)


def pooled(games: Sequence[GameFigures]) -> GameFigures:
    """Games' counts added up (one figure for a window)."""
    return GameFigures(
        "window",
        max((g.ended_at for g in games), default=""),
        taps=sum(g.taps for g in games),
        best=sum(g.best for g in games),
        matched=sum(g.matched for g in games),
        loss=sum(g.loss for g in games),
        hard=sum(g.hard for g in games),
        hard_matched=sum(g.hard_matched for g in games),
        clear=sum(g.clear for g in games),
        clear_matched=sum(g.clear_matched for g in games),
        subtle=sum(g.subtle for g in games),
        subtle_matched=sum(g.subtle_matched for g in games),
        graded=_graded_sum(games),
    )


def _graded_sum(games: Sequence[GameFigures]) -> tuple[tuple[int, int], ...]:
    """Games' taps and matches per grade, added up (a game without grades adds nothing)."""
    totals = [[0, 0] for _ in range(GRADES)]
    for g in games:
        for total, (n, m) in zip(totals, g.graded, strict=False):
            total[0] += n
            total[1] += m
    return tuple((n, m) for n, m in totals)


def window_of(games: Sequence[GameFigures]) -> Window:
    """The player's statistic over their last ``WINDOW`` games: ``z`` null before they have
    ``MIN_GAMES`` of them holding ``MIN_HARD_TAPS`` hard taps."""
    kept = recent(games)
    total = pooled(kept)
    if total.taps == 0:
        return Window(len(kept), None, None, None, 0, None, 0, None, None, None)
    z = z_of(kept) if len(kept) >= MIN_GAMES else None
    return Window(
        games_screened=len(kept),
        accuracy=round(total.best / total.taps, DIGITS),
        mean_loss=round(total.loss / total.taps, DIGITS),
        engine_match=round(total.matched / total.taps, DIGITS),
        hard_taps=total.hard + total.subtle,
        hard_match=_share(total.hard_matched + total.subtle_matched, total.hard + total.subtle),
        clear_taps=total.clear,
        clear_match=_share(total.clear_matched, total.clear),
        expected=round(expected_match("hard", _ratio(kept, "clear")[1]), DIGITS),
        z=z,
    )


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, DIGITS) if whole else None


LOG_TABLES = _log_tables()
