"""The moderators' review: ``GET /v1/moderation/cases`` and ``POST
/v1/moderation/cases/{case_id}`` (Cognito group ``moderators``; docs/fair-play.md).

Screening never punishes: it opens a case, and a moderator decides. A decision is one
transaction: the case (its status and last decision, conditioned on the version read), a new
log item of the decision (kept for good), the player's fair-play record, the player's profile
(``restricted``, conditioned on its version) and each of the player's rating items (their
leaderboard copy: off while restricted, else the player's own setting again). So a
restriction takes the player off every leaderboard from the next snapshot (five minutes at
most) and out of rated pairing at once; their open rated seeks are cancelled right after.
A case may be decided again (an appeal): every decision is logged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..contract.fairplay import DecisionRequest
from ..pairing.store import cancel_rated_seeks
from ..people.profiles import Profile, new_profile
from ..people.store import parse_profile, profile_put
from ..platform import auth, clock, pagination
from ..platform.observability import count, logger
from ..ratings.model import RATED_VARIANTS, PlayerRating
from ..ratings.store import listing_update, parse_rating
from . import store
from .errors import BadCaseStatus, CaseNotFound
from .moderators import moderator
from .views import case_view

ATTEMPTS = 4
STATUSES = ("open", "cleared", "restricted")


def list_cases(caller: auth.Caller, status: str, cursor: str | None, limit: int) -> dict[str, Any]:
    """A page of cases, newest first: ``open`` ones (the default), another status, or
    ``all``."""
    moderator(caller)
    if status != "all" and status not in STATUSES:
        raise BadCaseStatus()
    kind = f"cases-{status}"
    start = pagination.dynamo_key(pagination.decode(kind, cursor))
    found, last = store.case_page(None if status == "all" else status, start, limit)
    position = pagination.key_position(last)
    return {
        "cases": [case_view(case) for case in found],
        "next": None if position is None else pagination.encode(kind, position),
    }


@dataclass(frozen=True)
class _Player:
    """What a decision rewrites about the player, as read."""

    profile: Profile | None
    record: store.FairPlayRecord
    ratings: list[PlayerRating]
    moderator_name: str


def _read(player_id: str, moderator_id: str) -> _Player:
    """The player's profile, record and rating items, and the moderator's profile (their
    name for the log): one consistent ``BatchGetItem``."""
    found = store.decision_items(player_id, moderator_id, RATED_VARIANTS)
    moderator_profile = found.moderator_profile
    return _Player(
        parse_profile(player_id, found.profile) if found.profile else None,
        found.record,
        [parse_rating(item) for item in found.ratings],
        (
            parse_profile(moderator_id, moderator_profile).display_name
            if moderator_profile
            else moderator_id
        ),
    )


def decide(caller: auth.Caller, case_id: str, request: DecisionRequest) -> dict[str, Any]:
    """Clear or restrict the case's player; the case as it then stands."""
    moderator(caller)
    restrict = request.decision == "restrict"

    def attempt() -> dict[str, Any]:
        now = clock.now()
        at = clock.iso(now)
        case = store.get_case(case_id) if len(case_id) <= 64 else None
        if case is None:
            raise CaseNotFound()
        player = _read(case.player_id, caller.player_id)
        profile = player.profile or new_profile(case.player_id, "account")
        changed = profile.evolve(restricted=restrict, version=profile.version + 1)
        record = player.record.evolve(
            status="restricted" if restrict else "clear",
            case_id=case.case_id,
            reviewed_at=at,
            version=player.record.version + 1,
        )
        decided = case.evolve(
            status="restricted" if restrict else "cleared",
            decided_at=at,
            decided_by=player.moderator_name,
            note=request.note or None,
            decisions=case.decisions + 1,
            version=case.version + 1,
        )
        items = [
            store.case_put(decided, case),
            store.decision_put(
                case, request.decision, request.note, caller.player_id, player.moderator_name, at
            ),
            store.record_put(record, player.record, now),
            profile_put(changed, player.profile),
            *(listing_update(r, changed.username, changed.listed, now) for r in player.ratings),
        ]
        store.write_together(items)
        return case_view(decided)

    answer = store.until_written(attempt, ATTEMPTS)
    count("FairPlayDecisions")
    logger.info("fair-play decision", extra={"case_id": case_id, "decision": request.decision})
    if restrict:
        cancel_rated_seeks(str(answer["player_id"]), RATED_VARIANTS)
    return answer
