"""Swagger UI at ``/docs``, served from the files the ``swagger-ui-bundle-v2`` package ships.

Serving the UI's JavaScript and CSS locally keeps ``/docs`` working with no network (tests, a
laptop on a train); only if that package is missing does the page point at a public CDN copy of
the same Swagger UI release, so a newcomer's browser can still fetch it.
"""

from __future__ import annotations

import mimetypes
from importlib.abc import Traversable
from typing import Final

try:
    import swagger_ui_bundle  # type: ignore[import-untyped]
except ImportError:  # an install without the dev extras: the page falls back to the CDN
    swagger_ui_bundle = None

CDN: Final = "https://cdn.jsdelivr.net/npm/swagger-ui-dist@5"
ASSETS: Final = ("swagger-ui.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js")

_PAGE: Final = """<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>MineDuel API (local)</title>
  <link rel="stylesheet" href="{base}/swagger-ui.css">
  <style>body {{ margin: 0; }}</style>
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="{base}/swagger-ui-bundle.js"></script>
  <script src="{base}/swagger-ui-standalone-preset.js"></script>
  <script>
    window.ui = SwaggerUIBundle({{
      url: "{spec_url}",
      dom_id: "#swagger-ui",
      deepLinking: true,
      persistAuthorization: true,
      presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
      layout: "StandaloneLayout"
    }});
  </script>
</body>
</html>
"""


def _bundle_dir() -> Traversable | None:
    if swagger_ui_bundle is None:
        return None
    path: Traversable = swagger_ui_bundle.swagger_ui_path
    return path if path.is_dir() else None


def page(spec_url: str = "/openapi.json", mount: str = "/docs") -> str:
    """The ``/docs`` HTML: Swagger UI pointed at ``spec_url``, assets local when available."""
    base = mount if _bundle_dir() is not None else CDN
    return _PAGE.format(base=base, spec_url=spec_url)


def asset(name: str) -> tuple[bytes, str] | None:
    """One of the UI's static files (body, content type), or None if it is not one of them."""
    folder = _bundle_dir()
    if folder is None or name not in ASSETS:
        return None
    content_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
    return folder.joinpath(name).read_bytes(), content_type
