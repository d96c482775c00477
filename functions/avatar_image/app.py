"""GET /v1/avatars/{avatar_id}: a redirect to a short-lived presigned link of a stored avatar."""

from __future__ import annotations

from typing import Any

from mineduel_service.api import headers, http
from mineduel_service.api.http import Response
from mineduel_service.people import avatars

app = http.new_app()
_ERRORS: dict[int, Any] = {
    **http.ERRORS,
    404: {**http.ERRORS[404], "description": "No stored avatar has that id."},
    429: http.THROTTLED,
}


@app.get(
    "/v1/avatars/<avatar_id>",
    summary="Show an avatar",
    operation_id="getAvatar",
    tags=["avatars"],
    responses={
        302: {
            "description": (
                "Found: `Location` is a presigned link to the image, valid for "
                f"{avatars.LINK_S // 60} minutes; the redirect may be cached for "
                f"{headers.AVATAR_REDIRECT_CACHE_S // 60}."
            ),
            "headers": {
                "Location": {"description": "The image's link.", "schema": {"type": "string"}},
                "Cache-Control": {
                    "description": "How long to reuse the redirect.",
                    "schema": {"type": "string"},
                },
            },
            "content": {},
        },
        **_ERRORS,
    },
)
def show(avatar_id: str) -> Response[Any]:
    """302 to the image; 404 ``avatar-not-found``."""
    location = avatars.link(avatar_id)
    return Response(status_code=302, headers=headers.avatar_redirect(location), body="")


lambda_handler = http.lambda_handler_for(app)
