"""Engine figures: field derivation, a flood-fill-heavy tap, and a whole replay + verify.

The target (docs/engine.md): verifying a finished 2-seat game takes under 5 ms median on a
2-core machine. Figures are medians over many runs, after a warm-up, with ``perf_counter``.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from mineduel_engine import Field, Settings, replay, rules_for, verify_document
from mineduel_engine.sample_games import play_sample, sample_seed

TARGET_VERIFY_MS = 5.0


def timed(action: Callable[[], object], runs: int) -> tuple[float, float]:
    """Median and 90th percentile of ``action``'s wall time, in milliseconds."""
    for _ in range(max(3, runs // 10)):
        action()
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.9)]


def line(name: str, median_ms: float, p90_ms: float, note: str = "") -> None:
    """Print one figure."""
    print(f"  {name:<44} median {median_ms:8.3f} ms   p90 {p90_ms:8.3f} ms   {note}")


def biggest_blank_tap(settings: Settings) -> tuple[Field, int, int, int]:
    """A sample field and the 0-cell whose tap opens the most cells (the heaviest flood)."""
    best: tuple[int, Field, int] | None = None
    for k in range(40):
        field = Field.from_seed(sample_seed(f"flood-{k}"), "g", ["", ""], 16, 16, settings.mines)
        rules = rules_for(settings.variant)
        for cell in range(settings.size):
            if field.numbers[cell] == 0:
                _, move = rules.play(rules.new_game(settings), field, 0, "tap", *divmod(cell, 16))
                if best is None or len(move.opened) > best[0]:
                    best = (len(move.opened), field, cell)
    if best is None:
        raise RuntimeError("no sample field has a blank cell")
    size, field, cell = best
    return field, cell // settings.width, cell % settings.width, size


def main() -> None:
    """Print the engine figures."""
    settings = Settings.for_variant("mine-duel", 2)
    rules = rules_for(settings.variant)
    print("engine (mineduel_engine):")
    seed = sample_seed("bench")
    derive = timed(lambda: Field.from_seed(seed, "g-bench", ["", ""], 16, 16, 51), 2000)
    line("field derivation (16x16, 51 mines)", *derive)

    field, row, col, size = biggest_blank_tap(settings)
    fresh = rules.new_game(settings)
    tap = timed(lambda: rules.play(fresh, field, 0, "tap", row, col), 2000)
    line("flood-fill-heavy tap", *tap, f"({size} cells opened)")

    game = play_sample("bench-2", seats=2)
    doc = game.document()
    whole = timed(lambda: replay(game.settings, game.field, doc["moves"]), 500)
    line("replay of a finished 2-seat game", *whole, f"({len(game.moves)} moves)")
    verify = timed(lambda: verify_document(doc), 500)
    verdict = "ok" if verify_document(doc).ok else "NOT OK"
    target = "meets" if verify[0] < TARGET_VERIFY_MS else "MISSES"
    line(
        "replay + verify of a finished 2-seat game",
        *verify,
        f"({len(game.moves)} moves, {verdict}; {target} the {TARGET_VERIFY_MS} ms target)",
    )


if __name__ == "__main__":
    main()
