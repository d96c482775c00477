"""The web client's static files (``web/`` in the repository), served by the local stack at ``/``.

On AWS the same files are in the web bucket behind CloudFront (docs/deploy.md); here the local
stack serves them itself, with ``/config.json`` made from the local stack's client
configuration (on AWS, ``config.json`` is uploaded from the stack's ``ClientConfig`` output).
Only files inside ``web/`` are served; there is no build step.
"""

from __future__ import annotations

import mimetypes
from pathlib import Path

WEB_ROOT = Path(__file__).resolve().parents[3] / "web"
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".png": "image/png",
    ".webmanifest": "application/manifest+json",
}


def asset(path: str, root: Path = WEB_ROOT) -> tuple[bytes, str] | None:
    """The file at URL ``path`` (``/`` is ``index.html``) and its content type, or None."""
    relative = path.lstrip("/") or "index.html"
    target = (root / relative).resolve()
    if root.resolve() not in target.parents or not target.is_file():
        return None
    content_type = TYPES.get(target.suffix) or mimetypes.guess_type(target.name)[0]
    return target.read_bytes(), content_type or "application/octet-stream"
