"""A game's fixed settings and the variants' limits."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InvalidSettings, UnknownVariant


@dataclass(frozen=True)
class VariantSpec:
    """The board and seat limits of one variant (rules.md)."""

    name: str
    width: int
    height: int
    mines: int
    min_seats: int
    max_seats: int


VARIANT_SPECS: dict[str, VariantSpec] = {
    "mine-duel": VariantSpec("mine-duel", 16, 16, 51, 2, 4),
}

SEAT_LETTERS = "ABCD"
MAX_SIDE = 64  # the widest and tallest board any variant may use


@dataclass(frozen=True)
class Settings:
    """What is fixed when a game is created: variant, board size, mine count and seats."""

    variant: str = "mine-duel"
    width: int = 16
    height: int = 16
    mines: int = 51
    seats: int = 2

    def __post_init__(self) -> None:
        spec = VARIANT_SPECS.get(self.variant)
        if spec is None:
            raise UnknownVariant(f"unknown variant {self.variant!r}")
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

    @classmethod
    def for_variant(cls, variant: str = "mine-duel", seats: int = 2) -> Settings:
        """The standard settings of a variant (its own board size and mine count)."""
        spec = VARIANT_SPECS.get(variant)
        if spec is None:
            raise UnknownVariant(f"unknown variant {variant!r}")
        return cls(variant, spec.width, spec.height, spec.mines, seats)

    @property
    def size(self) -> int:
        """Number of cells."""
        return self.width * self.height
