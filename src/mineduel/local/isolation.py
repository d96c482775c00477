"""Each local execution environment keeps its own state, as each Lambda environment does.

On Lambda an execution environment is a process of its own serving one request at a time, so
whatever a library keeps on a class or in a module is that environment's. The local stack runs
every environment in one process (a private copy of the handler module each:
``environments``), and some libraries keep per-request state on objects every copy shares:

- Powertools' resolver keeps the current event and Lambda context on its *class*
  (``BaseRouter.current_event`` and ``.lambda_context``): two concurrent requests could read
  each other's event, token included (issue: a resignation answered with another player's
  token);
- Powertools' Logger keeps the request's keys (request id, correlation id, cold start) on the
  formatter that every Logger of the service shares, and its cold-start flag in a module;
- Powertools' Metrics keeps the metric set, dimensions and metadata on the Metrics class, so one
  request could flush another's metrics; a new environment's metric set starts empty, as a new
  Lambda environment's does, whatever the process recorded outside any environment (a test
  calling a use case directly: its counts once rode along in every later flush);
- the service keeps the seeds it decrypted in a module-level cache (``crypto._cache``), so one
  function could be served a seed another function's environment decrypted, and the local
  stack would count fewer KMS calls than AWS makes;
- the notification service keeps the VAPID key pair it read (``vapid._cache``), so a stack
  started after another in the same process would hand browsers the first stack's public key
  and then find no private key of its own to sign with;
- the fan-out keeps the bus rules it read (``listeners._cache``), as each Lambda environment
  keeps its own.

:func:`install` re-homes exactly these on the running :class:`Environment`, which
:func:`running_in` makes current for one invocation (a ``ContextVar``, so each request's thread
sees its own). An environment keeps its values from one invocation to the next, as a Lambda
environment keeps its memory. Outside any environment (a script, a test calling a handler
module directly) every one of them behaves exactly as the library wrote it. The boto3 clients,
the configuration and the token keys stay shared: they are caches whose sharing changes no
answer and no AWS call count (docs/local.md, "What differs from AWS").

The patch costs an attribute lookup through a descriptor per access (measured by
``make bench``'s soak, docs/local.md).
"""

from __future__ import annotations

import copy
import importlib
import threading
from abc import ABCMeta
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

_MISSING = object()
CURRENT: ContextVar[Environment | None] = ContextVar("mineduel_environment", default=None)
"""The environment whose invocation runs in this context (None: outside the local stack's)."""


