"""Benchmark of the bot: the probability engine's speed, and the levels' strength.

Run with ``make bench-bot`` (``python -m mineduel.bench_bot``). Not a test: it prints figures.

Environment:
- ``GAMES`` (default 2000): games per match. Games come in duplicate pairs: every field is
  played twice with the seats swapped, because moving first is a disadvantage.
- ``FIELDS`` = ``fresh`` (default: new random server seeds, for reported figures) or ``fixed``
  (seeds derived from a fixed list, for regressions: the same games every run).
- ``JOBS`` (default: CPU count): worker processes for the matches.
- ``PART`` = ``all`` (default), ``engine``, ``games`` (mine-duel matches) or ``variants``
  (mineseeker and windows-duel matches).
- ``MATCHES``: comma list from ``hard-medium,hard-easy,medium-random`` (default: all three).
- ``VARIANT_GAMES`` (default ``GAMES`` / 2, so 1000): games per variant match, duplicate pairs.
- ``VARIANT_MATCHES``: comma list from ``mineseeker-bomb,windows-safest,windows-medium,
  windows-easy`` (default: all four). ``mineseeker-bomb`` is the hard bot against the same bot
  that never bombs; ``windows-safest`` the windows-duel hard bot against a player that always
  reveals the safest cell; ``windows-medium`` hard against medium (what the look-ahead adds);
  ``windows-easy`` medium against easy (what exact chances add).
- ``POSITIONS`` (default 40): games played to collect positions for the engine timing.
- ``REPEAT`` (default 3): timings per position for the engine; the fastest counts.

The engine timing runs ms_toollib (a Rust minesweeper library, ``pip install -e '.[bench]'``)
side by side on flag-free positions (flags turned back into covered cells, so both solve the
same problem); it says so and skips the comparison when ms_toollib is missing.
"""

from __future__ import annotations

import gc
import hashlib
import importlib
import math
import os
import random
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from mineduel_engine import Field, GameState, Move, Settings, commitment, rules_for
from mineduel_engine.bot import SeatView, choose_action, choose_move
from mineduel_engine.bot.mineseeker import play_mineseeker
from mineduel_engine.bot.position import FLAG_CHARS, Position
from mineduel_engine.bot.probability import solve
from mineduel_engine.bot.windows import play_safest
from mineduel_engine.fairness import bot_stream
from mineduel_engine.geometry import to_row_col

RULES = rules_for("mine-duel")
SETTINGS = Settings.for_variant("mine-duel", seats=2)
MATCHES = {"hard-medium": ("hard", "medium"), "hard-easy": ("hard", "easy")}
MATCHES["medium-random"] = ("medium", "random")
VARIANT_MATCHES = {
    "mineseeker-bomb": ("mineseeker", "hard", "no-bomb"),
    "windows-safest": ("windows-duel", "hard", "safest"),
    "windows-medium": ("windows-duel", "hard", "medium"),
    "windows-easy": ("windows-duel", "medium", "easy"),
}


def server_seed(kind: str, index: int) -> bytes:
    """A field's server seed: derived from a fixed label, or fresh from the OS."""
    if kind == "fixed":
        return hashlib.sha256(f"mineduel bench-bot field {index}".encode()).digest()
    return os.urandom(32)


def random_cell(state: GameState, rng: random.Random) -> tuple[int, int]:
    """The ``random`` player: uniform over covered cells."""
    covered = [i for i, ch in enumerate(state.cells) if ch == "."]
    return to_row_col(state.settings.width, rng.choice(covered))


@dataclass
class GameRecord:
    """One finished game: who won (seat) and each level's per-move times in seconds."""

    winner: int | None
    times: dict[str, list[float]] = field(default_factory=dict)


