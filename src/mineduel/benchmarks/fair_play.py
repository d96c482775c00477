"""Fair-play screening, calibrated and measured on simulated players (docs/fair-play.md).

Run with ``make bench-fair-play`` (``python -m mineduel.benchmarks.fair_play``; ``--quick`` for
a small run). Not a test: it plays mine-duel games and prints figures; nothing is asserted.

Two stages:

1. **The position bank.** ``BANK`` mine-duel games are played through the engine (real fields
   from seeds, the real rules) by honest-model seats, and every position a seat tapped is kept
   as that seat saw it: every covered cell's exact chance (as the analysis counts it), the hard
   bot's own move on it with the game's public tie-break stream (what the analysis publishes
   as ``bot``), and local counting's pick. This is the expensive part (the hard bot's
   look-ahead, a few milliseconds a position), run on ``JOBS`` processes.
2. **The players.** Each simulated player plays ``GAMES`` rated games; a game is one seat's
   run of positions from a bank game drawn at random (cut short for a short game), on each of
   which the player chooses a cell by its own model. Its choices are judged by the service's
   own rule (``mineduel_service.fairplay.screening``: ``difficulty``, ``Tap``,
   ``GameFigures.of_taps``, ``window_of``), and the player is screened after every game as
   the screener would: a player is flagged if any of their windows is.

Choosing on a bank position instead of replaying a whole game per player keeps 1,000s of
players of 20 games each within a few minutes; what the screening judges is each tap on the
position it was made on, and the bank's positions are those honest play reaches.

The honest population, its kinds and parameters, is described in docs/fair-play.md and in
``population``. Environment (``--quick``'s in brackets): ``SEED`` (``fair-play``), ``HONEST``
(2,000 [200]), ``ASSISTED`` (200 [40]), ``HALF`` (400 [40]), ``PARTIAL`` (100 [20]),
``GAMES`` (20), ``BANK`` (160 games [24]), ``JOBS`` (2), ``CALIBRATE`` (``1``: also fit
people to this run's honest players, ``FIT_GAMES`` (200) whole games each: the lines of
``screening.PEOPLE``, printed, and people's profiles, written to ``PROFILES_OUT`` as the
module ``fairplay.profiles``; ``GAMES=1`` skips the screened games such a run needs not).

The rates are printed for the screening's rule (``screening.z_of``: the window's matches per
grade of position against people's profiles) and, for comparison, for the rule before it
(``screening.kind_z``), and for the partly assisted by the kind of person they are otherwise.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from mineduel_engine import Field, Settings, commitment, rules_for
from mineduel_engine.analysis import position_chances
from mineduel_engine.bot import SeatView, decide
from mineduel_engine.bot.choice import best_cells, pick
from mineduel_engine.bot.local import local_chances
from mineduel_engine.fairness import bot_stream
from mineduel_service.fairplay import screening
from mineduel_service.fairplay.screening import Difficulty, GameFigures, Tap

RULES = rules_for("mine-duel")
SETTINGS = Settings.for_variant("mine-duel", seats=2)
WIDTH = SETTINGS.width
NORMAL = statistics.NormalDist()
LEVEL_DIGITS = 9


# ---------------------------------------------------------------------------- the bank
@dataclass(frozen=True)
class Spot:
    """One position a seat tapped, as that seat saw it: the board's distinct chances (highest
    first) with how many covered cells hold each, the level of the hard bot's cell and of
    local counting's pick (and whether that pick is the bot's cell)."""

    levels: tuple[tuple[float, int], ...]
    bot_level: int
    local_level: int
    local_is_bot: bool
    difficulty: Difficulty


def _levels(chances: dict[int, float]) -> tuple[list[tuple[float, list[int]]], dict[int, int]]:
    groups: dict[float, list[int]] = defaultdict(list)
    for cell, p in chances.items():
        groups[round(p, LEVEL_DIGITS)].append(cell)
    ordered = sorted(groups.items(), key=lambda kv: -kv[0])
    where = {cell: i for i, (_, cells) in enumerate(ordered) for cell in cells}
    return ordered, where


def bank_game(job: tuple[str, int]) -> list[list[Spot]]:
    """Play one bank game between two honest estimators (noise drawn per seat); each seat's
    positions in order."""
    label, index = job
    seed = hashlib.sha256(f"{label}|bank|{index}".encode()).digest()
    game_field = Field.from_seed(seed, f"bank-{index}", ["", ""], WIDTH, SETTINGS.height, 51)
    public = commitment(seed)
    rng = random.Random(f"{label}|bank-noise|{index}")
    noise = (rng.uniform(0.03, 0.25), rng.uniform(0.03, 0.25))
    state = RULES.new_game(SETTINGS)
    spots: list[list[Spot]] = [[], []]
    while state.turn is not None:
        seat = state.turn
        view = SeatView.from_state(state, seat)
        chances, exact = position_chances(view.position)
        ordered, where = _levels(chances)
        stream = bot_stream(public, state.move_count + 1)
        bot = decide(view, stream, "hard")[1]
        local = pick(best_cells(local_chances(view.position)), bot_stream(public, 0))
        spots[seat].append(
            Spot(
                tuple((p, len(cells)) for p, cells in ordered),
                where[bot],
                where.get(local, len(ordered) - 1),
                local == bot,
                screening.difficulty(chances, exact),
            )
        )
        level = _estimate([(p, len(c)) for p, c in ordered], noise[seat], rng)
        cell = rng.choice(ordered[level][1])
        row, col = divmod(cell, WIDTH)
        state, _ = RULES.play(state, game_field, seat, "tap", row, col)
    return spots


def _estimate(levels: Sequence[tuple[float, int]], noise: float, rng: random.Random) -> int:
    """The level a player who sees every chance blurred by ``noise`` (standard deviation)
    taps: the highest seen value, each level's best cell's noise being the largest of its
    cells' (drawn at once from that maximum's distribution). A certain mine is seen as one."""
    if levels[0][0] >= screening.CERTAIN:
        return 0
    reach = levels[0][0] - 8 * noise
    best, chosen = -math.inf, 0
    for i, (p, count) in enumerate(levels):
        if p < reach:
            break
        u = rng.random() ** (1.0 / count)
        seen = p + noise * NORMAL.inv_cdf(min(max(u, 1e-12), 1 - 1e-12))
        if seen > best:
            best, chosen = seen, i
    return chosen


# ---------------------------------------------------------------------------- the players
HONEST_KINDS = ("counter", "estimator", "expert")
HARD_FEEL = 0.1
"""A ``hard``-mode cheater consults the engine on every position whose likeliest cell leads
by less than this (to a person, not obvious), and at random on the others, as often as
brings its engine taps to its share."""
ENGINES = ("hard-bot", "exact-greedy")


@dataclass(frozen=True)
class Player:
    """A simulated player: its kind, its own skill (``noise``: the blur on chances it sees;
    ``careless``: a share of taps on any covered cell), how often its games are short, and for
    the assisted, which engine and on what share of taps (``mode``: ``random`` taps, or
    ``hard`` ones first)."""

    number: int
    kind: str
    group: str
    noise: float
    careless: float
    short: float
    engine: str = ""
    share: float = 0.0
    mode: str = ""
    extra: float = 0.0
    """A ``hard``-mode cheater's chance of the engine on an obvious position."""
    base: str = ""
    """A partly assisted player's own kind when not consulting the engine."""


