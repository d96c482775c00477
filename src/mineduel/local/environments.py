"""Lambda's execution environments, in-process: one request at a time in each, none shared.

Lambda never runs two requests at once in one execution environment; it starts more
environments instead, and each is a process of its own. Handlers rely on that: Powertools keeps
the current event on its resolver class, the Logger's keys on a shared formatter. So the local
stack keeps a pool per function: a request takes an idle environment or starts a new one (a
cold start: a private copy of the handler module, and an :class:`isolation.Environment` that
holds its own copy of everything Powertools and the service keep process-wide), runs in it, and
gives it back when done. Concurrent requests therefore run concurrently, each in an environment
no other request is using and sharing nothing a Lambda environment would not share.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
import uuid
from collections.abc import Callable
from types import ModuleType
from typing import Any

from . import isolation
from .invoke import LambdaContext, running
from .provision import LocalStack
from .template import FunctionSpec

MAX_ENVIRONMENTS_PER_FUNCTION = 64


def load_handler_module(spec: FunctionSpec) -> ModuleType:
    """A new, private copy of ``spec``'s handler module (what one environment's init runs).

    The copy is registered in ``sys.modules`` under a unique name, because pydantic resolves a
    model's annotations through its module there.
    """
    name = f"mineduel_env_{spec.logical_id}_{uuid.uuid4().hex[:12]}"
    module_spec = importlib.util.spec_from_file_location(name, spec.module_file)
    if module_spec is None or module_spec.loader is None:
        raise ImportError(f"cannot load {spec.module_file}")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module
    module_spec.loader.exec_module(module)
    return module


class _Environment:
    """One execution environment: its handler module and its own process-wide state."""

    def __init__(self, module: ModuleType, name: str) -> None:
        self.module = module
        self.state = isolation.Environment(name)


class EnvironmentPool:
    """Idle environments per function, created on demand and reused, never shared at once."""

    def __init__(
        self,
        stack: LocalStack,
        load: Callable[[FunctionSpec], ModuleType] = load_handler_module,
        limit: int = MAX_ENVIRONMENTS_PER_FUNCTION,
    ) -> None:
        isolation.install()
        self._stack = stack
        self._load = load
        self._limit = limit
        self._cond = threading.Condition()
        self._idle: dict[str, list[_Environment]] = {}
        self._count: dict[str, int] = {}

    def _acquire(self, logical_id: str) -> _Environment:
        with self._cond:
            while True:
                idle = self._idle.setdefault(logical_id, [])
                if idle:
                    return idle.pop()
                if self._count.get(logical_id, 0) < self._limit:
                    self._count[logical_id] = self._count.get(logical_id, 0) + 1
                    break
                self._cond.wait()
        try:
            module = self._load(self._stack.template.functions[logical_id])
            return _Environment(module, f"{logical_id}-{self.environments(logical_id)}")
        except BaseException:
            with self._cond:
                self._count[logical_id] -= 1
                self._cond.notify()
            raise

    def _release(self, logical_id: str, environment: _Environment) -> None:
        with self._cond:
            self._idle[logical_id].append(environment)
            self._cond.notify()

    def environments(self, logical_id: str) -> int:
        """How many environments ``logical_id`` has started so far (its cold starts)."""
        with self._cond:
            return self._count.get(logical_id, 0)

    def invoke(self, logical_id: str, event: Any) -> Any:
        """Run ``logical_id``'s handler on ``event`` in an environment no one else is using."""
        spec = self._stack.template.functions[logical_id]
        environment = self._acquire(logical_id)
        try:
            context = LambdaContext(
                function_name=self._stack.ref(logical_id),
                invoked_function_arn=self._stack.function_arns[logical_id],
            )
            with isolation.running_in(environment.state), running(logical_id, self._stack):
                return getattr(environment.module, spec.handler_name)(event, context)
        finally:
            self._release(logical_id, environment)

    def invoke_arn(self, arn: str, event: Any) -> Any:
        """Run the function whose ARN is ``arn`` (a schedule's target)."""
        return self.invoke(self._stack.function_for_arn(arn), event)
