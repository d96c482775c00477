"""Which user pool and app client to sign in with, and where Cognito answers.

Three ways, as ``mineduel account`` offers them: the local stack's ``GET /_local/config`` (its
moto endpoint, pool and client), a deployed stack's ``ClientConfig`` output read with
CloudFormation's DescribeStacks (the only call that needs AWS credentials), or an app client id
and region given outright.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

from .errors import EXIT_CANNOT_START, AccountError

DEFAULT_API = "http://127.0.0.1:3000"
LOCAL_CONFIG_PATH = "/_local/config"
TIMEOUT_S = 10


@dataclass(frozen=True)
class PoolConfig:
    """Where to sign in: the app client, its region, and an endpoint when it is not AWS's."""

    region: str
    user_pool_client_id: str
    user_pool_id: str | None = None
    endpoint_url: str | None = None  # None: Cognito in ``region`` on AWS
    source: str = ""  # where this came from, for messages

    @property
    def local(self) -> bool:
        """True on a local stack (moto), which sends no email and takes any confirmation code."""
        return self.endpoint_url is not None

    @property
    def where(self) -> str:
        """Cognito's address, for messages."""
        return self.endpoint_url or f"cognito-idp.{self.region}.amazonaws.com"


def from_local_stack(api: str) -> PoolConfig:
    """The pool of the local stack serving ``api`` (``GET /_local/config``)."""
    url = api.rstrip("/") + LOCAL_CONFIG_PATH
    if not url.startswith(("http://", "https://")):
        raise AccountError(f"--api must be an http(s) URL, not {api!r}.", EXIT_CANNOT_START)
    request = urllib.request.Request(url, headers={"accept": "application/json"})  # noqa: S310
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as answer:  # noqa: S310
            document = json.loads(answer.read(65536))
    except urllib.error.HTTPError as exc:
        raise AccountError(
            f"{api} is not a MineDuel local stack ({url} answered {exc.code}); for a deployed "
            "stack give --stack NAME or --region and --user-pool-client-id.",
            EXIT_CANNOT_START,
        ) from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise AccountError(
            f"No local stack answers at {api} ({reason}): start one with `make run`, or give "
            "--stack NAME or --region and --user-pool-client-id for a deployed one.",
            EXIT_CANNOT_START,
        ) from None
    except ValueError:
        raise AccountError(f"{url} did not answer JSON.", EXIT_CANNOT_START) from None
    try:
        return PoolConfig(
            region=_text(document, "region"),
            user_pool_client_id=_text(document, "user_pool_client_id"),
            user_pool_id=_text(document, "user_pool_id"),
            endpoint_url=_text(document, "aws_endpoint"),
            source=url,
        )
    except (KeyError, TypeError):
        raise AccountError(
            f"{url} lacks region, aws_endpoint, user_pool_id or user_pool_client_id.",
            EXIT_CANNOT_START,
        ) from None


def from_stack(stack_name: str, region: str | None) -> PoolConfig:
    """The pool of a deployed stack, from its ``ClientConfig`` output (DescribeStacks)."""
    import boto3  # noqa: PLC0415  (only this way needs CloudFormation)
    from botocore.exceptions import (  # noqa: PLC0415
        BotoCoreError,
        ClientError,
        NoCredentialsError,
        NoRegionError,
    )

    try:
        cloudformation: Any = boto3.client("cloudformation", region_name=region)
        stacks = cloudformation.describe_stacks(StackName=stack_name)["Stacks"]
        resolved_region = str(cloudformation.meta.region_name)
    except NoCredentialsError:
        raise AccountError(
            "Reading a stack's outputs needs AWS credentials (aws configure, or AWS_PROFILE); "
            "or give --region and --user-pool-client-id instead of --stack.",
            EXIT_CANNOT_START,
        ) from None
    except NoRegionError:
        raise AccountError(
            f"Give --region: the region of stack {stack_name}.", EXIT_CANNOT_START
        ) from None
    except ClientError as exc:
        said = exc.response.get("Error", {}).get("Message", str(exc))
        raise AccountError(f"Cannot read stack {stack_name}: {said}", EXIT_CANNOT_START) from None
    except BotoCoreError as exc:
        raise AccountError(f"Cannot read stack {stack_name}: {exc}", EXIT_CANNOT_START) from None
    outputs = {o["OutputKey"]: o["OutputValue"] for o in stacks[0].get("Outputs", [])}
    try:
        document = json.loads(outputs["ClientConfig"])
        return PoolConfig(
            region=_text(document, "region"),
            user_pool_client_id=_text(document, "user_pool_client_id"),
            user_pool_id=_text(document, "user_pool_id"),
            source=f"stack {stack_name} in {resolved_region}",
        )
    except (KeyError, TypeError, ValueError):
        raise AccountError(
            f"Stack {stack_name} in {resolved_region} has no usable ClientConfig output; is it a "
            "MineDuel stack, deployed from this template?",
            EXIT_CANNOT_START,
        ) from None


def explicit(region: str | None, client_id: str) -> PoolConfig:
    """An app client given outright; its region must be given too."""
    if not region:
        raise AccountError("With --user-pool-client-id, give --region too.", EXIT_CANNOT_START)
    return PoolConfig(region=region, user_pool_client_id=client_id, source="the command line")


def _text(document: Any, key: str) -> str:
    value = document[key]
    if not isinstance(value, str) or not value:
        raise TypeError(key)
    return value
