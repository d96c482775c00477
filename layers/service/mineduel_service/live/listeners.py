"""Which of the stack bus's events some rule listens for: only those are put on the bus.

EventBridge bills every entry ``PutEvents`` accepts, whether or not a rule matches it, and the
stack itself puts no rule on its bus: the events are for an operator's integrations. Putting
every game's ``MovePlayed`` on a bus nobody listens to was the biggest line of the fan-out's
cost (docs/cost.md). So the fan-out reads the bus's rules (``ListRules``, a free control-plane
call) at most once every ``FRESH_S`` seconds per execution environment and puts an entry only
when an enabled rule could match its ``source`` and ``detail-type``.

The match errs towards putting: a pattern's ``source`` or ``detail-type`` that is not a plain
list of strings (a prefix, ``anything-but``, ``$or``) counts as matching everything, patterns on
``detail`` are not judged (the rule may still drop the event), and when the rules cannot be
read every entry is put. A rule added to the bus starts receiving events within ``FRESH_S``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from ..platform import aws, clock
from ..platform.observability import count, logger

FRESH_S = 300  # how long the rules read are trusted: a new rule waits at most this long
RETRY_S = 30  # after a failed read: every entry is put meanwhile, and the rules read again


@dataclass(frozen=True)
class Matcher:
    """One enabled rule's reach: the sources and detail types it can match (None: any)."""

    sources: frozenset[str] | None
    detail_types: frozenset[str] | None

    def wants(self, source: str, detail_type: str) -> bool:
        """The rule could match an event of this source and detail type."""
        return (self.sources is None or source in self.sources) and (
            self.detail_types is None or detail_type in self.detail_types
        )


EVERYTHING = (Matcher(None, None),)


class _RulesCache:
    """The matchers last read for a bus, and until when they are trusted (one an execution
    environment: the local stack gives each environment its own)."""

    def __init__(self) -> None:
        self._entry: tuple[str, datetime, datetime, tuple[Matcher, ...]] | None = None

    def get(self, bus: str, moment: datetime) -> tuple[Matcher, ...] | None:
        entry = self._entry
        if entry is None or entry[0] != bus or not entry[1] <= moment < entry[2]:
            return None
        return entry[3]

    def put(self, bus: str, moment: datetime, fresh_s: int, matchers: tuple[Matcher, ...]) -> None:
        self._entry = (bus, moment, moment + timedelta(seconds=fresh_s), matchers)

    def clear(self) -> None:
        self._entry = None


_cache = _RulesCache()


def forget_rules() -> None:
    """Read the bus's rules anew on the next put (tests that add a rule start from nothing)."""
    _cache.clear()


def listened(entries: Sequence[dict[str, Any]], bus: str) -> list[dict[str, Any]]:
    """The entries (``PutEvents`` entries) some rule on ``bus`` could match."""
    if not entries:
        return []
    matchers = _matchers(bus)
    return [
        e for e in entries if any(m.wants(str(e["Source"]), str(e["DetailType"])) for m in matchers)
    ]


def _matchers(bus: str) -> tuple[Matcher, ...]:
    moment = clock.now()
    cached = _cache.get(bus, moment)
    if cached is not None:
        return cached
    try:
        matchers, fresh_s = read_rules(bus), FRESH_S
    except Exception as exc:
        matchers, fresh_s = EVERYTHING, RETRY_S
        count("BusRulesUnread")
        logger.warning("bus rules unread: every event put", extra={"error": type(exc).__name__})
    _cache.put(bus, moment, fresh_s, matchers)
    return matchers


def read_rules(bus: str) -> tuple[Matcher, ...]:
    """The reach of every enabled rule on ``bus`` that has an event pattern."""
    found: list[Matcher] = []
    token: str | None = None
    while True:
        client = aws.events()
        page = (
            client.list_rules(EventBusName=bus, NextToken=token)
            if token
            else client.list_rules(EventBusName=bus)
        )
        for rule in page.get("Rules", []):
            if str(rule.get("State", "")).startswith("ENABLED") and rule.get("EventPattern"):
                found.append(matcher_of(str(rule["EventPattern"])))
        token = page.get("NextToken")
        if not token:
            return tuple(found)


def matcher_of(pattern_text: str) -> Matcher:
    """What an event pattern can match, by its ``source`` and ``detail-type`` alone."""
    try:
        pattern = json.loads(pattern_text)
    except ValueError:
        return EVERYTHING[0]
    if not isinstance(pattern, dict) or "$or" in pattern:
        return EVERYTHING[0]
    return Matcher(_strings(pattern.get("source")), _strings(pattern.get("detail-type")))


def _strings(values: object) -> frozenset[str] | None:
    """A field's exact values; None (anything) when absent or not plain strings."""
    if isinstance(values, list) and values and all(isinstance(v, str) for v in values):
        return frozenset(values)
    return None
