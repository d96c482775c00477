"""One OpenAPI document for the whole API, built from the handlers' own resolvers.

Each function validates its requests with a Powertools resolver and pydantic models; those
resolvers can describe themselves, so the document is generated from exactly what the code
validates with and cannot drift from it. Each route's decorator gives its operation id, tag,
security, and the statuses and headers it answers with. Only the routes template.yaml gives
API Gateway are kept (a route the template does not expose is not part of the API; neither is
the ``$default`` catch-all), and the per-function documents are merged: paths side by side,
schemas by name (the same name must mean the same schema everywhere, or generation fails).

Then the document is finished for its readers: the 500 is documented as the functions really
answer it (Powertools puts its own response-validation schema there, which they never send),
every request body and answer gets the examples of ``mineduel.openapi.examples`` (so Swagger
UI's "Try it out" works as it stands), and schemas nothing refers to are dropped.
``docs/openapi.json`` is this output, committed; regenerate it with ``make openapi`` (which
replaces the file only once the whole document is built).
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from aws_lambda_powertools.event_handler.api_gateway import ApiGatewayResolver
from aws_lambda_powertools.event_handler.openapi.models import HTTPBearer
from mineduel_service.api.problems import PROBLEM_JSON

from mineduel.template import FunctionSpec, Template, load_handler_module, load_template

from . import examples

TITLE = "MineDuel API"
VERSION = "v1"
DESCRIPTION = (
    "Competitive, turn-based, provably fair minesweeper. This document is generated from the "
    "models the handlers validate with; the contract in words (conventions, the game's rules, "
    "errors, pagination, caching, retries) is the project's `docs/api.md`.\n\n"
    "Authenticate with `Authorization: Bearer <token>`: a guest token from `POST /v1/guests` "
    "(plays the bot only), or an account's Cognito access token. Routes marked with a lock "
    "need one; the others are public. Bodies are JSON objects sent as `application/json`. An "
    "integer is a JSON number without a fraction: `37` or `37.0` (the same number in JSON), "
    'never `37.5`, `true` or `"37"` (422).\n\n'
    "Every error is an RFC 9457 problem details body (`application/problem+json`) with a "
    "kebab-case `code`, except two answers API Gateway gives before any function runs: a "
    'throttled request\'s `429 {"message": "Too Many Requests"}` and an over-10-MB body\'s '
    '`413 {"message": "Request Entity Too Large"}`.'
)
SCHEME = "bearer"
SECURITY_SCHEMES = {
    SCHEME: HTTPBearer(
        description="A guest token (`POST /v1/guests`) or an account's Cognito access token."
    )
}
TAGS = [
    {"name": "games", "description": "Create, join, read, leave and end games."},
    {"name": "moves", "description": "Commit moves and read a game's move log."},
    {
        "name": "verification",
        "description": "The self-contained document that proves a finished game fair.",
    },
    {
        "name": "analysis",
        "description": "Luck against skill in a finished game, move by move and seat by seat.",
    },
    {"name": "accounts", "description": "Guests, the caller's profile, games and invitations."},
    {"name": "players", "description": "Other players' public profiles and finished games."},
    {"name": "lobby", "description": "Waiting games anybody may join."},
    {"name": "leaderboards", "description": "Each rated variant's best players."},
    {
        "name": "daily",
        "description": "The daily duel: one field a day for everyone, against the hard bot.",
    },
    {
        "name": "exports",
        "description": "Finished games' Verification documents in bulk (NDJSON): a player's, "
        "and every month's.",
    },
    {"name": "avatars", "description": "Players' pictures: upload, check, show."},
    {
        "name": "notifications",
        "description": "Web Push and mobile push: the VAPID key, a player's browsers and devices "
        "(which kinds reach them: PUT /v1/me's settings.notify).",
    },
    {"name": "sharing", "description": "A finished game's page for people and link previews."},
    {
        "name": "pairing",
        "description": "Quick pairing: seek a game, and be paired with someone who wants the same.",
    },
    {
        "name": "fair-play",
        "description": "Rated games screened for engine assistance; players' records and the "
        "moderators' review.",
    },
]
DEFAULT_ROUTE = "$default"  # HTTP API's catch-all route: not an operation of the API
_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
_SCHEMAS = "#/components/schemas/"


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
    schema = resolver_of(module).get_openapi_schema(
        title=TITLE, version=VERSION, security_schemes=dict(SECURITY_SCHEMES)
    )
    document: dict[str, Any] = schema.model_dump(mode="json", by_alias=True, exclude_none=True)
    return document


def merge(
    parts: Iterable[tuple[str, dict[str, Any]]], routes: set[tuple[str, str]]
) -> dict[str, Any]:
    """Merge per-function documents, keeping only ``routes`` (``(method, path)``, lower-case)."""
    paths: dict[str, dict[str, Any]] = {}
    schemas: dict[str, Any] = {}
    schemes: dict[str, Any] = {
        name: scheme.model_dump(mode="json", by_alias=True, exclude_none=True)
        for name, scheme in SECURITY_SCHEMES.items()
    }
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
        "tags": copy.deepcopy(TAGS),
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
    return finish(merge(parts, routes))


def operations(document: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Every ``(method, path, operation)`` of the document."""
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method in _METHODS:
                yield method, path, operation


