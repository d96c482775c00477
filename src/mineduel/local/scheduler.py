"""EventBridge Scheduler for the local stack: fire the template's schedules by the service's clock.

moto stores schedules but never fires them. This loop does what Scheduler does, no more
(docs/local.md lists what it reproduces and what it cannot):
- it watches every schedule group of the template (turn deadlines, housekeeping);
- a one-time ``at(...)`` schedule fires once its time has come by the local clock (which
  ``POST /_local/clock`` moves forward), with its ``Input`` as the event; afterwards
  ``ActionAfterCompletion: DELETE`` deletes it, and without it the schedule stays but never
  fires again;
- a ``rate(N unit)`` schedule fires every N units, counted from when the loop first saw it;
- targets are invoked asynchronously, as Scheduler invokes Lambda: the function's own retries
  and on-failure destination apply (``lambda_service``);
- Scheduler assumes the schedule's role to invoke the target: the role's policies (in moto's
  IAM) must allow ``lambda:InvokeFunction`` on it, or the delivery fails;
- a delivery that fails (no such function, or the role does not allow it) is retried on later
  ticks up to the target's ``RetryPolicy.MaximumRetryAttempts``, then sent to the target's
  dead-letter queue if it has one, and the schedule completes.

Between ticks it sleeps until the next schedule is due by the clock, or until a schedule is
written (:meth:`SchedulerLoop.wake`, which the embedded moto's patch calls) or the clock is
moved (:meth:`SchedulerLoop.run_now`), at most ``SLEEP_CAP_S``: an idle stack does not ask moto
for its schedules twice a second. Without ``wake`` (an endpoint of your own), it lists them
every ``interval_s`` as before.
"""

from __future__ import annotations

import fnmatch
import json
import logging
import re
import threading
from collections import deque
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from botocore.exceptions import ClientError

LOG = logging.getLogger("mineduel-local.scheduler")
_AT = re.compile(r"^at\((\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\)$")
_RATE = re.compile(r"^rate\((\d+)\s+(minute|minutes|hour|hours|day|days)\)$")
_UNITS = {"minute": 60, "hour": 3600, "day": 86400}
DEFAULT_RETRIES = 185  # Scheduler's default MaximumRetryAttempts
SLEEP_CAP_S = 60.0
"""Told of schedule writes, the loop still looks at least this often."""

Deliver = Callable[[str, dict[str, Any]], Any]
"""Invoke a target function asynchronously by ARN; raises LookupError when it does not exist."""
Allowed = Callable[[str, str], bool]
"""Whether the role (ARN) may invoke the target (ARN)."""
DeadLetter = Callable[[str, str, dict[str, str]], None]
"""Send a message body with attributes to the queue with this ARN."""


def due_time(expression: str, timezone: str | None = "UTC") -> datetime | None:
    """When a one-time ``at(YYYY-MM-DDTHH:MM:SS)`` expression fires (UTC); None for others."""
    found = _AT.match(expression.strip())
    if not found:
        return None
    local = datetime.fromisoformat(found.group(1)).replace(tzinfo=ZoneInfo(timezone or "UTC"))
    return local.astimezone(UTC)


def rate_period(expression: str) -> timedelta | None:
    """The period of a ``rate(N unit)`` expression; None for others."""
    found = _RATE.match(expression.strip())
    if not found:
        return None
    unit = found.group(2).rstrip("s")
    return timedelta(seconds=int(found.group(1)) * _UNITS[unit])


RECENT_FIRED = 1000
"""The fired schedules the loop remembers for ``run_now(since=...)`` (a clock's move fires a
handful; the record is bounded for a stack that runs for days)."""


