"""Cold import time of a handler module: what a new Lambda execution environment spends in init.

Each measurement runs in a fresh interpreter, so nothing is cached from an earlier import.
Where this machine can build them (``python3.12`` and ``make`` on PATH, PyPI reachable), the
handlers are imported as Lambda imports them: Python 3.12 without the site packages, the
layers built by their own Makefiles (as ``sam build`` builds them; for this machine's platform)
on the path, and boto3 beside them as the runtime provides it. Otherwise the development
environment is used, and the report says so. ``-X importtime`` then says which packages the
time goes to (self time summed per top-level package), which is where to look when a cold
start is too slow.

``main`` (``make bench-imports``, and part of ``make bench``) compares every function's import
with the libraries' floor on a shared machine: the floor and each function are imported in
turn, in a fresh interpreter each time, ``IMPORT_ROUNDS`` rounds (each round in its own
shuffled order, so a burst of other work hits all of them alike), and each import reports both
its wall time and its CPU time (``time.process_time``: what the interpreter itself spent, which
another process's burst inflates far less). A ratio to the floor is the ratio of the medians
of CPU time, and for the commit also the median of its per-round ratios; the load average is
printed before and after.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .layer_builds import (
    BuildError,
    build_layer,
    host_platform,
    install_runtime_sdk,
    runtime_python,
)

RUNS = 3
_PRELUDE = "import sys, time\n"
_CLOCKS = "t = time.perf_counter(); c = time.process_time()\n"
_TIMES = "print(time.perf_counter() - t, time.process_time() - c)\n"
_LOAD = (
    "import importlib.util\n"
    "spec = importlib.util.spec_from_file_location('app', sys.argv[1])\n"
    "module = importlib.util.module_from_spec(spec)\n"
    "sys.modules['app'] = module\n"
    "spec.loader.exec_module(module)\n"
)
_IMPORT = _PRELUDE + _CLOCKS + _LOAD + _TIMES
_AFTER = _PRELUDE + _LOAD + _CLOCKS + "exec(sys.argv[2])\n" + _TIMES
_LINE = re.compile(r"^import time:\s+(\d+) \|\s+\d+ \|\s+(\S+)")

LIBRARIES = (
    "from pydantic import BaseModel\n"
    "from aws_lambda_powertools import Logger\n"
    "from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response\n"
    "from aws_lambda_powertools.event_handler.openapi.params import Body\n"
    "APIGatewayHttpResolver(enable_validation=True)\n"
)
"""What every HTTP function imports before any of MineDuel's code: pydantic and Powertools'
event handler with its OpenAPI validation (the resolver built with validation on, which loads
the validating middleware), Powertools' package as it ships. Its time is the libraries' floor
under a handler's import."""
LEAN_LIBRARIES = "import mineduel_service.api\n" + LIBRARIES
"""The same libraries as MineDuel's handlers take them: Powertools' ``event_handler`` and
``utilities.data_classes`` packages replaced first by the edge's lazy twins
(``mineduel_service.api.powertools``), so none of the resolvers no route uses (AppSync's, which
imports asyncio) nor the other event sources' classes is loaded. The floor of a handler that
uses the libraries as leanly as Powertools allows."""

ON_FIRST_USE = {
    "the bot (first bot move)": "import mineduel_engine.bot",
    "game results and ratings (a game's end)": "import mineduel_service.play.results",
    "the verifier (verify, exports, the share page)": "import mineduel_engine.verify",
    "windows-duel's rules (its first game)": "import mineduel_engine.windows_duel",
}
"""Parts a handler loads when a request first needs them, not in its import: what that first
request pays on top of the import (measured after the commit handler's own import)."""


