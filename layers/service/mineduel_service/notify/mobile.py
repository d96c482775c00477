"""Mobile push through Amazon SNS: one platform endpoint per device token (APNs, FCM).

The stack's platform applications (template.yaml, made from the deployer's APNs and FCM
credentials) hold the credentials; a device's token becomes a platform endpoint of one of them
(``CreatePlatformEndpoint`` is idempotent for the same token), marked with the player's id.
A token that moves to another account (someone else signs in on the phone) keeps its
endpoint, marked for the new player, and is taken from the account that had it
(``store.add``). SNS says when APNs or FCM disowned a token: publishing to its endpoint fails
with ``EndpointDisabled``; that endpoint and its subscription are removed.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from ..platform import aws
from ..platform.config import get_config
from .errors import PushKindUnavailable
from .notices import Notice

MobileKind = Literal["apns", "fcm"]
_EXISTING = re.compile(r"Endpoint (arn:[^ ]+) already exists")
Outcome = Literal["sent", "gone", "retry", "refused"]


def application_arn(kind: MobileKind) -> str:
    """The stack's platform application for ``kind``; ``PushKindUnavailable`` when the stack
    was deployed without that platform's credentials."""
    config = get_config()
    arn = config.apns_application_arn if kind == "apns" else config.fcm_application_arn
    if not arn:
        raise PushKindUnavailable()
    return arn


def register(kind: MobileKind, token: str, player_id: str) -> str:
    """The device's platform endpoint, enabled and marked as the player's (``CustomUserData``:
    the subscriptions' store says whose a token is, ``store.add``)."""
    sns = aws.sns()
    app = application_arn(kind)
    try:
        arn = str(
            sns.create_platform_endpoint(
                PlatformApplicationArn=app, Token=token, CustomUserData=player_id
            )["EndpointArn"]
        )
    except Exception as exc:
        found = _EXISTING.search(_message(exc))
        if _code(exc) != "InvalidParameter" or found is None:
            raise
        arn = found.group(1)  # the token's endpoint, marked for someone else (or disabled)
    sns.set_endpoint_attributes(
        EndpointArn=arn,
        Attributes={"Token": token, "CustomUserData": player_id, "Enabled": "true"},
    )
    return arn


def unregister(endpoint_arn: str) -> None:
    """Delete a platform endpoint (deleting one that is gone is fine)."""
    if endpoint_arn:
        aws.sns().delete_endpoint(EndpointArn=endpoint_arn)


def message(notice: Notice, payload: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The SNS ``Message`` (one per platform, ``MessageStructure: json``) and its message
    attributes (TTL, priority, collapsing) for ``notice``."""
    high = notice.urgency == "high"
    data = {k: "" if v is None else str(v) for k, v in payload.items()}
    apns = {
        "aps": {
            "alert": {"title": notice.title, "body": notice.body},
            "sound": "default",
            "thread-id": notice.game_id,
        },
        "mineduel": payload,
    }
    fcm = {
        "fcmV1Message": {
            "message": {
                "notification": {"title": notice.title, "body": notice.body},
                "data": data,
                "android": {
                    "priority": "high" if high else "normal",
                    "ttl": f"{notice.ttl_s}s",
                    "collapse_key": notice.topic,
                },
            }
        }
    }
    structured = {
        "default": f"{notice.title}: {notice.body}",
        "APNS": json.dumps(apns, separators=(",", ":")),
        "APNS_SANDBOX": json.dumps(apns, separators=(",", ":")),
        "GCM": json.dumps(fcm, separators=(",", ":")),
    }
    attributes = {
        "AWS.SNS.MOBILE.APNS.PUSH_TYPE": {"DataType": "String", "StringValue": "alert"},
        "AWS.SNS.MOBILE.APNS.PRIORITY": {
            "DataType": "String",
            "StringValue": "10" if high else "5",
        },
        "AWS.SNS.MOBILE.APNS.TTL": {"DataType": "String", "StringValue": str(notice.ttl_s)},
        "AWS.SNS.MOBILE.APNS.COLLAPSE_ID": {"DataType": "String", "StringValue": notice.topic},
        "AWS.SNS.MOBILE.APNS_SANDBOX.TTL": {"DataType": "String", "StringValue": str(notice.ttl_s)},
        "AWS.SNS.MOBILE.FCM.TTL": {"DataType": "String", "StringValue": str(notice.ttl_s)},
    }
    return json.dumps(structured, separators=(",", ":")), attributes


def publish(endpoint_arn: str, notice: Notice, payload: dict[str, Any]) -> Outcome:
    """Publish one notification to one platform endpoint; what became of it."""
    body, attributes = message(notice, payload)
    try:
        aws.sns().publish(
            TargetArn=endpoint_arn,
            Message=body,
            MessageStructure="json",
            MessageAttributes=attributes,
        )
    except Exception as exc:
        code = _code(exc)
        if code in ("EndpointDisabled", "NotFound"):
            return "gone"
        if code in ("InvalidParameter", "InvalidParameterValue", "PlatformApplicationDisabled"):
            return "refused"
        return "retry"
    return "sent"


def _code(exc: Exception) -> str:
    response: Any = getattr(exc, "response", None) or {}
    return str(response.get("Error", {}).get("Code", ""))


def _message(exc: Exception) -> str:
    response: Any = getattr(exc, "response", None) or {}
    return str(response.get("Error", {}).get("Message", ""))
