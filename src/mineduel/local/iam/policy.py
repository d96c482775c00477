"""A function's inline policy from template.yaml, and whether it allows an :class:`IamRequest`.

The evaluation is IAM's, for the parts the template uses: ``Allow`` and ``Deny`` statements,
``Action`` and ``Resource`` lists with ``*`` and ``?`` wildcards, and conditions with the
``String*`` operators (``...IfExists``, ``ForAllValues:``, ``ForAnyValue:`` included). Anything
else (``NotAction``, a SAM policy template, a managed policy, another operator) is refused with
a clear error instead of being half understood.

Each statement is split into grants, one per action x resource x partition-key pattern
(``dynamodb:LeadingKeys``), so what a statement allows and nobody uses can be named exactly.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..provision import LocalStack
from .requests import LEADING_KEYS, IamRequest

_SET_PREFIXES = ("ForAllValues:", "ForAnyValue:")
_OPERATORS = ("StringEquals", "StringNotEquals", "StringLike", "StringNotLike")


class PolicyNotUnderstood(Exception):
    """The template's policy uses something this evaluator does not know."""


@dataclass(frozen=True)
class Grant:
    """One action on one resource (and one partition-key pattern) of one statement."""

    function: str
    statement: int  # position among the function's statements, from 0
    action: str
    resource: str  # as written in the template (``!GetAtt GamesTable.Arn``)
    leading_keys: str | None = None

    def describe(self) -> str:
        """``dynamodb:GetItem on !GetAtt GamesTable.Arn for partition keys GAME#*``."""
        keys = f" for partition keys {self.leading_keys}" if self.leading_keys else ""
        return f"{self.action} on {self.resource}{keys} (statement {self.statement + 1})"


@dataclass(frozen=True)
class Decision:
    """Whether a request is allowed, which grants allowed it, and why not when it is not."""

    allowed: bool
    grants: tuple[Grant, ...] = ()
    reason: str = ""


@dataclass(frozen=True)
class _Statement:
    index: int
    effect: str
    actions: tuple[str, ...]
    resources: tuple[str, ...]  # resolved ARNs (patterns)
    written: tuple[str, ...]  # the same, as written in the template
    conditions: tuple[tuple[str, str, tuple[str, ...]], ...]  # (operator, key, values)

    @property
    def leading_key_patterns(self) -> tuple[str, ...] | None:
        for operator, key, values in self.conditions:
            if key == LEADING_KEYS and operator.startswith("ForAllValues:"):
                return values
        return None


def raw_statements(properties: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A SAM function's inline statements, in order; anything else is refused."""
    found: list[dict[str, Any]] = []
    for policy in properties.get("Policies") or []:
        if not isinstance(policy, Mapping) or set(policy) != {"Statement"}:
            raise PolicyNotUnderstood(
                f"only inline statements are checked, not {policy!r} "
                "(write it as '- Statement: [...]')"
            )
        found.extend(dict(s) for s in policy["Statement"])
    return found


OUTSIDE_CALLS_SID_PREFIX = "UsedOutsideCalls"
"""A statement whose ``Sid`` starts so grants what is done with the function's role outside
the function's own API calls: the Lambda service sending a failed asynchronous event to the
on-failure destination, or S3 accepting a presigned upload form the function signed. No hook
on the function's calls can see those used, so they are not reported unused."""


def grants_of(function: str, properties: Mapping[str, Any]) -> list[Grant]:
    """Every grant of a function's Allow statements, as the template writes them (statements
    used outside the function's calls left out, ``OUTSIDE_CALLS_SID_PREFIX``)."""
    found = []
    for index, raw in enumerate(raw_statements(properties)):
        if raw.get("Effect") != "Allow":
            continue
        if str(raw.get("Sid", "")).startswith(OUTSIDE_CALLS_SID_PREFIX):
            continue
        patterns: tuple[str | None, ...] = (None,)
        for operator, tests in (raw.get("Condition") or {}).items():
            if operator.startswith("ForAllValues:") and LEADING_KEYS in tests:
                patterns = tuple(str(p) for p in _strings(tests[LEADING_KEYS]))
        for action in _strings(raw["Action"]):
            for resource in _strings(raw["Resource"]):
                for keys in patterns:
                    found.append(Grant(function, index, str(action), written(resource), keys))
    return found


def written(value: Any) -> str:
    """A template expression as it reads in template.yaml (``!GetAtt GamesTable.Arn``)."""
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping) and len(value) == 1:
        ((key, arg),) = value.items()
        if key == "Ref":
            return f"!Ref {arg}"
        if key == "Fn::GetAtt":
            return f"!GetAtt {'.'.join(arg) if isinstance(arg, list) else arg}"
        if key == "Fn::Sub" and isinstance(arg, str):
            return f'!Sub "{arg}"'
    return repr(value)


