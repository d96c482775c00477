"""Lazily built boto3 clients, one per service and process.

Built on first use (not at import) so configuration and endpoints can be set first; botocore
honours ``AWS_ENDPOINT_URL`` itself, which is how the same code talks to moto locally. boto3
itself is imported on first use too: a handler's import (Lambda's init) then does not pay for
botocore, and a request that makes no AWS call never does.
"""

from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING, Any

from .config import get_config

if TYPE_CHECKING:
    from botocore.exceptions import ClientError
    from mypy_boto3_apigatewaymanagementapi import ApiGatewayManagementApiClient
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_events import EventBridgeClient
    from mypy_boto3_kms import KMSClient
    from mypy_boto3_lambda import LambdaClient
    from mypy_boto3_s3 import S3Client
    from mypy_boto3_scheduler import EventBridgeSchedulerClient
    from mypy_boto3_sns import SNSClient
    from mypy_boto3_sqs import SQSClient
    from mypy_boto3_ssm import SSMClient

_lock = threading.Lock()
_clients: dict[str, Any] = {}


def client_error() -> type[ClientError]:
    """botocore's error class, imported when an ``except`` clause first matches against it
    (``except client_error() as exc``: Python evaluates the clause only once something was
    raised, and then boto3 is loaded anyway), so a handler's import does not pay for botocore."""
    from botocore.exceptions import ClientError  # noqa: PLC0415  (see the module docstring)

    return ClientError


def _settings(attempts: int = 3, **extra: Any) -> Any:
    """The clients' botocore settings: three attempts (unless told), a short connect timeout."""
    from botocore.config import Config  # noqa: PLC0415  (see the module docstring)

    return Config(
        retries={"max_attempts": attempts, "mode": "standard"}, connect_timeout=3, **extra
    )


def _client(service: str) -> Any:
    with _lock:
        client = _clients.get(service)
        if client is None:
            import boto3  # noqa: PLC0415  (see the module docstring)

            client = boto3.client(  # type: ignore[call-overload]
                service, region_name=get_config().region, config=_settings()
            )
            _clients[service] = client
        return client


def dynamodb() -> DynamoDBClient:
    """The DynamoDB client."""
    client: DynamoDBClient = _client("dynamodb")
    return client


def kms() -> KMSClient:
    """The KMS client."""
    client: KMSClient = _client("kms")
    return client


def scheduler() -> EventBridgeSchedulerClient:
    """The EventBridge Scheduler client."""
    client: EventBridgeSchedulerClient = _client("scheduler")
    return client


def lambda_() -> LambdaClient:
    """The Lambda client (the read path asks the expiry function to record a passed deadline)."""
    client: LambdaClient = _client("lambda")
    return client


def s3() -> S3Client:
    """The S3 client, signing with SigV4 (presigned forms and links included).

    Links point at the bucket's virtual host on AWS; when an endpoint is configured (moto), at
    ``<endpoint>/<bucket>`` instead, since a bucket subdomain of a local address resolves nowhere.
    """
    with _lock:
        client = _clients.get("s3")
        if client is None:
            local = os.environ.get("AWS_ENDPOINT_URL_S3") or os.environ.get("AWS_ENDPOINT_URL")
            import boto3  # noqa: PLC0415  (see the module docstring)

            config = _settings(
                signature_version="s3v4", s3={"addressing_style": "path" if local else "virtual"}
            )
            client = boto3.client("s3", region_name=get_config().region, config=config)
            _clients["s3"] = client
    found: S3Client = client
    return found


def events() -> EventBridgeClient:
    """The EventBridge client (game events on the stack's bus)."""
    client: EventBridgeClient = _client("events")
    return client


def sqs() -> SQSClient:
    """The SQS client (the queue of notifications to deliver)."""
    client: SQSClient = _client("sqs")
    return client


def sns() -> SNSClient:
    """The SNS client (mobile push: platform endpoints for APNs and FCM)."""
    client: SNSClient = _client("sns")
    return client


def ssm() -> SSMClient:
    """The SSM client (the stack's VAPID key pair in Parameter Store)."""
    client: SSMClient = _client("ssm")
    return client


def connections() -> ApiGatewayManagementApiClient:
    """The WebSocket API's management client (``PostToConnection``), on the stage's endpoint.

    ``AWS_ENDPOINT_URL_APIGATEWAYMANAGEMENTAPI`` overrides it, as the local stack does: there the
    management API of its own WebSocket server is what reaches the sockets.
    """
    with _lock:
        client = _clients.get("apigatewaymanagementapi")
        if client is None:
            endpoint = (
                os.environ.get("AWS_ENDPOINT_URL_APIGATEWAYMANAGEMENTAPI")
                or get_config().live_endpoint
            )
            import boto3  # noqa: PLC0415  (see the module docstring)

            # One attempt: a push that fails is not worth delaying the others for.
            client = boto3.client(
                "apigatewaymanagementapi",
                region_name=get_config().region,
                endpoint_url=endpoint,
                config=_settings(attempts=1),
            )
            _clients["apigatewaymanagementapi"] = client
    found: ApiGatewayManagementApiClient = client
    return found


def reset_clients() -> None:
    """Drop every client (after the endpoint or the credentials changed)."""
    with _lock:
        _clients.clear()
