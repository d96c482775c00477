"""Cold import time of a handler module: what a new Lambda execution environment spends in init.

Each measurement runs in a fresh interpreter, so nothing is cached from an earlier import;
``-X importtime`` then says which packages the time goes to (self time summed per top-level
package), which is where to look when a cold start is too slow.
"""

from __future__ import annotations

import re
import statistics
import subprocess
import sys
from pathlib import Path

RUNS = 3
_IMPORT = (
    "import importlib.util, sys, time\n"
    "t = time.perf_counter()\n"
    "spec = importlib.util.spec_from_file_location('app', sys.argv[1])\n"
    "module = importlib.util.module_from_spec(spec)\n"
    "sys.modules['app'] = module\n"
    "spec.loader.exec_module(module)\n"
    "print(time.perf_counter() - t)\n"
)
_LINE = re.compile(r"^import time:\s+(\d+) \|\s+\d+ \|\s+(\S+)")


def _run(module_file: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: S603  (our own interpreter on our own file)
        [sys.executable, *flags, "-c", _IMPORT, str(module_file)],
        capture_output=True,
        text=True,
        check=True,
    )


def cold_import_ms(module_file: Path, runs: int = RUNS) -> float:
    """Median milliseconds to import ``module_file`` in a fresh interpreter."""
    return statistics.median(float(_run(module_file).stdout) for _ in range(runs)) * 1000


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
    "game results and ratings (a game's end)": "import mineduel_service.results",
    "the verifier (verify, exports, the share page)": "import mineduel_engine.verify",
    "windows-duel's rules (its first game)": "import mineduel_engine.windows_duel",
}
"""Parts a handler loads when a request first needs them, not in its import: what that first
request pays on top of the import (measured after the commit handler's own import)."""

_AFTER = (
    "import importlib.util, sys, time\n"
    "spec = importlib.util.spec_from_file_location('app', sys.argv[1])\n"
    "module = importlib.util.module_from_spec(spec)\n"
    "sys.modules['app'] = module\n"
    "spec.loader.exec_module(module)\n"
    "t = time.perf_counter()\n"
    "exec(sys.argv[2])\n"
    "print(time.perf_counter() - t)\n"
)


def libraries_ms(runs: int = RUNS) -> float:
    """Median milliseconds to import ``LIBRARIES`` alone in a fresh interpreter."""
    code = f"import time\nt = time.perf_counter()\n{LIBRARIES}print(time.perf_counter() - t)\n"
    return (
        statistics.median(
            float(
                subprocess.run(  # noqa: S603  (our own interpreter, our own code)
                    [sys.executable, "-c", code], capture_output=True, text=True, check=True
                ).stdout
            )
            for _ in range(runs)
        )
        * 1000
    )


def first_use_ms(module_file: Path, runs: int = RUNS) -> dict[str, float]:
    """Median milliseconds each of ``ON_FIRST_USE`` adds once ``module_file`` is imported."""
    spent: dict[str, float] = {}
    for part, statement in ON_FIRST_USE.items():
        spent[part] = (
            statistics.median(
                float(
                    subprocess.run(  # noqa: S603  (our own interpreter, our own code)
                        [sys.executable, "-c", _AFTER, str(module_file), statement],
                        capture_output=True,
                        text=True,
                        check=True,
                    ).stdout
                )
                for _ in range(runs)
            )
            * 1000
        )
    return spent


def import_breakdown(module_file: Path) -> dict[str, float]:
    """Milliseconds of import (self) time per top-level package, one fresh import, most first."""
    spent: dict[str, float] = {}
    for line in _run(module_file, "-X", "importtime").stderr.splitlines():
        found = _LINE.match(line)
        if found:
            package = found.group(2).split(".")[0]
            spent[package] = spent.get(package, 0.0) + int(found.group(1)) / 1000
    return dict(sorted(spent.items(), key=lambda item: -item[1]))
