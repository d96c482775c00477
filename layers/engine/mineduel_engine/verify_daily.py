"""What a daily game's Verification document must also show (``daily``).

A daily game's field is the day's field: its key uses the field id ``daily-YYYY-MM-DD`` in place
of the game id, with every client seed empty, and its server seed is the day's seed derived from
the month key committed before the month began. The document carries ``field_id`` and a
``daily`` object (``date``, ``month``, ``month_commitment`` and, once the month is over,
``month_key``); this module checks them. Documents without ``field_id`` are ordinary games and
are not touched.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .daily import date_of_field_id, day_seed
from .fairness import SEED_BYTES, commitment


def field_id_of(doc: Mapping[str, Any]) -> str | None:
    """The id the game key uses: the daily field id when the document has one, else the game
    id (None when neither is a string)."""
    found = doc.get("field_id")
    if found is not None:
        return found if isinstance(found, str) else None
    game_id = doc.get("game_id")
    return game_id if isinstance(game_id, str) else None


def daily_checks(
    doc: Mapping[str, Any], seed: bytes | None, client_seeds: Sequence[str] | None
) -> list[tuple[str, str, list[str]]]:
    """The daily checks of a daily game's document, each as ``(name, description, problems)``
    (problems empty when it held); nothing for other games."""
    if doc.get("field_id") is None:
        return []
    field_problems: list[str] = []
    checks = [
        (
            "daily-field",
            "the field id names a day (daily-YYYY-MM-DD) and every client seed is empty",
            field_problems,
        )
    ]
    raw = doc.get("field_id")
    date = date_of_field_id(raw)
    if date is None:
        field_problems.append(f"the field id {raw!r} is not a daily field id (daily-YYYY-MM-DD)")
        return checks
    if client_seeds is not None and any(client_seeds):
        field_problems.append(
            "a daily game's client seeds must all be empty (every game of the day has one field)"
        )
    daily = doc.get("daily")
    if not isinstance(daily, Mapping):
        field_problems.append("a daily game's document must carry its daily object")
        return checks
    if daily.get("date") != date:
        field_problems.append(f"the daily object names {daily.get('date')!r}, the field id {date}")
    key_hex = daily.get("month_key")
    if key_hex is None:
        return checks  # the month is not over: its key is still secret
    key_problems: list[str] = []
    checks.append(
        (
            "daily-month-key",
            "SHA-256 of the month key equals the month's commitment published in advance",
            key_problems,
        )
    )
    try:
        key = bytes.fromhex(key_hex) if isinstance(key_hex, str) else b""
    except ValueError:
        key = b""
    if len(key) != SEED_BYTES:
        key_problems.append(f"the month key must be {SEED_BYTES} bytes in hex, not {key_hex!r}")
        return checks
    if commitment(key) != daily.get("month_commitment"):
        key_problems.append(
            f"SHA-256 of the month key is {commitment(key)}, but the month's commitment was "
            f"{daily.get('month_commitment')!r}"
        )
    seed_problems: list[str] = []
    checks.append(
        (
            "daily-day-seed",
            f"the server seed is the day's seed: HMAC-SHA256(month key, 'mineduel/daily|{date}')",
            seed_problems,
        )
    )
    if seed is not None and day_seed(key, date) != seed:
        seed_problems.append(f"the server seed is not the seed the month key gives for {date}")
    return checks
