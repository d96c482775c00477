"""A running game's field, read off the local stack the test runs in its own process.

Only a test can do this (the seed is a KMS ciphertext nobody reads while the game runs), and
the tests that play the bot need it: after a tap on an unknown cell the bot's reply may win
the game at once (the hard bot about 1 time in 1,000, from a flood it can read), so a test
that needs the game running taps a known mine (the turn stays: the bot does not move) or a
known safe cell showing a number (the bot replies from one number, far too little to win).
"""

from __future__ import annotations

from mineduel_engine import Field
from mineduel_service.games import store
from mineduel_service.platform import crypto


def field_of(game_id: str, client_seeds: list[str] | None = None, *, forget: bool = False) -> Field:
    """The game's field, from its stored seed and its seats' client seeds as they stand
    (``client_seeds`` stands in for them before the first commit sends one), as the commit
    function opens it (a daily game's key uses the day's field id).

    ``forget`` drops the seed from this process's cache again, so the next commit opens it
    itself, as it would unobserved (for tests that count KMS calls)."""
    record = store.get_game(game_id)
    if record is None:
        raise LookupError(f"no game {game_id}")
    seeds = record.client_seeds if client_seeds is None else client_seeds
    s = record.settings
    seed = crypto.decrypt_seed(record.seed_ciphertext, game_id)
    if forget:
        crypto.clear_cache()
    return Field.from_seed(seed, record.field_id, seeds, s.width, s.height, s.mines)


def safe_number(game_id: str) -> tuple[int, int]:
    """(row, col) of a safe cell showing a number."""
    field = field_of(game_id)
    size = field.width * field.height
    cell = next(c for c in range(size) if not field.is_mine(c) and field.numbers[c] > 0)
    return divmod(cell, field.width)


def known_mines(game_id: str, *, forget: bool = False) -> list[tuple[int, int]]:
    """(row, col) of every mine, in cell order."""
    field = field_of(game_id, forget=forget)
    size = field.width * field.height
    return [divmod(c, field.width) for c in range(size) if field.is_mine(c)]
