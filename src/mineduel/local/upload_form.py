"""Send a file with a presigned S3 POST, as a browser form or any client would: the form's fields
first, then the file as the last part, in one ``multipart/form-data`` request.

Only the standard library is used (``http.client``), so what reaches S3 (or moto) is exactly the
bytes a client would send; this is how the tests prove the upload form works end to end.
"""

from __future__ import annotations

import http.client
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

TIMEOUT_S = 30


@dataclass(frozen=True)
class FormReply:
    """What S3 answered: 204 (or 201/200) when it took the file, else its XML error."""

    status: int
    body: bytes


def multipart(
    fields: Mapping[str, str], data: bytes, filename: str, content_type: str
) -> tuple[bytes, str]:
    """The request body and its ``Content-Type`` header (with a fresh boundary)."""
    boundary = f"mineduel-{uuid.uuid4().hex}"
    parts: list[bytes] = []
    for name, value in fields.items():
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
            f"{value}\r\n".encode()
        )
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
        f"Content-Type: {content_type}\r\n\r\n".encode()
        + data
        + b"\r\n"
    )
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def post_form(
    url: str,
    fields: Mapping[str, str],
    data: bytes,
    *,
    filename: str = "avatar",
    content_type: str = "application/octet-stream",
) -> FormReply:
    """POST ``data`` with ``fields`` to ``url`` (a presigned form's ``url`` and ``fields``)."""
    parts = urlsplit(url)
    body, header = multipart(fields, data, filename, content_type)
    connection_type = (
        http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    )
    connection = connection_type(parts.hostname or "127.0.0.1", parts.port, timeout=TIMEOUT_S)
    try:
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        connection.request("POST", target, body=body, headers={"Content-Type": header})
        answer = connection.getresponse()
        return FormReply(answer.status, answer.read())
    finally:
        connection.close()
