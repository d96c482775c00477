"""The whole local stack in one call: AWS (moto), the template's resources, the API, the scheduler.

:func:`start_local_stack` is what ``mineduel serve`` and the end-to-end tests run. It embeds a
moto server unless ``AWS_ENDPOINT_URL`` already names one, provisions template.yaml on it,
exports the functions' environment, and serves the template's routes on a threading HTTP server
with a scheduler loop firing due schedules. With the embedded moto, it also runs DynamoDB's TTL
process (``ttl``), keeps the stream to its 24 hours by the stack's clock, and lets the stream
trigger and the scheduler sleep until moto is written (``moto_patch``). Everything it changed in
``os.environ``, in the service's clock and in the moto patch's clock is put back by
:meth:`RunningStack.stop`, so a test session can go on afterwards.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import boto3
from mineduel_service.platform import clock
from mineduel_service.platform.config import reset_config

from mineduel.openapi.generate import build, render
from mineduel.template import ROOT_TEMPLATE, Template, TemplateError

from . import moto_patch
from .cognito_clock import follow_local_clock
from .cors import Cors
from .environments import EnvironmentPool
from .lambda_service import LocalLambda, send_to_queue
from .moto_server import EmbeddedMoto
from .provision import DEFAULT_STACK, LocalStack, provision, run_deploy_requests
from .queues import QueuePoller, queue_pollers
from .routing import Route, Router
from .scheduler import SchedulerLoop, role_allows_invoke
from .server import LocalApi, LocalClock, make_http_server
from .serving import serve_in_thread
from .streams import StreamPoller, stream_pollers
from .throttle import RouteThrottle
from .ttl import TtlProcess
from .websocket import API_TYPE, STAGE_TYPE, LiveGateway, WebSocketRoutes

DEFAULT_REGION = "us-east-1"
SCHEDULE_GROUP_TYPE = "AWS::Scheduler::ScheduleGroup"
# moto accepts any credentials; these keep boto3 from looking for real ones.
_LOCAL_CREDENTIALS = {"AWS_ACCESS_KEY_ID": "local", "AWS_SECRET_ACCESS_KEY": "local"}
# Current botocore sends DynamoDB (and its streams) to account-based endpoints, which moto does
# not answer; the stream poller needs the plain regional ones.
_ENDPOINT_SETTINGS = {"AWS_ACCOUNT_ID_ENDPOINT_MODE": "disabled"}
# The embedded moto checks TOTP codes only with this set (all its users share one secret), so
# a wrong authenticator code is refused locally as on AWS. Set it to "false" to accept any code.
_MOTO_SETTINGS = {"MOTO_COGNITO_IDP_USER_POOL_ENABLE_TOTP": "true"}


def schedule_groups_of(stack: LocalStack) -> list[str]:
    """The physical names of the template's schedule groups (turn deadlines, housekeeping)."""
    groups = stack.template.resources_of_type(SCHEDULE_GROUP_TYPE)
    if not groups:
        raise TemplateError(f"the template declares no {SCHEDULE_GROUP_TYPE}")
    return [stack.ref(logical_id) for logical_id in groups]


def scheduler_for(stack: LocalStack, lambdas: LocalLambda) -> SchedulerLoop:
    """The local Scheduler over every schedule group of ``stack``, by the service's clock."""
    iam = boto3.client("iam", region_name=stack.region)
    return SchedulerLoop(
        boto3.client("scheduler", region_name=stack.region),
        schedule_groups_of(stack),
        clock.now,
        lambdas.invoke_async,
        allowed=lambda role, target: role_allows_invoke(iam, role, target),
        dead_letter=lambda arn, body, attributes: send_to_queue(stack, arn, body, **attributes),
    )


def live_gateway_for(stack: LocalStack, invoke: Callable[[str, object], object]) -> LiveGateway:
    """The template's WebSocket API on a local WebSocket server (not started yet)."""
    apis = stack.template.resources_of_type(API_TYPE)
    stages = stack.template.resources_of_type(STAGE_TYPE)
    if len(apis) != 1 or len(stages) != 1:
        raise TemplateError("the local stack serves exactly one WebSocket API with one stage")
    routes = WebSocketRoutes.from_template(
        stack.template, stack.ref(next(iter(apis))), stack.ref(next(iter(stages)))
    )
    return LiveGateway(routes, invoke)