def play_game(
    seed: bytes, players: Sequence[str], seen: list[tuple[str, ...]] | None = None
) -> GameRecord:
    """Play one game to the end on the field of ``seed``, seat i played by ``players[i]``;
    every position met is added to ``seen`` when it is given."""
    game_field = Field.from_seed(seed, "bench", [""] * len(players), 16, 16, 51)
    state = RULES.new_game(SETTINGS)
    public = commitment(seed)
    rng = random.Random(seed)
    record = GameRecord(None, {name: [] for name in players})
    while state.turn is not None:
        if seen is not None:
            seen.append(state.cells)
        seat = state.turn
        level = players[seat]
        if level == "random":
            row, col = random_cell(state, rng)
        else:
            started = time.perf_counter()
            row, col = choose_move(state, public, level)
            record.times[level].append(time.perf_counter() - started)
        state, _ = RULES.play(state, game_field, seat, "tap", row, col)
    record.winner = state.result.winner if state.result else None
    return record


def play_pair(job: tuple[bytes, str, str]) -> tuple[int, dict[str, list[float]]]:
    """Play a field twice, seats swapped; return ``first``'s wins (0-2) and move times."""
    seed, first, second = job
    wins = 0
    times: dict[str, list[float]] = {first: [], second: []}
    for players, seat in (((first, second), 0), ((second, first), 1)):
        record = play_game(seed, players)
        wins += record.winner == seat
        for level, spent in record.times.items():
            times[level].extend(spent)
    return wins, times


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default)."""
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    centre = rate + z * z / (2 * games)
    spread = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return (centre - spread) / scale, (centre + spread) / scale


def percentiles(samples: Sequence[float]) -> str:
    """p50 / p99 / max of times in seconds, printed in milliseconds."""
    if not samples:
        return "no moves timed"
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"p50 {statistics.median(ordered) * 1e3:.2f} ms, p99 {p99 * 1e3:.2f} ms, "
        f"max {ordered[-1] * 1e3:.1f} ms over {len(ordered)} moves"
    )


def run_match(name: str, games: int, fields: str, jobs: int) -> None:
    """Play ``games`` games (in duplicate pairs) of one match and print the figures."""
    first, second = MATCHES[name]
    pairs = max(1, games // 2)
    work = [(server_seed(fields, i), first, second) for i in range(pairs)]
    wins = 0
    times: dict[str, list[float]] = {first: [], second: []}
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for pair_wins, pair_times in pool.map(play_pair, work, chunksize=4):
            wins += pair_wins
            for level, spent in pair_times.items():
                times[level].extend(spent)
    played = 2 * pairs
    low, high = wilson(wins, played)
    print(
        f"{first} vs {second}: {first} won {wins}/{played} = {wins / played:.1%} "
        f"(95% CI {low:.1%} to {high:.1%}), {time.perf_counter() - started:.0f} s"
    )
    for level in (first, second):
        if level != "random":
            print(f"  {level} per move: {percentiles(times[level])}")


VariantPlayer = Callable[[GameState, str], tuple[str, int, int]]


def variant_player(name: str) -> VariantPlayer:
    """A variant player by name: a bot level, ``no-bomb`` (mineseeker's hard bot without its
    bomb) or ``safest`` (windows-duel: always reveal the safest cell)."""

    def play(state: GameState, public: str) -> tuple[str, int, int]:
        if name in ("easy", "medium", "hard"):
            move = choose_action(state, public, name)
            return move.action, move.row, move.col
        if state.turn is None:
            raise RuntimeError("no seat to move in a running game")
        view = SeatView.from_state(state, state.turn)
        stream = bot_stream(public, state.move_count + 1)
        if name == "no-bomb":
            action, cell = play_mineseeker(view, stream, "hard", bombs=False)
        else:
            action, cell = play_safest(view, stream)
        return (action, *to_row_col(state.settings.width, cell))

    return play


@dataclass
class VariantRecord:
    """One finished variant game: the winner (None: a draw), move times, the bombs' finds."""

    winner: int | None
    times: dict[str, list[float]] = field(default_factory=dict)
    bombs: dict[str, list[int]] = field(default_factory=dict)