class SchedulerLoop:
    """Polls the schedule groups and fires what is due; :meth:`run_now` forces a tick."""

    def __init__(
        self,
        client: Any,
        groups: list[str],
        now: Callable[[], datetime],
        deliver: Deliver,
        allowed: Allowed | None = None,
        dead_letter: DeadLetter | None = None,
        interval_s: float = 0.5,
    ) -> None:
        self._client = client
        self._groups = groups
        self._now = now
        self._deliver = deliver
        self._allowed = allowed or (lambda role, target: True)
        self._dead_letter = dead_letter
        self._interval = interval_s
        self._failures: dict[str, int] = {}
        self._completed: set[str] = set()
        self._next_rate: dict[str, datetime] = {}
        self._tick_lock = threading.Lock()
        self._cond = threading.Condition()
        self._requested = 0
        self._done = 0
        self._last_fired: list[str] = []
        self._fired_count = 0  # schedules fired since the loop began, numbering ``_recent``
        self._recent: deque[tuple[int, str]] = deque(maxlen=RECENT_FIRED)
        self._stopped = False
        self._told_of_writes = False
        self._written = False
        self._next_due: datetime | None = None
        self.ticks = 0
        """How many times the schedules were listed (for the tests)."""
        self._thread = threading.Thread(target=self._run, name="scheduler-loop", daemon=True)

    def _schedules(self) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        for group in self._groups:
            pages = self._client.get_paginator("list_schedules").paginate(GroupName=group)
            for page in pages:
                found.extend(s for s in page["Schedules"] if s.get("GroupName") == group)
        return found

    def tick(self) -> list[str]:
        """Fire every schedule due now; returns their names in the order they were fired."""
        with self._tick_lock:
            self.ticks += 1
            now = self._now()
            due: list[tuple[datetime, dict[str, Any]]] = []
            upcoming: list[datetime] = []
            for summary in self._schedules():
                try:
                    schedule = self._client.get_schedule(
                        Name=summary["Name"], GroupName=summary["GroupName"]
                    )
                except ClientError:
                    continue  # deleted meanwhile
                when = self._when(schedule, now)
                if when is None:
                    continue
                if when <= now:
                    due.append((when, schedule))
                else:
                    upcoming.append(when)
            fired: list[str] = []
            for _, schedule in sorted(due, key=lambda item: item[0]):
                if self._fire_one(schedule, now):
                    fired.append(schedule["Name"])
                    self._fired_count += 1
                    self._recent.append((self._fired_count, schedule["Name"]))
                    upcoming.extend(self._when_after(schedule, now))
                else:  # its delivery failed: the next attempt is the next tick's
                    upcoming.append(now + timedelta(seconds=self._interval))
            self._next_due = min(upcoming, default=None)
            return fired

    def _when(self, schedule: dict[str, Any], now: datetime) -> datetime | None:
        """When the schedule is next due (maybe already); None if it never fires again."""
        if schedule.get("State", "ENABLED") != "ENABLED":
            return None
        key = _key(schedule)
        expression = schedule["ScheduleExpression"]
        when = due_time(expression, schedule.get("ScheduleExpressionTimezone"))
        if when is not None:
            return when if key not in self._completed else None
        period = rate_period(expression)
        if period is None:
            return None
        return self._next_rate.setdefault(key, now + period)

    def _when_after(self, schedule: dict[str, Any], now: datetime) -> list[datetime]:
        """When a schedule that just fired is due again (a rate schedule's next run)."""
        when = self._when(schedule, now)
        return [when] if when is not None and when > now else []

    def _fire_one(self, schedule: dict[str, Any], now: datetime) -> bool:
        """Deliver one due schedule; True once it is delivered or given up (dead-lettered)."""
        key = _key(schedule)
        target = schedule["Target"]
        event = json.loads(target.get("Input") or "{}")
        try:
            if not self._allowed(target.get("RoleArn", ""), target["Arn"]):
                raise PermissionError("the schedule's role may not invoke its target")
            self._deliver(target["Arn"], event)
        except (LookupError, PermissionError) as exc:
            failures = self._failures.get(key, 0) + 1
            self._failures[key] = failures
            retries = int(
                target.get("RetryPolicy", {}).get("MaximumRetryAttempts", DEFAULT_RETRIES)
            )
            LOG.warning("schedule %s: delivery failed (%s), attempt %d", key, exc, failures)
            if failures <= retries:
                return False
            self._to_dead_letter(schedule, exc, failures)
        self._failures.pop(key, None)
        self._complete(schedule, now)
        return True

    def _to_dead_letter(self, schedule: dict[str, Any], error: Exception, attempts: int) -> None:
        target = schedule["Target"]
        arn = target.get("DeadLetterConfig", {}).get("Arn")
        if not arn or self._dead_letter is None:
            LOG.error("schedule %s: dropped after %d attempts", schedule["Name"], attempts)
            return
        self._dead_letter(
            arn,
            target.get("Input") or "{}",
            {
                "ERROR_CODE": type(error).__name__,
                "ERROR_MESSAGE": str(error),
                "RETRY_ATTEMPTS": str(attempts - 1),
                "TARGET_ARN": target["Arn"],
                "GROUP_NAME": schedule.get("GroupName", "default"),
                "SCHEDULE_ARN": schedule.get("Arn", ""),
            },
        )

    def _complete(self, schedule: dict[str, Any], now: datetime) -> None:
        key = _key(schedule)
        period = rate_period(schedule["ScheduleExpression"])
        if period is not None:
            # Scheduler would have fired once per period; after a jump of the local clock the
            # missed runs are coalesced into this one.
            self._next_rate[key] = now + period
            return
        self._completed.add(key)
        if schedule.get("ActionAfterCompletion", "NONE") == "DELETE":
            try:
                self._client.delete_schedule(
                    Name=schedule["Name"], GroupName=schedule.get("GroupName", "default")
                )
            except ClientError as exc:
                if exc.response.get("Error", {}).get("Code") != "ResourceNotFoundException":
                    raise

    def wake(self) -> None:
        """A schedule was created, updated or deleted: look at them now (and from then on,
        sleep until the next is due or the next write)."""
        with self._cond:
            self._told_of_writes = True
            self._written = True
            self._cond.notify_all()

    def _sleep_s(self) -> float:
        """How long the loop may sleep before it must look at the schedules again."""
        if not self._told_of_writes:
            return self._interval
        if self._next_due is None:
            return SLEEP_CAP_S
        until = (self._next_due - self._now()).total_seconds()
        return min(max(until, 0.0), SLEEP_CAP_S)

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(
                    lambda: self._requested > self._done or self._stopped or self._written,
                    timeout=self._sleep_s(),
                )
                if self._stopped:
                    return
                self._written = False
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

    def mark(self) -> int:
        """A mark in the loop's record of fired schedules, for ``run_now(since=...)``."""
        return self._fired_count

    def run_now(self, timeout_s: float = 60.0, since: int | None = None) -> list[str]:
        """Make the loop tick now and wait for it; the names of the schedules that tick fired,
        or, with ``since`` (a ``mark``), every schedule fired after the mark was taken.

        The loop also ticks on its own (a schedule written, its timer), so a caller that moves
        the clock and then asks what fired takes a mark first: a tick of the loop's own that
        starts between the clock's move and this request fires what the move made due, and
        the tick this request makes then finds nothing (a test of the local clock once saw
        an empty answer that way in CI).
        """
        if not self._thread.is_alive():
            fired = self.tick()
        else:
            with self._cond:
                self._requested += 1
                wanted = self._requested
                self._cond.notify_all()
                self._cond.wait_for(
                    lambda: self._done >= wanted or self._stopped, timeout=timeout_s
                )
                fired = list(self._last_fired)
        if since is None:
            return fired
        with self._tick_lock:  # (a tick of the loop's own may be appending)
            return [name for number, name in self._recent if number > since]

    def stop(self) -> None:
        """Stop after the current tick."""
        with self._cond:
            self._stopped = True
            self._cond.notify_all()
        if self._thread.is_alive():
            self._thread.join()


