"""Fair-play screening, calibrated and measured on simulated players (docs/fair-play.md).

Run with ``make bench-fair-play`` (``python -m mineduel.benchmarks.fair_play``). Not a test:
it plays thousands of mine-duel games and prints figures; nothing is asserted.

Each simulated player plays ``WINDOW`` rated two-seat games against other simulated players
(opponents drawn at random), then is screened exactly as the service screens a real one:
every game's per-seat figures come from the service's own rule
(``mineduel_service.fairplay.screening.seat_figures``) applied to the game's analysis, and the
player's window of games gives ``z`` (``window_of``). The analysis of each simulated move is the
engine's (exact chances, and the hard bot's move with the game's public tie-break stream),
computed while the game is played: for every tap on a likeliest cell the hard bot's move is not
needed (such a tap matches whatever the bot did), so it is only computed for the others. The
first ``CHECK`` games are also analysed with ``mineduel_engine.analysis.analyze`` itself, and
their figures compared with the simulation's: they must be the same.

The honest population (equal shares of four kinds, each player's own parameter drawn once):

- ``local``: local counting (the easy bot: each number's missing mines spread over its covered
  neighbours), with a careless tap (any covered cell) a share ``U(0, 0.15)`` of the time;
- ``estimator``: sees every cell's exact chance blurred by noise of ``U(0.05, 0.25)``
  (standard deviation, in chance), certain mines exactly, and taps the likeliest it sees;
- ``strategist``: the hard bot's own move, except a careless tap ``U(0.10, 0.30)`` of the time;
- ``mixer``: a likeliest cell (exact) ``U(0.50, 0.85)`` of the time, else a careless tap.

Assisted: ``hard-bot`` (the hard bot's move every tap) and ``exact-greedy`` (a likeliest cell
every tap, ties broken by the game's stream). Partly assisted, reported without a target:
``part-<f>``, the hard bot's move on a share ``f`` of taps, an estimator's (noise 0.15) on the
others.

Environment: ``HONEST`` (default 400 players), ``ASSISTED`` (100, half of each kind), ``PARTIAL``
(40, half at f = 0.5 and half at 0.8), ``JOBS`` (2 worker processes), ``SEED`` (``fair-play``:
fields and noise derive from it, so a run can be repeated), ``CHECK`` (4), ``CALIBRATE``
(``1`` prints the fit of the honest windows as constants for ``screening``; the rates are
always measured with the module's constants, which come from a run with another seed).
"""

from __future__ import annotations

import hashlib
import math
import os
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from mineduel_engine import Field, GameState, Move, Settings, commitment, rules_for
from mineduel_engine.analysis import analyze
from mineduel_engine.bot import SeatView, decide
from mineduel_engine.bot.choice import best_cells, pick
from mineduel_engine.bot.local import local_chances
from mineduel_engine.bot.probability import solve
from mineduel_engine.fairness import bot_stream
from mineduel_service.fairplay import screening

RULES = rules_for("mine-duel")
SETTINGS = Settings.for_variant("mine-duel", seats=2)
WIDTH = SETTINGS.width
DIGITS = 6
HONEST_KINDS = ("local", "estimator", "strategist", "mixer")
ASSISTED_KINDS = ("hard-bot", "exact-greedy")
PARTIAL_SHARES = (0.5, 0.8)


@dataclass(frozen=True)
class Player:
    """A simulated player: its kind and its own parameter (noise or share)."""

    number: int
    kind: str
    parameter: float

    @property
    def group(self) -> str:
        """honest, assisted or partial."""
        if self.kind in HONEST_KINDS:
            return "honest"
        return "assisted" if self.kind in ASSISTED_KINDS else "partial"


def population(honest: int, assisted: int, partial: int, rng: random.Random) -> list[Player]:
    """The simulated players, each with its parameter drawn once."""
    players: list[Player] = []
    ranges = {
        "local": (0.0, 0.15),
        "estimator": (0.05, 0.25),
        "strategist": (0.10, 0.30),
        "mixer": (0.50, 0.85),
    }
    for n in range(honest):
        kind = HONEST_KINDS[n % len(HONEST_KINDS)]
        players.append(Player(len(players), kind, rng.uniform(*ranges[kind])))
    for n in range(assisted):
        players.append(Player(len(players), ASSISTED_KINDS[n % len(ASSISTED_KINDS)], 1.0))
    for n in range(partial):
        share = PARTIAL_SHARES[n % len(PARTIAL_SHARES)]
        players.append(Player(len(players), f"part-{share:g}", share))
    return players


