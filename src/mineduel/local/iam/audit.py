"""Record every AWS call each function makes and hold it against the function's policy.

:func:`install` registers a botocore hook (``before-parameter-build``, as the cost meter
does) for every boto3 session of the process. A call made while a function runs (the local
invoker and the execution environments say which, through :data:`RUNNING`) becomes the IAM
requests it needs (:mod:`.requests`), each judged by that function's policy in template.yaml
(:mod:`.policy`). Both ways are kept:

- a request no statement allows is a *denial*: the call would fail on AWS;
- a grant no request used is *unused*: the policy gives more than the code needs. That can only
  be judged after every code path ran, i.e. after the whole test suite.

The report names the function, the action, the resource (and partition key), and ends with
the statements the function needs, ready to paste into template.yaml.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import boto3
import botocore.handlers

from mineduel.template import Template

from ..invoke import RUNNING, Running
from ..provision import LocalStack
from .policy import FunctionPolicy, Grant, PolicyNotUnderstood, grants_of
from .requests import LEADING_KEYS, IamRequest, UnknownCall, requests_for

HOOK_EVENT = "before-parameter-build"


@dataclass(frozen=True)
class Denial:
    """A request the function's policy does not allow."""

    function: str
    call: str
    request: IamRequest
    reason: str

    def describe(self) -> str:
        part = f" [{self.request.part}]" if self.request.part else ""
        return f"{self.function}: {self.call}{part} needs {self.request.describe()}: {self.reason}"


@dataclass(frozen=True)
class _Use:
    """What a function's calls asked for, reduced to what a statement would have to name."""

    action: str
    resource: str  # as a template expression
    leading_key: str | None  # a partition key pattern (``GAME#*``)
    condition: tuple[tuple[str, str, str], ...]  # (operator, key, value) for the suggestion


class Audit:
    """Everything recorded so far, per template; thread-safe (the local stack is concurrent)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._policies: dict[tuple[int, str], FunctionPolicy] = {}
        self._stacks: dict[int, LocalStack] = {}  # keeps each stack alive while its id is a key
        self.calls = 0
        self.denials: list[Denial] = []
        self.problems: list[str] = []
        self.used: set[Grant] = set()
        self._uses: dict[tuple[str, str], set[_Use]] = defaultdict(set)  # (template, function)

    # ------------------------------------------------------------------ recording
    def record(
        self, running: Running, service: str, operation: str, params: Mapping[str, Any], region: str
    ) -> None:
        """Judge one call made by ``running``'s function."""
        stack, function = running.stack, running.logical_id
        call = f"{service}.{operation}"
        with self._lock:
            self.calls += 1
            try:
                policy = self._policy(stack, function)
                requests = requests_for(service, operation, params, stack, region)
            except (UnknownCall, PolicyNotUnderstood) as exc:
                self.problems.append(f"{function}: {call}: {exc}")
                return
            template = str(stack.template.path)
            for request in requests:
                self._uses[(template, function)].add(_use_of(request, stack))
                decision = policy.decide(request)
                if decision.allowed:
                    self.used.update(decision.grants)
                else:
                    self.denials.append(Denial(function, call, request, decision.reason))

    def _policy(self, stack: LocalStack, function: str) -> FunctionPolicy:
        key = (id(stack), function)
        if key not in self._policies:
            self._stacks[id(stack)] = stack
            self._policies[key] = FunctionPolicy(stack, function)
        return self._policies[key]

    def hook(self, model: Any, params: Mapping[str, Any], context: Any = None, **_: Any) -> None:
        """botocore's ``before-parameter-build``: record the call if a function is running."""
        running = RUNNING.get()
        if running is None or (context or {}).get("is_presign_request"):
            # Presigning is no call (botocore builds a presigned S3 form on CreateBucket's
            # model): what the signed request may do is the policy's grant for it, marked as
            # used outside calls (``policy.OUTSIDE_CALLS_SID_PREFIX``).
            return
        region = (context or {}).get("client_region") or running.stack.region
        self.record(running, model.service_model.service_id, model.name, params, region)

    # ------------------------------------------------------------------ judging
    def functions_seen(self) -> set[str]:
        """The functions that made at least one AWS call."""
        with self._lock:
            return {function for _, function in self._uses}

    def unused(self, template: Template, functions: Iterable[str] | None = None) -> list[Grant]:
        """The grants of ``template``'s functions that no recorded request used."""
        unused: list[Grant] = []
        for function in functions or template.functions:
            for grant in grants_of(function, template.functions[function].properties):
                if grant not in self.used:
                    unused.append(grant)
        return unused

    def suggestion(self, template: Template, function: str) -> str:
        """The statements ``function`` needs for what it was seen calling, as YAML."""
        uses = self._uses.get((str(template.path), function), set())
        return suggest(uses)

    def report(self, template: Template, *, judge_unused: bool) -> str:
        """Every problem, denial and (when judged) unused grant, with what to change; "" if none."""
        lines: list[str] = []
        with self._lock:
            denials, problems = list(self.denials), list(self.problems)
        unused = self.unused(template) if judge_unused else []
        for problem in dict.fromkeys(problems):
            lines.append(f"  cannot judge: {problem}")
        for denial in dict.fromkeys(d.describe() for d in denials):
            lines.append(f"  not allowed (add it): {denial}")
        for grant in unused:
            lines.append(f"  unused (remove it): {grant.function}: {grant.describe()}")
        if not lines:
            return ""
        affected = sorted(
            {d.function for d in denials}
            | {g.function for g in unused}
            | {p.split(":", 1)[0] for p in problems}
        )
        out = ["template.yaml's policies differ from the AWS calls the functions make:", *lines]
        for function in affected:
            if function in template.functions:
                out.append(f"\n{function} needs exactly (Policies, from the calls recorded):")
                out.append(self.suggestion(template, function))
        return "\n".join(out)


