"""One OpenAPI document for the whole API, built from the handlers' own resolvers.

Each function validates its requests with a Powertools resolver and pydantic models; those
resolvers can describe themselves, so the document is generated from exactly what the code
validates with and cannot drift from it. Only the routes template.yaml gives API Gateway are
kept (a route the template does not expose is not part of the API), and the per-function
documents are merged: paths side by side, schemas by name (the same name must mean the same
schema everywhere, or generation fails). ``docs/openapi.json`` is this output, committed;
regenerate it with ``python -m mineduel.local.openapi > docs/openapi.json``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from types import ModuleType
from typing import Any

from aws_lambda_powertools.event_handler.api_gateway import ApiGatewayResolver

from .environments import load_handler_module
from .template import FunctionSpec, Template, load_template

TITLE = "MineDuel API"
VERSION = "v1"
DESCRIPTION = (
    "Competitive, turn-based, provably fair minesweeper. This document is generated from the "
    "models the handlers validate with. Authenticate with `Authorization: Bearer <token>` (a "
    "guest token from `POST /v1/guests`, or a Cognito token). Bodies are JSON objects. An "
    "integer is a JSON number without a fraction: `37` or `37.0` (the same number in JSON), "
    'never `37.5`, `true` or `"37"` (422). Every route may answer 429: API Gateway\'s throttle, '
    '`{"message": "Too Many Requests"}`.'
)
BEARER = {"bearer": {"type": "http", "scheme": "bearer", "description": "Guest or Cognito token."}}
_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
DEFAULT_ROUTE = "$default"  # HTTP API's catch-all route: not an operation of the API


class OpenApiConflict(Exception):
    """Two functions describe the same operation or schema name differently."""


def resolver_of(module: ModuleType) -> ApiGatewayResolver:
    """The Powertools resolver a handler module routes with (its one module-level resolver)."""
    found = [v for v in vars(module).values() if isinstance(v, ApiGatewayResolver)]
    if len(found) != 1:
        raise OpenApiConflict(f"{module.__name__}: expected one resolver, found {len(found)}")
    return found[0]


def function_document(module: ModuleType) -> dict[str, Any]:
    """One function's own OpenAPI document, as plain JSON data."""
    schema = resolver_of(module).get_openapi_schema(title=TITLE, version=VERSION)
    document: dict[str, Any] = schema.model_dump(mode="json", by_alias=True, exclude_none=True)
    return document


def merge(
    parts: Iterable[tuple[str, dict[str, Any]]], routes: set[tuple[str, str]]
) -> dict[str, Any]:
    """Merge per-function documents, keeping only ``routes`` (``(method, path)``, lower-case)."""
    paths: dict[str, dict[str, Any]] = {}
    schemas: dict[str, Any] = {}
    schemes: dict[str, Any] = dict(BEARER)
    openapi = "3.1.0"
    for function, document in parts:
        openapi = document.get("openapi", openapi)
        for path, item in document.get("paths", {}).items():
            for method, operation in item.items():
                if method not in _METHODS or (method, path) not in routes:
                    continue
                target = paths.setdefault(path, {})
                if method in target:
                    raise OpenApiConflict(f"{method.upper()} {path}: described twice ({function})")
                target[method] = operation
        components = document.get("components", {})
        _merge_named(schemas, components.get("schemas", {}), function, "schema")
        _merge_named(schemes, components.get("securitySchemes", {}), function, "security scheme")
    return {
        "openapi": openapi,
        "info": {"title": TITLE, "version": VERSION, "description": DESCRIPTION},
        "servers": [{"url": "/"}],
        "security": [{"bearer": []}, {}],
        "paths": {path: dict(sorted(paths[path].items())) for path in sorted(paths)},
        "components": {
            "schemas": dict(sorted(schemas.items())),
            "securitySchemes": dict(sorted(schemes.items())),
        },
    }


def _merge_named(into: dict[str, Any], new: dict[str, Any], function: str, kind: str) -> None:
    for name, value in new.items():
        if name in into and into[name] != value:
            raise OpenApiConflict(f"{kind} {name!r} differs in {function}")
        into[name] = value


def build(template: Template, load: Any = None) -> dict[str, Any]:
    """The whole API's document from ``template``'s routed functions.

    ``load(spec) -> module`` loads a function's handler module; by default a fresh private copy.
    """
    loader = load or load_handler_module
    routed: list[FunctionSpec] = [
        fn for fn in template.functions.values() if any(r.path != DEFAULT_ROUTE for r in fn.routes)
    ]
    routes = {(r.method.lower(), r.path) for fn in routed for r in fn.routes}
    parts = [(fn.logical_id, function_document(loader(fn))) for fn in routed]
    return merge(parts, routes)


_BOUNDS = frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"})


def _whole_bounds(node: Any) -> Any:
    """Bounds written as the integers they are (Powertools' models hold them as floats: 63.0)."""
    if isinstance(node, dict):
        return {
            key: int(value)
            if key in _BOUNDS and isinstance(value, float) and value.is_integer()
            else _whole_bounds(value)
            for key, value in node.items()
        }
    if isinstance(node, list):
        return [_whole_bounds(value) for value in node]
    return node


def render(document: dict[str, Any]) -> str:
    """The committed text form: two-space indented JSON, trailing newline."""
    return json.dumps(_whole_bounds(document), indent=2, ensure_ascii=False) + "\n"


def main() -> None:
    """Print the document for the repository's template.yaml (``> docs/openapi.json``)."""
    sys.stdout.write(render(build(load_template())))


if __name__ == "__main__":
    main()
