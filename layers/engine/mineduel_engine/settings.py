"""A game's fixed settings, the variants' limits and their creation options.

Every variant has its own board, mine count and seat range (``VARIANT_SPECS``), and may have
creation options (``OptionSpec``): a game stores every option of its variant, defaults filled
in, so two games with the same settings play by exactly the same rules. An option the variant
does not have, or a value of the wrong type, is refused with its own ``InvalidSettings``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from .errors import BadOptionValue, InvalidSettings, UnknownOption, UnknownVariant

OptionValue = bool
"""Every option so far is a yes/no switch; a new kind of value would widen this."""

Options = tuple[tuple[str, OptionValue], ...]
"""A game's options as ``(name, value)`` pairs in the variant's order (hashable, immutable)."""


@dataclass(frozen=True)
class OptionSpec:
    """One creation option of a variant: its name, default and what it changes."""

    name: str
    default: OptionValue
    meaning: str


@dataclass(frozen=True)
class VariantSpec:
    """The board, seats and options of one variant (docs/rules.md).

    ``seat_fields`` are the per-seat counters the variant adds to a seat's public state
    (``bomb_used``, ``score``); ``board_chars`` the board characters it adds to ``.``, ``0``-``8``
    and the seat letters (windows-duel's hit mines).
    """

    name: str
    width: int
    height: int
    mines: int
    min_seats: int
    max_seats: int
    options: tuple[OptionSpec, ...] = ()
    seat_fields: tuple[str, ...] = ()
    board_chars: str = ""

    def option(self, name: str) -> OptionSpec | None:
        """The option called ``name``, or None when the variant has none by that name."""
        return next((o for o in self.options if o.name == name), None)


BOMB_WHEN_BEHIND = OptionSpec(
    "bomb_when_behind",
    False,
    "the bomb may be used only by a seat with fewer mines than the other",
)

VARIANT_SPECS: dict[str, VariantSpec] = {
    "mine-duel": VariantSpec("mine-duel", 16, 16, 51, 2, 4),
    "mineseeker": VariantSpec(
        "mineseeker", 16, 16, 51, 2, 2, options=(BOMB_WHEN_BEHIND,), seat_fields=("bomb_used",)
    ),
    "windows-duel": VariantSpec(
        "windows-duel", 11, 11, 15, 2, 2, seat_fields=("score",), board_chars="ab"
    ),
}

BOT_LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
"""The bot's levels, weakest first: a game setting, so choosing one does not load the bot."""
DEFAULT_LEVEL = "hard"

SEAT_LETTERS = "ABCD"
"""A mine flagged (mine-duel, mineseeker) or found (windows-duel) by seat 0, 1, 2, 3."""

HIT_LETTERS = "abcd"
"""windows-duel: a mine hit (revealed by mistake) by seat 0, 1, 2, 3."""

MAX_SIDE = 64  # the widest and tallest board any variant may use


def spec_of(variant: str) -> VariantSpec:
    """The spec of ``variant``; ``UnknownVariant`` when there is none."""
    spec = VARIANT_SPECS.get(variant)
    if spec is None:
        raise UnknownVariant(f"unknown variant {variant!r}")
    return spec


def make_options(
    variant: str, given: Mapping[str, object] | Iterable[tuple[str, object]] | None = None
) -> Options:
    """Check ``given`` options against ``variant`` and fill in the defaults.

    Raises ``UnknownOption`` for a name the variant does not have and ``BadOptionValue`` for a
    value of the wrong type (``true``/``false`` only: 0 and 1 are not switches).
    """
    spec = spec_of(variant)
    pairs = list(given.items()) if isinstance(given, Mapping) else list(given or ())
    chosen: dict[str, OptionValue] = {}
    for name, value in pairs:
        option = spec.option(name) if isinstance(name, str) else None
        if option is None:
            known = ", ".join(o.name for o in spec.options) or "none"
            raise UnknownOption(
                f"{variant} has no option {str(name)[:40]!r} (its options: {known})"
            )
        if type(value) is not bool:
            raise BadOptionValue(
                f"option {name!r} of {variant} takes true or false, not {repr(value)[:40]}"
            )
        chosen[name] = value
    return tuple((o.name, chosen.get(o.name, o.default)) for o in spec.options)


@dataclass(frozen=True)
class Settings:
    """What is fixed when a game is created: variant, board size, mine count, seats, options.

    ``options`` holds every option of the variant (defaults filled in, in the variant's order),
    whatever subset the caller gave; read one with ``option(name)``.
    """

    variant: str = "mine-duel"
    width: int = 16
    height: int = 16
    mines: int = 51
    seats: int = 2
    options: Options = ()

    def __post_init__(self) -> None:
        spec = spec_of(self.variant)
        if not spec.min_seats <= self.seats <= spec.max_seats:
            raise InvalidSettings(
                f"{self.variant} takes {spec.min_seats} to {spec.max_seats} seats, not {self.seats}"
            )
        if not (1 <= self.width <= MAX_SIDE and 1 <= self.height <= MAX_SIDE):
            raise InvalidSettings(f"a {self.width}x{self.height} board is not playable")
        if not 1 <= self.mines < self.width * self.height:
            raise InvalidSettings(
                f"{self.mines} mines do not fit a {self.width}x{self.height} board"
            )
        object.__setattr__(self, "options", make_options(self.variant, self.options))

    @classmethod
    def for_variant(
        cls,
        variant: str = "mine-duel",
        seats: int = 2,
        options: Mapping[str, object] | None = None,
    ) -> Settings:
        """The standard settings of a variant (its own board size and mine count)."""
        spec = spec_of(variant)
        return cls(
            variant, spec.width, spec.height, spec.mines, seats, make_options(variant, options)
        )

    def with_options(self, options: Mapping[str, object]) -> Settings:
        """A copy with ``options`` (checked; the others at their defaults)."""
        return replace(self, options=make_options(self.variant, options))

    @property
    def spec(self) -> VariantSpec:
        """The variant's spec (limits, options, per-seat fields)."""
        return VARIANT_SPECS[self.variant]

    def option(self, name: str) -> OptionValue:
        """The value of option ``name``; ``UnknownOption`` if the variant has no such option."""
        for key, value in self.options:
            if key == name:
                return value
        raise UnknownOption(f"{self.variant} has no option {name!r}")

    def options_dict(self) -> dict[str, OptionValue]:
        """The options as a JSON-ready object (``{}`` for a variant without options)."""
        return dict(self.options)

    @property
    def size(self) -> int:
        """Number of cells."""
        return self.width * self.height
