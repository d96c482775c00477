"""``GET /share/{game_id}``: a finished game as a page to share, rendered on the server.

The page says who played (names and avatars), how it ended and the score (mines per seat), how it
played out (length, time, lead changes, each seat's longest run) and links the verification
document, so anybody can check the game. Its Open Graph and Twitter card tags make a link to it
preview well in chat apps: title and description say who won and how, and the image is the
winner's avatar (or another seat's) when there is one. An unknown game gets a page that says
there is no such game, a game not finished yet one that says so (the edge answers them as the
JSON summary would be refused, with their caching and security headers: ``api.headers``).

Everything shown comes from the summary of a finished game (``summaries``), which is public, and
every value is escaped where it is put in: usernames are user input.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any, Literal

from ..games import store
from ..games.current import current
from ..games.errors import GameNotFound
from ..games.record import GameRecord
from ..platform.clock import parse_iso
from ..platform.config import get_config
from ..platform.observability import logger
from . import share_chart, stored_analyses
from .share_html import (
    ANALYSIS,
    ANALYSIS_LATER,
    AVATAR_IMAGE,
    AVATAR_LETTER,
    IMAGE_TAGS,
    NOINDEX,
    NOTICE_BODY,
    PAGE,
    SEAT,
    SHARE_BODY,
    SHARE_HEAD,
    STYLE,
)
from .summaries import summarize

CONTENT_TYPE = "text/html; charset=utf-8"
_ORDINALS = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}
_REASONS = {
    "reach": "Out of reach: the others could not catch up with the mines left.",
    "field-done": "Every mine was found.",
    "resign": "Ended by resignation.",
    "timeout": "Ended on time: a move deadline passed.",
}
_SHORT_REASONS = {
    "reach": "out of reach",
    "field-done": "every mine found",
    "resign": "by resignation",
    "timeout": "on time",
}
_NOT_FINISHED = {
    "waiting": ("This game has not started yet", "Its page fills in once it has been played."),
    "active": ("This game is still being played", "Its page fills in when it ends."),
    "cancelled": ("This game was cancelled", "It ended before it was played: nothing to show."),
}


Shows = Literal["game", "no-game", "not-finished"]


@dataclass(frozen=True)
class SharePage:
    """What the share route shows: the page, and whether it is the game's or a notice that
    there is no such game or that it is not finished (answered differently at the edge)."""

    shows: Shows
    html: str


def text(value: Any) -> str:
    """``value`` escaped for HTML text and quoted attribute values alike."""
    return html.escape(str(value), quote=True)


def page(game_id: str, base: str) -> SharePage:
    """The share page of ``game_id``, or the page that says why there is none."""
    try:
        record = current(game_id)
    except GameNotFound:
        return SharePage(
            "no-game",
            notice(
                "No such game",
                "There is no MineDuel game at this address; check the link you were given.",
            ),
        )
    if record.status != "finished":
        headline, message = _NOT_FINISHED[record.status]
        return SharePage("not-finished", notice(headline, message))
    summary = summarize(record, store.list_moves(game_id))
    return SharePage("game", render(record, summary, base, analysis_of(record)))


def notice(headline: str, message: str) -> str:
    """A page that only says something (no game to show), kept out of search indexes."""
    body = NOTICE_BODY.substitute(headline=text(headline), message=text(message))
    document = PAGE.substitute(
        title=text(headline),
        description=text(message),
        head=NOINDEX,
        style=STYLE,
        body=body,
    )
    return document


def analysis_of(record: GameRecord) -> dict[str, Any] | None:
    """The game's analysis for the chart (stored, or computed and stored now); None while a
    daily game's day runs, or if it cannot be had (the page is shown without it)."""
    try:
        return stored_analyses.stored_or_computed(record)
    except Exception as exc:
        logger.warning(
            "no analysis for the share page",
            extra={"game_id": record.game_id, "error": type(exc).__name__},
        )
        return None


def _analysis_section(
    record: GameRecord, summary: dict[str, Any], found: dict[str, Any] | None
) -> str:
    if found is None:
        message = (
            f"This daily game's analysis comes when {record.daily} is over."
            if record.daily and record.seed_hex is None
            else "The analysis of this game is not available right now."
        )
        return ANALYSIS_LATER.substitute(message=text(message))
    names = [str(seat["name"]) for seat in summary["seats"]]
    return ANALYSIS.substitute(
        link=text(f"/v1/games/{record.game_id}/analysis"),
        chart=share_chart.chart(found, names),
    )


