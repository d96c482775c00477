"""Benchmark of the bot: the probability engine's speed, and the levels' strength.

Run with ``make bench-bot`` (``python -m mineduel.benchmarks.bot``). Not a test: it prints figures.

Environment:
- ``GAMES`` (default 2000): games per match. Games come in duplicate pairs: every field is
  played twice with the seats swapped, because moving first is a disadvantage.
- ``FIELDS`` = ``fresh`` (default: new random server seeds, for reported figures) or ``fixed``
  (seeds derived from a fixed list, for regressions: the same games every run).
- ``JOBS`` (default: CPU count): worker processes for the matches.
- ``PART`` = ``all`` (default), ``engine``, ``classic`` (the engine timing on classic boards
  alone, below), ``games`` (mine-duel matches), ``variants`` (mineseeker and windows-duel
  matches) or ``positions`` (draw the real-play set anew, below).
- ``MATCHES``: comma list from ``hard-medium,hard-easy,medium-random`` (default: all three).
- ``VARIANT_GAMES`` (default ``GAMES`` / 2, so 1000): games per variant match, duplicate pairs.
- ``VARIANT_MATCHES``: comma list from ``mineseeker-bomb,windows-safest,windows-medium,
  windows-easy`` (default: all four). ``mineseeker-bomb`` is the hard bot against the same bot
  that never bombs; ``windows-safest`` the windows-duel hard bot against a player that always
  reveals the safest cell; ``windows-medium`` hard against medium (what the look-ahead adds);
  ``windows-easy`` medium against easy (what exact chances add).
- ``REAL_POSITIONS`` (default 300), ``STRESS_BOARDS`` (default 100): the engine timing's
  position sets, the same boards every run: positions drawn once from hard-vs-medium games on
  fixed fields and kept in the package (``real_play.txt``, ``PINNED_SET``), and seeded boards
  with safe cells opened at random, without flood fill, until 160 covered cells touch a number.
  ``REAL_SET=played`` draws the real-play positions from games played now instead;
  ``PART=positions`` draws them and writes them over the kept set.
- ``REPEAT`` (default 5): timings per position for the engine; the fastest counts.
- ``CLASSIC_POSITIONS`` (default 200): positions per classic board (beginner, intermediate,
  expert) in the engine timing's last table (``classic``: boards of other sizes and densities
  than MineDuel's, from single-player games played here, the same every run).

The engine timing runs ms_toollib (a Rust minesweeper library, the locked extra ``bench``,
which ``make bench-bot`` installs)
side by side on flag-free positions (flags turned back into covered cells, so both solve the
same problem): its whole-board call ``cal_probability_onboard`` and its enumeration entry point
``cal_probability_enum``, each compared with ours in a pass of its own (the two engines timed
on the same position in turn, fastest of ``REPEAT``: a third engine of the same library run
between them warmed ms_toollib's code for its sibling and left ours colder, and moved the
median ratio against ``cal_probability_onboard`` from 1.79-1.82 to 1.65-1.73 on the same
engines); it prints the table of ratios (with a row for the real-play positions whose
largest component has 13 to 26 groups, ``BAND``) and the largest difference between the
answers. It
says so and times ours alone when ms_toollib is missing.
"""

from __future__ import annotations

import gc
import hashlib
import importlib
import importlib.metadata
import math
import os
import random
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any

from mineduel_engine import Field, GameState, Move, Settings, commitment, rules_for
from mineduel_engine.bot import SeatView, choose_action, choose_move
from mineduel_engine.bot.components import split
from mineduel_engine.bot.deduction import deduce
from mineduel_engine.bot.mineseeker import play_mineseeker
from mineduel_engine.bot.position import FLAG_CHARS, Position
from mineduel_engine.bot.probability import solve
from mineduel_engine.bot.windows import play_safest
from mineduel_engine.fairness import bot_stream
from mineduel_engine.geometry import neighbours, to_row_col

