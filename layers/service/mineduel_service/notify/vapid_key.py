"""``GET /v1/push/vapid-key``: the key browsers subscribe with (no credentials needed)."""

from __future__ import annotations

from . import vapid


def get_key() -> dict[str, str]:
    """The stack's VAPID public key (made on the first call ever, ``vapid``)."""
    return {"public_key": vapid.public_key()}
