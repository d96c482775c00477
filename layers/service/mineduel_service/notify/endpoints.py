"""Which Web Push endpoints the service will send to: the known push services, nothing else.

A subscription's endpoint is a URL a client gives us, and the delivery function requests it:
left open, it would make our function request any host a client names (server-side request
forgery: the instance metadata address, a private network, anybody's server). So an endpoint
must be ``https`` on the default port of a host of a known push service (the browsers' own),
with no user name, password or fragment; the local stack alone also accepts
``http://127.0.0.1:<port>/...`` (``push_allow_loopback``), so that tests can receive pushes.
The delivery checks the stored endpoint again before every request.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from .errors import PushEndpointNotAllowed

PUSH_HOSTS = ("fcm.googleapis.com", "updates.push.services.mozilla.com")
"""Push services by exact host: Chrome, Edge (FCM) and Firefox (Mozilla's autopush)."""
PUSH_DOMAINS = (".push.apple.com", ".notify.windows.com")
"""Push services by domain: Safari (``web.push.apple.com``) and Windows (WNS)."""
MAX_ENDPOINT_LENGTH = 2048
LOOPBACK = "127.0.0.1"


def origin_of(endpoint: str) -> str:
    """The endpoint's origin (``https://fcm.googleapis.com``): the VAPID ``aud`` claim."""
    parts = urlsplit(endpoint)
    return f"{parts.scheme}://{parts.netloc}"


def push_service(endpoint: str) -> str:
    """The host of the push service an endpoint belongs to (shown in a player's list)."""
    return urlsplit(endpoint).hostname or ""


def check_endpoint(endpoint: str, *, allow_loopback: bool) -> str:
    """The endpoint, if the service may send to it; ``PushEndpointNotAllowed`` otherwise."""
    if len(endpoint) > MAX_ENDPOINT_LENGTH or not endpoint.isascii() or not endpoint.isprintable():
        raise PushEndpointNotAllowed()
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        raise PushEndpointNotAllowed() from None
    host = (parts.hostname or "").lower()
    if parts.username is not None or parts.password is not None or parts.fragment:
        raise PushEndpointNotAllowed()
    if "\\" in endpoint or any(c.isspace() for c in endpoint):
        raise PushEndpointNotAllowed()
    if parts.scheme == "https" and port in (None, 443) and _known(host):
        return endpoint
    if allow_loopback and parts.scheme == "http" and host == LOOPBACK and port is not None:
        return endpoint
    raise PushEndpointNotAllowed()


def _known(host: str) -> bool:
    if host in PUSH_HOSTS:
        return True
    return any(
        host.endswith(domain) and len(host) > len(domain) and _labels(host)
        for domain in PUSH_DOMAINS
    )


def _labels(host: str) -> bool:
    """Every label of the host is a plain DNS label (no empty label, nothing odd)."""
    return all(
        label and len(label) <= 63 and label.replace("-", "").isalnum() for label in host.split(".")
    )
