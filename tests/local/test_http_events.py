"""The local stack's HTTP ↔ payload-2.0 translation, checked against Powertools' own resolver.

A resolver written the way the handlers are written consumes the events the local stack builds
and its responses come back as HTTP; if the event shape were off (headers, cookies, query,
path parameters, body encoding), the resolver would route or parse it wrongly here.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response
from aws_lambda_powertools.event_handler.api_gateway import CORSConfig
from aws_lambda_powertools.utilities.data_classes import APIGatewayProxyEventV2

from mineduel.local.http_events import HttpRequest, from_result, to_event
from mineduel.local.routing import Route, Router

app = APIGatewayHttpResolver(enable_validation=True)


@app.post("/v1/games/<game_id>/moves")
def echo(game_id: str) -> Response[Any]:
    event = app.current_event
    return Response(
        status_code=201,
        content_type="application/json",
        body=json.dumps(
            {
                "game_id": game_id,
                "after": event.get_query_string_value("after"),
                "tag": event.get_query_string_value("tag"),
                "auth": event.headers.get("authorization"),
                "cookies": event.cookies,
                "json": event.json_body,
                "route_key": event.route_key,
                "method": event.request_context.http.method,
                "source_ip": event.request_context.http.source_ip,
            }
        ),
        headers={"ETag": '"abc"'},
        cookies=[],
    )


binary_app = APIGatewayHttpResolver()


@binary_app.get("/v1/blob")
def blob() -> Response[bytes]:
    return Response(status_code=200, content_type="image/png", body=b"\x89PNG\x00\xff")


ROUTER = Router(
    [
        Route("POST", "/v1/games/{game_id}/moves", "Echo"),
        Route("GET", "/v1/blob", "Blob"),
    ]
)


def _call(request: HttpRequest) -> tuple[dict[str, Any], Any]:
    match = ROUTER.match(request.method, request.path)
    assert match is not None
    event = to_event(request, match)
    resolver = binary_app if match.route.function == "Blob" else app
    return event, from_result(resolver.resolve(event, {}))  # type: ignore[arg-type]


def test_a_request_reaches_a_resolver_as_api_gateway_would_send_it() -> None:
    body = json.dumps({"row": 3, "col": 7}).encode()
    request = HttpRequest(
        method="POST",
        path="/v1/games/g-1/moves",
        query="after=2&tag=a&tag=b",
        headers=[
            ("Host", "127.0.0.1:3000"),
            ("Authorization", "Bearer t0k"),
            ("Content-Type", "application/json"),
            ("Cookie", "a=1; b=2"),
            ("X-Dup", "one"),
            ("X-Dup", "two"),
        ],
        body=body,
        source_ip="127.0.0.9",
    )
    event, response = _call(request)
    parsed = APIGatewayProxyEventV2(event)
    assert parsed.path_parameters == {"game_id": "g-1"}
    assert parsed.raw_query_string == "after=2&tag=a&tag=b"
    assert event["headers"]["x-dup"] == "one,two"
    assert "cookie" not in event["headers"]
    assert event["isBase64Encoded"] is False

    assert response.status == 201
    answer = json.loads(response.body)
    assert answer == {
        "game_id": "g-1",
        "after": "2",
        "tag": "a,b",
        "auth": "Bearer t0k",
        "cookies": ["a=1", "b=2"],
        "json": {"row": 3, "col": 7},
        "route_key": "POST /v1/games/{game_id}/moves",
        "method": "POST",
        "source_ip": "127.0.0.9",
    }
    assert ("ETag", '"abc"') in response.headers


def test_binary_bodies_travel_base64_both_ways() -> None:
    event, response = _call(
        HttpRequest("GET", "/v1/blob", headers=[("content-type", "application/octet-stream")])
    )
    assert "body" not in event
    assert response.body == b"\x89PNG\x00\xff"

    request = HttpRequest(
        "POST",
        "/v1/games/x/moves",
        headers=[("content-type", "application/octet-stream")],
        body=b"\x00\x01",
    )
    match = ROUTER.match("POST", request.path)
    assert match is not None
    event = to_event(request, match)
    assert event["isBase64Encoded"] is True
    assert base64.b64decode(event["body"]) == b"\x00\x01"


def test_a_result_without_status_code_is_a_200_json_body() -> None:
    response = from_result({"hello": "world"})
    assert response.status == 200
    assert json.loads(response.body) == {"hello": "world"}
    assert ("content-type", "application/json") in response.headers


def test_cookies_and_multi_value_headers_become_repeated_headers() -> None:
    response = from_result(
        {
            "statusCode": 204,
            "headers": {"X-One": "1"},
            "multiValueHeaders": {"X-Two": ["a", "b"], "x-one": ["ignored"]},
            "cookies": ["s=1; Path=/", "t=2"],
        }
    )
    assert response.status == 204
    assert response.body == b""
    assert response.headers == [
        ("X-One", "1"),
        ("X-Two", "a"),
        ("X-Two", "b"),
        ("set-cookie", "s=1; Path=/"),
        ("set-cookie", "t=2"),
    ]


def test_cors_preflight_headers_from_powertools_survive() -> None:
    cors_app = APIGatewayHttpResolver(cors=CORSConfig(allow_origin="*"))

    @cors_app.get("/v1/x")
    def x() -> dict[str, str]:
        return {"ok": "yes"}

    match = Router([Route("GET", "/v1/x", "X")]).match("GET", "/v1/x")
    assert match is not None
    event = to_event(HttpRequest("GET", "/v1/x", headers=[("Origin", "http://a.test")]), match)
    response = from_result(cors_app.resolve(event, {}))  # type: ignore[arg-type]
    assert response.status == 200
    assert dict(response.headers)["Access-Control-Allow-Origin"] == "*"