from .classic import bench_classic
from .side_by_side import TABLE_HEAD, quantile, ratio_row, side_by_side

INSTALL_TOOLLIB = "make bench-bot installs it: uv sync --locked --extra bench"
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


REAL_GAMES = 24
"""Games of hard vs medium played (fixed fields) to draw the real-play positions from."""

PINNED_SET = "real_play.txt"
"""The real-play positions as drawn once and kept in this package (one board a line, after a
header saying how it was drawn): the bot's moves change with its engine, and positions drawn
anew after each change would make one session's ratios incomparable with the next's. The
timing reads this file; ``PART=positions`` draws the set anew and writes it."""


def played_positions(count: int, seed: int = 1) -> list[tuple[str, ...]]:
    """``count`` positions drawn (seeded) from hard-vs-medium games on fixed fields, flags
    turned back into covered cells (flag-free: the problem ms_toollib solves)."""
    seen: list[tuple[str, ...]] = []
    for i in range(REAL_GAMES):
        play_game(server_seed("fixed", 10_000 + i), ("hard", "medium"), seen)
    flag_free = [tuple("." if ch in FLAG_CHARS else ch for ch in cells) for cells in seen]
    return random.Random(seed).sample(flag_free, min(count, len(flag_free)))


def pinned_positions() -> list[tuple[str, ...]]:
    """The real-play set kept in the package (``PINNED_SET``), every board checked."""
    text = resources.files(__package__).joinpath(PINNED_SET).read_text(encoding="ascii")
    return read_positions(text)


def read_positions(text: str) -> list[tuple[str, ...]]:
    """Boards of 256 characters, one a line (``#`` lines are the header); ``ValueError`` for a
    line that is not a flag-free 16x16 board with 51 mines to place."""
    boards = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        if len(line) != 256 or set(line) - set(".012345678"):
            raise ValueError(f"line {number} is not a flag-free 16x16 board")
        Position(16, 16, 51, tuple(line))  # (refuses a board the mine count cannot fit)
        boards.append(tuple(line))
    return boards


def write_positions(boards: Sequence[tuple[str, ...]], header: str) -> str:
    """``read_positions``' text for ``boards``, ``header`` (lines) first."""
    lines = [f"# {line}".rstrip() for line in header.splitlines()]
    return "\n".join([*lines, *("".join(cells) for cells in boards)]) + "\n"


def real_positions(count: int) -> list[tuple[str, ...]]:
    """The first ``count`` of the pinned real-play set (``REAL_SET=played``: drawn from games
    played now instead, as the set was first drawn)."""
    if os.environ.get("REAL_SET", "pinned") == "played":
        return played_positions(count)
    pinned = pinned_positions()
    if count > len(pinned):
        raise ValueError(f"the pinned real-play set holds {len(pinned)} positions, not {count}")
    return pinned[:count]


def draw_positions(count: int, path: Path | None = None) -> None:
    """``PART=positions``: draw the real-play set anew and write it over the pinned one (or
    to ``path``)."""
    boards = played_positions(count)
    header = (
        f"{len(boards)} real-play positions for `make bench-bot`'s engine timing: drawn "
        f"(random.Random(1)) from {REAL_GAMES} hard-vs-medium games on fixed fields,\n"
        "flags turned back into covered cells, one 16x16 board a line in index order "
        "(docs/api.md characters).\n"
        f"Drawn {time.strftime('%Y-%m-%d', time.gmtime())} by `PART=positions REAL_POSITIONS="
        f"{count} python -m mineduel.benchmarks.bot`."
    )
    target = path or Path(str(resources.files(__package__).joinpath(PINNED_SET)))
    target.write_text(write_positions(boards, header), encoding="ascii")
    print(f"wrote {len(boards)} positions to {target}")


STRESS_FRONTIER = 160
"""Stress boards open safe cells until this many covered cells touch an open number."""