def _key(schedule: dict[str, Any]) -> str:
    """A schedule's identity: group, name and expression (a re-created name is a new schedule)."""
    group = schedule.get("GroupName", "default")
    return f"{group}/{schedule['Name']}@{schedule['ScheduleExpression']}"


def role_allows_invoke(iam: Any, role_arn: str, target_arn: str) -> bool:
    """Whether the role's inline policies allow ``lambda:InvokeFunction`` on ``target_arn``
    (Allow statements only, ``*`` wildcards; enough for the template's own role)."""
    name = role_arn.rsplit("/", 1)[-1]
    try:
        policy_names = iam.list_role_policies(RoleName=name)["PolicyNames"]
    except ClientError:
        return False
    for policy_name in policy_names:
        document = iam.get_role_policy(RoleName=name, PolicyName=policy_name)["PolicyDocument"]
        if isinstance(document, str):
            document = json.loads(document)
        statements = document.get("Statement", [])
        for statement in statements if isinstance(statements, list) else [statements]:
            if statement.get("Effect") != "Allow":
                continue
            actions = _as_list(statement.get("Action"))
            resources = _as_list(statement.get("Resource"))
            if any(fnmatch.fnmatchcase("lambda:InvokeFunction", a) for a in actions) and any(
                fnmatch.fnmatchcase(target_arn, r) for r in resources
            ):
                return True
    return False


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]
