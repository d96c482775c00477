"""POST, GET /v1/me/push-subscriptions and DELETE /v1/me/push-subscriptions/{subscription_id}:
the caller's browsers and devices that notifications go to (accounts only)."""

from __future__ import annotations

from typing import Annotated

from mineduel_service.api import http
from mineduel_service.api.http import Body, Path, Query, Response
from mineduel_service.contract.push import (
    PushSubscriptionOut,
    PushSubscriptionRequest,
    PushSubscriptionsOut,
)
from mineduel_service.notify import subscriptions
from mineduel_service.platform.pagination import DEFAULT_LIMIT, MAX_LIMIT

app = http.new_app()
SUBSCRIPTION_ID = Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")


@app.post(
    "/v1/me/push-subscriptions",
    summary="Send my notifications to this browser or device",
    description=(
        'Web Push: a browser\'s `PushSubscription.toJSON()` with `"kind": "web"` (the '
        "endpoint must be https on a known push service, else 422 "
        '`push-endpoint-not-allowed`). Mobile: `{"kind": "apns" | "fcm", '
        '"device_token"}`. The same endpoint or token again is the same subscription (200, '
        "the new keys replace the old); a new one is 201; the eleventh is 409 "
        "`too-many-subscriptions`. An endpoint or token is one account's at a time: one that "
        "another account had (someone else signed in on that browser or phone) moves to the "
        "caller, and no longer tells the account before (409 `subscription-conflict` when other "
        "sign-ins claim it at the same moment: send it again). Accounts only (403 "
        "`accounts-only`)."
    ),
    operation_id="addPushSubscription",
    tags=["notifications"],
    security=http.TOKEN,
    responses={
        **http.responses(201, PushSubscriptionOut, "A new subscription."),
        200: {
            "description": "The same endpoint or token as one of the caller's: that subscription.",
            "content": {"application/json": {"model": PushSubscriptionOut}},
        },
    },
)
def add(request: Annotated[PushSubscriptionRequest, Body()]) -> Response[PushSubscriptionOut]:
    """201 for a new subscription, 200 for one the caller had."""
    found, new = subscriptions.add(http.caller(app), request)
    return http.json_response(201 if new else 200, found)


@app.get(
    "/v1/me/push-subscriptions",
    summary="List my browsers and devices for notifications",
    operation_id="listPushSubscriptions",
    tags=["notifications"],
    security=http.TOKEN,
    responses=http.responses(
        200, PushSubscriptionsOut, "A page of them (an account has at most 10), never their keys."
    ),
)
def list_page(
    cursor: Annotated[str | None, Query(max_length=2048)] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = DEFAULT_LIMIT,
) -> Response[PushSubscriptionsOut]:
    """200 with a page of the caller's subscriptions (all ten fit the default page)."""
    return http.json_response(200, subscriptions.list_page(http.caller(app), cursor, limit))


@app.delete(
    "/v1/me/push-subscriptions/<subscription_id>",
    summary="Stop notifications to a browser or device",
    operation_id="deletePushSubscription",
    tags=["notifications"],
    security=http.TOKEN,
    responses={
        204: {"description": "Removed: nothing more goes there.", "content": {}},
        **{k: v for k, v in http.responses(204, PushSubscriptionsOut, "").items() if k != 204},
    },
)
def remove(subscription_id: Annotated[str, SUBSCRIPTION_ID]) -> Response[None]:
    """204; 404 ``subscription-not-found`` for an id that is not one of the caller's."""
    subscriptions.remove(http.caller(app), subscription_id)
    return Response(status_code=204, body=None, headers={})


lambda_handler = http.lambda_handler_for(app)
