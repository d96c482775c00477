"""CORS as HTTP API does it, from the template's ``CorsConfiguration``.

With CORS configured, API Gateway answers preflight ``OPTIONS`` requests itself (no function
runs) and puts its own ``Access-Control-*`` headers on every response to a request that has an
``Origin``, replacing any the function set. A browser client on another origin (a web app on
``localhost:5173`` calling ``localhost:3000``) then works locally exactly as it will on AWS.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .http_events import HttpRequest, HttpResponse

HTTP_API_TYPE = "AWS::Serverless::HttpApi"


@dataclass(frozen=True)
class Cors:
    """One HTTP API's CORS configuration."""

    allow_origins: tuple[str, ...] = ()
    allow_methods: tuple[str, ...] = ()
    allow_headers: tuple[str, ...] = ()
    expose_headers: tuple[str, ...] = ()
    max_age: int | None = None
    allow_credentials: bool = False

    @classmethod
    def from_template(cls, resources: Mapping[str, Mapping[str, Any]]) -> Cors | None:
        """The CORS settings of the template's HTTP API; None if it has none."""
        for resource in resources.values():
            if resource.get("Type") != HTTP_API_TYPE:
                continue
            config = resource.get("Properties", {}).get("CorsConfiguration")
            if not isinstance(config, Mapping):
                return None
            age = config.get("MaxAge")
            return cls(
                allow_origins=_strings(config.get("AllowOrigins")),
                allow_methods=_strings(config.get("AllowMethods")),
                allow_headers=_strings(config.get("AllowHeaders")),
                expose_headers=_strings(config.get("ExposeHeaders")),
                max_age=None if age is None else int(age),
                allow_credentials=bool(config.get("AllowCredentials", False)),
            )
        return None

    def _allowed_origin(self, origin: str) -> str | None:
        if "*" in self.allow_origins:
            return "*"
        return origin if origin in self.allow_origins else None

    def preflight(self, request: HttpRequest) -> HttpResponse | None:
        """API Gateway's own answer to a CORS preflight, or None if this is not one."""
        headers = {name.lower(): value for name, value in request.headers}
        origin = headers.get("origin")
        wanted = headers.get("access-control-request-method")
        if request.method.upper() != "OPTIONS" or not origin or not wanted:
            return None
        allowed = self._allowed_origin(origin)
        if allowed is None:
            return HttpResponse(204)
        out = [("access-control-allow-origin", allowed)]
        if self.allow_methods:
            out.append(("access-control-allow-methods", ",".join(self.allow_methods)))
        if self.allow_headers:
            out.append(("access-control-allow-headers", ",".join(self.allow_headers).lower()))
        if self.max_age is not None:
            out.append(("access-control-max-age", str(self.max_age)))
        if self.allow_credentials:
            out.append(("access-control-allow-credentials", "true"))
        return HttpResponse(204, out)

    def decorate(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        """``response`` with API Gateway's CORS headers in place of the function's."""
        origin = next((v for n, v in request.headers if n.lower() == "origin"), None)
        allowed = self._allowed_origin(origin) if origin else None
        kept = [(n, v) for n, v in response.headers if not n.lower().startswith("access-control-")]
        if allowed is None:
            return HttpResponse(response.status, kept, response.body)
        kept.append(("access-control-allow-origin", allowed))
        if self.expose_headers:
            kept.append(("access-control-expose-headers", ",".join(self.expose_headers).lower()))
        if self.allow_credentials:
            kept.append(("access-control-allow-credentials", "true"))
        return HttpResponse(response.status, kept, response.body)


def _strings(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, Sequence):
        return tuple(str(v) for v in value)
    return ()