class Environment:
    """One execution environment's own copies of the state listed in the module docstring."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.cold = True
        """Whether its next invocation is its first (Powertools' ``cold_start`` key)."""
        self._assigned: dict[tuple[int, str], Any] = {}
        self._copies: dict[int, tuple[Any, Any]] = {}
        self._objects: dict[int, Any] = {}

    def read(self, owner: object, name: str, shared: Any, *, empty: bool = False) -> Any:
        """``owner.name`` in this environment: what it assigned, else its copy of ``shared``
        (an empty one of its type when ``empty``)."""
        found = self._assigned.get((id(owner), name), _MISSING)
        if found is not _MISSING:
            return found
        return self.copy_of(shared, empty=empty)

    def assigned(self, owner: object, name: str) -> Any:
        """What this environment set ``owner.name`` to (``_MISSING`` if it never did)."""
        return self._assigned.get((id(owner), name), _MISSING)

    def assign(self, owner: object, name: str, value: Any) -> None:
        """Set ``owner.name`` in this environment only."""
        self._assigned[(id(owner), name)] = value

    def copy_of(self, shared: Any, *, empty: bool = False) -> Any:
        """This environment's own copy of a shared mutable object, the same copy wherever it is
        reached from (Powertools' Metrics and its provider hold one metric set between them).
        ``empty``: a new object of its type instead, what a fresh Lambda environment holds
        whatever the process recorded before (a test calling a use case directly)."""
        if shared is None or isinstance(shared, str | int | float | bool | tuple):
            return shared
        found = self._copies.get(id(shared))
        if found is None or found[0] is not shared:
            found = (shared, type(shared)() if empty else copy.deepcopy(shared))
            self._copies[id(shared)] = found
        return found[1]

    def object_for(self, key: int, factory: Callable[[], Any]) -> Any:
        """This environment's own instance of a module-level singleton."""
        found = self._objects.get(key)
        if found is None:
            found = self._objects[key] = factory()
        return found


@contextmanager
def running_in(environment: Environment) -> Iterator[None]:
    """Make ``environment`` the current one for the block (one invocation)."""
    token = CURRENT.set(environment)
    try:
        yield
    finally:
        CURRENT.reset(token)


class _ClassAttribute:
    """A class-level attribute (``BaseRouter.current_event``) kept per environment, for reads and
    writes through the class (via :class:`_PerEnvironmentMeta`) and through its instances."""

    def __init__(self, name: str, shared: Any) -> None:
        self.name = name
        self.shared = shared

    def get(self, owner: type) -> Any:
        """The environment's value; a fresh environment has none yet, as a fresh Lambda
        environment's class has none before its first request (outside any: the process's)."""
        environment = CURRENT.get()
        value = self.shared if environment is None else environment.assigned(self, self.name)
        if value is _MISSING:
            raise AttributeError(f"{owner.__name__}.{self.name} is not set")
        return value

    def set(self, value: Any) -> None:
        environment = CURRENT.get()
        if environment is None:
            self.shared = value
        else:
            environment.assign(self, self.name, value)

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        return self.get(owner or type(instance))

    def __set__(self, instance: object, value: Any) -> None:
        self.set(value)


class _InstanceAttribute:
    """An instance attribute every environment gets its own copy of (by the shared object's
    identity), set per environment; outside any, the instance's own."""

    def __init__(self, name: str, *, starts_empty: bool = False) -> None:
        self.name = name
        self.starts_empty = starts_empty
        """An environment's first copy is empty (a metric set: nothing recorded yet)."""

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        if instance is None:
            return self
        try:
            shared = instance.__dict__[self.name]
        except KeyError:
            raise AttributeError(self.name) from None
        environment = CURRENT.get()
        if environment is None:
            return shared
        return environment.read(instance, self.name, shared, empty=self.starts_empty)

    def __set__(self, instance: object, value: Any) -> None:
        environment = CURRENT.get()
        if environment is None or self.name not in instance.__dict__:
            instance.__dict__[self.name] = value  # outside, or the object's own init
        if environment is not None:
            environment.assign(instance, self.name, value)


class _PerEnvironmentObject:
    """A module-level singleton replaced by one instance per environment (the shared one
    outside any); ``everywhere`` names methods that, called outside any environment, reach
    every environment's instance too (a test's ``clear_cache()`` means all of them)."""

    def __init__(self, shared: Any, everywhere: tuple[str, ...] = ()) -> None:
        self._shared = shared
        self._everywhere = everywhere
        self._instances: list[Any] = []
        self._lock = threading.Lock()

    def _make(self) -> Any:
        made = type(self._shared)()
        with self._lock:
            self._instances.append(made)
        return made

    def __getattr__(self, name: str) -> Any:
        environment = CURRENT.get()
        if environment is not None:
            return getattr(environment.object_for(id(self), self._make), name)
        if name in self._everywhere:
            with self._lock:
                targets = [self._shared, *self._instances]

            def everywhere(*args: Any, **kwargs: Any) -> None:
                for target in targets:
                    getattr(target, name)(*args, **kwargs)

            return everywhere
        return getattr(self._shared, name)


_ROUTER_CLASS_STATE = ("current_event", "lambda_context")
_FORMATTER_STATE = ("log_format",)
_METRICS_STATE = ("metric_set", "dimension_set", "metadata_set", "default_dimensions")
_RECORDED_STATE = ("metric_set", "metadata_set")
"""What an invocation records, empty in a new environment whatever the process holds (a test
that calls a use case outside any environment records into the process's own set)."""
_PROVIDER_STATE = (*_METRICS_STATE, "dimension_sets", "timestamp")
_SINGLETONS = (
    ("mineduel_service.platform.crypto", "_cache", ("clear", "forget")),
    ("mineduel_service.notify.vapid", "_cache", ("clear",)),
    ("mineduel_service.live.listeners", "_cache", ("clear",)),
)
_install_lock = threading.Lock()
_installed = False


def install() -> None:
    """Re-home the shared per-request state on the current environment (once per process)."""
    global _installed  # noqa: PLW0603
    with _install_lock:
        if _installed:
            return
        _router_state()
        _logger_state()
        _metrics_state()
        for module_name, attribute, everywhere in _SINGLETONS:
            module = importlib.import_module(module_name)
            shared = getattr(module, attribute)
            setattr(module, attribute, _PerEnvironmentObject(shared, everywhere))
        _installed = True


def _router_state() -> None:
    from aws_lambda_powertools.event_handler.api_gateway import BaseRouter  # noqa: PLC0415

    attributes = {
        name: _ClassAttribute(name, BaseRouter.__dict__.get(name, _MISSING))
        for name in _ROUTER_CLASS_STATE
    }

    def class_property(attribute: _ClassAttribute) -> property:
        return property(attribute.get, lambda cls, value: attribute.set(value))

    # ``BaseRouter.current_event = event`` is an assignment to the class itself, which only its
    # metaclass can intercept: a subclass of its metaclass (ABCMeta) with these properties.
    meta = type(BaseRouter)
    if not issubclass(meta, ABCMeta):
        raise TypeError(f"Powertools' BaseRouter has an unexpected metaclass {meta}")
    per_environment = type(
        "_PerEnvironmentMeta",
        (meta,),
        {name: class_property(attribute) for name, attribute in attributes.items()},
    )
    for name, attribute in attributes.items():
        type.__setattr__(BaseRouter, name, attribute)  # what instances see
    BaseRouter.__class__ = per_environment  # type: ignore[method-assign]


def _logger_state() -> None:
    from aws_lambda_powertools.logging import formatter, logger  # noqa: PLC0415

    for name in _FORMATTER_STATE:
        setattr(formatter.LambdaPowertoolsFormatter, name, _InstanceAttribute(name))
    process_cold_start = logger._is_cold_start

    def is_cold_start() -> bool:
        environment = CURRENT.get()
        if environment is None:
            return process_cold_start()
        cold, environment.cold = environment.cold, False
        return cold

    logger._is_cold_start = is_cold_start


def _metrics_state() -> None:
    from aws_lambda_powertools.metrics import metrics  # noqa: PLC0415
    from aws_lambda_powertools.metrics.provider.cloudwatch_emf import cloudwatch  # noqa: PLC0415

    for name in _METRICS_STATE:
        attribute = _InstanceAttribute(name, starts_empty=name in _RECORDED_STATE)
        setattr(metrics.Metrics, name, attribute)
    for name in _PROVIDER_STATE:
        attribute = _InstanceAttribute(name, starts_empty=name in _RECORDED_STATE)
        setattr(cloudwatch.AmazonCloudWatchEMFProvider, name, attribute)
