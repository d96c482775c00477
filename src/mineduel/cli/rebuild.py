"""Recompute every rating from Verification documents alone, and check the recorded ones.

Each rated finished game's document carries its move log (which ``verify_document`` replays on
the field rebuilt from the published seed, so the places are the log's own) and its rating
record: every seat's player, the player's rating version before the game, and the skills
before and after. Games of one player are applied in the order of those versions, so games that
ended at the same moment are replayed in the order the service applied them, and every
before/after is recomputed with the same model and compared. Nothing is taken on trust: a
record that does not match the log's outcome, a version that two games claim, or a skill that
the model does not give is a problem, said in plain words (docs/ratings.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mineduel_engine import verify_document
from mineduel_service.ratings.model import (
    GameRating,
    PlayerRating,
    RatingSystem,
    Skill,
    new_rating,
    seats_that_moved_in,
    system_for,
)

TOLERANCE = 1e-9
"""How far a recomputed mu or sigma may be from the recorded one: both are rounded to 10
decimals, so only a float difference at the rounding edge may show (one unit of the 10th)."""


@dataclass
class Rebuilt:
    """The ratings recomputed from a set of documents, and what was found on the way."""

    ratings: dict[tuple[str, str], PlayerRating] = field(default_factory=dict)
    """(variant, player id) -> the player's rating after every game of the set."""
    rated: int = 0
    aborted: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Every game was replayed and every recorded figure matched."""
        return not self.problems

    def skip(self, why: str) -> None:
        self.skipped[why] = self.skipped.get(why, 0) + 1


@dataclass(frozen=True)
class _Game:
    game_id: str
    system: RatingSystem
    record: GameRating
    places: list[int]
    ended_at: str


def rebuild(documents: Iterable[Mapping[str, Any]]) -> Rebuilt:
    """Replay every rated game of ``documents`` in the recorded order; see the module doc."""
    out = Rebuilt()
    games = [g for doc in documents if (g := _rated_game(doc, out)) is not None]
    _replay(games, out)
    return out


def _rated_game(doc: Mapping[str, Any], out: Rebuilt) -> _Game | None:
    """The document's rated game, checked against its own log; None (and why) otherwise."""
    game_id = str(doc.get("game_id"))
    rating = doc.get("rating")
    if not doc.get("rated") or not isinstance(rating, Mapping):
        out.skip("not rated")
        return None
    if rating.get("outcome") == "pending":
        out.skip("rating not applied yet")
        return None
    verdict = verify_document(doc)
    if not verdict.ok:
        first = "; ".join(verdict.problems[:2]) or "it is not finished"
        out.problems.append(f"game {game_id}: its move log does not verify ({first})")
        return None
    try:
        record = GameRating.from_dict(rating)
    except (KeyError, TypeError, ValueError, IndexError):
        out.problems.append(f"game {game_id}: its rating record is malformed")
        return None
    system = system_for(record.variant)
    seats = len(doc["client_seeds"])
    if system is None or record.variant != doc.get("variant"):
        out.problems.append(f"game {game_id}: {record.variant!r} is not its rated variant")
        return None
    if sorted(s.seat for s in record.seats) != list(range(seats)):
        out.problems.append(f"game {game_id}: the rating record does not list every seat once")
        return None
    moved = seats_that_moved_in(doc["moves"])
    expected = "rated" if all(seat in moved for seat in range(seats)) else "aborted"
    if record.outcome != expected:
        out.problems.append(
            f"game {game_id}: recorded as {record.outcome}, but by its log it is {expected}"
        )
        return None
    if expected == "aborted":
        out.aborted += 1
        if any(s.before != s.after for s in record.seats):
            out.problems.append(f"game {game_id}: aborted, yet a rating changed")
        return None
    if any(s.version is None for s in record.seats):
        out.problems.append(f"game {game_id}: a seat has no rating version")
        return None
    moves = doc["moves"]
    ended_at = str(moves[-1].get("at", "")) if moves else ""
    return _Game(game_id, system, record, list(doc["result"]["places"]), ended_at)


def _replay(games: list[_Game], out: Rebuilt) -> None:
    """Apply the games in each player's version order (a game waits for every seat's turn)."""
    slots: dict[tuple[str, str, int], int] = {}
    waiting: list[int] = []
    for index, game in enumerate(games):
        waiting.append(len(game.record.seats))
        for seat in game.record.seats:
            slot = (game.system.variant, seat.player_id, int(seat.version or 0))
            if slot in slots:
                other = games[slots[slot]].game_id
                out.problems.append(
                    f"games {other} and {game.game_id} both claim rating version {slot[2]} "
                    f"of player {seat.player_id}"
                )
                waiting[index] = -1
                continue
            slots[slot] = index
    ready: list[int] = []

    def arrive(variant: str, player_id: str, version: int) -> None:
        index = slots.get((variant, player_id, version))
        if index is not None and waiting[index] > 0:
            waiting[index] -= 1
            if waiting[index] == 0:
                ready.append(index)

    for variant, player_id in {
        (g.system.variant, s.player_id) for g in games for s in g.record.seats
    }:
        out.ratings[(variant, player_id)] = new_rating(player_id, _system(games, variant))
        arrive(variant, player_id, 0)
    while ready:
        game = games[ready.pop()]
        _apply(game, out)
        for seat in game.record.seats:
            arrive(game.system.variant, seat.player_id, int(seat.version or 0) + 1)
    for index, left in enumerate(waiting):
        if left > 0:
            out.problems.append(
                f"game {games[index].game_id}: could not be placed in its players' order "
                "(a game before it is missing from the documents)"
            )


def _system(games: list[_Game], variant: str) -> RatingSystem:
    return next(g.system for g in games if g.system.variant == variant)


def _apply(game: _Game, out: Rebuilt) -> None:
    """Recompute one game from the ratings rebuilt so far and compare with its record."""
    lines = sorted(game.record.seats, key=lambda s: s.seat)
    before = [out.ratings[(game.system.variant, s.player_id)] for s in lines]
    after = game.system.rate([r.skill for r in before], [game.places[s.seat] for s in lines])
    for line, was, now in zip(lines, before, after, strict=True):
        if not _same(line.before, was.skill):
            out.problems.append(
                f"game {game.game_id}: seat {line.seat} started from {line.before.to_list()}, "
                f"but the games before it give {was.skill.to_list()}"
            )
        if not _same(line.after, now):
            out.problems.append(
                f"game {game.game_id}: seat {line.seat} ended at {line.after.to_list()}, "
                f"but the model gives {now.to_list()}"
            )
        out.ratings[(game.system.variant, line.player_id)] = was.after_game(now, game.ended_at)
    out.rated += 1


def _same(a: Skill, b: Skill) -> bool:
    return abs(a.mu - b.mu) <= TOLERANCE and abs(a.sigma - b.sigma) <= TOLERANCE