def stress_board(index: int) -> tuple[str, ...]:
    """A seeded 16x16/51 board with safe cells opened here and there, without flood fill,
    until ``STRESS_FRONTIER`` covered cells touch a number: one wide, tangled frontier."""
    rng = random.Random(f"mineduel bench-bot stress {index}")
    mines = set(rng.sample(range(256), 51))
    table = neighbours(16, 16)
    cells = ["."] * 256
    safe = [c for c in range(256) if c not in mines]
    rng.shuffle(safe)
    touching = [0] * 256  # open numbers next to each cell
    frontier = 0
    for c in safe:
        cells[c] = str(sum(1 for n in table[c] if n in mines))
        if touching[c] and c not in mines:
            frontier -= 1  # an opened cell leaves the frontier
        for n in table[c]:
            if cells[n] == "." and touching[n] == 0:
                frontier += 1
            touching[n] += 1
        if frontier >= STRESS_FRONTIER:
            break
    return tuple(cells)


def solve_board(cells: tuple[str, ...]) -> dict[int, float]:
    """Our engine on a 16x16/51 board, from its cells (the parsing is part of the time)."""
    return solve(Position(16, 16, 51, cells)).mine


def toollib_board(cells: tuple[str, ...]) -> list[list[int]]:
    """ms_toollib's board (10 marks a covered cell there)."""
    return [
        [10 if ch == "." else int(ch) for ch in cells[r * 16 : (r + 1) * 16]] for r in range(16)
    ]


def toollib_solve(ms_toollib: Any, cells: tuple[str, ...]) -> Any:
    """ms_toollib's whole-board call from the board's cells, as ours starts from them."""
    return ms_toollib.cal_probability_onboard(toollib_board(cells), 51)


def toollib_enum(ms_toollib: Any, cells: tuple[str, ...]) -> Any:
    """ms_toollib's enumeration entry point (its answer is sparse: the cells next to numbers,
    and one chance for all the others)."""
    return ms_toollib.cal_probability_enum(toollib_board(cells), 51)


BAND = (13, 26)
"""The real-play positions reported apart: those whose largest component (before the pair
rule) has this many groups, just past the listing's ``LISTED_GROUPS``."""


def largest_components(positions: Sequence[tuple[str, ...]]) -> list[int]:
    """Per position, the groups of its largest component as first grouped (no pair rule)."""
    found = []
    for cells in positions:
        parts, _ = split(deduce(Position(16, 16, 51, cells)))
        found.append(max((len(part.sigs) for part in parts), default=0))
    return found


