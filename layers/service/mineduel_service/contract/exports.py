"""Response models of the monthly exports (``GET /v1/exports``)."""

from __future__ import annotations

from pydantic import Field

from .base import ResponseModel


class ExportMonthOut(ResponseModel):
    """One month's export: every game that ended that month, gzip-compressed NDJSON."""

    month: str
    games: int
    bytes: int = Field(description="Size of the compressed file")
    sha256: str = Field(description="SHA-256 of the uncompressed NDJSON")
    created_at: str
    url: str = Field(description="A presigned link to the file, valid until expires_at")
    expires_at: str


class ExportsOut(ResponseModel):
    """A page of the months exported so far, newest first; ``next`` is the cursor of the
    following page, null on the last."""

    exports: list[ExportMonthOut]
    next: str | None = None
