"""The embedded moto's Cognito tokens follow the local clock, as the API's expiry check does.

The API checks an account token's ``exp`` against the service's clock
(``mineduel_service.platform.clock``),
which ``POST /_local/clock`` moves forward; moto stamps ``iat`` and ``exp`` from the system clock.
Without this, moving the local clock an hour expires every token (right) but a refresh then gives
tokens that are already at their expiry by the API's clock (wrong: on AWS a refreshed token is
good for an hour). Here moto's token module reads the time through the service's clock, so a
refresh after ``advance_s: 3600`` gives tokens the API accepts for another hour.

Only the token stamps move: the authenticator-code check (``moto.cognitoidp.utils``) keeps the
system clock, which is the clock an authenticator app on a phone reads.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

from mineduel_service.platform import clock
from moto.cognitoidp import models


class _ServiceClock:
    """Stands in for the ``time`` module inside moto's Cognito models (which only call
    ``time.time()``, to stamp tokens)."""

    def __init__(self, system: ModuleType) -> None:
        self._system = system

    def time(self) -> float:
        return clock.now().timestamp()

    def __getattr__(self, name: str) -> object:
        return getattr(self._system, name)


def follow_local_clock() -> Callable[[], None]:
    """Make moto's Cognito tokens carry the local clock's times; returns the undo."""
    namespace = vars(models)  # moto's module globals: it reads ``time`` from here
    system = namespace["time"]
    if isinstance(system, _ServiceClock):
        return lambda: None
    namespace["time"] = _ServiceClock(system)

    def undo() -> None:
        namespace["time"] = system

    return undo