def pollers_for(stack: LocalStack, lambdas: LocalLambda) -> list[StreamPoller]:
    """A stream poller for each function the template feeds from a table's stream; a failed
    invocation raises, so the poller retries the batch as Lambda would."""

    def deliver(logical_id: str, event: dict[str, object]) -> object:
        result, failed = lambdas.invoke_sync(stack.function_arns[logical_id], event)
        if failed:
            raise RuntimeError(f"{logical_id} failed: {result}")
        return result

    return stream_pollers(stack.template, stack.resolve, stack.region, deliver)


def queue_pollers_for(stack: LocalStack, lambdas: LocalLambda) -> list[QueuePoller]:
    """A queue poller for each function the template feeds from an SQS queue."""

    def deliver(logical_id: str, event: dict[str, object]) -> object:
        result, failed = lambdas.invoke_sync(stack.function_arns[logical_id], event)
        if failed:
            raise RuntimeError(f"{logical_id} failed: {result}")
        return result

    def queue_of(expression: object) -> tuple[str, str]:
        arn = str(stack.resolve(expression))
        for physical in stack.resources.values():
            if physical.attributes.get("Arn") == arn and "QueueUrl" in physical.attributes:
                return physical.attributes["QueueUrl"], arn
        raise TemplateError(f"no queue of the template has the ARN {arn}")

    return queue_pollers(stack.template, queue_of, stack.region, deliver)


def _waker(poller: StreamPoller) -> Callable[[str], None]:
    """The stream-write callback that wakes ``poller`` for writes to its table."""

    def wake(table_name: str) -> None:
        if table_name == poller.table_name:
            poller.wake()

    return wake


def router_for(template: Template) -> Router:
    """The HTTP API's routes, straight from the functions' ``HttpApi`` events."""
    return Router(Route(r.method, r.path, fn.logical_id) for r, fn in template.routes())


class _OpenApiCache:
    """Generates the document on first request (importing every handler takes a moment)."""

    def __init__(self, template: Template) -> None:
        self._template = template
        self._lock = threading.Lock()
        self._body: bytes | None = None

    def __call__(self) -> bytes:
        with self._lock:
            if self._body is None:
                self._body = render(build(self._template)).encode("utf-8")
            return self._body


@dataclass
class RunningStack:
    """A started local stack; :meth:`stop` undoes everything :func:`start_local_stack` did."""

    url: str
    endpoint_url: str
    provisioned: LocalStack
    pool: EnvironmentPool
    lambdas: LocalLambda
    scheduler: SchedulerLoop
    api: LocalApi
    live: LiveGateway
    streams: list[StreamPoller]
    queues: list[QueuePoller] = field(default_factory=list)
    ttl: TtlProcess | None = None
    """DynamoDB's TTL process (with the embedded moto only)."""
    _stoppers: list[Callable[[], None]] = field(default_factory=list, repr=False)

    def stop(self) -> None:
        """Stop serving, stop the scheduler and moto, restore the environment and the clock."""
        while self._stoppers:
            self._stoppers.pop()()


def web_origins(host: str, port: int) -> tuple[str, ...]:
    """The origins a browser gives the web client served on ``host:port`` (on the loopback
    address, by its name too: a newcomer may type either)."""
    origins = [f"http://{host}:{port}"]
    if host == "127.0.0.1":
        origins.append(f"http://localhost:{port}")
    return tuple(origins)