def schedule(
    players: Sequence[Player], games_each: int, rng: random.Random
) -> list[tuple[int, int]]:
    """Two-seat games in which every player sits ``games_each`` times, never against
    themselves (seat order random)."""
    while True:
        slots = [p.number for p in players for _ in range(games_each)]
        rng.shuffle(slots)
        pairs = [(slots[i], slots[i + 1]) for i in range(0, len(slots) - 1, 2)]
        if all(a != b for a, b in pairs):
            return pairs
        # a player against themselves: reshuffle (rare with hundreds of players)


# ---------------------------------------------------------------------------- one game
class Seat:
    """How one simulated player chooses a tap."""

    def __init__(self, player: Player, rng: random.Random) -> None:
        self.player = player
        self.rng = rng

    def careless(self, chances: dict[int, float]) -> int:
        return self.rng.choice(sorted(chances))

    def estimate(self, chances: dict[int, float], noise: float) -> int:
        seen = {
            c: p if p >= 1.0 else p + self.rng.gauss(0.0, noise) for c, p in sorted(chances.items())
        }
        return max(seen, key=lambda c: seen[c])

    def choose(self, turn: Turn) -> int:
        kind, value = self.player.kind, self.player.parameter
        chances = turn.chances
        if kind == "hard-bot":
            return turn.hard()
        if kind == "exact-greedy":
            return pick(best_cells(chances), turn.stream())
        if kind == "local":
            if self.rng.random() < value:
                return self.careless(chances)
            return pick(best_cells(local_chances(turn.view.position)), turn.stream())
        if kind == "estimator":
            return self.estimate(chances, value)
        if kind == "strategist":
            return self.careless(chances) if self.rng.random() < value else turn.hard()
        if kind == "mixer":
            if self.rng.random() < value:
                return pick(best_cells(chances), turn.stream())
            return self.careless(chances)
        if kind.startswith("part-"):
            return turn.hard() if self.rng.random() < value else self.estimate(chances, 0.15)
        raise ValueError(f"unknown kind {kind}")


class Turn:
    """One position: the exact chances, and the hard bot's move when asked (computed once)."""

    def __init__(self, state: GameState, seat: int, public: str) -> None:
        self.state = state
        self.view = SeatView.from_state(state, seat)
        self.chances = solve(self.view.position).mine
        self.public = public
        self._hard: int | None = None

    def stream(self) -> Any:
        return bot_stream(self.public, self.state.move_count + 1)

    def hard(self) -> int:
        if self._hard is None:
            self._hard = decide(self.view, self.stream(), "hard")[1]
        return self._hard


def _r(value: float) -> float:
    return round(value, DIGITS) + 0.0


@dataclass
class GameResult:
    """A played game's analysis entries (as the service's analysis publishes them, ``bot``
    where the screening reads it) and, for checked games, what the engine's analysis says."""

    seats: tuple[int, int]
    moves: list[dict[str, Any]]
    checked: list[dict[str, Any]] | None
    seconds: float


def play(job: tuple[str, int, Player, Player, bool]) -> GameResult:
    """Play one game between two simulated players on the field of ``label``."""
    label, index, first, second, check = job
    started = time.perf_counter()
    seed = hashlib.sha256(f"{label}|field|{index}".encode()).digest()
    game_field = Field.from_seed(seed, f"sim-{index}", ["", ""], WIDTH, SETTINGS.height, 51)
    public = commitment(seed)
    rng = random.Random(f"{label}|noise|{index}")
    seats = (Seat(first, rng), Seat(second, rng))
    state = RULES.new_game(SETTINGS)
    entries: list[dict[str, Any]] = []
    played: list[Move] = []
    while state.turn is not None:
        seat = state.turn
        turn = Turn(state, seat, public)
        cell = seats[seat].choose(turn)
        top = max(turn.chances.values())
        p = turn.chances[cell]
        row, col = divmod(cell, WIDTH)
        loss = _r(top - p)
        bot = None
        if loss > screening.TOLERANCE:
            bot = list(divmod(turn.hard(), WIDTH))
        entries.append(
            {
                "n": state.move_count + 1,
                "seat": seat,
                "action": "tap",
                "row": row,
                "col": col,
                "p_mine": _r(p),
                "p_best": _r(top),
                "loss": loss,
                "bot": bot,
            }
        )
        state, move = RULES.play(state, game_field, seat, "tap", row, col)
        played.append(move)
    checked = None
    if check:
        checked = analyze(f"sim-{index}", SETTINGS, game_field, played, public)["moves"]
    return GameResult(
        (first.number, second.number), entries, checked, time.perf_counter() - started
    )