@dataclass(frozen=True)
class Interpreter:
    """How a fresh interpreter is started for a measurement, and what it has on its path."""

    argv: tuple[str, ...]
    path: tuple[str, ...] = ()
    description: str = "the development environment (Python of .venv, its site packages)"

    def without_bytecode(self, empty: Path) -> Interpreter:
        """The same, finding no compiled bytecode (``empty`` as its cache): every module is
        compiled from source, as it is on Lambda from a layer that ships none."""
        return Interpreter((*self.argv, "-X", f"pycache_prefix={empty}"), self.path)

    def run(
        self, code: str, *args: str, flags: tuple[str, ...] = ()
    ) -> subprocess.CompletedProcess[str]:
        """Run ``code`` with ``args``, the path (``PYTHONPATH``, as Lambda sets it for the
        layers) first; raise if it fails."""
        env = dict(os.environ)
        if self.path:
            env["PYTHONPATH"] = os.pathsep.join(self.path)
        return subprocess.run(  # noqa: S603  (our own interpreter on our own code)
            [*self.argv, *flags, "-c", code, *args],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )

    def timed(self, code: str, *args: str) -> tuple[float, float]:
        """One fresh run of ``code``, which prints its wall and CPU seconds: both, in ms."""
        wall, cpu = self.run(code, *args).stdout.split()
        return float(wall) * 1000, float(cpu) * 1000

    def median_ms(self, code: str, *args: str, runs: int = RUNS) -> float:
        """Median wall time ``code`` reports over ``runs`` fresh runs, in milliseconds."""
        return statistics.median(self.timed(code, *args)[0] for _ in range(runs))


DEVELOPMENT = Interpreter((sys.executable,))


@contextlib.contextmanager
def lambda_like() -> Iterator[tuple[Interpreter, str | None]]:
    """An interpreter set up as Lambda runs a handler, with the layers built for this machine;
    or, when they cannot be built here, the development one and the reason."""
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        try:
            path = tuple(
                str(p)
                for p in (
                    build_layer("EngineLayer", root / "engine", host_platform()),
                    build_layer("ServiceLayer", root / "service", host_platform()),
                    install_runtime_sdk(root / "runtime"),
                )
            )
        except BuildError as exc:
            yield DEVELOPMENT, f"the layers could not be built here ({exc})"
            return
        # -S: no site packages (only the layers and the runtime's boto3); -B: write no bytecode,
        # since /opt is read-only on Lambda.
        described = "Python 3.12 with the layers as their Makefiles build them, boto3 beside"
        yield Interpreter((runtime_python(), "-S", "-B"), path, described), None


def cold_import_ms(module_file: Path, python: Interpreter = DEVELOPMENT) -> float:
    """Median milliseconds to import ``module_file`` in a fresh interpreter."""
    return python.median_ms(_IMPORT, str(module_file))


def _timing_code(statements: str) -> str:
    return _PRELUDE + _CLOCKS + statements + _TIMES


def libraries_ms(python: Interpreter = DEVELOPMENT) -> float:
    """Median milliseconds to import ``LIBRARIES`` alone in a fresh interpreter."""
    return python.median_ms(_timing_code(LIBRARIES))


def first_use_ms(module_file: Path, python: Interpreter = DEVELOPMENT) -> dict[str, float]:
    """Median milliseconds each of ``ON_FIRST_USE`` adds once ``module_file`` is imported."""
    return {
        part: python.median_ms(_AFTER, str(module_file), statement)
        for part, statement in ON_FIRST_USE.items()
    }


def import_breakdown(module_file: Path, python: Interpreter = DEVELOPMENT) -> dict[str, float]:
    """Milliseconds of import (self) time per top-level package, one fresh import, most first."""
    spent: dict[str, float] = {}
    done = python.run(_IMPORT, str(module_file), flags=("-X", "importtime"))
    for line in done.stderr.splitlines():
        found = _LINE.match(line)
        if found:
            package = found.group(2).split(".")[0]
            spent[package] = spent.get(package, 0.0) + int(found.group(1)) / 1000
    return dict(sorted(spent.items(), key=lambda item: -item[1]))


@dataclass(frozen=True)
class Timings:
    """One case's fresh imports over the rounds, in milliseconds, in round order."""

    wall: tuple[float, ...]
    cpu: tuple[float, ...]

    @property
    def cpu_median(self) -> float:
        return statistics.median(self.cpu)


