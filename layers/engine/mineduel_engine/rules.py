"""The rule-set interface and registry: one rule set per variant.

``mine-duel`` (``mine_duel``), ``mineseeker`` (a bomb action, ``mineseeker``) and
``windows-duel`` (guess/reveal scoring, private wrong guesses, auto-reveal, ``windows_duel``)
each implement ``RuleSet`` and register here; callers look a variant up and never branch on it.
"""

from __future__ import annotations

from importlib import import_module
from typing import Protocol, TypeVar

from .errors import UnknownVariant
from .field import Field
from .moves import Move
from .settings import Settings
from .state import GameState


class RuleSet(Protocol):
    """What every variant's rules provide. All methods are pure: they return new states."""

    variant: str
    actions: frozenset[str]

    def new_game(self, settings: Settings) -> GameState:
        """The state before the first move."""
        ...

    def play(
        self, state: GameState, field: Field, seat: int, action: str, row: int, col: int
    ) -> tuple[GameState, Move]:
        """Apply one action by ``seat``; raise an ``IllegalMove`` subclass to refuse it."""
        ...

    def eliminate(self, state: GameState, seat: int, reason: str) -> tuple[GameState, Move]:
        """Put ``seat`` out (``resign`` or ``timeout``) and settle the game."""
        ...

    def apply_to_cells(self, settings: Settings, cells: list[str], move: Move) -> None:
        """Write what ``move`` made public onto ``cells`` (used to build the public view)."""
        ...


_REGISTRY: dict[str, RuleSet] = {}
R = TypeVar("R", bound=RuleSet)

_MODULES = {"mine-duel": "mine_duel", "mineseeker": "mineseeker", "windows-duel": "windows_duel"}
"""Where each variant's rule set lives. A module is imported the first time its variant is
asked for, so a function that only ever plays mine-duel never loads windows-duel's auto-reveal
solver: that is import time every cold start would pay."""


def register(rules: R) -> R:
    """Make ``rules`` the rule set of its variant."""
    _REGISTRY[rules.variant] = rules
    return rules


def rules_for(variant: str) -> RuleSet:
    """The rule set of ``variant`` (its module is imported, and so registered, on first use)."""
    if variant not in _REGISTRY and variant in _MODULES:
        import_module(f"{__package__}.{_MODULES[variant]}")
    try:
        return _REGISTRY[variant]
    except KeyError:
        raise UnknownVariant(f"unknown variant {variant!r}") from None
