"""Fire EventBridge Scheduler's one-time schedules locally, by the service's clock.

moto stores schedules but never fires them. This loop does what Scheduler would for the
template's group: every ``at(...)`` schedule whose time has come (by the local clock, which
``POST /_local/clock`` can move forward) is sent to its target function ARN with the schedule's
``Input`` as the event, then deleted, as ``ActionAfterCompletion: DELETE`` does on AWS,
unless the target has set the schedule again meanwhile (the expiry function points it at the
next turn's deadline). A target that fails is retried on later ticks, a few times, then
dropped with a log line (Scheduler's retry policy, scaled down).
"""

from __future__ import annotations

import json
import logging
import re
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from botocore.exceptions import ClientError

LOG = logging.getLogger("mineduel-local.scheduler")
_AT = re.compile(r"^at\((\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\)$")
MAX_ATTEMPTS = 3

Fire = Callable[[str, dict[str, Any]], Any]


def due_time(expression: str, timezone: str | None = "UTC") -> datetime | None:
    """When a one-time ``at(YYYY-MM-DDTHH:MM:SS)`` expression fires (UTC); None for others."""
    found = _AT.match(expression.strip())
    if not found:
        return None
    local = datetime.fromisoformat(found.group(1)).replace(tzinfo=ZoneInfo(timezone or "UTC"))
    return local.astimezone(UTC)


class SchedulerLoop:
    """Polls one schedule group and fires what is due; :meth:`run_now` forces a tick."""

    def __init__(
        self,
        client: Any,
        group: str,
        now: Callable[[], datetime],
        fire: Fire,
        interval_s: float = 0.5,
    ) -> None:
        self._client = client
        self._group = group
        self._now = now
        self._fire = fire
        self._interval = interval_s
        self._attempts: dict[str, int] = {}
        self._cond = threading.Condition()
        self._requested = 0
        self._done = 0
        self._last_fired: list[str] = []
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="scheduler-loop", daemon=True)

    def _schedules(self) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        for page in self._client.get_paginator("list_schedules").paginate(GroupName=self._group):
            found.extend(s for s in page["Schedules"] if s.get("GroupName") == self._group)
        return found

    def tick(self) -> list[str]:
        """Fire every schedule due now; returns their names in the order they were fired."""
        due: list[tuple[datetime, dict[str, Any]]] = []
        now = self._now()
        for summary in self._schedules():
            schedule = self._client.get_schedule(Name=summary["Name"], GroupName=self._group)
            if schedule.get("State", "ENABLED") != "ENABLED":
                continue
            when = due_time(
                schedule["ScheduleExpression"], schedule.get("ScheduleExpressionTimezone")
            )
            if when is not None and when <= now:
                due.append((when, schedule))
        fired: list[str] = []
        for _, schedule in sorted(due, key=lambda item: item[0]):
            if self._fire_one(schedule):
                fired.append(schedule["Name"])
        return fired

    def _fire_one(self, schedule: dict[str, Any]) -> bool:
        name = schedule["Name"]
        target = schedule["Target"]
        event = json.loads(target.get("Input") or "{}")
        try:
            self._fire(target["Arn"], event)
        except Exception:
            attempts = self._attempts.get(name, 0) + 1
            self._attempts[name] = attempts
            LOG.exception("schedule %s: target failed (attempt %d)", name, attempts)
            if attempts < MAX_ATTEMPTS:
                return False
            LOG.error("schedule %s: dropped after %d attempts", name, attempts)
        self._attempts.pop(name, None)
        try:
            self._complete(schedule)
        except ClientError as exc:
            # The target may have deleted or replaced its own schedule: nothing left to do.
            if exc.response.get("Error", {}).get("Code") != "ResourceNotFoundException":
                raise
        return True

    def _complete(self, schedule: dict[str, Any]) -> None:
        name = schedule["Name"]
        now = self._client.get_schedule(Name=name, GroupName=self._group)
        if (now["ScheduleExpression"], now["Target"].get("Input")) != (
            schedule["ScheduleExpression"],
            schedule["Target"].get("Input"),
        ):
            return  # the target set its own schedule again (the next deadline): that one stays
        if schedule.get("ActionAfterCompletion", "NONE") == "DELETE":
            self._client.delete_schedule(Name=name, GroupName=self._group)
        else:
            # A one-time schedule that stays behind is not fired twice by Scheduler either.
            self._client.update_schedule(
                Name=name,
                GroupName=self._group,
                ScheduleExpression=schedule["ScheduleExpression"],
                FlexibleTimeWindow=schedule["FlexibleTimeWindow"],
                Target=schedule["Target"],
                State="DISABLED",
            )

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(
                    lambda: self._requested > self._done or self._stopped, timeout=self._interval
                )
                if self._stopped:
                    return
                covering = self._requested
            try:
                fired = self.tick()
            except Exception:
                LOG.exception("scheduler tick failed")
                fired = []
            with self._cond:
                self._done = covering
                self._last_fired = fired
                self._cond.notify_all()

    def start(self) -> SchedulerLoop:
        """Start polling in a daemon thread."""
        self._thread.start()
        return self

    def run_now(self, timeout_s: float = 60.0) -> list[str]:
        """Make the loop tick now and wait for it; the names of the schedules that tick fired."""
        if not self._thread.is_alive():
            return self.tick()
        with self._cond:
            self._requested += 1
            wanted = self._requested
            self._cond.notify_all()
            self._cond.wait_for(lambda: self._done >= wanted or self._stopped, timeout=timeout_s)
            return list(self._last_fired)

    def stop(self) -> None:
        """Stop after the current tick."""
        with self._cond:
            self._stopped = True
            self._cond.notify_all()
        if self._thread.is_alive():
            self._thread.join()