def render(
    record: GameRecord,
    summary: dict[str, Any],
    base: str,
    analysis: dict[str, Any] | None = None,
) -> str:
    """The page of a finished game from its summary (and its analysis, for the luck chart);
    ``base`` is ``scheme://host`` or empty."""
    seats = summary["seats"]
    result = summary["result"] or {"reason": "reach", "winner": None, "places": []}
    headline = headline_of(seats, result.get("winner"))
    scores = ", ".join(f"{s['name']} {s['mines']}" for s in seats)
    description = (
        f"{headline}, {_SHORT_REASONS.get(result['reason'], result['reason'])}: {scores}. "
        f"{_count(summary['moves'], 'move')}, {_count(summary['lead_changes'], 'lead change')}."
    )
    url = f"{base}/share/{record.game_id}"
    verify = f"/v1/games/{record.game_id}/verify"
    app = get_config().web_app_url  # the web client; empty: served from this same origin
    image = _image_tags(seats, result.get("winner"), base)
    head = SHARE_HEAD.substitute(
        url=text(url), title=text(headline), description=text(description), image=image
    )
    body = SHARE_BODY.substitute(
        headline=text(headline),
        outcome=text(_REASONS.get(result["reason"], "The game is over.")),
        seats="\n".join(_seat(s, result.get("winner")) for s in seats),
        moves=text(_count(summary["moves"], "move")),
        duration=text(duration(summary["created_at"], summary["ended_at"])),
        lead_changes=text(summary["lead_changes"]),
        analysis=_analysis_section(record, summary, analysis),
        board=text(
            f"{record.settings.width} × {record.settings.height} board with "
            f"{_count(record.settings.mines, 'mine')}"
        ),
        verify=text(verify),
        verify_absolute=text(f"{base}{verify}" if base else verify),
        replay=text(f"{app}/#/replay/{record.game_id}"),
        play=text(f"{app}/#/"),
        ended=text(_day(summary["ended_at"])),
    )
    return PAGE.substitute(
        title=text(headline),
        description=text(description),
        head=head,
        style=STYLE,
        body=body,
    )


def headline_of(seats: list[dict[str, Any]], winner: int | None) -> str:
    """Who won: ``alice beat bob``, ``alice won`` (3 or 4 seats), or who shared first place."""
    names = [str(s["name"]) for s in seats]
    if winner is not None:
        others = [n for i, n in enumerate(names) if i != winner]
        if len(others) == 1:
            return f"{names[winner]} beat {others[0]}"
        return f"{names[winner]} won against {_listed(others)}"
    firsts = [str(s["name"]) for s in seats if s.get("place") == 1]
    return f"Draw: {_listed(firsts or names)} share first place"


def duration(start: str | None, end: str | None) -> str:
    """How long the game took, roughly (``4 min 12 s``, ``3 h 5 min``, ``2 d 4 h``)."""
    if not start or not end:
        return "unknown"
    seconds = max(0, int((parse_iso(end) - parse_iso(start)).total_seconds()))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h"
    if hours:
        return f"{hours} h {minutes} min"
    if minutes:
        return f"{minutes} min {secs} s"
    return f"{secs} s"


def _seat(seat: dict[str, Any], winner: int | None) -> str:
    name = str(seat["name"])
    place = seat.get("place")
    if place == 1:
        label = "Winner" if winner == seat["seat"] else "1st, shared"
    else:
        label = _ORDINALS.get(place or 0, "")
    if seat.get("avatar_url"):
        avatar = AVATAR_IMAGE.substitute(src=text(seat["avatar_url"]))
    else:
        avatar = AVATAR_LETTER.substitute(letter=text((name[:1] or "?").upper()))
    return SEAT.substitute(
        first=" first" if place == 1 else "",
        avatar=avatar,
        name=text(name),
        place=text(label),
        mines=text(_count(seat["mines"], "mine")),
        run=text(f"Longest run: {seat['longest_run']} in a row"),
    )


def _image_tags(seats: list[dict[str, Any]], winner: int | None, base: str) -> str:
    """og:image and twitter:image: the winner's avatar, else the first seat's that has one;
    nothing when nobody has one (a preview without an image beats a generic picture)."""
    ordered = sorted(seats, key=lambda s: s["seat"] != winner)
    chosen = next((s for s in ordered if s.get("avatar_url")), None)
    if chosen is None or not base:
        return ""
    return IMAGE_TAGS.substitute(
        image=text(f"{base}{chosen['avatar_url']}"), alt=text(f"{chosen['name']}'s avatar")
    )


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _day(moment: str | None) -> str:
    return f"on {parse_iso(moment):%d %b %Y}" if moment else ""
