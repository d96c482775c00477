"""Telling a paired player: from the table's stream, a live message to every socket they have
open and a ``SeekPaired`` event on the stack's bus.

The fan-out function (``functions/live_fanout``) hands every stream batch to this module too;
the template's filter lets through a seek item's change only when it is paired (docs/live.md).
For each seek that became paired:

- its owner's live connections (their pointers, one ``Query``) each get
  ``{"type": "paired", "seek_id", "game_id", "variant", "move_deadline_s", "rated"}``;
- the bus gets ``SeekPaired`` (source ``mineduel.pairing``) with the seek, the owner's player
  id, the game and ``answered``: true when the request that stored the seek already answered
  with the game (its owner saw it), false when the seek was waiting;
- a waiting owner with no socket open (nobody was told live) gets the ``paired`` notification
  (``notify.notices.paired``, queued by ``notify.outbox``; one ``GetItem`` of the game and one
  ``SendMessageBatch``, only then); its delivery honours the player's settings.

Both come after the pairing is stored; either may, rarely, come twice (a retried batch), so a
consumer keys on ``seek_id``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from ..games.store import get_game
from ..live.push import FanoutReport, put_bus_events, send
from ..live.store import player_connections
from ..notify import notices, outbox
from ..platform import clock
from ..platform.observability import count, logger
from .store import Seek, is_seek, parse_seek

SOURCE = "mineduel.pairing"


def _notify_away(seek: Seek) -> int:
    """Queue the ``paired`` notification for the seek's owner, who waited and follows no
    socket; the number queued (0 when the game is gone or the owner is no account seat)."""
    record = get_game(seek.game_id) if seek.game_id else None
    if record is None:
        return 0
    found = [n for n in notices.paired(record) if n.player_id == seek.player_id]
    return outbox.send(found) if found else 0


def paired_seeks(records: Iterable[dict[str, Any]]) -> list[Seek]:
    """The seeks the stream records show becoming paired (inserted paired, or changed from
    open to paired)."""
    found = []
    for record in records:
        change = record.get("dynamodb", {})
        new, old = change.get("NewImage"), change.get("OldImage")
        if not is_seek(record) or not new:
            continue
        if new.get("status", {}).get("S") != "paired":
            continue
        if old and old.get("status", {}).get("S") == "paired":
            continue
        found.append(parse_seek(new))
    return found


def message(seek: Seek) -> dict[str, Any]:
    """The live message to the seek's owner."""
    return {
        "type": "paired",
        "seek_id": seek.seek_id,
        "game_id": seek.game_id,
        "variant": seek.variant,
        "move_deadline_s": seek.move_deadline_s,
        "rated": seek.rated,
    }


def bus_entry(seek: Seek) -> dict[str, Any]:
    """The ``SeekPaired`` entry (``PutEvents``, without the bus name)."""
    detail = {
        "seek_id": seek.seek_id,
        "player_id": seek.player_id,
        "game_id": seek.game_id,
        "variant": seek.variant,
        "move_deadline_s": seek.move_deadline_s,
        "rated": seek.rated,
        "paired_at": seek.paired_at,
        "answered": seek.answered,
    }
    return {
        "Source": SOURCE,
        "DetailType": "SeekPaired",
        "Detail": json.dumps(detail, separators=(",", ":")),
    }


def handle(records: Iterable[dict[str, Any]]) -> FanoutReport:
    """Announce every seek of the batch that became paired; one failure never stops the
    others (the player still finds the game by reading the seek)."""
    report = FanoutReport()
    entries = []
    for seek in paired_seeks(records):
        try:
            told = 0
            for connection_id in player_connections(seek.player_id, clock.now()):
                told += send(connection_id, message(seek), report)
            entries.append(bus_entry(seek))
            report.events.append("paired")
            if not told and not seek.answered:
                report.notices += _notify_away(seek)
        except Exception as exc:
            report.failed += 1
            count("FanoutFailures")
            logger.error("pairing announcement failed", extra={"error": type(exc).__name__})
    put_bus_events(entries, report)
    if report.sent:
        count("PushesSent", report.sent)
    return report
