"""$default: every request no route of the API matches, answered in the API's error shape.

HTTP API sends a request that matches none of its routes to the ``$default`` route, which is
this function; without it API Gateway would answer ``404 {"message": "Not Found"}``, the one
error a client could meet outside problem details. So: a path the API has, asked with another
method, is ``405 method-not-allowed`` with ``Allow``; a bare ``OPTIONS`` on it is ``204`` with
``Allow`` (CORS preflights never get here: the gateway answers them); anything else is
``404 no-such-route``. The route table is ``ROUTES`` below, which a test holds equal to
template.yaml's routes (tests/service/api/test_no_route.py prints the table to paste when it is
not), so it cannot drift from what the gateway routes.

Deliberately light: no resolver, no AWS client, only the service layer's error shapes, because
whatever scans the internet for paths lands here.
"""

from __future__ import annotations

import json
from typing import Any

from mineduel_service.api.problems import PROBLEM_JSON, ApiError

MAX_ECHO = 200  # characters of a request's path repeated in an answer (its ``instance``)

ROUTES: dict[str, tuple[str, ...]] = {
    "/share/{game_id}": ("GET",),
    "/v1/avatars/{avatar_id}": ("GET",),
    "/v1/daily": ("GET",),
    "/v1/daily/play": ("POST",),
    "/v1/daily/{date}/table": ("GET",),
    "/v1/exports": ("GET",),
    "/v1/games": ("POST",),
    "/v1/games/{game_id}": ("DELETE", "GET"),
    "/v1/games/{game_id}/analysis": ("GET",),
    "/v1/games/{game_id}/decline": ("POST",),
    "/v1/games/{game_id}/join": ("POST",),
    "/v1/games/{game_id}/moves": ("GET", "POST"),
    "/v1/games/{game_id}/rematch": ("POST",),
    "/v1/games/{game_id}/resign": ("POST",),
    "/v1/games/{game_id}/spectators": ("DELETE",),
    "/v1/games/{game_id}/summary": ("GET",),
    "/v1/games/{game_id}/timeout": ("POST",),
    "/v1/games/{game_id}/verify": ("GET",),
    "/v1/guests": ("POST",),
    "/v1/leaderboards/{variant}": ("GET",),
    "/v1/lobby": ("GET",),
    "/v1/me": ("GET", "PUT"),
    "/v1/me/avatar": ("POST", "PUT"),
    "/v1/me/claim": ("POST",),
    "/v1/me/games": ("GET",),
    "/v1/me/invites": ("GET",),
    "/v1/me/push-subscriptions": ("GET", "POST"),
    "/v1/me/push-subscriptions/{subscription_id}": ("DELETE",),
    "/v1/moderation/cases": ("GET",),
    "/v1/moderation/cases/{case_id}": ("POST",),
    "/v1/players/{username}": ("GET",),
    "/v1/players/{username}/fair-play": ("GET",),
    "/v1/players/{username}/games": ("GET",),
    "/v1/players/{username}/games/export": ("GET",),
    "/v1/push/vapid-key": ("GET",),
    "/v1/seeks": ("GET", "POST"),
    "/v1/seeks/{seek_id}": ("DELETE", "GET"),
}
"""Every route of the API (template.yaml's ``HttpApi`` events but this one): path -> methods."""


def allowed_methods(path: str) -> list[str]:
    """The methods the API routes at ``path`` (with ``OPTIONS`` when it has any), sorted."""
    wanted = path.split("/")
    found = {
        method
        for template, methods in ROUTES.items()
        if _matches(template.split("/"), wanted)
        for method in methods
    }
    return sorted(found | {"OPTIONS"}) if found else []


def _matches(template: list[str], wanted: list[str]) -> bool:
    """Whether a route's path (``{name}`` a parameter) matches ``wanted``, segment by segment,
    as API Gateway matches: a parameter takes one non-empty segment."""
    if len(template) != len(wanted):
        return False
    return all(
        part == got or (part.startswith("{") and part.endswith("}") and got != "")
        for part, got in zip(template, wanted, strict=True)
    )


def answer(method: str, path: str) -> dict[str, Any]:
    """The payload-2.0 result for ``method path``, which no route matched."""
    allow = allowed_methods(path)
    if not allow:
        error = ApiError(
            404,
            "no-such-route",
            "Nothing is routed at this path: the API's routes are in its OpenAPI document.",
        )
        return _problem(error, path)
    if method == "OPTIONS":
        return {"statusCode": 204, "headers": {"Allow": ", ".join(allow)}, "body": ""}
    error = ApiError(
        405,
        "method-not-allowed",
        f"{method[:32]} is not a method of this path; it takes {', '.join(allow)}.",
        headers={"Allow": ", ".join(allow)},
    )
    return _problem(error, path)


def _problem(error: ApiError, path: str) -> dict[str, Any]:
    return {
        "statusCode": error.status,
        "headers": {"Content-Type": PROBLEM_JSON, **error.headers},
        "body": json.dumps(error.body(path[:MAX_ECHO]), separators=(",", ":")),
        "isBase64Encoded": False,
    }


def lambda_handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """Answer the request API Gateway could not route (``event`` in payload format 2.0)."""
    http = (event.get("requestContext") or {}).get("http") or {}
    method = str(http.get("method") or "GET").upper()
    path = str(event.get("rawPath") or http.get("path") or "/")
    return answer(method, path)
