"""``python -m mineduel.benchmarks`` (``make bench``): print the project's performance figures.

Speed is measured here, never asserted in tests: timings on a shared CI machine are noise,
but figures printed on demand let anyone compare a change against the targets in the docs.
Each entry of ``BENCHMARKS`` names a module and, after a colon, the function to run (``main``
when none is named); a module not written yet is skipped, so benchmarks can be added without
touching this file's callers.
"""

from __future__ import annotations

import importlib
import time

BENCHMARKS = (
    "mineduel.benchmarks.engine",
    "mineduel.benchmarks.layers",
    "mineduel.benchmarks.imports:commit_only",
    "mineduel.benchmarks.cost",
    "mineduel.benchmarks.analysis",
    "mineduel.benchmarks.live",
    "mineduel.benchmarks.notify",
    "mineduel.benchmarks.soak",
)


def main() -> None:
    """Run every benchmark module that can be imported, in order, each timed."""
    started = time.monotonic()
    for entry in BENCHMARKS:
        name, _, function = entry.partition(":")
        began = time.monotonic()
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            print(f"({name} is not available; skipped)")
            continue
        getattr(module, function or "main")()
        print(f"({name} took {time.monotonic() - began:.0f} s)", flush=True)
    print(f"(make bench took {time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
