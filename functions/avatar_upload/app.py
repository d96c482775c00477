"""POST and PUT /v1/me/avatar: hand out a presigned upload, then check what arrived and make it
the caller's avatar (accounts only)."""

from __future__ import annotations

from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Response, content_types
from aws_lambda_powertools.event_handler.openapi.params import Body
from mineduel_service import avatar_uploads, http
from mineduel_service.models import AvatarUploadOut, AvatarUploadRequest, ErrorOut, ProfileOut

app = http.new_app()

_WRONG_TYPE: dict[int, Any] = {
    415: {
        "description": "An image of another type than PNG, JPEG or WebP.",
        "content": {content_types.APPLICATION_JSON: {"model": ErrorOut}},
    }
}


@app.post(
    "/v1/me/avatar",
    summary="Ask for an avatar upload",
    responses=http.responses(
        200, AvatarUploadOut, "A presigned S3 POST to upload the image to, within minutes."
    ),
)
def request_upload(
    request: Annotated[AvatarUploadRequest | None, Body()] = None,
) -> Response[AvatarUploadOut]:
    """200 with the upload form; the body (optional) names the image's content type."""
    return http.json_response(200, avatar_uploads.request_upload(http.token(app), request))


@app.put(
    "/v1/me/avatar",
    summary="Take the uploaded image as my avatar",
    responses={
        **http.responses(200, ProfileOut, "The profile with its new avatar_url."),
        **_WRONG_TYPE,
    },
)
def accept_upload() -> Response[ProfileOut]:
    """200 with the profile; 404 ``avatar-upload-not-found``; 413 ``avatar-too-large``; 415
    ``avatar-unsupported-type``; 422 ``avatar-not-an-image`` or ``avatar-bad-dimensions``."""
    return http.json_response(200, avatar_uploads.accept_upload(http.token(app)))


lambda_handler = http.lambda_handler_for(app)
