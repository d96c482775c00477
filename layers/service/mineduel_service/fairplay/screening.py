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

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

WINDOW = 10
"""Rated games a player's statistic is computed over (the last ones screened); no ``z``
before the player has this many, the same number of rated games that makes a rating
established and listed on a leaderboard."""
TOLERANCE = 1e-9
"""A tap whose published loss is at most this took a likeliest cell (losses are published
rounded to six decimals)."""
REFERENCE_MEAN = 0.718
"""People's engine match over a window of ``WINDOW`` rated games: the mean..."""
REFERENCE_SD = 0.107
"""...and the standard deviation, over the simulated honest players' windows (the calibration
run: ``SEED=fair-play-calibration HONEST=200 ASSISTED=0 PARTIAL=0 CALIBRATE=1``, 2026-12-01;
docs/fair-play.md)."""
REVIEW_Z = 2.25
"""A window this many standard deviations above people's opens a case: an engine match of
0.959 or more. The calibration run's highest honest window was 1.83 (0.914); any window that
follows the engine on 96% of its taps or more is over it."""
DIGITS = 4


@dataclass(frozen=True)
class GameFigures:
    """One rated game's figures for one seat: counts, so windows pool taps exactly."""

    game_id: str
    ended_at: str
    taps: int
    best: int
    matched: int
    loss: float

    def to_dict(self) -> dict[str, Any]:
        """The stored form."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameFigures:
        """Parse ``to_dict``'s form."""
        return cls(
            game_id=str(data["game_id"]),
            ended_at=str(data["ended_at"]),
            taps=int(data["taps"]),
            best=int(data["best"]),
            matched=int(data["matched"]),
            loss=float(data["loss"]),
        )


def seat_figures(
    analysis: Mapping[str, Any], seat: int, game_id: str, ended_at: str
) -> GameFigures | None:
    """The seat's figures in a game, from its analysis; None when the seat tapped no cell."""
    taps = best = matched = 0
    loss = 0.0
    for move in analysis.get("moves", ()):
        if move.get("seat") != seat or move.get("action", "tap") != "tap":
            continue
        if move.get("p_mine") is None or move.get("exact") is False:
            continue  # a bomb or a guess; or a position past the work budget (estimated)
        taps += 1
        lost = float(move["loss"])
        loss += lost
        if lost <= TOLERANCE:
            best += 1
            matched += 1
        elif move.get("bot") == [move.get("row"), move.get("col")]:
            matched += 1
    if taps == 0:
        return None
    return GameFigures(game_id, ended_at, taps, best, matched, round(loss, 6))


@dataclass(frozen=True)
class Window:
    """A player's recent rated games, pooled."""

    games_screened: int
    accuracy: float | None
    mean_loss: float | None
    engine_match: float | None
    z: float | None

    @property
    def flagged(self) -> bool:
        """At or over the review threshold."""
        return self.z is not None and self.z >= REVIEW_Z


def recent(games: Sequence[GameFigures]) -> list[GameFigures]:
    """The last ``WINDOW`` games, oldest first (each game once)."""
    unique = {g.game_id: g for g in games}
    return sorted(unique.values(), key=lambda g: (g.ended_at, g.game_id))[-WINDOW:]


def window_of(games: Sequence[GameFigures]) -> Window:
    """The player's statistic over their last ``WINDOW`` games (``z`` null before they have
    that many)."""
    kept = recent(games)
    taps = sum(g.taps for g in kept)
    if taps == 0:
        return Window(len(kept), None, None, None, None)
    match = sum(g.matched for g in kept) / taps
    z = (match - REFERENCE_MEAN) / REFERENCE_SD if len(kept) >= WINDOW else None
    return Window(
        games_screened=len(kept),
        accuracy=round(sum(g.best for g in kept) / taps, DIGITS),
        mean_loss=round(sum(g.loss for g in kept) / taps, DIGITS),
        engine_match=round(match, DIGITS),
        z=None if z is None else round(z, 2),
    )
