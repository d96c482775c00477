"""Call a template function in-process, as the Lambda runtime would.

The handler module is loaded by file path from the function's CodeUri (a unique module name per
function, no ``sys.path`` edits), so two functions' ``app.py`` never shadow each other and the
code that runs is exactly the code SAM would deploy. Each calling thread gets its own copy of a
module and its own ``isolation.Environment``, as each Lambda execution environment has its own
process: Powertools keeps the current event on its resolver class, so one environment must never
serve two requests at once, nor see another's state.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from . import isolation
from .provision import LocalStack
from .template import FunctionSpec

Handler = Callable[[Any, Any], Any]


@dataclass(frozen=True)
class Running:
    """The function whose handler is running in this thread, and the stack it belongs to."""

    logical_id: str
    stack: LocalStack


RUNNING: ContextVar[Running | None] = ContextVar("mineduel_running_function", default=None)
"""Set while a handler runs (here and in the execution environments), so an AWS call can be
charged to the function that made it (the IAM check in ``mineduel.local.iam``)."""


@contextmanager
def running(logical_id: str, stack: LocalStack) -> Iterator[None]:
    """Mark ``logical_id`` of ``stack`` as the running function for the block."""
    token = RUNNING.set(Running(logical_id, stack))
    try:
        yield
    finally:
        RUNNING.reset(token)


_load_lock = threading.Lock()
_modules: dict[tuple[str, int], ModuleType] = {}
_environments: dict[tuple[str, int], isolation.Environment] = {}


@dataclass
class LambdaContext:
    """The attributes of the Lambda context object that handlers and Powertools read."""

    function_name: str
    invoked_function_arn: str
    memory_limit_in_mb: int = 512
    function_version: str = "$LATEST"
    aws_request_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    log_group_name: str = "/aws/lambda/local"
    log_stream_name: str = "local"
    timeout_ms: int = 10_000

    def get_remaining_time_in_millis(self) -> int:
        """Locally there is no hard timeout; report the configured one."""
        return self.timeout_ms


def load_module(spec: FunctionSpec) -> ModuleType:
    """Import the function's handler module from its file, once per file and calling thread."""
    path = spec.module_file
    key = (str(path), threading.get_ident())
    with _load_lock:
        if key in _modules:
            return _modules[key]
        name = f"mineduel_fn_{spec.logical_id}_{uuid.uuid4().hex[:8]}"
        module_spec = importlib.util.spec_from_file_location(name, path)
        if module_spec is None or module_spec.loader is None:
            raise ImportError(f"cannot load {path}")
        module = importlib.util.module_from_spec(module_spec)
        # Registered under its unique name so pydantic and dataclasses can resolve annotations.
        sys.modules[name] = module
        module_spec.loader.exec_module(module)
        _modules[key] = module
        return module


def load_handler(spec: FunctionSpec) -> Handler:
    """The function's handler callable."""
    handler: Handler = getattr(load_module(spec), spec.handler_name)
    return handler


def environment_for(spec: FunctionSpec) -> isolation.Environment:
    """The environment of the calling thread's copy of the function's module."""
    key = (str(spec.module_file), threading.get_ident())
    with _load_lock:
        found = _environments.get(key)
        if found is None:
            found = _environments[key] = isolation.Environment(spec.logical_id)
        return found


class Invoker:
    """Invokes a provisioned stack's functions by logical id or by ARN."""

    def __init__(self, stack: LocalStack) -> None:
        isolation.install()
        self.stack = stack

    def context(self, logical_id: str) -> LambdaContext:
        """A fresh context for one invocation of ``logical_id``."""
        return LambdaContext(
            function_name=self.stack.ref(logical_id),
            invoked_function_arn=self.stack.function_arns[logical_id],
        )

    def invoke(self, logical_id: str, event: Any) -> Any:
        """Run the function ``logical_id`` on ``event`` and return what the handler returns."""
        spec = self.stack.template.functions[logical_id]
        handler = load_handler(spec)
        with isolation.running_in(environment_for(spec)), running(logical_id, self.stack):
            return handler(event, self.context(logical_id))

    def invoke_arn(self, arn: str, event: Any) -> Any:
        """Run the function whose ARN is ``arn`` (how the scheduler loop fires a target)."""
        return self.invoke(self.stack.function_for_arn(arn), event)
