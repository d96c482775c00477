"""POST and PUT /v1/me/avatar: hand out a presigned upload, then check what arrived and make it
the caller's avatar (accounts only)."""

from __future__ import annotations

from typing import Annotated, Any

from mineduel_service.api import http
from mineduel_service.api.http import Body, Response
from mineduel_service.contract.people import AvatarUploadOut, AvatarUploadRequest, ProfileOut
from mineduel_service.people import avatar_uploads

app = http.new_app()

_TAKE_ERRORS: dict[int, Any] = {
    404: {**http.ERRORS[404], "description": "No upload to take (none asked for, or not sent)."},
    413: {**http.ERRORS[413], "description": "The upload is over 256 KB."},
    415: {**http.ERRORS[415], "description": "An image, but not PNG, JPEG or WebP."},
    422: {
        **http.ERRORS[422],
        "description": "Not a PNG, JPEG or WebP image that decodes, or too small or large.",
    },
}


@app.post(
    "/v1/me/avatar",
    summary="Ask for an avatar upload",
    operation_id="requestAvatarUpload",
    tags=["avatars"],
    security=http.TOKEN,
    responses=http.responses(
        200, AvatarUploadOut, "A presigned S3 POST to upload the image to, within minutes."
    ),
)
def request_upload(
    request: Annotated[AvatarUploadRequest | None, Body()] = None,
) -> Response[AvatarUploadOut]:
    """200 with the upload form; the body (optional) names the image's content type."""
    return http.json_response(200, avatar_uploads.request_upload(http.caller(app), request))


@app.put(
    "/v1/me/avatar",
    summary="Take the uploaded image as my avatar",
    operation_id="acceptAvatarUpload",
    tags=["avatars"],
    security=http.TOKEN,
    responses={
        **http.responses(200, ProfileOut, "The profile with its new avatar_url."),
        **_TAKE_ERRORS,
    },
)
def accept_upload() -> Response[ProfileOut]:
    """200 with the profile; 404 ``avatar-upload-not-found``; 413 ``avatar-too-large``; 415
    ``avatar-unsupported-type``; 422 ``avatar-not-an-image`` or ``avatar-bad-dimensions``."""
    return http.json_response(200, avatar_uploads.accept_upload(http.caller(app)))


lambda_handler = http.lambda_handler_for(app)
