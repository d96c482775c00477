"""The user pool's ``moderators`` group (fair-play moderators, docs/fair-play.md): add an
account to it, take one out, list its members.

These are the pool's administrator calls (``AdminAddUserToGroup``,
``AdminRemoveUserFromGroup``, ``ListUsersInGroup``), so unlike a player's sign-in they are
signed: on AWS with the operator's own credentials (``aws configure``, ``AWS_PROFILE``), which
need those three ``cognito-idp`` actions on the pool; on the local stack with placeholder
credentials, which its moto accepts. The API reads the group from a token's
``cognito:groups``, so a member signs in again after joining for a token that carries it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError, NoCredentialsError

from .errors import EXIT_BAD_CREDENTIALS, EXIT_CANNOT_START, EXIT_REFUSED, AccountError
from .pool import PoolConfig

if TYPE_CHECKING:
    from mypy_boto3_cognito_idp import CognitoIdentityProviderClient

GROUP = "moderators"
"""The group's name (``ModeratorsGroup`` in template.yaml)."""
LOCAL_CREDENTIALS = {"aws_access_key_id": "local", "aws_secret_access_key": "local"}
"""What the local stack's moto is signed with: any credentials, never the operator's."""
T = TypeVar("T")


class Moderators:
    """The ``moderators`` group of one user pool."""

    def __init__(self, pool: PoolConfig) -> None:
        if not pool.user_pool_id:
            raise AccountError(
                "The moderators group is the user pool's: give --user-pool-id with "
                "--user-pool-client-id (or use --stack, whose output names the pool).",
                EXIT_CANNOT_START,
            )
        self.pool = pool
        self.pool_id = pool.user_pool_id
        config = Config(connect_timeout=5, read_timeout=30, retries={"max_attempts": 2})
        credentials: dict[str, Any] = LOCAL_CREDENTIALS if pool.local else {}
        self._client: CognitoIdentityProviderClient = boto3.client(
            "cognito-idp",
            region_name=pool.region,
            endpoint_url=pool.endpoint_url,
            config=config,
            **credentials,
        )

    def add(self, email: str) -> None:
        """Put the account in the group (a member already stays one)."""
        self._call(
            email,
            lambda: self._client.admin_add_user_to_group(
                UserPoolId=self.pool_id, Username=email, GroupName=GROUP
            ),
        )

    def remove(self, email: str) -> None:
        """Take the account out of the group (tokens issued before keep the group until they
        expire, an hour at most)."""
        self._call(
            email,
            lambda: self._client.admin_remove_user_from_group(
                UserPoolId=self.pool_id, Username=email, GroupName=GROUP
            ),
        )

    def members(self) -> list[str]:
        """The members' emails, sorted."""
        found: list[str] = []
        token: str | None = None
        while True:
            more: dict[str, Any] = {"NextToken": token} if token else {}
            page = self._call(
                "",
                lambda more=more: self._client.list_users_in_group(  # type: ignore[misc]
                    UserPoolId=self.pool_id, GroupName=GROUP, **more
                ),
            )
            for user in page.get("Users", []):
                attributes = {a["Name"]: a.get("Value", "") for a in user.get("Attributes", [])}
                found.append(attributes.get("email") or str(user.get("Username", "")))
            token = page.get("NextToken")
            if not token:
                return sorted(found)

    def _call(self, email: str, operation: Callable[[], T]) -> T:
        try:
            return operation()
        except NoCredentialsError:
            raise AccountError(
                "Changing the moderators group needs AWS credentials allowed to administer the "
                "user pool (aws configure, or AWS_PROFILE).",
                EXIT_CANNOT_START,
            ) from None
        except ClientError as exc:
            raise _explain(exc, email, self.pool_id) from None
        except BotoCoreError as exc:
            raise AccountError(
                f"Cannot reach Cognito at {self.pool.where}: {exc}", EXIT_CANNOT_START
            ) from None


def _explain(error: ClientError, email: str, pool_id: str) -> AccountError:
    details = error.response.get("Error", {})
    code, said = str(details.get("Code", "")), str(details.get("Message", "")).strip()
    if code == "UserNotFoundException":
        return AccountError(f"No account has the email {email}.", EXIT_BAD_CREDENTIALS)
    if code == "ResourceNotFoundException":
        return AccountError(
            f"User pool {pool_id} has no group {GROUP!r} (or no such pool): is it a MineDuel "
            f"stack, deployed from this template? ({said})",
            EXIT_CANNOT_START,
        )
    if code in ("AccessDeniedException", "NotAuthorizedException", "UnrecognizedClientException"):
        return AccountError(
            f"These AWS credentials may not administer user pool {pool_id}: {said}",
            EXIT_CANNOT_START,
        )
    return AccountError(f"Cognito refused: {said or code}", EXIT_REFUSED)
