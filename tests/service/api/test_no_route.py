"""The ``$default`` route's function: every request no other route matches gets problem details
(404 ``no-such-route``, or 405 ``method-not-allowed`` with ``Allow``), and its route table is
template.yaml's, so it cannot drift from what API Gateway routes."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from mineduel.template import load_handler_module, load_template

if TYPE_CHECKING:
    from conftest import Api

EVENTS = Path(__file__).resolve().parents[3] / "events"
FUNCTION = "NoRouteFunction"


def _routes_of_the_template() -> dict[str, tuple[str, ...]]:
    table: dict[str, set[str]] = {}
    for route, _ in load_template().routes():
        if route.path != "$default":
            table.setdefault(route.path, set()).add(route.method)
    return {path: tuple(sorted(table[path])) for path in sorted(table)}


def test_its_route_table_is_the_templates() -> None:
    module = load_handler_module(load_template().functions[FUNCTION])
    expected = _routes_of_the_template()
    lines = "\n".join(f"    {path!r}: {methods!r}," for path, methods in expected.items())
    assert expected == module.ROUTES, (
        "functions/no_route/app.py's ROUTES differs from template.yaml's routes; paste:\n"
        "ROUTES: dict[str, tuple[str, ...]] = {\n" + lines.replace("'", '"') + "\n}"
    )


def test_it_is_the_apis_default_route() -> None:
    [route] = load_template().functions[FUNCTION].routes
    assert (route.method, route.path) == ("ANY", "$default")


def _ask(api: Api, method: str, path: str) -> tuple[int, dict[str, str], Any]:
    event = copy.deepcopy(json.loads((EVENTS / "no_route.json").read_text()))
    event["rawPath"] = event["requestContext"]["http"]["path"] = path
    event["requestContext"]["http"]["method"] = method
    raw = api.invoker.invoke(FUNCTION, event)
    headers = {k.lower(): v for k, v in (raw.get("headers") or {}).items()}
    body = json.loads(raw["body"]) if raw.get("body") else None
    return int(raw["statusCode"]), headers, body


@pytest.mark.parametrize(
    "path", ["/", "/v1", "/v1/nothing", "/v1/games/x/moves/y", "/v1/games//join", "/v2/games"]
)
def test_a_path_nothing_is_routed_at_is_a_problem_details_404(api: Api, path: str) -> None:
    status, headers, body = _ask(api, "GET", path)
    assert status == 404
    assert headers["content-type"] == "application/problem+json"
    assert body["code"] == "no-such-route" and body["error"]["code"] == "no-such-route"
    assert body["type"] == "urn:mineduel:problem:no-such-route"
    assert (body["status"], body["instance"]) == (404, path)
    assert "allow" not in headers


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("GET", "/v1/games", "OPTIONS, POST"),
        ("PUT", "/v1/games/6f1c0d2e/moves", "GET, OPTIONS, POST"),
        ("PATCH", "/v1/games/x", "DELETE, GET, OPTIONS"),
        ("HEAD", "/v1/me", "GET, OPTIONS, PUT"),
        ("DELETE", "/share/x", "GET, OPTIONS"),
    ],
)
def test_a_path_with_other_methods_is_a_405_naming_them(
    api: Api, method: str, path: str, allow: str
) -> None:
    status, headers, body = _ask(api, method, path)
    assert status == 405
    assert headers["content-type"] == "application/problem+json"
    assert headers["allow"] == allow
    assert body["code"] == "method-not-allowed"
    assert method in body["detail"] and allow in body["detail"]


def test_a_bare_options_lists_the_methods(api: Api) -> None:
    status, headers, body = _ask(api, "OPTIONS", "/v1/games/x/moves")
    assert (status, headers["allow"], body) == (204, "GET, OPTIONS, POST", None)
    assert _ask(api, "OPTIONS", "/nowhere")[0] == 404


def test_a_long_path_is_not_echoed_whole(api: Api) -> None:
    status, _, body = _ask(api, "GET", "/x" * 5000)
    assert status == 404 and len(body["instance"]) <= 200
