"""Cognito's player-side flows: sign up, confirm, sign in (answering the TOTP challenge), and set
up an authenticator app.

Sign-in uses ``USER_PASSWORD_AUTH`` (the password goes to Cognito over TLS): it is the flow both
AWS and moto run, and a command line has no browser for passkeys. Apps use ``USER_AUTH``
(choice-based: password or passkey) or SRP; the app client allows all of them.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, TypeVar

import boto3
from botocore import UNSIGNED
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from .errors import (
    EXIT_BAD_CODE,
    EXIT_CANNOT_START,
    EXIT_REFUSED,
    AccountError,
    Action,
    explain,
    unreachable,
)
from .pool import PoolConfig

if TYPE_CHECKING:
    from mypy_boto3_cognito_idp import CognitoIdentityProviderClient

TOTP_CHALLENGE: Final = "SOFTWARE_TOKEN_MFA"
TOTP_ISSUER = "MineDuel"
T = TypeVar("T")


@dataclass(frozen=True)
class Tokens:
    """What a successful sign-in gives; the API takes the access token as a bearer token."""

    access_token: str
    id_token: str
    refresh_token: str | None
    expires_in: int
    token_type: str

    def as_json(self) -> dict[str, Any]:
        """The tokens under snake_case names (``--json``)."""
        return {
            "access_token": self.access_token,
            "id_token": self.id_token,
            "refresh_token": self.refresh_token,
            "expires_in": self.expires_in,
            "token_type": self.token_type,
        }


@dataclass(frozen=True)
class TotpChallenge:
    """Cognito wants a code from the authenticator app before it issues tokens."""

    session: str
    username: str


@dataclass(frozen=True)
class SignedUp:
    """A new account, and where its confirmation code went (None: nowhere, it is confirmed)."""

    confirmed: bool
    sent_to: str | None


def normalize_email(raw: str) -> str:
    """The email as the pool keys it: trimmed and lower-cased (the pool ignores case)."""
    email = raw.strip().lower()
    local, at, domain = email.partition("@")
    if not at or not local or "." not in domain or any(c.isspace() for c in email):
        raise AccountError(f"{raw!r} is not an email address.", EXIT_CANNOT_START)
    return email


def normalize_code(raw: str) -> str:
    """A 6-digit code as typed, spaces and dashes allowed ("123 456")."""
    code = "".join(c for c in raw if c not in " -\t")
    if len(code) != 6 or not code.isdigit():
        raise AccountError("A code is 6 digits.", EXIT_BAD_CODE)
    return code


def otpauth_uri(secret: str, email: str, *, local: bool) -> str:
    """The ``otpauth://`` URI authenticator apps import (often as a QR code)."""
    issuer = f"{TOTP_ISSUER} local" if local else TOTP_ISSUER
    label = urllib.parse.quote(f"{issuer}:{email}", safe="")
    query = urllib.parse.urlencode(
        {"secret": secret, "issuer": issuer}, quote_via=urllib.parse.quote
    )
    return f"otpauth://totp/{label}?{query}"


