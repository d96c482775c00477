"""Ratings: one skill estimate per player and variant, updated once per rated game.

The arithmetic is openskill's Plackett-Luce model (a Bayesian rating for 2 or more players,
places and ties included), so nothing here invents a rating system: this module only says which
variants are rated, how a game's places become its update, how mu and sigma are shown to people
and when a rating is still provisional. It is pure (no AWS, no clock), so the applier in
``results`` and the offline ``mineduel ratings rebuild`` compute exactly the same numbers.

Each stored mu and sigma is rounded to ``DIGITS`` decimals after every update, and the next
update starts from the rounded values: the chain of updates is then reproducible from the
stored figures alone, whatever machine recomputes it (docs/ratings.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from mineduel_engine import GameState
    from openskill.models import PlackettLuce

DIGITS = 10
"""Decimals kept of mu and sigma (far below what the display shows, far above float noise)."""
DISPLAY_BASE = 1500
DISPLAY_SCALE = 42.0
"""``rating = 1500 + 42 * (mu - 25)`` and ``deviation = 42 * sigma``: a new player shows 1500
with a deviation of 350, the familiar starting figures of Elo-like ladders."""
ESTABLISHED_GAMES = 10
ESTABLISHED_DEVIATION = 300
"""A rating stops being provisional after 10 rated games once its deviation is at most 300."""
MONTHS_KEPT = 12
ELIMINATIONS = frozenset({"resign", "timeout"})

Outcome = Literal["rated", "aborted"]


@dataclass(frozen=True)
class RatingSystem:
    """One variant's rating model: openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau
    25/300), fixed for the variant's life, since changing them would change every rating."""

    variant: str
    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    beta: float = 25.0 / 6.0
    tau: float = 25.0 / 300.0

    def initial(self) -> Skill:
        """A new player's skill."""
        return Skill(round(self.mu, DIGITS), round(self.sigma, DIGITS))

    def rate(self, before: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
        """Every seat's skill after a game in which seat i took ``places[i]`` (1 = first;
        equal places are ties)."""
        if len(before) != len(places) or len(before) < 2:
            raise ValueError("a rated game has one place per seat and at least two seats")
        model = _model(self)
        teams = [[model.rating(mu=s.mu, sigma=s.sigma)] for s in before]
        rated = model.rate(teams, ranks=[float(p) for p in places])
        return [Skill(round(t[0].mu, DIGITS), round(t[0].sigma, DIGITS)) for t in rated]


@cache
def _model(system: RatingSystem) -> PlackettLuce:
    from openskill.models import PlackettLuce  # noqa: PLC0415  (only the appliers need it)

    return PlackettLuce(mu=system.mu, sigma=system.sigma, beta=system.beta, tau=system.tau)


RATED_VARIANTS: dict[str, RatingSystem] = {"mine-duel": RatingSystem("mine-duel")}
"""The variants with ratings, each with its own model and its own ratings. ``mineseeker`` and
``windows-duel`` get theirs by an entry here once their rules exist (and a test that every seat
of theirs is counted as having moved the way ``seats_that_moved`` says)."""


def system_for(variant: str) -> RatingSystem | None:
    """The variant's rating model, or None when the variant has no ratings."""
    return RATED_VARIANTS.get(variant)


@dataclass(frozen=True)
class Skill:
    """A rating as the model keeps it: the mean and the uncertainty of a player's skill."""

    mu: float
    sigma: float

    @property
    def rating(self) -> int:
        """The one number people see: a linear map of mu (see ``DISPLAY_SCALE``)."""
        return round(DISPLAY_BASE + DISPLAY_SCALE * (self.mu - 25.0))

    @property
    def deviation(self) -> int:
        """The uncertainty on the same scale: the skill is within two deviations of the rating
        with about 95% certainty."""
        return round(DISPLAY_SCALE * self.sigma)

    def provisional(self, games: int) -> bool:
        """True until the player has ``ESTABLISHED_GAMES`` rated games and a deviation of at
        most ``ESTABLISHED_DEVIATION``."""
        return games < ESTABLISHED_GAMES or self.deviation > ESTABLISHED_DEVIATION

    def to_list(self) -> list[float]:
        """``[mu, sigma]``, how records store it."""
        return [self.mu, self.sigma]

    @classmethod
    def from_list(cls, data: Sequence[Any]) -> Skill:
        """A skill from ``[mu, sigma]``."""
        return cls(float(data[0]), float(data[1]))


@dataclass(frozen=True)
class PlayerRating:
    """A player's rating in one variant, as stored in their rating item.

    ``version`` counts the rated games applied to it: each game's rating record keeps the
    version each seat had before it, which is the order the rebuild replays the games in.
    """

    player_id: str
    variant: str
    skill: Skill
    version: int = 0
    played_at: str | None = None
    months: dict[str, list[float]] = field(default_factory=dict)
    """``"YYYY-MM"`` -> ``[mu, sigma]`` at the end of that month (the last ``MONTHS_KEPT``)."""

    @property
    def games(self) -> int:
        """Rated games counted (one version per game)."""
        return self.version

    @property
    def provisional(self) -> bool:
        """See ``Skill.provisional``."""
        return self.skill.provisional(self.games)

    def after_game(self, skill: Skill, ended_at: str) -> PlayerRating:
        """This rating after one more rated game that ended at ``ended_at``.

        The month is never earlier than the latest one kept, so a game applied after a later
        one (two games ending at once) cannot move a newer month's figure into an older one.
        """
        months = {k: list(v) for k, v in self.months.items()}
        month = max([ended_at[:7], *months])
        months[month] = skill.to_list()
        return PlayerRating(
            player_id=self.player_id,
            variant=self.variant,
            skill=skill,
            version=self.version + 1,
            played_at=max(ended_at, self.played_at or ""),
            months=dict(sorted(months.items())[-MONTHS_KEPT:]),
        )

    def skill_at_end_of(self, month: str) -> Skill | None:
        """The skill at the end of ``month`` (the last month with games up to it), or None
        before the first rated game."""
        earlier = [m for m in self.months if m <= month]
        return Skill.from_list(self.months[max(earlier)]) if earlier else None


def new_rating(player_id: str, system: RatingSystem) -> PlayerRating:
    """The rating of a player who has not played a rated game in ``system``'s variant."""
    return PlayerRating(player_id, system.variant, system.initial())


def rating_view(rating: PlayerRating, months: Sequence[str]) -> dict[str, Any]:
    """The Profile's ``ratings[variant]``: the figures, and the rating at the end of each of
    ``months`` (null before the first rated game)."""
    trend = []
    for month in months:
        skill = rating.skill_at_end_of(month)
        trend.append(
            {
                "month": month,
                "rating": skill.rating if skill else None,
                "deviation": skill.deviation if skill else None,
            }
        )
    return {
        "rating": rating.skill.rating,
        "deviation": rating.skill.deviation,
        "provisional": rating.provisional,
        "games": rating.games,
        "months": trend,
    }


# ---------------------------------------------------------------------------- a game's record
@dataclass(frozen=True)
class SeatRating:
    """One seat's line in a game's rating record."""

    seat: int
    player_id: str
    before: Skill
    after: Skill
    version: int | None
    """The player's rating version before this game; None in an aborted game (nothing
    changed, so it takes no place in the player's order)."""

    def to_dict(self) -> dict[str, Any]:
        """The stored and published form (also in the Verification document)."""
        return {
            "seat": self.seat,
            "player_id": self.player_id,
            "version": self.version,
            "before": self.before.to_list(),
            "after": self.after.to_list(),
            "rating_before": self.before.rating,
            "rating_after": self.after.rating,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeatRating:
        """Parse ``to_dict``'s form (``ValueError``/``KeyError``/``TypeError`` if malformed)."""
        version = data["version"]
        return cls(
            seat=int(data["seat"]),
            player_id=str(data["player_id"]),
            before=Skill.from_list(data["before"]),
            after=Skill.from_list(data["after"]),
            version=None if version is None else int(version),
        )


@dataclass(frozen=True)
class GameRating:
    """What rating a finished rated game did: its seats' skills before and after, and each
    seat's rating version before it (the rebuild's order); ``aborted`` when it changed nothing
    because it ended before every seat had moved."""

    variant: str
    outcome: Outcome
    seats: tuple[SeatRating, ...]

    def to_dict(self) -> dict[str, Any]:
        """The stored and published form."""
        return {
            "variant": self.variant,
            "outcome": self.outcome,
            "seats": [seat.to_dict() for seat in self.seats],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameRating:
        """Parse ``to_dict``'s form."""
        outcome = data["outcome"]
        if outcome not in ("rated", "aborted"):
            raise ValueError(f"unknown rating outcome {outcome!r}")
        return cls(
            variant=str(data["variant"]),
            outcome=outcome,
            seats=tuple(SeatRating.from_dict(seat) for seat in data["seats"]),
        )

    def seat(self, index: int) -> SeatRating | None:
        """The line of seat ``index``."""
        return next((s for s in self.seats if s.seat == index), None)


def seats_that_moved(state: GameState) -> set[int]:
    """The seats that made a move of their own (not a resignation or timeout), from the state.

    In mine-duel every tap either finds a mine or counts a safe tap, so a seat has moved exactly
    when it has a mine or a safe tap. ``seats_that_moved_in`` says the same from the move log.
    """
    return {i for i, seat in enumerate(state.seats) if seat.mines + seat.safe_taps > 0}


def seats_that_moved_in(moves: Sequence[Mapping[str, Any]]) -> set[int]:
    """The seats with a move of their own in the log (what the rebuild checks)."""
    return {int(m["seat"]) for m in moves if m.get("action") not in ELIMINATIONS}


def rate_game(
    system: RatingSystem,
    seats: Sequence[tuple[int, PlayerRating]],
    places: Sequence[int],
    moved: set[int],
) -> GameRating:
    """The rating record of a finished rated game: ``seats`` lists (seat, the player's current
    rating) for every seat; aborted (nobody changes) unless every seat has moved."""
    if any(seat not in moved for seat, _ in seats):
        return GameRating(
            system.variant,
            "aborted",
            tuple(
                SeatRating(seat, rating.player_id, rating.skill, rating.skill, None)
                for seat, rating in seats
            ),
        )
    after = system.rate([rating.skill for _, rating in seats], [places[s] for s, _ in seats])
    return GameRating(
        system.variant,
        "rated",
        tuple(
            SeatRating(seat, rating.player_id, rating.skill, new, rating.version)
            for (seat, rating), new in zip(seats, after, strict=True)
        ),
    )