def play_variant_game(seed: bytes, variant: str, players: Sequence[str]) -> VariantRecord:
    """One game of ``variant`` on the field of ``seed``, seat i played by ``players[i]``."""
    settings = Settings.for_variant(variant)
    rules = rules_for(variant)
    game_field = Field.from_seed(
        seed, "bench", ["", ""], settings.width, settings.height, settings.mines
    )
    state = rules.new_game(settings)
    public = commitment(seed)
    movers = [variant_player(name) for name in players]
    record = VariantRecord(None, {n: [] for n in players}, {n: [] for n in players})
    while state.turn is not None:
        seat = state.turn
        started = time.perf_counter()
        action, row, col = movers[seat](state, public)
        record.times[players[seat]].append(time.perf_counter() - started)
        move: Move
        state, move = rules.play(state, game_field, seat, action, row, col)
        if action == "bomb":
            record.bombs[players[seat]].append(len(move.flagged))
    record.winner = state.result.winner if state.result else None
    return record


def play_variant_pair(
    job: tuple[bytes, str, str, str],
) -> tuple[int, int, dict[str, list[float]], dict[str, list[int]]]:
    """A field played twice, seats swapped: ``first``'s wins and draws (0-2), times, bombs."""
    seed, variant, first, second = job
    wins = draws = 0
    times: dict[str, list[float]] = {first: [], second: []}
    bombs: dict[str, list[int]] = {first: [], second: []}
    for players, seat in (((first, second), 0), ((second, first), 1)):
        record = play_variant_game(seed, variant, players)
        wins += record.winner == seat
        draws += record.winner is None
        for name in players:
            times[name].extend(record.times[name])
            bombs[name].extend(record.bombs[name])
    return wins, draws, times, bombs