# ---------------------------------------------------------------------------- the figures
def wilson(hits: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a rate (95% by default)."""
    if total == 0:
        return 0.0, 1.0
    rate = hits / total
    centre = rate + z * z / (2 * total)
    spread = z * math.sqrt(rate * (1 - rate) / total + z * z / (4 * total * total))
    scale = 1 + z * z / total
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def _rate(hits: int, total: int) -> str:
    low, high = wilson(hits, total)
    share = hits / total if total else 0.0
    return f"{hits}/{total} = {share:.1%} (95% CI {low:.1%} to {high:.1%})"


def main() -> None:
    """Play the population's games, screen every player, print the rates."""
    honest = int(os.environ.get("HONEST", "400"))
    assisted = int(os.environ.get("ASSISTED", "100"))
    partial = int(os.environ.get("PARTIAL", "40"))
    jobs = int(os.environ.get("JOBS", "2"))
    label = os.environ.get("SEED", "fair-play")
    check = int(os.environ.get("CHECK", "4"))
    rng = random.Random(label)
    players = population(honest, assisted, partial, rng)
    pairs = schedule(players, screening.WINDOW, rng)
    print(
        f"fair-play screening: {len(players)} simulated players ({honest} honest, {assisted} "
        f"assisted, {partial} partly assisted), {screening.WINDOW} rated games each: "
        f"{len(pairs)} games, {jobs} worker(s), seed {label!r}"
    )
    work = [(label, i, players[a], players[b], i < check) for i, (a, b) in enumerate(pairs)]
    figures: dict[int, list[screening.GameFigures]] = defaultdict(list)
    seconds: list[float] = []
    mismatches = 0
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for index, result in enumerate(pool.map(play, work, chunksize=4)):
            seconds.append(result.seconds)
            analysis = {"moves": result.moves}
            for seat, number in enumerate(result.seats):
                game_id = f"sim-{index}"
                ended = f"2026-12-01T00:00:00Z#{index:06d}"
                found = screening.seat_figures(analysis, seat, game_id, ended)
                if found is not None:
                    figures[number].append(found)
                if result.checked is not None:
                    engine = screening.seat_figures({"moves": result.checked}, seat, game_id, ended)
                    mismatches += engine != found
    took = time.perf_counter() - started
    print(
        f"  {len(pairs)} games in {took:.0f} s ({statistics.median(seconds):.2f} s a game, "
        f"median, per worker); {min(check, len(pairs))} games also analysed by the engine's "
        f"analyze(): {mismatches} seat figures differ"
    )
    report(players, figures)


def report(players: Sequence[Player], figures: dict[int, list[screening.GameFigures]]) -> None:
    """The rates at the threshold, by group and kind, and the honest windows' fit."""
    windows = {p.number: screening.window_of(figures[p.number]) for p in players}
    honest = [p for p in players if p.group == "honest"]
    values = [windows[p.number].engine_match or 0.0 for p in honest]
    print(
        f"  honest windows' engine match: mean {statistics.mean(values):.4f}, sd "
        f"{statistics.pstdev(values):.4f} (the module uses {screening.REFERENCE_MEAN} and "
        f"{screening.REFERENCE_SD}); review at z >= {screening.REVIEW_Z}"
    )
    if os.environ.get("CALIBRATE") == "1":
        print(
            f"  calibration: REFERENCE_MEAN = {statistics.mean(values):.3f}, "
            f"REFERENCE_SD = {statistics.pstdev(values):.3f}"
        )
    for group in ("honest", "assisted", "partial"):
        members = [p for p in players if p.group == group]
        if not members:
            continue
        flagged = sum(windows[p.number].flagged for p in members)
        what = "false positives" if group == "honest" else "flagged"
        print(f"  {group}: {what} {_rate(flagged, len(members))}")
    print("  by kind: players, flagged, engine match (min / median / max), z max, accuracy, loss")
    for kind in (
        *HONEST_KINDS,
        *ASSISTED_KINDS,
        *sorted({p.kind for p in players if p.group == "partial"}),
    ):
        members = [p for p in players if p.kind == kind]
        if not members:
            continue
        got = [windows[p.number] for p in members]
        match = sorted(w.engine_match or 0.0 for w in got)
        zs = [w.z for w in got if w.z is not None]
        print(
            f"    {kind:<13} {len(members):4d} {sum(w.flagged for w in got):4d}   "
            f"{match[0]:.3f} / {statistics.median(match):.3f} / {match[-1]:.3f}   "
            f"{max(zs) if zs else float('nan'):5.2f}   "
            f"{statistics.mean(w.accuracy or 0.0 for w in got):.3f}   "
            f"{statistics.mean(w.mean_loss or 0.0 for w in got):.4f}"
        )
    top = sorted(honest, key=lambda p: -(windows[p.number].z or -99))[:5]
    print(
        "  the honest players nearest the threshold: "
        + ", ".join(f"{p.kind} {p.parameter:.3f} z {windows[p.number].z}" for p in top)
    )


if __name__ == "__main__":
    main()