def interleaved(
    python: Interpreter, cases: dict[str, tuple[str, ...]], rounds: int, seed: int = 23
) -> dict[str, Timings]:
    """Each case (the code and its arguments, printing wall and CPU seconds) run once per
    round in a fresh interpreter, the order shuffled each round."""
    shuffle = random.Random(seed).shuffle
    found: dict[str, list[tuple[float, float]]] = {name: [] for name in cases}
    for _ in range(rounds):
        order = list(cases)
        shuffle(order)
        for name in order:
            found[name].append(python.timed(*cases[name]))
    return {
        name: Timings(tuple(w for w, _ in runs), tuple(c for _, c in runs))
        for name, runs in found.items()
    }


FLOOR = "the libraries' floor (Powertools' package as it ships)"
LEAN_FLOOR = "the lean floor (the edge's lazy Powertools packages)"
COMMIT = "CommitMoveFunction"


def compare_functions(
    python: Interpreter, functions: dict[str, Path], rounds: int
) -> dict[str, Timings]:
    """The two floors and every function in ``functions``, interleaved."""
    cases: dict[str, tuple[str, ...]] = {
        FLOOR: (_timing_code(LIBRARIES),),
        LEAN_FLOOR: (_timing_code(LEAN_LIBRARIES),),
    }
    cases.update({name: (_IMPORT, str(path)) for name, path in functions.items()})
    return interleaved(python, cases, rounds)


def report(found: dict[str, Timings]) -> list[str]:
    """The table: each case's medians (wall, CPU), its fastest CPU time and its ratio to each
    floor (of the CPU medians); the commit's per-round ratios too."""
    floor, lean = found[FLOOR].cpu_median, found[LEAN_FLOOR].cpu_median
    lines = [
        f"  {'':<58} {'wall':>7} {'CPU':>7} {'fastest':>8}  {'/ floor':>7} {'/ lean':>7}",
    ]
    for name, timing in found.items():
        lines.append(
            f"  {name:<58} {statistics.median(timing.wall):7.1f} {timing.cpu_median:7.1f} "
            f"{min(timing.cpu):8.1f}  {timing.cpu_median / floor:7.3f} "
            f"{timing.cpu_median / lean:7.3f}"
        )
    if COMMIT in found:
        commit = found[COMMIT].cpu
        paired = [
            statistics.median(c / f for c, f in zip(commit, found[name].cpu, strict=True))
            for name in (FLOOR, LEAN_FLOOR)
        ]
        lines.append(
            f"  {COMMIT}, median of the per-round ratios: {paired[0]:.3f} to the floor, "
            f"{paired[1]:.3f} to the lean floor"
        )
    return lines


def main() -> None:
    """Print every function's cold import against the libraries' floors (``make bench-imports``;
    ``IMPORT_FUNCTIONS`` for some of them)."""
    _compare(os.environ.get("IMPORT_FUNCTIONS", ""))


def commit_only() -> None:
    """The commit's cold import against the floors (``make bench``): the one on every move's
    path. The whole table takes about three minutes, the commit's line a tenth of that."""
    _compare(os.environ.get("IMPORT_FUNCTIONS") or COMMIT)
    print("  (every function: make bench-imports)")


def _compare(names: str) -> None:
    from mineduel.template import load_template  # noqa: PLC0415  (the bench's own)

    rounds = int(os.environ.get("IMPORT_ROUNDS", "9"))
    only = {n for n in names.split(",") if n}
    functions = {
        fn.logical_id: fn.module_file
        for fn in load_template().functions.values()
        if not only or fn.logical_id in only
    }
    with lambda_like() as (python, why_not):
        print(
            f"== imports: each function's cold import against the libraries' floor, "
            f"{rounds} interleaved rounds, ms ({python.description}"
            f"{'; ' + why_not if why_not else ''}) =="
        )
        before = os.getloadavg()
        found = compare_functions(python, functions, rounds)
        after = os.getloadavg()
    print(f"  load average (1, 5, 15 min): before {_load(before)}, after {_load(after)}")
    for line in report(found):
        print(line)


def _load(figures: tuple[float, float, float]) -> str:
    return " ".join(f"{f:.2f}" for f in figures)


if __name__ == "__main__":
    main()
