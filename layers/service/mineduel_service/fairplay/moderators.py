"""Who moderates: accounts in the Cognito group ``moderators`` (the token's ``cognito:groups``,
checked with the token's signature at the edge)."""

from __future__ import annotations

from ..platform import auth
from .errors import NotAModerator

MODERATORS = "moderators"


def is_moderator(caller: auth.Caller) -> bool:
    """Whether the caller is an account in the ``moderators`` group."""
    return caller.kind == "account" and MODERATORS in caller.groups


def moderator(caller: auth.Caller) -> auth.Caller:
    """The caller, who must be a moderator (``NotAModerator`` otherwise)."""
    if not is_moderator(caller):
        raise NotAModerator()
    return caller
