"""Lambda's Invoke API for the template's functions, in-process (moto cannot run functions).

Both ways Lambda is invoked are here, with their AWS semantics:
- synchronous (``RequestResponse``): the handler's return value is the answer; a handler that
  raises gives ``X-Amz-Function-Error: Unhandled`` and an error payload, as Lambda does;
- asynchronous (``Event``, how EventBridge Scheduler invokes its targets): a handler that raises
  is retried as the function's ``EventInvokeConfig`` says (``MaximumRetryAttempts``, 2 by
  default), and then, if it still fails, an invocation record goes to the configured on-failure
  destination (an SQS queue), in Lambda's own record format. Lambda waits a minute, then two,
  between attempts; here the retries follow at once.

:meth:`LocalLambda.handle` serves the REST form (``POST /2015-03-31/functions/{name}/invocations``)
so the service's own boto3 Lambda client reaches it through ``AWS_ENDPOINT_URL_LAMBDA``.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote

import boto3

from .http_events import HttpRequest, HttpResponse, serve_one
from .provision import LocalStack
from .serving import serve_in_thread

LOG = logging.getLogger("mineduel-local.lambda")
INVOKE_PATH = re.compile(r"^/2015-03-31/functions/(?P<name>[^/]+)/invocations$")
DEFAULT_ASYNC_RETRIES = 2

Invoke = Callable[[str, Any], Any]


class UnknownFunction(LookupError):
    """No function of the stack has that name or ARN (Lambda's ResourceNotFoundException)."""


class LocalLambda:
    """Invokes a provisioned stack's functions the ways Lambda does; see the module docstring."""

    def __init__(self, stack: LocalStack, invoke: Invoke) -> None:
        self._stack = stack
        self._invoke = invoke

    def function_for(self, name_or_arn: str) -> str:
        """The logical id of the function a ``FunctionName`` (name, ARN or partial ARN) names."""
        wanted = name_or_arn.removesuffix(":$LATEST")
        for logical_id, arn in self._stack.function_arns.items():
            name = self._stack.ref(logical_id)
            if wanted in (arn, name, f"function:{name}") or arn.endswith(f":{wanted}"):
                return logical_id
        raise UnknownFunction(name_or_arn)

    def invoke_sync(self, name_or_arn: str, event: Any) -> tuple[Any, bool]:
        """Run the function once; its result, and whether it raised (then an error payload)."""
        logical_id = self.function_for(name_or_arn)
        try:
            return self._invoke(logical_id, event), False
        except Exception as exc:
            LOG.exception("%s raised", logical_id)
            return {"errorMessage": str(exc), "errorType": type(exc).__name__}, True

    def invoke_async(self, name_or_arn: str, event: Any) -> bool:
        """Run the function with Lambda's asynchronous retries and on-failure destination;
        True if some attempt succeeded. Raises ``UnknownFunction`` (a delivery failure)."""
        logical_id = self.function_for(name_or_arn)
        config = self._stack.template.functions[logical_id].properties.get("EventInvokeConfig", {})
        attempts = 1 + int(config.get("MaximumRetryAttempts", DEFAULT_ASYNC_RETRIES))
        payload: Any = None
        for _ in range(attempts):
            payload, failed = self.invoke_sync(name_or_arn, event)
            if not failed:
                return True
        self._send_to_failure_destination(logical_id, config, event, payload, attempts)
        return False

    def _send_to_failure_destination(
        self,
        logical_id: str,
        config: dict[str, Any],
        event: Any,
        error: Any,
        attempts: int,
    ) -> None:
        destination = config.get("DestinationConfig", {}).get("OnFailure", {})
        if not destination:
            LOG.error("%s failed %d times; no on-failure destination", logical_id, attempts)
            return
        queue_arn = str(_resolved(self._stack, destination.get("Destination")))
        record = {
            "version": "1.0",
            "timestamp": datetime.now(UTC).isoformat(),
            "requestContext": {
                "requestId": str(uuid.uuid4()),
                "functionArn": f"{self._stack.function_arns[logical_id]}:$LATEST",
                "condition": "RetriesExhausted",
                "approximateInvokeCount": attempts,
            },
            "requestPayload": event,
            "responseContext": {
                "statusCode": 200,
                "executedVersion": "$LATEST",
                "functionError": "Unhandled",
            },
            "responsePayload": error,
        }
        send_to_queue(self._stack, queue_arn, json.dumps(record))

    def handle(self, request: HttpRequest) -> HttpResponse | None:
        """Lambda's Invoke REST call, or None when the request is not one."""
        found = INVOKE_PATH.match(request.path)
        if request.method.upper() != "POST" or found is None:
            return None
        name = unquote(found.group("name"))
        kind = request.header("x-amz-invocation-type") or "RequestResponse"
        try:
            event = json.loads(request.body or b"{}")
        except ValueError:
            return _error(400, "InvalidRequestContentException", "Could not parse request body.")
        try:
            self.function_for(name)
        except UnknownFunction:
            return _error(404, "ResourceNotFoundException", f"Function not found: {name}")
        if kind == "Event":
            threading.Thread(
                target=self.invoke_async, args=(name, event), name="lambda-async", daemon=True
            ).start()
            return HttpResponse(202, [("content-type", "application/json")], b"")
        if kind == "DryRun":
            return HttpResponse(204, [], b"")
        result, failed = self.invoke_sync(name, event)
        headers = [("content-type", "application/json"), ("x-amz-executed-version", "$LATEST")]
        if failed:
            headers.append(("x-amz-function-error", "Unhandled"))
        return HttpResponse(200, headers, json.dumps(result).encode("utf-8"))


def _error(status: int, kind: str, message: str) -> HttpResponse:
    body = json.dumps({"Type": "User", "message": message}).encode("utf-8")
    return HttpResponse(
        status, [("content-type", "application/json"), ("x-amzn-errortype", kind)], body
    )


def _unknown_operation() -> HttpResponse:
    return _error(404, "UnknownOperationException", "Unknown operation.")


def _resolved(stack: LocalStack, value: Any) -> Any:
    """An ARN written as ``!GetAtt Queue.Arn`` in a function's properties, resolved."""
    if isinstance(value, dict) and "Fn::GetAtt" in value:
        target, attr = value["Fn::GetAtt"]
        return stack.attribute(str(target), str(attr))
    return value


def send_to_queue(stack: LocalStack, queue_arn: str, body: str, **attributes: str) -> None:
    """Put one message on the stack's queue with ``queue_arn`` (a dead-letter or failure queue)."""
    sqs = boto3.client("sqs", region_name=stack.region)
    name = queue_arn.rsplit(":", 1)[-1]
    url = sqs.get_queue_url(QueueName=name)["QueueUrl"]
    sqs.send_message(
        QueueUrl=url,
        MessageBody=body,
        MessageAttributes={
            key: {"DataType": "String", "StringValue": value} for key, value in attributes.items()
        },
    )


class _EndpointHandler(BaseHTTPRequestHandler):
    server: _EndpointServer
    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:
        serve_one(self, self.server.lambdas.handle, _unknown_operation)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the functions log for themselves."""


class _EndpointServer(ThreadingHTTPServer):
    daemon_threads = True
    lambdas: LocalLambda


@contextmanager
def lambda_endpoint(lambdas: LocalLambda) -> Iterator[str]:
    """Serve only Lambda's Invoke API for ``lambdas`` on a free loopback port; yields its URL.

    For in-process test stacks, which have no local API server to carry it.
    """
    server = _EndpointServer(("127.0.0.1", 0), _EndpointHandler)
    server.lambdas = lambdas
    thread = serve_in_thread(server, "lambda-endpoint")
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
