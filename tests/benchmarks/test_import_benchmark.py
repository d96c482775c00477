"""The import benchmark's interleaving and its report (what it measures, not how fast)."""

from __future__ import annotations

from mineduel.benchmarks.imports import (
    COMMIT,
    DEVELOPMENT,
    FLOOR,
    LEAN_FLOOR,
    Timings,
    interleaved,
    report,
)

_PRINT_TIMES = (
    "import time\nt = time.perf_counter(); c = time.process_time()\n"
    "{body}\nprint(time.perf_counter() - t, time.process_time() - c)\n"
)


def test_each_case_runs_once_per_round_in_a_fresh_interpreter() -> None:
    cases = {
        # A fresh interpreter has not imported ``json`` before: a repeat would find it loaded.
        "fresh": (_PRINT_TIMES.format(body="import sys\nassert 'json' not in sys.modules"),),
        "work": (_PRINT_TIMES.format(body="sum(range(100_000))"),),
    }
    found = interleaved(DEVELOPMENT, cases, rounds=3)
    assert set(found) == set(cases)
    for timing in found.values():
        assert len(timing.wall) == len(timing.cpu) == 3
        assert all(w > 0 and c >= 0 for w, c in zip(timing.wall, timing.cpu, strict=True))


def test_the_report_gives_ratios_to_both_floors_and_the_commits_paired_ratio() -> None:
    found = {
        FLOOR: Timings(wall=(110.0, 120.0, 130.0), cpu=(100.0, 100.0, 100.0)),
        LEAN_FLOOR: Timings(wall=(90.0, 100.0, 110.0), cpu=(80.0, 80.0, 80.0)),
        COMMIT: Timings(wall=(120.0, 130.0, 140.0), cpu=(110.0, 112.0, 120.0)),
    }
    lines = report(found)
    commit_row = next(line for line in lines if line.strip().startswith(COMMIT + " "))
    assert "1.120" in commit_row  # 112 / 100: the CPU medians
    assert "1.400" in commit_row  # 112 / 80
    assert lines[-1].endswith("1.120 to the floor, 1.400 to the lean floor")
