"""Match a request to an HTTP API route the way API Gateway does, from the template's routes.

The local stack must not have a route table of its own: the routes come from template.yaml's
``HttpApi`` events, so a route the template forgot is a 404 locally as it would be on AWS. HTTP
API's rules, as documented: an exact path beats one with ``{param}``, which beats a greedy
``{proxy+}``; a route for the method beats ``ANY``; ``$default`` catches what nothing else does.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import unquote

_PARAM = re.compile(r"^\{([A-Za-z0-9_.-]+)(\+?)\}$")


@dataclass(frozen=True)
class Route:
    """One ``HttpApi`` event of one function: ``method path`` → the function's logical id."""

    method: str
    path: str
    function: str

    @property
    def route_key(self) -> str:
        """API Gateway's ``routeKey`` (``"GET /v1/games/{game_id}"`` or ``"$default"``)."""
        if self.path == "$default":
            return "$default"
        return f"{self.method.upper()} {self.path}"


@dataclass(frozen=True)
class Match:
    """A route chosen for a request, with the path parameters it bound (URL-decoded)."""

    route: Route
    path_parameters: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class _Compiled:
    route: Route
    segments: tuple[str, ...]
    rank: tuple[int, int, int, int]


def _segments(path: str) -> tuple[str, ...]:
    """The path's segments; empty ones are kept, so ``//`` or a trailing ``/`` never match."""
    return tuple(path.split("/")[1:]) if path != "/" else ()


def _rank(route: Route, segments: tuple[str, ...]) -> tuple[int, int, int, int]:
    """Lower sorts first: no greedy tail, more literal segments, longer, a specific method."""
    greedy = any(_PARAM.match(s) and s.endswith("+}") for s in segments)
    literals = sum(1 for s in segments if not _PARAM.match(s))
    any_method = route.method.upper() == "ANY"
    return (int(greedy), -literals, -len(segments), int(any_method))


class Router:
    """The routes of one HTTP API, ready to match concrete requests."""

    def __init__(self, routes: Iterable[Route]) -> None:
        compiled: list[_Compiled] = []
        self._default: Route | None = None
        for route in routes:
            if route.path == "$default":
                self._default = route
                continue
            segs = _segments(route.path)
            compiled.append(_Compiled(route, segs, _rank(route, segs)))
        self._routes = sorted(compiled, key=lambda c: c.rank)

    @property
    def routes(self) -> list[Route]:
        """Every route, the ``$default`` one last."""
        found = [c.route for c in self._routes]
        return [*found, self._default] if self._default else found

    @property
    def default(self) -> Route | None:
        """The ``$default`` route, if the API has one."""
        return self._default

    def match(self, method: str, path: str, *, fallback: bool = True) -> Match | None:
        """The route API Gateway would pick for ``method path``: a route for that method and
        path, else (with ``fallback``) the ``$default`` route, else None (API Gateway's 404)."""
        wanted = _segments(path)
        for candidate in self._routes:
            if candidate.route.method.upper() not in (method.upper(), "ANY"):
                continue
            params = _bind(candidate.segments, wanted)
            if params is not None:
                return Match(candidate.route, params)
        if fallback and self._default is not None:
            return Match(self._default, {})
        return None


def _bind(pattern: tuple[str, ...], wanted: tuple[str, ...]) -> dict[str, str] | None:
    params: dict[str, str] = {}
    for index, part in enumerate(pattern):
        found = _PARAM.match(part)
        if found and found.group(2) == "+":
            rest = wanted[index:]
            if not rest:
                return None
            params[found.group(1)] = unquote("/".join(rest))
            return params
        if index >= len(wanted):
            return None
        if found:
            if wanted[index] == "":
                return None
            params[found.group(1)] = unquote(wanted[index])
        elif part != wanted[index]:
            return None
    return params if len(pattern) == len(wanted) else None