def finish(document: dict[str, Any]) -> dict[str, Any]:
    """The merged document made ready for readers: the real 500, examples, headers named as
    they are written, answers in status order, no unused schemas."""
    for _, _, operation in operations(document):
        operation["responses"]["500"] = internal_error()
        operation["responses"] = dict(sorted(operation["responses"].items()))
        for parameter in operation.get("parameters", []):
            _header_name(parameter)
        _add_examples(operation)
    document["components"]["schemas"] = _used_schemas(document)
    return document


def _header_name(parameter: dict[str, Any]) -> None:
    """A header parameter named as the handler spells it (``Idempotency-Key``): Powertools
    lower-cases the name it matches on, and the title keeps the original (header names are
    case-insensitive either way)."""
    title = parameter.get("schema", {}).get("title")
    named = parameter.get("in") == "header" and isinstance(title, str)
    if named and title.lower() == parameter["name"]:
        parameter["name"] = title


def internal_error() -> dict[str, Any]:
    """The 500 as it really comes: a function's problem details (``internal-error``, nothing
    about the game said), or API Gateway's own ``{"message"}`` when a function could not answer
    at all (it crashed or timed out)."""
    return {
        "description": "Something went wrong on the server's side; nothing about the game is "
        "said. Retry later (a commit with its `Idempotency-Key`, which never plays twice).",
        "content": {
            PROBLEM_JSON: {"schema": {"$ref": f"{_SCHEMAS}ErrorOut"}},
            "application/json": {"schema": {"$ref": f"{_SCHEMAS}GatewayMessageOut"}},
        },
    }


def _add_examples(operation: dict[str, Any]) -> None:
    operation_id = operation["operationId"]
    body = operation.get("requestBody")
    if body is not None:
        for media in body["content"].values():
            name = _schema_name(media["schema"])
            media["examples"] = examples.request(operation_id, name)
    for status, answer in operation["responses"].items():
        for media_type, media in answer.get("content", {}).items():
            name = _schema_name(media.get("schema", {}))
            media["examples"] = examples.response(operation_id, int(status), media_type, name)


def _schema_name(schema: dict[str, Any]) -> str | None:
    """The component a media type's schema names (directly, or as the one non-null ``anyOf``
    branch of an optional body); None for an inline schema."""
    ref = schema.get("$ref")
    if isinstance(ref, str):
        return ref.removeprefix(_SCHEMAS)
    branches = [b for b in schema.get("anyOf", []) if b.get("type") != "null"]
    if len(branches) == 1:
        return _schema_name(branches[0])
    return None


def _used_schemas(document: dict[str, Any]) -> dict[str, Any]:
    """The component schemas the paths refer to, directly or through other schemas."""
    schemas: dict[str, Any] = document["components"]["schemas"]
    wanted = list(_refs(document["paths"]))
    used: set[str] = set()
    while wanted:
        name = wanted.pop()
        if name in used or name not in schemas:
            continue
        used.add(name)
        wanted.extend(_refs(schemas[name]))
    return {name: schema for name, schema in schemas.items() if name in used}


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and value.startswith(_SCHEMAS):
                yield value.removeprefix(_SCHEMAS)
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


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


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` all at once: into a temporary file beside it, then renamed over
    it. A generation that fails (a route without examples, a schema conflict) raises before
    anything is written, and a crash half way leaves only the temporary file behind, so the
    committed document is never emptied or cut short."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        # mkstemp makes the file private (0600); keep the mode the document had.
        os.chmod(temporary, path.stat().st_mode & 0o777 if path.exists() else 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def main(argv: list[str] | None = None) -> None:
    """Write the document for the repository's template.yaml to ``--output`` (atomically), or
    print it when no file is named."""
    parser = argparse.ArgumentParser(prog="python -m mineduel.openapi")
    parser.add_argument("--output", type=Path, help="the file to (re)write, e.g. docs/openapi.json")
    args = parser.parse_args(argv)
    text = render(build(load_template()))
    if args.output is None:
        sys.stdout.write(text)
    else:
        write_atomically(args.output, text)


if __name__ == "__main__":
    main()