def run_variant_match(name: str, games: int, fields: str, jobs: int) -> None:
    """Play ``games`` games (duplicate pairs) of a variant match and print the figures."""
    variant, first, second = VARIANT_MATCHES[name]
    pairs = max(1, games // 2)
    work = [(server_seed(fields, i), variant, first, second) for i in range(pairs)]
    wins = draws = 0
    times: dict[str, list[float]] = {first: [], second: []}
    bombs: dict[str, list[int]] = {first: [], second: []}
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for pair_wins, pair_draws, pair_times, pair_bombs in pool.map(
            play_variant_pair, work, chunksize=2
        ):
            wins += pair_wins
            draws += pair_draws
            for player in (first, second):
                times[player].extend(pair_times[player])
                bombs[player].extend(pair_bombs[player])
    played = 2 * pairs
    low, high = wilson(wins, played)
    print(
        f"{variant}, {first} vs {second}: {first} won {wins}/{played} = {wins / played:.1%} "
        f"(95% CI {low:.1%} to {high:.1%}), {draws} draws, "
        f"{time.perf_counter() - started:.0f} s"
    )
    for player in (first, second):
        print(f"  {player} per move: {percentiles(times[player])}")
        if bombs[player]:
            print(
                f"  {player} bombs: {len(bombs[player])} in {played} games, "
                f"{statistics.mean(bombs[player]):.2f} mines each"
            )


def collect_positions(games: int) -> dict[str, list[tuple[str, ...]]]:
    """Positions from real play (hard vs medium) and from random-play stress, fixed fields."""
    found: dict[str, list[tuple[str, ...]]] = {"real play": [], "random play": []}
    for i in range(games):
        kind = "real play" if i % 2 == 0 else "random play"
        players = ("hard", "medium") if kind == "real play" else ("random", "random")
        play_game(server_seed("fixed", 10_000 + i), players, found[kind])
    return found


def solve_board(cells: tuple[str, ...]) -> object:
    """Our engine on a 16x16/51 board, from its cells (the parsing is part of the time)."""
    return solve(Position(16, 16, 51, cells))


def timed(run: Callable[[], object]) -> float:
    """Seconds one call takes."""
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def bench_engine(games: int, repeat: int) -> None:
    """Time the exact probability engine on 16x16/51 positions, beside ms_toollib if present.

    Both start from the same public board (cell characters) and end with the chances, so
    reading the board is in both times. Each position is timed ``repeat`` times, in whole
    passes over the positions with the engines taking turns, and its fastest time counts: on a
    shared machine that filters out the other processes' interference, for both alike.
    """
    kinds = collect_positions(games)
    positions = [cells for found in kinds.values() for cells in found]
    # The harness holds thousands of boards; freeze them so the collector's full passes (which
    # the Python engine's allocations trigger and a Rust library's do not) skip them.
    gc.collect()
    gc.freeze()
    print(
        f"probability engine on {len(positions)} positions from {games} games (16x16, 51), "
        f"fastest of {repeat} per position:"
    )
    ours = [min(timed(partial(solve_board, c)) for _ in range(repeat)) for c in positions]
    print(f"  ours, flags as known mines: {percentiles(ours)}")
    try:
        ms_toollib = importlib.import_module("ms_toollib")
    except ImportError:
        print("  ms_toollib is not installed (pip install -e '.[bench]'): no side-by-side run")
        ms_toollib = None
    flag_free = [tuple("." if ch in FLAG_CHARS else ch for ch in cells) for cells in positions]
    ours_free = [float("inf")] * len(flag_free)
    theirs = [float("inf")] * len(flag_free)
    for _ in range(repeat):  # whole passes in turn, so each engine runs with warm caches
        for i, cells in enumerate(flag_free):
            ours_free[i] = min(ours_free[i], timed(partial(solve_board, cells)))
        if ms_toollib is not None:
            for i, cells in enumerate(flag_free):
                theirs[i] = min(theirs[i], timed(partial(toollib_solve, ms_toollib, cells)))
    start = 0
    for kind, found in [("all", positions), *kinds.items()]:
        part = slice(0, len(positions)) if kind == "all" else slice(start, start + len(found))
        if kind != "all":
            start += len(found)
        print(f"  flag-free, {kind}:")
        print(f"    ours:       {percentiles(ours_free[part])}")
        if ms_toollib is not None:
            print(f"    ms_toollib: {percentiles(theirs[part])}")


def toollib_solve(ms_toollib: Any, cells: tuple[str, ...]) -> object:
    """ms_toollib on a 16x16/51 board from its cells (10 marks a covered cell there)."""
    board = [
        [10 if ch == "." else int(ch) for ch in cells[r * 16 : (r + 1) * 16]] for r in range(16)
    ]
    return ms_toollib.cal_probability_onboard(board, 51)


def main() -> None:
    """Run the parts the environment asks for."""
    games = int(os.environ.get("GAMES", "2000"))
    fields = os.environ.get("FIELDS", "fresh")
    jobs = int(os.environ.get("JOBS", str(os.cpu_count() or 1)))
    part = os.environ.get("PART", "all")
    chosen = os.environ.get("MATCHES", ",".join(MATCHES)).split(",")
    if part in ("all", "engine"):
        bench_engine(int(os.environ.get("POSITIONS", "40")), int(os.environ.get("REPEAT", "3")))
    if part in ("all", "games"):
        print(f"matches: {games} games each, duplicate pairs, {fields} fields, {jobs} processes")
        for name in chosen:
            run_match(name.strip(), games, fields, jobs)
    if part in ("all", "variants"):
        variant_games = int(os.environ.get("VARIANT_GAMES", str(max(2, games // 2))))
        picked = os.environ.get("VARIANT_MATCHES", ",".join(VARIANT_MATCHES)).split(",")
        print(
            f"variant matches: {variant_games} games each, duplicate pairs, {fields} fields, "
            f"{jobs} processes"
        )
        for name in picked:
            run_variant_match(name.strip(), variant_games, fields, jobs)


if __name__ == "__main__":
    main()
