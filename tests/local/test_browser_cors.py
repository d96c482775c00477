"""The local stack owns the web client's CORS contract with the embedded AWS (``browser_cors``):
a browser's preflight of a Cognito call is answered by the stack for the web client's origin,
whatever the installed moto would answer (moto 5.2.6 answers every preflight with a 500), and
a page on that origin signs up and signs in from Chromium.
"""

from __future__ import annotations

import http.client
import json
from typing import Any
from urllib.parse import urlsplit

import pytest
from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
from playwright.sync_api import Browser
from werkzeug.serving import make_server

from mineduel.local.browser_cors import ALLOW_HEADERS
from mineduel.local.serving import serve_in_thread
from mineduel.local.stack import RunningStack

pytestmark = pytest.mark.http

PREFLIGHT = {
    "Access-Control-Request-Method": "POST",
    "Access-Control-Request-Headers": "content-type,x-amz-target",
}


def _options(endpoint: str, origin: str) -> tuple[int, dict[str, str]]:
    """The preflight a browser sends before a Cognito call (``curl -X OPTIONS`` in the docs)."""
    parts = urlsplit(endpoint)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
    try:
        connection.request("OPTIONS", "/", headers={"Origin": origin, **PREFLIGHT})
        answer = connection.getresponse()
        answer.read()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}
    finally:
        connection.close()


def test_the_installed_moto_alone_would_refuse_the_preflight() -> None:
    """Why the stack answers itself: moto's own server, as installed, fails the same preflight
    (if a moto release answers it again, this test says so; the stack's answer stays ours)."""
    server = make_server("127.0.0.1", 0, DomainDispatcherApplication(create_backend_app))
    thread = serve_in_thread(server, "moto-alone")
    try:
        status, _ = _options(f"http://127.0.0.1:{server.port}", "http://127.0.0.1:3000")
    finally:
        server.shutdown()
        thread.join()
        server.server_close()
    assert status == 500, f"moto alone now answers a preflight with {status}"


def test_the_stack_answers_the_web_client_s_preflight(stack: RunningStack) -> None:
    for origin in (stack.url, stack.url.replace("127.0.0.1", "localhost")):
        status, headers = _options(stack.endpoint_url, origin)
        assert status == 200
        assert headers["access-control-allow-origin"] == origin
        assert headers["access-control-allow-methods"] == "POST"
        allowed = headers["access-control-allow-headers"].split(",")
        assert {"content-type", "x-amz-target"} <= set(allowed)
        assert allowed == ALLOW_HEADERS.split(",")


def test_another_origin_is_left_to_moto(stack: RunningStack) -> None:
    """Only the web client's origin: a page elsewhere gets no allowance from the stack (moto
    answers it, as it answers every caller of its own)."""
    status, headers = _options(stack.endpoint_url, "http://elsewhere.example")
    assert status == 500
    assert "http://elsewhere.example" not in headers.values()


CALL = """async ([endpoint, action, payload]) => {
  const answer = await fetch(endpoint + "/", {
    method: "POST",
    body: JSON.stringify(payload),
    headers: { "content-type": "application/x-amz-json-1.1",
               "x-amz-target": "AWSCognitoIdentityProviderService." + action },
  });
  return { status: answer.status, type: answer.headers.get("x-amzn-errortype"),
           body: await answer.json() };
}"""
"""A Cognito call as web/cognito.js makes it, from the page."""


def test_a_page_of_the_web_client_signs_up_and_in_at_cognito(
    stack: RunningStack, browser: Browser
) -> None:
    """Chromium itself: the preflight, the call, and a refusal whose type the page can read
    (``x-amzn-errortype`` exposed), against the moto the lock installs."""
    config = json.loads(_get(stack.url, "/_local/config"))
    email, password = "cors@example.com", "Correct-Horse-9"
    client = config["user_pool_client_id"]
    sign_up = {
        "ClientId": client,
        "Username": email,
        "Password": password,
        "UserAttributes": [{"Name": "email", "Value": email}],
    }
    page = browser.new_page()
    try:
        page.goto(stack.url + "/")

        def call(action: str, payload: dict[str, Any]) -> dict[str, Any]:
            answer: dict[str, Any] = page.evaluate(CALL, [config["aws_endpoint"], action, payload])
            return answer

        up = call("SignUp", sign_up)
        again = call("SignUp", sign_up)
        call("ConfirmSignUp", {"ClientId": client, "Username": email, "ConfirmationCode": "1"})
        signed_in = call(
            "InitiateAuth",
            {
                "ClientId": client,
                "AuthFlow": "USER_PASSWORD_AUTH",
                "AuthParameters": {"USERNAME": email, "PASSWORD": password},
            },
        )
    finally:
        page.close()
    assert up["status"] == 200, up
    assert again["status"] == 400
    assert again["type"], "the error type header is exposed to the page"
    assert again["type"].endswith("UsernameExistsException")
    assert signed_in["status"] == 200
    assert signed_in["body"]["AuthenticationResult"]["AccessToken"]


def _get(base: str, path: str) -> str:
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
    try:
        connection.request("GET", path)
        return connection.getresponse().read().decode()
    finally:
        connection.close()
