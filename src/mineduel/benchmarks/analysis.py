"""Analysis and export figures: how long a finished game's analysis takes, and how large a game
is in an export (NDJSON, and gzip-compressed as the monthly file holds it).

Games are the hard bot against itself (``GAMES`` a variant, seeds fixed), so the positions are
the ones real games reach; each analysis is timed once (it is seconds, not microseconds, and
the same every time). Printed, never asserted: docs/analysis.md and docs/exports.md quote them.
"""

from __future__ import annotations

import gzip
import json
import statistics
import time

from mineduel_engine.analysis import analyze_document
from mineduel_engine.sample_games import play_bot_game

GAMES = 12


def bot_game(variant: str, label: str) -> dict[str, object]:
    """A finished hard-bot game's Verification document, its moves timed as a server logs them."""
    game = play_bot_game(label, variant)
    return game.document([{**m.to_record(), "at": "2026-12-01T12:00:00Z"} for m in game.moves])


def main() -> None:
    """Print analysis time per game and per move, and export bytes per game, per variant."""
    print(f"analysis (hard bot vs hard bot, {GAMES} games a variant) and export sizes")
    for variant in ("mine-duel", "mineseeker", "windows-duel"):
        seconds, per_move, lines, moves = [], [], [], []
        for k in range(GAMES):
            doc = bot_game(variant, f"{variant}-{k}")
            start = time.perf_counter()
            result = analyze_document(doc)
            took = time.perf_counter() - start
            count = len(result["moves"])
            seconds.append(took)
            per_move.append(took / max(1, count) * 1000)
            moves.append(count)
            lines.append((json.dumps(doc, separators=(",", ":")) + "\n").encode())
        raw = sum(map(len, lines)) / GAMES / 1024
        packed = len(gzip.compress(b"".join(lines), compresslevel=6)) / GAMES / 1024
        seconds.sort()
        print(
            f"  {variant:<13} moves {statistics.mean(moves):6.1f}   analysis median "
            f"{statistics.median(seconds):5.2f} s  max {seconds[-1]:5.2f} s   "
            f"{statistics.median(per_move):5.1f} ms/move   export {raw:5.1f} KB/game, "
            f"gzip {packed:4.1f} KB/game"
        )


if __name__ == "__main__":
    main()