def _strings(value: Any) -> tuple[Any, ...]:
    return tuple(value) if isinstance(value, list) else (value,)


class FunctionPolicy:
    """One function's statements, resolved against one provisioned stack."""

    def __init__(self, stack: LocalStack, function: str) -> None:
        self.function = function
        properties = stack.template.functions[function].properties
        self._statements = [
            self._parse(index, raw, stack) for index, raw in enumerate(raw_statements(properties))
        ]

    def _parse(self, index: int, raw: Mapping[str, Any], stack: LocalStack) -> _Statement:
        unknown = set(raw) - {"Effect", "Action", "Resource", "Condition", "Sid"}
        if unknown:
            raise PolicyNotUnderstood(
                f"{self.function} statement {index + 1}: {sorted(unknown)} not understood"
            )
        as_written = _strings(raw["Resource"])
        conditions = []
        for operator, tests in (stack.resolve(raw.get("Condition")) or {}).items():
            base = operator.removesuffix("IfExists")
            for prefix in _SET_PREFIXES:
                base = base.removeprefix(prefix)
            if base not in _OPERATORS:
                raise PolicyNotUnderstood(f"{self.function}: condition operator {operator}")
            for key, values in tests.items():
                conditions.append((operator, str(key), tuple(str(v) for v in _strings(values))))
        return _Statement(
            index=index,
            effect=str(raw["Effect"]),
            actions=tuple(str(a) for a in _strings(raw["Action"])),
            resources=tuple(str(stack.resolve(r)) for r in as_written),
            written=tuple(written(r) for r in as_written),
            conditions=tuple(conditions),
        )

    def decide(self, request: IamRequest) -> Decision:
        """IAM's answer to ``request``: allowed by some Allow statement and by no Deny."""
        allowing: list[Grant] = []
        for st in self._statements:
            actions = [a for a in st.actions if _like(a.lower(), request.action.lower())]
            where = [
                w
                for r, w in zip(st.resources, st.written, strict=True)
                if _like(r, request.resource)
            ]
            if not actions or not where or not _conditions_hold(st.conditions, request.context):
                continue
            if st.effect == "Deny":
                return Decision(False, reason=f"denied by statement {st.index + 1}")
            patterns = st.leading_key_patterns
            if patterns is not None and not request.context.get(LEADING_KEYS):
                continue  # a LeadingKeys condition must never allow a request without keys
            used_keys: Sequence[str | None] = (
                [p for p in patterns if any(_like(p, k) for k in request.context[LEADING_KEYS])]
                if patterns is not None
                else [None]
            )
            allowing.extend(
                Grant(self.function, st.index, a, w, k)
                for a in actions
                for w in where
                for k in used_keys
            )
        if allowing:
            return Decision(True, tuple(allowing))
        return Decision(False, reason="no statement allows it")


def _conditions_hold(
    conditions: Iterable[tuple[str, str, tuple[str, ...]]],
    context: Mapping[str, tuple[str, ...]],
) -> bool:
    return all(_holds(op, key, values, context.get(key)) for op, key, values in conditions)


def _holds(
    operator: str, key: str, patterns: tuple[str, ...], found: tuple[str, ...] | None
) -> bool:
    if_exists = operator.endswith("IfExists")
    base = operator.removesuffix("IfExists")
    negated = "Not" in base
    like = "Like" in base

    def matches(value: str) -> bool:
        hit = any(_like(p, value) if like else p == value for p in patterns)
        return not hit if negated else hit

    if base.startswith("ForAllValues:"):
        return all(matches(v) for v in found or ())
    if base.startswith("ForAnyValue:"):
        return any(matches(v) for v in found or ())
    if not found:
        return if_exists or negated
    return any(matches(v) for v in found)


@cache
def _pattern(pattern: str) -> re.Pattern[str]:
    parts = (".*" if ch == "*" else "." if ch == "?" else re.escape(ch) for ch in pattern)
    return re.compile("".join(parts), re.DOTALL)


def _like(pattern: str, value: str) -> bool:
    """IAM's wildcard match: ``*`` any run of characters, ``?`` any one."""
    return _pattern(pattern).fullmatch(value) is not None
