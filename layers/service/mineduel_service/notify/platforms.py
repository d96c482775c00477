"""The stack's SNS platform applications (APNs, FCM), made by CloudFormation through a custom
resource (``Custom::PushPlatformApplication`` in template.yaml).

CloudFormation has no resource type for SNS platform applications, so the template declares
each as a custom resource served by the ``PushPlatforms`` function, which creates, updates
and deletes it with SNS's own API and answers CloudFormation at the request's ``ResponseURL``
(the custom resource protocol). A platform deployed without credentials (an empty
``PlatformCredential``: the parameter's default) makes nothing: its ``Arn`` is empty, and the
API then refuses that kind of device with 422 ``push-kind-unavailable``. docs/notifications.md
says which credentials each platform takes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..platform import aws, custom_resources
from ..platform.observability import logger

NONE_PREFIX = "none:"
"""The physical id of a platform application that was not made (no credentials)."""
PLATFORMS = frozenset({"APNS", "APNS_SANDBOX", "GCM"})


@dataclass(frozen=True)
class Applied:
    """What a request did: the resource's physical id and its ``Arn`` (empty: none)."""

    physical_id: str
    arn: str


def apply(
    request_type: str, properties: dict[str, Any], physical_id: str | None, sns: Any = None
) -> Applied:
    """Create, update or delete the platform application ``properties`` describe (with the
    function's SNS client, or ``sns``: the local stack provisions with its own)."""
    name = str(properties["Name"])
    platform = str(properties["Platform"])
    attributes = {k: str(v) for k, v in (properties.get("Attributes") or {}).items() if str(v)}
    if platform not in PLATFORMS:
        raise ValueError(f"Platform must be one of {sorted(PLATFORMS)}")
    sns = sns or aws.sns()
    made = physical_id is not None and physical_id.startswith("arn:")
    if request_type == "Delete":
        if made:
            sns.delete_platform_application(PlatformApplicationArn=str(physical_id))
        return Applied(str(physical_id), "")
    if not attributes.get("PlatformCredential"):
        return Applied(f"{NONE_PREFIX}{name}", "")
    if request_type == "Update" and made and _same_kind(str(physical_id), name, platform):
        sns.set_platform_application_attributes(
            PlatformApplicationArn=str(physical_id), Attributes=attributes
        )
        return Applied(str(physical_id), str(physical_id))
    # Create, or an update to another name or platform: a new application (CloudFormation
    # then deletes the old one, whose physical id it had).
    arn = sns.create_platform_application(Name=name, Platform=platform, Attributes=attributes)[
        "PlatformApplicationArn"
    ]
    return Applied(arn, arn)


def _same_kind(arn: str, name: str, platform: str) -> bool:
    """The application at ``arn`` has this name and platform (``...:app/GCM/name``)."""
    return arn.endswith(f":app/{platform}/{name}")


def handle(event: dict[str, Any]) -> dict[str, Any]:
    """One custom resource request, answered at its ``ResponseURL``; the answer sent."""
    request_type = str(event.get("RequestType", ""))
    physical_id = event.get("PhysicalResourceId")
    try:
        done = apply(request_type, dict(event.get("ResourceProperties") or {}), physical_id)
    except Exception as exc:
        logger.error("platform application not applied", extra={"error": type(exc).__name__})
        return custom_resources.answer(
            event,
            physical_id=physical_id or f"{NONE_PREFIX}failed",
            reason=f"{type(exc).__name__}: see the function's log",
        )
    return custom_resources.answer(event, physical_id=done.physical_id, data={"Arn": done.arn})