# ---------------------------------------------------------------------------- suggestions
def _use_of(request: IamRequest, stack: LocalStack) -> _Use:
    leading = request.context.get(LEADING_KEYS)
    pattern = None
    if leading:
        prefixes = sorted({key.split("#", 1)[0] + "#*" if "#" in key else key for key in leading})
        pattern = ",".join(prefixes)
    condition: list[tuple[str, str, str]] = []
    for key in sorted(request.context):
        if key.startswith("kms:EncryptionContext:"):
            condition.append(("StringLike", key, "?*"))
        if key == "iam:PassedToService":
            condition.append(("StringEquals", key, request.context[key][0]))
    return _Use(request.action, _expression(request.resource, stack), pattern, tuple(condition))


def _expression(arn: str, stack: LocalStack) -> str:
    """The template expression that names ``arn`` (or a pattern for it)."""
    for logical_id, physical in stack.resources.items():
        if physical.attributes.get("Arn") == arn:
            return f"!GetAtt {logical_id}.Arn"
        if physical.attributes.get("Arn") and arn.startswith(physical.attributes["Arn"] + "/"):
            return f'!Sub "${{{logical_id}.Arn}}{arn[len(physical.attributes["Arn"]) :]}"'
    if ":scheduler:" in arn and ":schedule/" in arn:
        group, name = arn.split(":schedule/", 1)[1].split("/", 1)
        for logical_id, physical in stack.resources.items():
            if physical.ref == group:
                group = f"${{{logical_id}}}"
        prefix = name.split("-", 1)[0] + "-*" if "-" in name else "*"
        return (
            '!Sub "arn:${AWS::Partition}:scheduler:${AWS::Region}:${AWS::AccountId}:'
            f'schedule/{group}/{prefix}"'
        )
    return arn


def suggest(uses: Iterable[_Use]) -> str:
    """Statements that allow exactly ``uses``: each action on each resource gets the partition
    key patterns it was used with; actions with the same resource, patterns and condition share
    one statement."""
    patterns: dict[tuple[str, tuple[tuple[str, str, str], ...], str], set[str]] = defaultdict(set)
    for use in uses:
        seen = patterns[(use.resource, use.condition, use.action)]
        seen.update(use.leading_key.split(",") if use.leading_key else ())
    statements: dict[tuple[str, tuple[str, ...], tuple[tuple[str, str, str], ...]], set[str]] = (
        defaultdict(set)
    )
    for (resource, condition, action), used_keys in patterns.items():
        statements[(resource, tuple(sorted(used_keys)), condition)].add(action)
    lines = ["      Policies:", "        - Statement:"]
    for (resource, keys, condition), actions in sorted(
        statements.items(), key=lambda item: (item[0][0], sorted(item[1]))
    ):
        lines.append("            - Effect: Allow")
        lines.append(f"              Action: [{', '.join(sorted(actions))}]")
        lines.append(f"              Resource: {resource}")
        conditions: dict[str, list[str]] = defaultdict(list)
        if keys:
            quoted = ", ".join(f'"{k}"' for k in keys)
            conditions["ForAllValues:StringLike"].append(f"{LEADING_KEYS}: [{quoted}]")
        for operator, key, value in condition:
            conditions[operator].append(f'{key}: "{value}"')
        if conditions:
            lines.append("              Condition:")
            for operator, tests in conditions.items():
                lines.append(f"                {operator}:")
                lines.extend(f"                  {test}" for test in tests)
    return "\n".join(lines)


def install(audit: Audit) -> None:
    """Hook ``audit`` into every boto3 session: those made from now on, and the default one."""
    botocore.handlers.BUILTIN_HANDLERS.append((HOOK_EVENT, audit.hook))
    if boto3.DEFAULT_SESSION is not None:
        boto3.DEFAULT_SESSION.events.register(HOOK_EVENT, audit.hook)
