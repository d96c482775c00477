"""Write the golden finished games: ``python tests/engine/golden/generate.py``.

Each golden file is the Verification document of a deterministic sample game (seeds derived
from fixed labels), as the server would publish it, moves with their ``at`` times included. The
tests check that every file verifies, that tampering with it is caught, and that this script
still produces exactly the stored files (so any change in the engine's outcomes is noticed).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from mineduel_engine import GameState
from mineduel_engine.chain import chained
from mineduel_engine.sample_games import SampleGame, play_sample

HERE = Path(__file__).resolve().parent
START = datetime(2026, 11, 30, 12, 0, 0, tzinfo=UTC)
DEADLINE_S = 86_400


def _times(game: SampleGame) -> list[str]:
    """Plausible commit times: 37 s between moves, and a timeout a little after the deadline."""
    times, now = [], START
    for move in game.moves:
        now += timedelta(seconds=DEADLINE_S + 5 if move.action == "timeout" else 37)
        times.append(now.strftime("%Y-%m-%dT%H:%M:%SZ"))
    return times


def _out_at(plan: dict[int, str]) -> Callable[[GameState, int], str | None]:
    """Put the seat to move out at the given move numbers."""
    return lambda _state, n: plan.get(n)


def _first_ending(prefix: str, seats: int, reason: str) -> SampleGame:
    """The first sample game under ``prefix-k`` that ends for ``reason`` (deterministic)."""
    for k in range(200):
        game = play_sample(f"{prefix}-{k}", seats)
        if game.state.result is not None and game.state.result.reason == reason:
            return game
    raise RuntimeError(f"no {seats}-seat sample ends by {reason}")


def _first_sample(prefix: str, wanted: Callable[[SampleGame], bool], **kwargs: Any) -> SampleGame:
    """The first sample game under ``prefix-k`` that has what the golden file is for."""
    for k in range(200):
        game = play_sample(f"{prefix}-{k}", **kwargs)
        if wanted(game):
            return game
    raise RuntimeError(f"no sample under {prefix} fits")


def _both_bombed(game: SampleGame) -> bool:
    return {m.seat for m in game.moves if m.action == "bomb"} == {0, 1}


def _guessed_and_hit(game: SampleGame) -> bool:
    results = [(m.action, m.result) for m in game.moves]
    return (
        results.count(("guess", "miss")) >= 3
        and ("reveal", "mine") in results
        and any(m.auto_opened for m in game.moves)
    )


def variant_games() -> dict[str, SampleGame]:
    """The golden games of mineseeker and windows-duel."""
    return {
        "mineseeker-bombs": _first_sample(
            "golden-ms", _both_bombed, variant="mineseeker", client_seeds=["ann", ""]
        ),
        "mineseeker-behind-resign": _first_sample(
            "golden-msb",
            lambda g: any(m.action == "bomb" for m in g.moves),
            variant="mineseeker",
            options={"bomb_when_behind": True},
            exits=_out_at({70: "resign"}),
        ),
        "windows-duel-field-done": _first_sample(
            "golden-wd", _guessed_and_hit, variant="windows-duel", client_seeds=["", "bo"]
        ),
        "windows-duel-timeout": _first_sample(
            "golden-wdt",
            lambda g: any(m.result == "miss" for m in g.moves),
            variant="windows-duel",
            exits=_out_at({12: "timeout"}),
        ),
    }


def games() -> dict[str, SampleGame]:
    """The golden games, by file name."""
    return {
        "two-seats-reach": play_sample("golden-2", 2, client_seeds=["alice-7", ""]),
        "two-seats-resign": play_sample("golden-2r", 2, exits=_out_at({41: "resign"})),
        "three-seats-field-done": _first_ending("golden-3", 3, "field-done"),
        "three-seats-timeouts": play_sample(
            "golden-3t",
            3,
            client_seeds=["a", "b.c", "~_-"],
            exits=_out_at({9: "timeout", 30: "timeout"}),
        ),
        "four-seats-resign-then-reach": play_sample(
            "golden-4", 4, client_seeds=["", "bob", "", "dee"], exits=_out_at({12: "resign"})
        ),
        **variant_games(),
    }


def document(game: SampleGame) -> dict[str, Any]:
    """The game's Verification document, with the fields the service adds: each move's ``at``
    and its chain value (so the document's chain head is the last one's)."""
    moves = [
        {**move.to_record(), "at": at} for move, at in zip(game.moves, _times(game), strict=True)
    ]
    return game.document(chained(game.commitment, moves), move_deadline_s=DEADLINE_S)


def render(doc: dict[str, Any]) -> str:
    """Stable JSON text: one move per line, so diffs stay readable."""
    head = {k: v for k, v in doc.items() if k != "moves"}
    lines = ",\n".join(f"  {json.dumps(move)}" for move in doc["moves"])
    body = json.dumps(head, indent=1)[:-2]
    return f'{body},\n "moves": [\n{lines}\n ]\n}}\n'


def main() -> None:
    """Write every golden file next to this script."""
    for name, game in games().items():
        path = HERE / f"{name}.json"
        path.write_text(render(document(game)), encoding="utf-8")
        result = game.state.result
        print(f"{path.name}: {len(game.moves)} moves, {result.to_dict() if result else None}")


if __name__ == "__main__":
    main()