def max_difference(ms_toollib: Any, positions: Sequence[tuple[str, ...]]) -> float:
    """The largest difference between the two engines' chance of any covered cell."""
    worst = 0.0
    for cells in positions:
        ours = solve_board(cells)
        theirs = toollib_solve(ms_toollib, cells)[0]
        for cell, p in ours.items():
            worst = max(worst, abs(p - theirs[cell // 16][cell % 16]))
    return worst


def bench_engine(real: int, stress: int, repeat: int, classic: int) -> None:
    """The probability engine beside ms_toollib on the same positions (module docstring)."""
    ms_toollib = _toollib()
    sets = {
        f"{real} positions from real play": real_positions(real),
        f"{stress} stress boards (frontier {STRESS_FRONTIER} cells)": [
            stress_board(i) for i in range(stress)
        ],
    }
    # The harness holds hundreds of boards; freeze them so the collector's full passes (which
    # the Python engine's allocations trigger and a Rust library's do not) skip them.
    gc.collect()
    gc.freeze()
    # Each of ms_toollib's entry points against ours in a pass of its own (module docstring).
    toollib: dict[str, Callable[[tuple[str, ...]], object]] = {}
    if ms_toollib is not None:
        toollib["onboard"] = partial(toollib_solve, ms_toollib)
        toollib["enum"] = partial(toollib_enum, ms_toollib)
    load = os.getloadavg()[0]
    print(
        f"probability engine, 16x16/51 flag-free boards, fastest of {repeat} per position, "
        f"engines interleaved (load average {load:.1f} on {os.cpu_count()} cores at the start)"
    )
    if ms_toollib is None:
        print(f"  ms_toollib is not installed ({INSTALL_TOOLLIB}): ours alone")
    # per set, per entry point (``ours`` alone without ms_toollib): the pass's times by engine
    results = {
        name: {
            key: side_by_side(found, {"ours": solve_board, key: engine}, repeat)
            for key, engine in toollib.items()
        }
        or {"ours": side_by_side(found, {"ours": solve_board}, repeat)}
        for name, found in sets.items()
    }
    print(f"  load average at the end: {os.getloadavg()[0]:.1f}")
    for name, passes in results.items():
        ours = next(iter(passes.values()))["ours"]  # (beside cal_probability_onboard)
        print(
            f"  {name}: ours median {statistics.median(ours) * 1e3:.3f} ms, p99 "
            f"{quantile(ours, 0.99) * 1e3:.2f} ms, worst {max(ours) * 1e3:.1f} ms"
        )
    if ms_toollib is None:
        return
    version = getattr(ms_toollib, "__version__", None) or _version("ms_toollib")
    real_name = next(iter(sets))
    band = [i for i, g in enumerate(largest_components(sets[real_name])) if BAND[0] <= g <= BAND[1]]
    for key, label in (
        ("onboard", f"ms_toollib {version} cal_probability_onboard (the whole board)"),
        ("enum", f"ms_toollib {version} cal_probability_enum (sparse answer)"),
    ):
        print(f"  against {label}:")
        print(TABLE_HEAD)
        rows = [(name, p[key]["ours"], p[key][key]) for name, p in results.items()]
        if band:
            real_times = results[real_name][key]
            rows.append(
                (
                    f"{len(band)} of them, largest component {BAND[0]} to {BAND[1]} groups",
                    [real_times["ours"][i] for i in band],
                    [real_times[key][i] for i in band],
                )
            )
        for name, ours, theirs in rows:
            print(ratio_row(name, ours, theirs))
    for name, found in sets.items():
        print(
            f"  {name}: max |ours - cal_probability_onboard| = "
            f"{max_difference(ms_toollib, found):.1e}"
        )
    bench_classic(ms_toollib, classic, repeat)


def _toollib() -> Any:
    """The ms_toollib module, or None when the ``bench`` extra is not installed."""
    try:
        return importlib.import_module("ms_toollib")
    except ImportError:
        return None


def _version(package: str) -> str:
    """An installed package's version ("?" if unknown)."""
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def main() -> None:
    """Run the parts the environment asks for."""
    games = int(os.environ.get("GAMES", "2000"))
    fields = os.environ.get("FIELDS", "fresh")
    jobs = int(os.environ.get("JOBS", str(os.cpu_count() or 1)))
    part = os.environ.get("PART", "all")
    chosen = os.environ.get("MATCHES", ",".join(MATCHES)).split(",")
    if part == "positions":
        draw_positions(int(os.environ.get("REAL_POSITIONS", "300")))
        return
    if part == "classic":
        ms_toollib = _toollib()
        if ms_toollib is None:
            print(f"ms_toollib is not installed ({INSTALL_TOOLLIB}): nothing to compare")
            return
        bench_classic(
            ms_toollib,
            int(os.environ.get("CLASSIC_POSITIONS", "200")),
            int(os.environ.get("REPEAT", "5")),
        )
        return
    if part in ("all", "engine"):
        bench_engine(
            int(os.environ.get("REAL_POSITIONS", "300")),
            int(os.environ.get("STRESS_BOARDS", "100")),
            int(os.environ.get("REPEAT", "5")),
            int(os.environ.get("CLASSIC_POSITIONS", "200")),
        )
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
