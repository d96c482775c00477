"""Route matching: the template's routes, and API Gateway's precedence rules."""

from __future__ import annotations

import pytest

from mineduel.local.routing import Route, Router
from mineduel.template import load_template


@pytest.fixture(scope="module")
def router() -> Router:
    template = load_template()
    return Router(Route(r.method, r.path, fn.logical_id) for r, fn in template.routes())


@pytest.mark.parametrize(
    ("method", "path", "function"),
    [
        ("POST", "/v1/guests", "GuestsFunction"),
        ("POST", "/v1/games", "CreateGameFunction"),
        ("GET", "/v1/games/g-1", "GetGameFunction"),
        ("POST", "/v1/games/g-1/join", "JoinGameFunction"),
        ("POST", "/v1/games/g-1/moves", "CommitMoveFunction"),
        ("GET", "/v1/games/g-1/moves", "ListMovesFunction"),
        ("POST", "/v1/games/g-1/resign", "ResignFunction"),
        ("GET", "/v1/games/g-1/verify", "VerifyFunction"),
    ],
)
def test_every_template_route_reaches_its_function(
    router: Router, method: str, path: str, function: str
) -> None:
    match = router.match(method, path)
    assert match is not None
    assert match.route.function == function
    if "{game_id}" in match.route.path:
        assert match.path_parameters == {"game_id": "g-1"}


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/v1/games"),
        ("PATCH", "/v1/games/g-1"),
        ("GET", "/v1/games/g-1/moves/3"),
        ("GET", "/v1"),
        ("GET", "/v1/games//verify"),
    ],
)
def test_what_no_route_of_the_template_matches_goes_to_its_default_route(
    router: Router, method: str, path: str
) -> None:
    match = router.match(method, path)
    assert match is not None
    assert (match.route.route_key, match.route.function) == ("$default", "NoRouteFunction")
    assert match.path_parameters == {}
    assert router.match(method, path, fallback=False) is None


def test_precedence_literal_then_parameter_then_greedy_then_default() -> None:
    router = Router(
        [
            Route("ANY", "/{proxy+}", "Greedy"),
            Route("GET", "/v1/games/{game_id}", "One"),
            Route("GET", "/v1/games/stats", "Stats"),
            Route("ANY", "/v1/games/{game_id}", "AnyOne"),
            Route("ANY", "$default", "Default"),
        ]
    )

    def target(method: str, path: str) -> str:
        match = router.match(method, path)
        assert match is not None
        return match.route.function

    assert target("GET", "/v1/games/stats") == "Stats"
    assert target("GET", "/v1/games/g-9") == "One"
    assert target("POST", "/v1/games/g-9") == "AnyOne"
    assert target("POST", "/v1/x/y/z") == "Greedy"
    greedy = router.match("PUT", "/a/b%20c")
    assert greedy is not None
    assert greedy.path_parameters == {"proxy": "a/b c"}
    assert target("GET", "/") == "Default"
    assert router.routes[-1].route_key == "$default"
