"""Refusals about players: profiles, usernames, avatars, a guest's games claimed by an account."""

from __future__ import annotations

from ..platform.errors import Conflict, Invalid, NotAllowed, NotFound, TooLarge, Unsupported


class PlayerNotFound(NotFound):
    """No player has that username."""

    code = "player-not-found"
    default_message = "No player has that username."


class AccountsOnly(NotAllowed):
    """Only an account may do this (a guest has no profile)."""

    code = "accounts-only"
    default_message = "Sign in to an account for this; guests have no profile."


class UsernameInvalid(Invalid):
    """Not a username at all."""

    code = "username-invalid"
    default_message = "A username is 3 to 20 characters: letters, digits, '_' and '-'."


class UsernameReserved(Invalid):
    """A username nobody may take."""

    code = "username-reserved"
    default_message = "That username is reserved; choose another."


class UsernameTaken(Conflict):
    """Another player holds the username (in any case)."""

    code = "username-taken"
    default_message = "That username is taken; choose another."


class ProfileConflict(Conflict):
    """The profile changed at the same moment, every time the request tried."""

    code = "profile-conflict"
    default_message = "Your profile changed at the same moment; try again."


class AvatarNotFound(NotFound):
    """No stored avatar has that id."""

    code = "avatar-not-found"
    default_message = "There is no avatar with that id."


class AvatarUploadNotFound(NotFound):
    """There is no upload to take."""

    code = "avatar-upload-not-found"


class AvatarUploadReplaced(Conflict):
    """The upload was taken, or a newer one asked for, meanwhile."""

    code = "avatar-upload-replaced"
    default_message = (
        "This upload was taken by another request, or a newer one was asked for, meanwhile; "
        "ask for a new upload if your avatar is not the picture you sent."
    )


class AvatarTooLarge(TooLarge):
    """The uploaded image is over the limit."""

    code = "avatar-too-large"


class AvatarUnsupportedType(Unsupported):
    """An image, but not of a type avatars may be."""

    code = "avatar-unsupported-type"


class AvatarNotAnImage(Invalid):
    """The bytes are not a PNG, JPEG or WebP picture that decodes."""

    code = "avatar-not-an-image"
    default_message = (
        "The upload is not a PNG, JPEG or WebP image that can be read; upload a real picture."
    )


class AvatarBadDimensions(Invalid):
    """Too small or too large a picture."""

    code = "avatar-bad-dimensions"


class GuestAlreadyClaimed(Conflict):
    """Another account claimed the guest's games first."""

    code = "guest-already-claimed"
    default_message = "Another account has already claimed this guest's games."


class NotAGuestToken(Invalid):
    """What was sent as the guest to claim is no guest token."""

    code = "not-a-guest-token"
    default_message = "Send the guest token (mdg1...) of the guest to claim."


class GuestTokenInvalid(Invalid):
    """The guest token to claim is unknown or expired."""

    code = "guest-token-invalid"


class ClaimConflict(Conflict):
    """The statistics changed at the same moment, every time the claim tried."""

    code = "claim-conflict"
    default_message = "Your statistics changed at the same moment; claim again."


class BadStatus(Invalid):
    """A list's ``status`` filter is not one it has."""

    code = "bad-status"
    default_message = "status is 'active' or 'finished'."


class FairPlayRestricted(NotAllowed):
    """A moderator restricted the player after a fair-play review (docs/fair-play.md): no rated
    games (quick pairing, creating, joining, a rematch); unrated ones are fine."""

    code = "fair-play-restricted"
    default_message = (
        "After a fair-play review your account plays unrated games only; choose an unrated game."
    )