def _base(rng: random.Random) -> tuple[str, float, float]:
    """An honest player's kind and skill, all strengths (equal shares of the kinds)."""
    kind = rng.choice(HONEST_KINDS)
    if kind == "counter":
        return kind, 0.0, rng.uniform(0.0, 0.15)
    if kind == "estimator":
        return kind, rng.uniform(0.05, 0.25), rng.uniform(0.0, 0.05)
    return kind, rng.uniform(0.025, 0.06), rng.uniform(0.0, 0.02)


def _short_share(rng: random.Random) -> float:
    """How often a player's games end early (a resignation or a timeout a few taps in): most
    players rarely, one in ten always (the player of many one-tap games)."""
    roll = rng.random()
    if roll < 0.1:
        return 1.0
    return rng.uniform(0.0, 0.3)


def population(
    honest: int, assisted: int, half: int, partial: int, rng: random.Random
) -> list[Player]:
    """The simulated players, each with its parameters drawn once."""
    players: list[Player] = []
    for _ in range(honest):
        kind, noise, careless = _base(rng)
        players.append(Player(len(players), kind, "honest", noise, careless, _short_share(rng)))
    for n in range(assisted):
        engine = ENGINES[n % 2]
        players.append(Player(len(players), engine, "assisted", 0.0, 0.0, rng.uniform(0, 0.3)))
    for group, count, share in (("half", half, 0.5), ("partial", partial, 0.8)):
        for n in range(count):
            kind, noise, careless = _base(rng)
            mode = "random" if n % 2 == 0 else "hard"
            players.append(
                Player(
                    len(players),
                    f"{mode}-{share:g}",
                    group,
                    noise,
                    careless,
                    rng.uniform(0.0, 0.3),
                    ENGINES[(n // 2) % 2],
                    share,
                    mode,
                    base=kind,
                )
            )
    return players


def _careless(spot: Spot, rng: random.Random) -> tuple[int, bool]:
    total = sum(c for _, c in spot.levels)
    roll = rng.randrange(total)
    for i, (_, count) in enumerate(spot.levels):
        if roll < count:
            return i, i == spot.bot_level and roll == 0
        roll -= count
    return len(spot.levels) - 1, False


def _own(player: Player, kind: str, spot: Spot, rng: random.Random) -> tuple[int, bool]:
    """The honest model's tap: the chosen level, and whether the cell is the bot's."""
    if rng.random() < player.careless:
        return _careless(spot, rng)
    if kind == "counter":
        return spot.local_level, spot.local_is_bot
    level = _estimate(spot.levels, player.noise, rng)
    if level == spot.bot_level and level != 0:
        return level, rng.randrange(spot.levels[level][1]) == 0
    return level, level == spot.bot_level


def _engine(engine: str, spot: Spot) -> tuple[int, bool]:
    if engine == "hard-bot":
        return spot.bot_level, True
    return 0, spot.bot_level == 0  # a likeliest cell (which is the bot's when it is likeliest)


def choose(player: Player, spot: Spot, rng: random.Random) -> tuple[int, bool]:
    """The player's tap on ``spot``."""
    if player.group == "assisted":
        return _engine(player.kind, spot)
    if player.group == "honest":
        return _own(player, player.kind, spot, rng)
    if player.mode == "hard":  # the engine where the best tap is not obvious, then elsewhere
        d = spot.difficulty
        consult = (d.kind != "trivial" and d.gap < HARD_FEEL) or rng.random() < player.extra
    else:
        consult = rng.random() < player.share
    base = "counter" if player.noise == 0.0 else "estimator"
    return _engine(player.engine, spot) if consult else _own(player, base, spot, rng)


def tap_of(spot: Spot, level: int, is_bot: bool) -> Tap:
    """The tap as the screening judges it."""
    top = spot.levels[0][0]
    return Tap(spot.difficulty, level == 0, level == 0 or is_bot, top - spot.levels[level][0])


Bank = Sequence[Sequence[Sequence[Spot]]]
"""Bank games, each two seats' runs of positions."""


def play_player(
    player: Player, bank: Bank, games: int, label: str, screen: bool = True
) -> tuple[list[GameFigures], list[list[Tap]], int | None]:
    """The player's games, their taps, and the game after which the screening first flagged
    them (None: never, or not ``screen``ed)."""
    rng = random.Random(f"{label}|player|{player.number}")
    figures: list[GameFigures] = []
    all_taps: list[list[Tap]] = []
    flagged_at = None
    for g in range(games):
        spots = bank[rng.randrange(len(bank))][rng.randrange(2)]
        if rng.random() < player.short:
            spots = spots[: rng.randint(1, 6)]
        taps = [tap_of(s, *choose(player, s, rng)) for s in spots]
        ended = f"2026-12-01T00:{g // 60:02d}:{g % 60:02d}Z"
        found = GameFigures.of_taps(f"p{player.number}-g{g}", ended, taps)
        all_taps.append(taps)
        if found is not None:
            figures.append(found)
        if screen and flagged_at is None and screening.window_of(figures).flagged:
            flagged_at = g + 1
    return figures, all_taps, flagged_at


def _zs(figures: Sequence[GameFigures], rule: str = "profiles") -> list[float]:
    """Every z the player's windows had, one after each game: by the screening's rule
    (``profiles``), or by the rule before it (``kinds``: hard and subtle taps each set
    against people's line of the same clear-tap match), kept for comparison."""
    found = []
    for g in range(len(figures)):
        if rule == "profiles":
            z = screening.window_of(figures[: g + 1]).z
        else:
            kept = screening.recent(figures[: g + 1])
            z = screening.kind_z(kept) if len(kept) >= screening.MIN_GAMES else None
        if z is not None:
            found.append(z)
    return found


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


def _env(name: str, default: int, quick: int) -> int:
    return int(os.environ.get(name, str(quick if "--quick" in sys.argv else default)))


def main() -> None:
    """Build the bank, play the population's games, screen every player, print the rates."""
    label = os.environ.get("SEED", "fair-play")
    honest = _env("HONEST", 2000, 200)
    assisted = _env("ASSISTED", 200, 40)
    half = _env("HALF", 400, 40)
    partial = _env("PARTIAL", 100, 20)
    games = _env("GAMES", 20, 20)
    size = _env("BANK", 160, 24)
    jobs = _env("JOBS", 2, 2)
    started = time.perf_counter()
    print(f"fair-play screening, seed {label!r}: a bank of {size} games on {jobs} worker(s)...")
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        bank = list(pool.map(bank_game, [(label, i) for i in range(size)], chunksize=2))
    spots = [s for game in bank for seat in game for s in seat]
    kinds: dict[str, int] = defaultdict(int)
    for s in spots:
        kinds[s.difficulty.kind] += 1
    print(
        f"  {len(spots)} positions in {time.perf_counter() - started:.0f} s: "
        + ", ".join(f"{k} {v / len(spots):.1%}" for k, v in sorted(kinds.items()))
    )
    rng = random.Random(label)
    players = population(honest, assisted, half, partial, rng)
    print(
        f"  {len(players)} players ({honest} honest, {assisted} assisted, {half} half-assisted, "
        f"{partial} at 0.8), {games} rated games each, screened after every game"
    )
    obvious = sum(s.difficulty.kind != "trivial" and s.difficulty.gap < HARD_FEEL for s in spots)
    hidden = obvious / len(spots)
    print(f"  positions not obvious to a person (gap under {HARD_FEEL}): {hidden:.1%}")
    players = [
        dataclasses.replace(p, extra=max(p.share - hidden, 0.0) / (1.0 - hidden))
        if p.mode == "hard"
        else p
        for p in players
    ]
    results: Results = {}
    for i, p in enumerate(players):
        results[p.number] = play_player(p, bank, games, label)
        if (i + 1) % 500 == 0:
            print(f"  ... {i + 1} players", flush=True)
    report(players, results)
    if os.environ.get("CALIBRATE") == "1":
        calibrate([p for p in players if p.group == "honest"], bank, label)
    print(f"  in {time.perf_counter() - started:.0f} s")


def calibrate(honest: Sequence[Player], bank: Bank, label: str) -> None:
    """Fit ``screening.PEOPLE`` to the honest players' own rates: each plays ``FIT_GAMES``
    whole games (no short ones), so that a player's rates are theirs, not a window's chance;
    for hard and for subtle taps, the least-squares broken line of the match against the
    clear-tap match, and people's own spread around it (the residuals' variance less the
    binomial part). Printed as the constant to paste; ``REVIEW_Z`` is then set from the
    honest windows' highest z of the same run (printed by ``report``)."""
    games = int(os.environ.get("FIT_GAMES", "200"))
    totals = []
    for p in honest:
        long = Player(p.number, p.kind, p.group, p.noise, p.careless, 0.0)
        totals.append(
            screening.pooled(play_player(long, bank, games, label + "|fit", screen=False)[0])
        )
    print(f"  calibration over {len(totals)} honest players x {games} games: PEOPLE = {{")
    for kind in ("hard", "subtle"):
        points = [
            (t.clear_matched / t.clear, getattr(t, kind + "_matched") / n, n)
            for t in totals
            if t.clear and (n := getattr(t, kind))
        ]
        values = fit_curve(KNOTS, [(c, h) for c, h, _ in points])
        curve = tuple(zip(KNOTS, values, strict=True))
        residuals = [h - screening.broken_line_at(curve, c) for c, h, _ in points]
        binomial = statistics.mean(h * (1 - h) / n for _, h, n in points)
        spread = math.sqrt(max(statistics.pvariance(residuals) - binomial, 0.0))
        print(
            f"      {kind!r}: ({tuple((x, round(y, 3)) for x, y in curve)!r}, {spread:.3f}),"
            f"  # residual sd {statistics.pstdev(residuals):.3f}, of which binomial "
            f"{math.sqrt(binomial):.3f}; largest residual {max(residuals):.3f}"
        )
    print("  }")
    print("  people's lines per grade (what a profile's grade of few taps is drawn toward):")
    grade_curves = []
    for grade in range(screening.GRADES):
        points = [
            (t.clear_matched / t.clear, t.graded[grade][1] / n, n)
            for t in totals
            if t.clear and (n := t.graded[grade][0])
        ]
        values = fit_curve(KNOTS, [(c, h) for c, h, _ in points])
        curve = tuple(zip(KNOTS, values, strict=True))
        residuals = [h - screening.broken_line_at(curve, c) for c, h, _ in points]
        binomial = statistics.mean(h * (1 - h) / n for _, h, n in points)
        spread = math.sqrt(max(statistics.pvariance(residuals) - binomial, 0.0))
        taps = sum(n for _, _, n in points)
        grade_curves.append(curve)
        print(
            f"      grade {grade}: {taps} taps, {tuple((x, round(y, 3)) for x, y in curve)!r}; "
            f"people's spread {spread:.3f}, residual sd {statistics.pstdev(residuals):.3f}"
        )
    write_profiles(totals, grade_curves, os.environ.get("PROFILES_OUT"))


PROFILE_COUNT = 96
"""People's profiles kept for ``fairplay.profiles`` (every honest player's is too many to
test a window against quickly)."""
SHRINK = 5
"""A profile's grade of few taps is drawn toward people's line (fitted with them) as if
it held this many more taps there."""


def write_profiles(
    totals: Sequence[GameFigures],
    curves: Sequence[Sequence[tuple[float, float]]],
    path: str | None,
) -> None:
    """``fairplay.profiles.PROFILES``: ``PROFILE_COUNT`` honest players' long-run match on
    clear taps and on each grade (evenly spaced in their clear-tap match, so that every
    strength and kind is there), written to ``path`` (``PROFILES_OUT``) as the module."""
    rows = []
    for t in sorted(totals, key=lambda t: t.clear_matched / max(t.clear, 1)):
        clear = (t.clear_matched + 0.5) / (t.clear + 1)
        toward = [screening.broken_line_at(curve, clear) for curve in curves]
        rows.append(
            tuple(
                round((m + SHRINK * line) / (n + SHRINK), 3)
                for (n, m), line in zip(t.graded, toward, strict=True)
            )
        )
    step = len(rows) / PROFILE_COUNT
    kept = sorted({rows[int(i * step)] for i in range(PROFILE_COUNT)})
    print(f"  {len(kept)} people's profiles (each grade's match)")
    if not path:
        return
    lines = [
        '"""People\'s profiles: simulated honest players\' long-run engine match on each grade of',
        "position (``screening.GRADES``: the hard ones, then the clear ones), written by",
        "``mineduel.benchmarks.fair_play`` (``CALIBRATE=1 PROFILES_OUT=...``): a window is",
        'judged against the profile of the people it fits best (``screening.z_of``)."""',
        "",
        "PROFILES: tuple[tuple[float, ...], ...] = (",
        *(f"    {row!r}," for row in kept),
        ")",
        "",
    ]
    with open(path, "w") as out:
        out.write("\n".join(lines))


KNOTS = (0.2, 0.4, 0.5, 0.7, 0.85, 0.92, 0.96, 0.98, 1.0)
"""Where the fitted broken line may bend (closer where people's hard match rises fastest)."""


def _hat(knots: Sequence[float], i: int, x: float) -> float:
    """The i-th basis function of the broken line through ``knots`` (1 at knot i, 0 at the
    others, linear between)."""
    k = knots[i]
    if i > 0 and knots[i - 1] <= x <= k:
        return (x - knots[i - 1]) / (k - knots[i - 1])
    if i < len(knots) - 1 and k <= x <= knots[i + 1]:
        return (knots[i + 1] - x) / (knots[i + 1] - k)
    return 0.0


def fit_curve(knots: Sequence[float], points: Sequence[tuple[float, float]]) -> list[float]:
    """The least-squares broken line through ``(x, y)`` points: its values at ``knots``, made
    non-decreasing (people who do better on clear taps do no worse on hard ones). Normal
    equations, Gaussian elimination, and a little ridge that keeps a knot with few points near
    its neighbours."""
    n = len(knots)
    a = [[0.0] * n for _ in range(n)]
    b = [0.0] * n
    for x, y in points:
        row = [_hat(knots, i, min(max(x, knots[0]), knots[-1])) for i in range(n)]
        for i in range(n):
            b[i] += row[i] * y
            for j in range(n):
                a[i][j] += row[i] * row[j]
    ridge = 1e-3
    for i in range(1, n - 1):
        for j, w in ((i - 1, -0.5), (i, 1.0), (i + 1, -0.5)):
            for k, v in ((i - 1, -0.5), (i, 1.0), (i + 1, -0.5)):
                a[j][k] += ridge * w * v
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        b[col], b[pivot] = b[pivot], b[col]
        for r in range(n):
            if r != col and a[r][col]:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
                b[r] -= f * b[col]
    values = [b[i] / a[i][i] for i in range(n)]
    for i in range(1, n):
        values[i] = max(values[i], values[i - 1])
    return values


THRESHOLDS = (2.5, 2.75, 3.0, 3.25, 3.5, 3.75, 4.0)
"""The thresholds ``report`` prints the rates at (the screening's own is ``REVIEW_Z``)."""


Results = dict[int, tuple[list[GameFigures], list[list[Tap]], int | None]]
"""Per player: their games' figures, their taps, the game after which they were flagged."""


def report(players: Sequence[Player], results: Results) -> None:
    """The rates by group (and the partly assisted by how they choose their engine taps), at
    other thresholds, the honest players nearest the threshold, and what each kind does on
    each kind of position."""
    for group in ("honest", "assisted", "half", "partial"):
        members = [p for p in players if p.group == group]
        if not members:
            continue
        flagged = sum(results[p.number][2] is not None for p in members)
        what = "false positives" if group == "honest" else "caught"
        print(f"  {group}: {what} {_rate(flagged, len(members))}")
        if group in ("half", "partial"):
            for mode in ("random", "hard"):
                some = [p for p in members if p.mode == mode]
                hits = sum(results[p.number][2] is not None for p in some)
                print(f"    the engine on {mode} taps: {_rate(hits, len(some))}")
                for base in HONEST_KINDS:
                    own = [p for p in some if p.base == base]
                    hits = sum(results[p.number][2] is not None for p in own)
                    print(f"      playing as a {base} otherwise: {_rate(hits, len(own))}")
    short = [p for p in players if p.group == "honest" and p.short >= 1.0]
    hits = sum(results[p.number][2] is not None for p in short)
    print(f"  honest players of short games only (1 to 6 taps): {len(short)}, flagged {hits}")
    peak = {p.number: max(_zs(results[p.number][0]), default=-99.0) for p in players}
    before = {p.number: max(_zs(results[p.number][0], "kinds"), default=-99.0) for p in players}
    rules = (("the screening's rule", peak), ("the rule before profiles", before))
    for rule, peaks in rules:
        print(f"  {rule} at other thresholds (flagged if any window's z reaches it):")
        for threshold in THRESHOLDS:
            shares = []
            for group in ("honest", "assisted", "half", "partial"):
                members = [p for p in players if p.group == group]
                if members:
                    hits = sum(peaks[p.number] >= threshold for p in members)
                    shares.append(f"{group} {hits / len(members):.2%}")
            random_half = [p for p in players if p.kind == "random-0.5"]
            if random_half:
                hits = sum(peaks[p.number] >= threshold for p in random_half)
                shares.append(f"random-0.5 {hits / len(random_half):.2%}")
            print(f"    z >= {threshold}: " + ", ".join(shares))
    nearest = sorted((p for p in players if p.group == "honest"), key=lambda p: -peak[p.number])
    print(
        "  the honest players' highest z (over all their windows): "
        + ", ".join(f"{peak[p.number]:.2f} ({p.kind} {p.noise:.3f})" for p in nearest[:5])
    )
    print("  by kind: players, flagged, engine match (mean, max); per kind of position, its")
    print("  share of taps and the engine match there")
    for kind in sorted({p.kind for p in players}):
        members = [p for p in players if p.kind == kind]
        by: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        overall = []
        for p in members:
            taps = [t for game in results[p.number][1] for t in game]
            if taps:
                overall.append(sum(t.engine for t in taps) / len(taps))
            for t in taps:
                by[t.difficulty.kind][0] += 1
                by[t.difficulty.kind][1] += t.engine
        total = sum(v[0] for v in by.values()) or 1
        flagged = sum(results[p.number][2] is not None for p in members)
        mean = statistics.mean(overall) if overall else 0.0
        print(
            f"    {kind:<12} {len(members):5d} {flagged:5d}  {mean:.3f} "
            f"({max(overall, default=0.0):.3f})  "
            + "  ".join(
                f"{k} {v[0] / total:.2f}: {v[1] / max(v[0], 1):.3f}" for k, v in sorted(by.items())
            )
        )


if __name__ == "__main__":
    main()
