"""The screening rule, pure (no I/O): a rated game's figures per seat, from its post-game
analysis, and a player's window of recent games against people's (docs/fair-play.md).

Per rated game and seat, over the seat's taps (``analysis.moves``, docs/analysis.md) on
positions the analysis counted exactly (one past the work budget is estimated, and would
judge a player by chances nobody knew):

- ``accuracy``: the share of taps on a cell with the board's highest mine chance (``loss`` 0:
  ``p_mine`` is ``p_best``). In mine-duel the likeliest *mine* is the greedy tap, the one a
  player who only counts takes;
- ``mean_loss``: the mean of ``p_best - p_mine``: chances given up against that tap;
- ``engine_match``: the share of taps on a cell one of the two engines would have chosen: a
  likeliest cell (what exact-greedy play taps) or the hard bot's own cell (``bot``, its choice
  with the game's public tie-break stream: for a player fed the hard bot, every tap). People
  find certain mines and reason locally; they do not count every layout of the board, so they
  part from both engines now and then, and that is what the screening measures.

Per player, the last ``WINDOW`` screened rated games, their taps pooled: ``z`` is how far the
window's engine match lies above people's, in standard deviations of people's windows
(``REFERENCE_MEAN``, ``REFERENCE_SD``: the simulated honest population of
``mineduel.benchmarks.fair_play``, which also measured the false-positive and detection rates
at ``REVIEW_Z``). A window at or over ``REVIEW_Z`` opens a case for a moderator; nothing
happens to the player until one decides.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

WINDOW = 20
"""Rated games a player's statistic is computed over (the last ones screened)."""
MIN_GAMES = 10
"""No ``z`` before the player has this many screened rated games (the number that makes a
rating established and listed on a leaderboard)..."""
MIN_HARD_TAPS = 40
"""...nor before their window holds this many hard taps."""
TOLERANCE = 1e-9
"""A tap whose published loss is at most this took a likeliest cell (losses are published
rounded to six decimals)."""
HARD_CURVE: tuple[tuple[float, float], ...] = (
    (0.2, 0.151),
    (0.4, 0.157),
    (0.5, 0.383),
    (0.7, 0.383),
    (0.85, 0.437),
    (0.92, 0.513),
    (0.96, 0.583),
    (0.98, 0.69),
    (1.0, 0.769),
)
"""People's engine match on hard taps against their match on clear ones: a broken line
through these points (clear match, hard match), fitted by least squares to the simulated
honest players' own rates (``mineduel.benchmarks.fair_play``, ``CALIBRATE=1``)..."""
PEOPLE_SD = 0.045
"""...and how far people's own hard-tap match lies around it (beyond the binomial spread of
a window's counts)."""
CLEAR_Z = 1.96
REVIEW_Z = 3.0
"""A window this many binomial standard deviations above ``REFERENCE`` opens a case."""
DIGITS = 4
CERTAIN = 1.0 - TOLERANCE
"""A cell at this chance or more is a certain mine: a position holding one asks nothing."""
MAX_TIES = 4
"""More likeliest cells than this and a tap on one of them is a tap among ties (the first
tap of a game ties every cell): no information."""
HARD_GAP = 0.1
"""A position whose likeliest cell leads the next chance on the board by less than this is
hard: the best tap is not obvious."""

TapKind = Literal["trivial", "tied", "clear", "hard"]


@dataclass(frozen=True)
class Difficulty:
    """What a position asked of the player who tapped it, from every covered cell's chance."""

    p_best: float
    ties: int
    """Covered cells at ``p_best``."""
    gap: float
    """``p_best`` minus the next lower chance on the board (1.0 when every covered cell ties)."""
    exact: bool

    @property
    def kind(self) -> TapKind:
        """``trivial`` (estimated, or a certain mine on the board), ``tied`` (more than
        ``MAX_TIES`` likeliest cells), ``hard`` (the lead is under ``HARD_GAP``) or ``clear``."""
        if not self.exact or self.p_best >= CERTAIN:
            return "trivial"
        if self.ties > MAX_TIES or self.gap >= 1.0:
            return "tied"
        return "hard" if self.gap < HARD_GAP else "clear"


