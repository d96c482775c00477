"""The problem details body every route answers a refusal with, and API Gateway's own answers."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from .base import ResponseModel


class ErrorBody(ResponseModel):
    """The error object clients written before problem details read (kept for one version)."""

    code: str
    message: str
    details: list[dict[str, Any]] | None = None


class ErrorOut(ResponseModel):
    """An RFC 9457 problem details body, with the API's ``code`` and the older ``error`` object
    as extension members."""

    type: str = Field(description="urn:mineduel:problem:<code>, one per kind of problem")
    title: str = Field(description="The problem type in a few words")
    status: int = Field(description="The HTTP status")
    detail: str = Field(description="What went wrong this time, and what to do about it")
    instance: str | None = Field(default=None, description="The path of the request")
    code: str = Field(description="The kebab-case problem code")
    errors: list[dict[str, Any]] | None = Field(
        default=None, description="One entry per invalid field (validation problems only)"
    )
    error: ErrorBody


class GatewayMessageOut(ResponseModel):
    """API Gateway's own answer, sent when no function could shape it: a throttled request's
    429, a body over 10 MB's 413, a 500 when a function crashed or timed out."""

    message: str
