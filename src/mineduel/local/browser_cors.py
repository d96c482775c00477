"""CORS for the web client's own calls to the embedded AWS, answered by the local stack itself.

The web client calls Cognito's user pool API straight from the page (sign-up, sign-in, the
authenticator), cross-origin: on AWS to ``https://cognito-idp.<region>.amazonaws.com``, locally
to the embedded moto. A browser first sends a CORS preflight (the calls carry ``x-amz-target``
and a JSON content type), and whether the page can sign anybody up then rested on how a moto
release answers ``OPTIONS``: moto 5.2.5 answered 200, 5.2.6 answers ``500`` for every preflight
(its dispatcher finds no operation in a request without a target). This contract is the local
stack's, not moto's, so this middleware in front of moto's WSGI app answers:

- a preflight of ``POST /`` from one of the web client's origins, itself (moto never sees it),
  with what Cognito's public endpoint allows a browser: ``POST``, the headers the web client and
  the AWS SDKs send (``content-type``, ``x-amz-target``, ``x-amz-user-agent``, ...);
- Cognito calls (``x-amz-target: AWSCognitoIdentityProviderService.*``) from those origins, by
  moto, with moto's ``Access-Control-*`` headers replaced by these: the origin allowed, and
  ``x-amzn-requestid``, ``x-amzn-errortype`` and ``x-amzn-errormessage`` exposed (the page reads
  a refusal's type from them).

Every other request (another origin, S3's upload form, the SDKs' calls, which have no
``Origin``) goes to moto untouched.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

COGNITO_TARGET = "AWSCognitoIdentityProviderService."
ALLOW_METHODS = "POST"
ALLOW_HEADERS = ",".join(
    (
        "content-type",
        "x-amz-target",
        "x-amz-user-agent",
        "x-amz-date",
        "x-amz-security-token",
        "authorization",
        "amz-sdk-invocation-id",
        "amz-sdk-request",
        "cache-control",
    )
)
EXPOSE_HEADERS = "x-amzn-requestid,x-amzn-errortype,x-amzn-errormessage,date"
MAX_AGE_S = 86_400  # a preflight a day per page: the answer never changes while the stack runs


class BrowserCors:
    """moto's WSGI app behind the web client's CORS contract (module docstring)."""

    def __init__(self, app: WsgiApp) -> None:
        self._app = app
        self._origins: frozenset[str] = frozenset()

    def allow(self, *origins: str) -> None:
        """The web client's origins (known once the local API's port is bound)."""
        self._origins = frozenset(origins)

    @property
    def origins(self) -> frozenset[str]:
        """The origins whose preflights and Cognito calls are answered here."""
        return self._origins

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        origin = environ.get("HTTP_ORIGIN", "")
        if origin not in self._origins:
            return self._app(environ, start_response)
        if _is_preflight(environ):
            if environ.get("PATH_INFO", "/") != "/":
                return self._app(environ, start_response)
            start_response("200 OK", [*_allowing(origin), *_preflight_headers()])
            return [b""]
        if not environ.get("HTTP_X_AMZ_TARGET", "").startswith(COGNITO_TARGET):
            return self._app(environ, start_response)

        def cognito_answer(status: str, headers: list[tuple[str, str]], *rest: Any) -> Any:
            kept = [(n, v) for n, v in headers if not n.lower().startswith("access-control-")]
            return start_response(status, [*kept, *_allowing(origin), _exposed()], *rest)

        return self._app(environ, cognito_answer)


def _is_preflight(environ: dict[str, Any]) -> bool:
    return environ.get("REQUEST_METHOD") == "OPTIONS" and bool(
        environ.get("HTTP_ACCESS_CONTROL_REQUEST_METHOD")
    )


def _allowing(origin: str) -> list[tuple[str, str]]:
    # The answer depends on the Origin header: caches must keep one per origin.
    return [("Access-Control-Allow-Origin", origin), ("Vary", "Origin")]


def _preflight_headers() -> list[tuple[str, str]]:
    return [
        ("Access-Control-Allow-Methods", ALLOW_METHODS),
        ("Access-Control-Allow-Headers", ALLOW_HEADERS),
        ("Access-Control-Max-Age", str(MAX_AGE_S)),
        ("Content-Length", "0"),
    ]


def _exposed() -> tuple[str, str]:
    return ("Access-Control-Expose-Headers", EXPOSE_HEADERS)
