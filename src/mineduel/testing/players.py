"""The one bot-player loop: the moves a thoughtful player makes, judged from the public Game.

A player here is the engine's bot looking at what a client is shown (the public board, and its
own seat's wrong guesses), never at the field: games last as long as real ones do, and nothing
a test or a benchmark plays could not be played by a person with the same screen.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from mineduel_engine import GameState
from mineduel_engine.bot import choose_action, choose_move

Commit = Callable[[Mapping[str, Any], int, int], Mapping[str, Any]]
"""Commits a tap at (row, col) on the Game it is given; answers the Game after the commit."""


SEAT_FIELDS = ("mines", "safe_taps", "out", "bomb_used", "score")


def public_state(game: Mapping[str, Any], seat: int | None = None) -> GameState:
    """The engine's state rebuilt from an API Game, as the client that got it knows it: the
    public board, and ``seat``'s own wrong guesses (the ``?`` cells only it is shown)."""
    turn = game.get("turn")
    mine = [
        [r, c] for r, line in enumerate(game["board"]) for c, ch in enumerate(line) if ch == "?"
    ]
    private = None
    if seat is not None and mine:
        private = [{"wrong_guesses": mine if i == seat else []} for i in range(len(game["seats"]))]
    return GameState.from_dict(
        {
            "variant": game["variant"],
            "width": game["width"],
            "height": game["height"],
            "mines": game["mines"],
            "options": game.get("options") or {},
            "seats": [
                {k: s[k] for k in SEAT_FIELDS if s.get(k) is not None} for s in game["seats"]
            ],
            "board": [line.replace("?", ".") for line in game["board"]],
            "turn": turn["seat"] if turn else None,
            "move_count": game["move_count"],
            "result": None,
        },
        private=private,
    )


def next_tap(game: Mapping[str, Any], level: str = "hard") -> tuple[int, int]:
    """The cell a thoughtful player taps next, judged from the public Game alone."""
    return choose_move(public_state(game), game["commitment"], level)


def next_action(game: Mapping[str, Any], seat: int, level: str = "hard") -> dict[str, Any]:
    """A commit body for the move a thoughtful player of any variant makes next, judged from
    what ``seat`` is shown (the engine's bot on the client's side)."""
    chosen = choose_action(public_state(game, seat), game["commitment"], level)
    return {
        "action": chosen.action,
        "row": chosen.row,
        "col": chosen.col,
        "expected_move": game["move_count"],
    }


def play_out(game: Mapping[str, Any], commit: Commit, level: str = "hard") -> dict[str, Any]:
    """Tap as the bot of ``level`` would, judged from the public Game, until the game is no
    longer active (the bots of a game against bots reply inside each commit); returns the last
    Game ``commit`` answered."""
    while game["status"] == "active":
        row, col = next_tap(game, level)
        game = commit(game, row, col)
    return dict(game)