class Accounts:
    """One app client's player-side operations; Cognito's refusals become AccountErrors."""

    def __init__(self, pool: PoolConfig) -> None:
        self.pool = pool
        # Unsigned: these operations take no AWS credentials, and none are looked up.
        config = Config(
            signature_version=UNSIGNED,
            connect_timeout=5,
            read_timeout=30,
            retries={"max_attempts": 2, "mode": "standard"},
        )
        self._client: CognitoIdentityProviderClient = boto3.client(
            "cognito-idp", region_name=pool.region, endpoint_url=pool.endpoint_url, config=config
        )

    def _call(self, action: Action, email: str, operation: Callable[[], T]) -> T:
        try:
            return operation()
        except ClientError as exc:
            raise explain(exc, action, email) from None
        except BotoCoreError as exc:
            raise unreachable(exc, self.pool.where) from None

    def sign_up(self, email: str, password: str) -> SignedUp:
        """Create the account; Cognito emails a confirmation code."""
        answer = self._call(
            "sign-up",
            email,
            lambda: self._client.sign_up(
                ClientId=self.pool.user_pool_client_id,
                Username=email,
                Password=password,
                UserAttributes=[{"Name": "email", "Value": email}],
            ),
        )
        delivery = answer.get("CodeDeliveryDetails") or {}
        return SignedUp(bool(answer.get("UserConfirmed")), delivery.get("Destination"))

    def confirm(self, email: str, code: str) -> None:
        """Confirm the account's email with the code that was sent to it."""
        self._call(
            "confirm",
            email,
            lambda: self._client.confirm_sign_up(
                ClientId=self.pool.user_pool_client_id, Username=email, ConfirmationCode=code
            ),
        )

    def sign_in(self, email: str, password: str) -> Tokens | TotpChallenge:
        """Tokens, or the TOTP challenge to answer with :meth:`answer_totp`."""
        answer = self._call(
            "sign-in",
            email,
            lambda: self._client.initiate_auth(
                ClientId=self.pool.user_pool_client_id,
                AuthFlow="USER_PASSWORD_AUTH",
                AuthParameters={"USERNAME": email, "PASSWORD": password},
            ),
        )
        return self._outcome(answer, email)

    def answer_totp(self, challenge: TotpChallenge, code: str) -> Tokens:
        """Answer the TOTP challenge with a code from the authenticator app."""
        answer = self._call(
            "challenge",
            challenge.username,
            lambda: self._client.respond_to_auth_challenge(
                ClientId=self.pool.user_pool_client_id,
                ChallengeName=TOTP_CHALLENGE,
                Session=challenge.session,
                ChallengeResponses={
                    "USERNAME": challenge.username,
                    "SOFTWARE_TOKEN_MFA_CODE": code,
                },
            ),
        )
        outcome = self._outcome(answer, challenge.username)
        if not isinstance(outcome, Tokens):
            raise AccountError("Cognito asked for the authenticator code twice; sign in again.")
        return outcome

    def begin_totp(self, access_token: str, email: str) -> str:
        """A new authenticator secret for the signed-in account (not in force until verified)."""
        answer = self._call(
            "totp-setup",
            email,
            lambda: self._client.associate_software_token(AccessToken=access_token),
        )
        return str(answer["SecretCode"])

    def finish_totp(self, access_token: str, email: str, code: str, device: str) -> None:
        """Check a first code from the app, then make TOTP the account's preferred MFA."""
        answer = self._call(
            "totp-setup",
            email,
            lambda: self._client.verify_software_token(
                AccessToken=access_token, UserCode=code, FriendlyDeviceName=device
            ),
        )
        if answer.get("Status") != "SUCCESS":
            raise AccountError("That code is not right.", EXIT_BAD_CODE)
        self._call(
            "totp-setup",
            email,
            lambda: self._client.set_user_mfa_preference(
                AccessToken=access_token,
                SoftwareTokenMfaSettings={"Enabled": True, "PreferredMfa": True},
            ),
        )

    @staticmethod
    def _outcome(answer: Any, email: str) -> Tokens | TotpChallenge:
        result = answer.get("AuthenticationResult")
        if result:
            return Tokens(
                access_token=result["AccessToken"],
                id_token=result["IdToken"],
                refresh_token=result.get("RefreshToken"),
                expires_in=int(result.get("ExpiresIn", 0)),
                token_type=result.get("TokenType", "Bearer"),
            )
        name = answer.get("ChallengeName")
        if name == TOTP_CHALLENGE:
            params = answer.get("ChallengeParameters") or {}
            username = params.get("USER_ID_FOR_SRP") or params.get("USERNAME") or email
            return TotpChallenge(session=answer["Session"], username=username)
        raise AccountError(
            f"Cognito asks for {name}, which this command does not answer; finish signing in "
            "in the app.",
            EXIT_REFUSED,
        )
