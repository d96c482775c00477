"""Every response header the API sends beyond the content type, built here at the edge: how
long an answer may be cached, the share page's security policy, a redirect's target, the
export's paging links, and where a request came from (for the share page's absolute links).

The use cases return what they found (a page, a link, the next cursor); what HTTP makes of it
is decided here, so caching and paging rules are in one place. (``Retry-After`` of a refused
request comes with its problem, ``problems.problem_of``.)
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Mapping

from ..archive.exports import Filters, Page
from ..archive.share_page import SharePage

AVATAR_REDIRECT_CACHE_S = 600
"""How long a client or CDN may keep an avatar's redirect: less than the link's own life
(``people.avatars.LINK_S``), so a cached redirect always leads to a link that still works."""
SHARE_PAGE_CACHE_S = 300
VAPID_KEY_CACHE_S = 86400
"""The VAPID public key never changes in a stack's life: browsers and CDNs may keep it a day."""
VAPID_KEY_HEADERS = {"Cache-Control": f"public, max-age={VAPID_KEY_CACHE_S}"}
"""A finished game does not change, but names and avatars may: share pages are kept five
minutes."""
SHARE_SECURITY = {
    # No script, no frames, nothing loaded but the avatars (from wherever their links lead).
    "Content-Security-Policy": (
        "default-src 'none'; img-src * data:; style-src 'unsafe-inline'; base-uri 'none'; "
        "form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
}
SHARE_STATUS = {"game": 200, "no-game": 404, "not-finished": 409}
"""The share page answers as the JSON summary would be refused: 404 for no such game, 409 for
one not finished yet."""
_HOST = re.compile(r"^[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?$")


def avatar_redirect(location: str) -> dict[str, str]:
    """An avatar's redirect: where, and for how long it may be reused."""
    return {"Location": location, "Cache-Control": f"public, max-age={AVATAR_REDIRECT_CACHE_S}"}


def share_page(found: SharePage) -> tuple[int, dict[str, str]]:
    """The share page's status and headers: a game's page is cached a few minutes, a notice
    (no such game, not finished yet) never; every page gets the security policy."""
    caching = f"public, max-age={SHARE_PAGE_CACHE_S}" if found.shows == "game" else "no-store"
    return SHARE_STATUS[found.shows], {**SHARE_SECURITY, "Cache-Control": caching}


def origin(headers: Mapping[str, str], domain_name: str | None) -> str:
    """``scheme://host`` of the request, for the absolute URLs Open Graph needs: the host API
    Gateway was reached on, the scheme it reports (``X-Forwarded-Proto``). Empty when there is
    no plausible host, and then links stay relative."""
    lowered = {k.lower(): v for k, v in headers.items()}
    proto = (lowered.get("x-forwarded-proto") or "https").split(",")[0].strip().lower()
    scheme = proto if proto in ("http", "https") else "https"
    for host in (domain_name, lowered.get("host")):
        if host and _HOST.fullmatch(host):
            return f"{scheme}://{host}"
    return ""


def export_page(username: str, wanted: Filters, page: Page, limit: int) -> dict[str, str]:
    """A player export page's headers: how many games it holds and, when more follow, the next
    page's cursor (``X-Next-Cursor``) and link (``Link``, ``rel="next"``, filters kept)."""
    found = {"X-Games": str(page.games)}
    if page.next is not None:
        found["X-Next-Cursor"] = page.next
        found["Link"] = next_link(username, wanted, page.next, limit)
    return found


def next_link(username: str, wanted: Filters, cursor: str, limit: int) -> str:
    """The ``Link`` header of a page with a next one."""
    query = urllib.parse.urlencode({**wanted.query(), "limit": str(limit), "cursor": cursor})
    path = f"/v1/players/{urllib.parse.quote(username)}/games/export?{query}"
    return f'<{path}>; rel="next"'