def start_local_stack(
    host: str = "127.0.0.1",
    port: int = 3000,
    *,
    template_path: Path | str = ROOT_TEMPLATE,
    region: str | None = None,
    stack_name: str = DEFAULT_STACK,
    poll_schedules: bool = True,
) -> RunningStack:
    """Provision and serve the template locally; port 0 picks a free port.

    ``poll_schedules=False`` leaves the scheduler loop idle: schedules then fire only when the
    clock is moved (``POST /_local/clock``), in the caller's thread (the cost benchmark's case).
    """
    stoppers: list[Callable[[], None]] = []
    saved = dict(os.environ)

    def restore_environment() -> None:
        os.environ.clear()
        os.environ.update(saved)
        reset_config()
        clock.reset()

    stoppers.append(restore_environment)
    try:
        region = region or os.environ.get("AWS_REGION") or DEFAULT_REGION
        for name, value in {**_LOCAL_CREDENTIALS, **_ENDPOINT_SETTINGS}.items():
            os.environ.setdefault(name, value)
        os.environ["AWS_DEFAULT_REGION"] = region
        endpoint = os.environ.get("AWS_ENDPOINT_URL")
        moto: EmbeddedMoto | None = None
        if not endpoint:
            for name, value in _MOTO_SETTINGS.items():
                os.environ.setdefault(name, value)
            moto = EmbeddedMoto(host="127.0.0.1").start()
            stoppers.append(moto.stop)
            # In this process, so its Cognito can stamp tokens by the local clock.
            stoppers.append(follow_local_clock())
            moto_patch.configure(clock.now)
            stoppers.append(moto_patch.configure)
            endpoint = os.environ["AWS_ENDPOINT_URL"] = moto.endpoint_url
        provisioned = provision(template_path, region=region, stack_name=stack_name)
        provisioned.export_environment()
        functions_env = provisioned.merged_environment()
        client_config = {
            "region": region,
            "aws_endpoint": endpoint,
            "user_pool_id": functions_env["USER_POOL_ID"],
            "user_pool_client_id": functions_env["USER_POOL_CLIENT_ID"],
        }

        pool = EnvironmentPool(provisioned)
        # What CloudFormation does before a stack is complete: the custom resources its own
        # functions serve (the daily duel's first commitments) are created.
        run_deploy_requests(provisioned, pool.invoke)
        lambdas = LocalLambda(provisioned, pool.invoke)
        loop = scheduler_for(provisioned, lambdas)
        if poll_schedules:
            if moto is not None:
                stoppers.append(moto_patch.on_schedule_write(loop.wake))
                loop.wake()
            loop.start()
            stoppers.append(loop.stop)
        live = live_gateway_for(provisioned, pool.invoke).start(host, 0)
        stoppers.append(live.stop)
        client_config["websocket_url"] = live.url
        pollers = pollers_for(provisioned, lambdas)
        for poller in pollers:
            if moto is not None:
                stoppers.append(moto_patch.on_stream_write(_waker(poller)))
                poller.wake()
            poller.start()
            stoppers.append(poller.stop)
        queues = queue_pollers_for(provisioned, lambdas)
        for queue in queues:
            queue.start()
            stoppers.append(queue.stop)
        ttl: TtlProcess | None = None
        if moto is not None:
            ttl = TtlProcess(moto.locked, clock.now).start()
            stoppers.append(ttl.stop)

        def advance(seconds: float) -> None:
            """The clock moves on: what has expired by then goes at once, as it would have
            gone while the time passed."""
            clock.advance(seconds)
            if ttl is not None:
                ttl.sweep()

        api = LocalApi(
            router_for(provisioned.template),
            pool.invoke,
            _OpenApiCache(provisioned.template),
            LocalClock(
                now=clock.now,
                advance=advance,
                mark=loop.mark,
                fire_due=lambda mark: loop.run_now(since=mark),
            ),
            Cors.from_template(provisioned.template.resources),
            lambdas,
            client_config,
            RouteThrottle.from_template(provisioned.template),
            live,
        )
        server = make_http_server(api, host, port)
        bound_host, bound_port = server.server_address[:2]
        if moto is not None:
            moto.browser.allow(*web_origins(str(bound_host), int(bound_port)))
        # moto cannot run functions, nor reach sockets: the service's Lambda client and its
        # WebSocket management client reach this server instead.
        os.environ["AWS_ENDPOINT_URL_LAMBDA"] = f"http://{bound_host!s}:{bound_port}"
        os.environ["AWS_ENDPOINT_URL_APIGATEWAYMANAGEMENTAPI"] = os.environ[
            "AWS_ENDPOINT_URL_LAMBDA"
        ]
        # The web client is served here (on AWS, by CloudFront): the share page links to it.
        os.environ["WEB_APP_URL"] = os.environ["AWS_ENDPOINT_URL_LAMBDA"]
        # Web Push to http://127.0.0.1:<port> (a test's push receiver): the local stack only.
        os.environ["PUSH_ALLOW_LOOPBACK"] = "true"
        reset_config()
        thread = serve_in_thread(server, "local-api")

        def stop_server() -> None:
            server.shutdown()
            server.server_close()
            thread.join()

        stoppers.append(stop_server)
        return RunningStack(
            url=f"http://{bound_host!s}:{bound_port}",
            endpoint_url=endpoint,
            provisioned=provisioned,
            pool=pool,
            lambdas=lambdas,
            scheduler=loop,
            api=api,
            live=live,
            streams=pollers,
            queues=queues,
            ttl=ttl,
            _stoppers=stoppers,
        )
    except BaseException:
        while stoppers:
            stoppers.pop()()
        raise
