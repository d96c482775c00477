"""What went wrong, in words a player can act on, and the exit code that tells it to a script.

Cognito answers every refusal with an error code; :func:`explain` turns the ones a player can
meet into an :class:`AccountError`. Wrong email and wrong password read the same, as Cognito
itself answers them (``PreventUserExistenceErrors``), so the command reveals no more than the
pool does.
"""

from __future__ import annotations

from typing import Literal

from botocore.exceptions import BotoCoreError, ClientError, EndpointConnectionError, NoRegionError

# Exit codes of `mineduel account` (docs/accounts.md lists them).
EXIT_OK = 0
EXIT_REFUSED = 1  # refused for another reason: weak password, too many attempts, ...
EXIT_CANNOT_START = 2  # cannot start: bad arguments, no stack to find, Cognito unreachable
EXIT_BAD_CREDENTIALS = 3  # wrong email or password
EXIT_UNCONFIRMED = 4  # the account's email is not confirmed yet
EXIT_EMAIL_TAKEN = 5  # an account with this email exists
EXIT_BAD_CODE = 6  # a confirmation or authenticator code that is wrong or has expired
EXIT_INTERRUPTED = 130  # Ctrl-C

Action = Literal["sign-up", "confirm", "sign-in", "challenge", "totp-setup"]
_TOO_MANY = (
    "TooManyRequestsException",
    "LimitExceededException",
    "TooManyFailedAttemptsException",
)
_BAD_CODE = ("CodeMismatchException", "ExpiredCodeException", "EnableSoftwareTokenMFAException")


class AccountError(Exception):
    """A refusal or failure to report in one message, with the process exit code."""

    def __init__(self, message: str, exit_code: int = EXIT_REFUSED) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


def explain(error: ClientError, action: Action, email: str) -> AccountError:
    """The player-facing account of one Cognito error during ``action`` for ``email``."""
    details = error.response.get("Error", {})
    code, said = str(details.get("Code", "")), str(details.get("Message", "")).strip()
    if code == "UsernameExistsException":
        return AccountError(
            f"An account with {email} exists already: sign in, or confirm it if it never was "
            "(mineduel account confirm).",
            EXIT_EMAIL_TAKEN,
        )
    if code == "UserNotConfirmedException":
        return AccountError(
            f"{email} is not confirmed yet: run mineduel account confirm with the code that was "
            "emailed at sign-up.",
            EXIT_UNCONFIRMED,
        )
    if code in _BAD_CODE:
        expired = code == "ExpiredCodeException" or "expired" in said.lower()
        return AccountError(
            "That code has expired." if expired else "That code is not right.",
            EXIT_BAD_CODE,
        )
    if code == "InvalidPasswordException":
        return AccountError(
            "The password is not accepted: it needs at least 12 characters, with upper-case and "
            f"lower-case letters and a digit ({said}).",
        )
    if code in _TOO_MANY or "attempts exceeded" in said.lower():
        return AccountError("Too many attempts: wait a few minutes, then try again.")
    if code == "PasswordResetRequiredException":
        return AccountError(f"{email} must reset its password before signing in.")
    if code == "UserNotFoundException":
        # What Cognito says instead when it hides whether an account exists.
        if action == "confirm":
            return AccountError(
                "That code is not right (or no account has this email).", EXIT_BAD_CODE
            )
        return AccountError("Wrong email or password.", EXIT_BAD_CREDENTIALS)
    if code == "NotAuthorizedException":
        lowered = said.lower()
        if "disabled" in lowered:
            return AccountError(f"The account {email} is disabled.")
        if action == "sign-in":
            return AccountError("Wrong email or password.", EXIT_BAD_CREDENTIALS)
        if "session" in lowered:
            return AccountError("The sign-in took too long and expired; sign in again.")
        return AccountError(f"Cognito refused: {said or code}", EXIT_BAD_CREDENTIALS)
    if code == "ResourceNotFoundException":
        return AccountError(
            "Cognito knows no such app client here: check --user-pool-client-id and --region, "
            f"or the stack ({said}).",
            EXIT_CANNOT_START,
        )
    return AccountError(f"Cognito refused ({code}): {said}" if said else f"Cognito refused: {code}")


def unreachable(error: BotoCoreError, where: str) -> AccountError:
    """A failure below Cognito's answers: no connection, no region, and the like."""
    if isinstance(error, EndpointConnectionError):
        return AccountError(f"Cannot reach Cognito at {where}.", EXIT_CANNOT_START)
    if isinstance(error, NoRegionError):
        return AccountError("No AWS region: give --region.", EXIT_CANNOT_START)
    return AccountError(f"Cannot talk to Cognito at {where}: {error}", EXIT_CANNOT_START)