def difficulty(chances: Mapping[int, float], exact: bool = True) -> Difficulty:
    """A position's difficulty from its covered cells' chances."""
    if not chances:
        return Difficulty(0.0, 0, 1.0, exact)
    top = max(chances.values())
    ties = 0
    below = -1.0
    for p in chances.values():
        if p >= top - TOLERANCE:
            ties += 1
        elif p > below:
            below = p
    return Difficulty(top, ties, 1.0 if below < 0 else top - below, exact)


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
        )

    @classmethod
    def of_taps(cls, game_id: str, ended_at: str, taps: Iterable[Tap]) -> GameFigures | None:
        """A seat's figures from its taps (those on positions counted exactly); None for none."""
        counted = [t for t in taps if t.difficulty.exact]
        if not counted:
            return None
        hard = [t for t in counted if t.difficulty.kind == "hard"]
        clear = [t for t in counted if t.difficulty.kind == "clear"]
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


def _curve(clear_match: float) -> tuple[float, float]:
    """``HARD_CURVE`` at ``clear_match``: its value and its slope there."""
    points = HARD_CURVE
    if clear_match <= points[0][0]:
        return points[0][1], 0.0
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        if clear_match <= x1 or (x1, y1) == points[-1]:
            slope = (y1 - y0) / (x1 - x0)
            return y0 + slope * (clear_match - x0), slope
    return points[-1][1], 0.0


def expected_hard_match(clear_match: float) -> float:
    """What people who match the engine on ``clear_match`` of their clear taps match on
    hard ones (``HARD_CURVE``, kept inside [0.05, 0.95])."""
    return min(max(_curve(clear_match)[0], 0.05), 0.95)


def z_of(hard: int, hard_matched: int, clear: int, clear_matched: int) -> float | None:
    """How far a window's hard-tap match lies above what people of its clear-tap match reach,
    in standard deviations of the binomial spread of its hard taps and of people's own
    (``PEOPLE_SD``). The clear-tap match is taken at the top of its 95% range (``CLEAR_Z``):
    a window of few clear taps is judged against the better players it might be. None below
    ``MIN_HARD_TAPS`` hard taps."""
    if hard < MIN_HARD_TAPS:
        return None
    c = (clear_matched + 1) / (clear + 2)  # a clear tap or two: the estimate stays inside (0, 1)
    top = min(1.0, c + CLEAR_Z * math.sqrt(c * (1 - c) / (clear + 2)))
    e = expected_hard_match(top)
    variance = e * (1 - e) / hard + PEOPLE_SD**2
    return round((hard_matched / hard - e) / math.sqrt(variance), 2)


def window_of(games: Sequence[GameFigures]) -> Window:
    """The player's statistic over their last ``WINDOW`` games: ``z`` null before they have
    ``MIN_GAMES`` of them holding ``MIN_HARD_TAPS`` hard taps."""
    kept = recent(games)
    taps = sum(g.taps for g in kept)
    if taps == 0:
        return Window(len(kept), None, None, None, 0, None, 0, None, None, None)
    hard = sum(g.hard for g in kept)
    hard_matched = sum(g.hard_matched for g in kept)
    clear = sum(g.clear for g in kept)
    clear_matched = sum(g.clear_matched for g in kept)
    z = z_of(hard, hard_matched, clear, clear_matched) if len(kept) >= MIN_GAMES else None
    return Window(
        games_screened=len(kept),
        accuracy=round(sum(g.best for g in kept) / taps, DIGITS),
        mean_loss=round(sum(g.loss for g in kept) / taps, DIGITS),
        engine_match=round(sum(g.matched for g in kept) / taps, DIGITS),
        hard_taps=hard,
        hard_match=round(hard_matched / hard, DIGITS) if hard else None,
        clear_taps=clear,
        clear_match=round(clear_matched / clear, DIGITS) if clear else None,
        expected=round(expected_hard_match((clear_matched + 1) / (clear + 2)), DIGITS),
        z=z,
    )
