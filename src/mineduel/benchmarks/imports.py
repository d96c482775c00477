"""Cold import time of a handler module: what a new Lambda execution environment spends in init.

Each measurement runs in a fresh interpreter, so nothing is cached from an earlier import.
Where this machine can build them (``python3.12`` and ``make`` on PATH, PyPI reachable), the
handlers are imported as Lambda imports them: Python 3.12 without the site packages, the
layers built by their own Makefiles (as ``sam build`` builds them; for this machine's platform)
on the path, and boto3 beside them as the runtime provides it. Otherwise the development
environment is used, and the report says so. ``-X importtime`` then says which packages the
time goes to (self time summed per top-level package), which is where to look when a cold
start is too slow.
"""

from __future__ import annotations

import contextlib
import os
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
_LOAD = (
    "import importlib.util\n"
    "spec = importlib.util.spec_from_file_location('app', sys.argv[1])\n"
    "module = importlib.util.module_from_spec(spec)\n"
    "sys.modules['app'] = module\n"
    "spec.loader.exec_module(module)\n"
)
_IMPORT = _PRELUDE + "t = time.perf_counter()\n" + _LOAD + "print(time.perf_counter() - t)\n"
_AFTER = _PRELUDE + _LOAD + "t = time.perf_counter()\nexec(sys.argv[2])\n"
_AFTER += "print(time.perf_counter() - t)\n"
_LINE = re.compile(r"^import time:\s+(\d+) \|\s+\d+ \|\s+(\S+)")

LIBRARIES = (
    "from pydantic import BaseModel\n"
    "from aws_lambda_powertools import Logger\n"
    "from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response\n"
    "from aws_lambda_powertools.event_handler.openapi.params import Body\n"
)
"""What every HTTP function imports before any of MineDuel's code: pydantic and Powertools'
event handler with its OpenAPI validation. Its time is the floor under a handler's import."""

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

    def median_ms(self, code: str, *args: str, runs: int = RUNS) -> float:
        """Median of what ``code`` prints (seconds) over ``runs`` fresh runs, in milliseconds."""
        return statistics.median(float(self.run(code, *args).stdout) for _ in range(runs)) * 1000


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


def libraries_ms(python: Interpreter = DEVELOPMENT) -> float:
    """Median milliseconds to import ``LIBRARIES`` alone in a fresh interpreter."""
    code = _PRELUDE + f"t = time.perf_counter()\n{LIBRARIES}print(time.perf_counter() - t)\n"
    return python.median_ms(code)


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
