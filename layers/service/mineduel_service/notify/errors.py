"""What the notification routes refuse (their HTTP answers: ``api.problems``)."""

from __future__ import annotations

from ..platform.errors import Conflict, Invalid, NotFound, Unavailable


class TooManySubscriptions(Conflict):
    """The player has as many push subscriptions as allowed."""

    code = "too-many-subscriptions"
    default_message = "You have 10 devices and browsers set up for notifications: remove one first."


class SubscriptionConflict(Conflict):
    """Other requests kept claiming the same browser or device while this one tried."""

    code = "subscription-conflict"
    default_message = (
        "Other sign-ins claimed this browser or device at the same moment: send it again."
    )


class PushEndpointNotAllowed(Invalid):
    """A Web Push endpoint that is not ``https`` on a known push service."""

    code = "push-endpoint-not-allowed"
    default_message = (
        "Notifications go only to the browsers' push services (https on fcm.googleapis.com, "
        "updates.push.services.mozilla.com, *.push.apple.com or *.notify.windows.com)."
    )


class PushKeysInvalid(Invalid):
    """The subscription's keys are not a P-256 public key and a 16-byte secret."""

    code = "push-keys-invalid"
    default_message = (
        "keys.p256dh must be an uncompressed P-256 public key and keys.auth 16 bytes, both "
        "base64url (what PushSubscription.toJSON() gives)."
    )


class PushKindUnavailable(Invalid):
    """Mobile push of a platform this stack has no platform application for."""

    code = "push-kind-unavailable"
    default_message = "This server does not send notifications to that kind of device."


class SubscriptionNotFound(NotFound):
    """No push subscription of the caller's has that id."""

    code = "subscription-not-found"
    default_message = "There is no such notification subscription of yours."


class PushKeyUnavailable(Unavailable):
    """The stack's VAPID key could not be read or made just now."""

    code = "push-key-unavailable"
    default_message = "Notifications cannot be set up right now; try again in a minute."
