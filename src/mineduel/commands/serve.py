"""``mineduel serve``: the whole backend on this machine, no AWS account (what ``make run`` runs).

Starts the local stack (an embedded moto provisioned from template.yaml, unless
``AWS_ENDPOINT_URL`` names another endpoint; the template's routes on the real handlers; the
scheduler loop), prints where to find it and how to try it, and runs until Ctrl-C.
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import sys

HELP = "Run the backend locally on an embedded AWS (moto), as template.yaml defines it."
DEFAULT_PORT = 3000


def configure(parser: argparse.ArgumentParser) -> None:
    """Add ``serve``'s arguments."""
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    parser.add_argument(
        "--port",
        type=int,
        default=int(os.environ.get("PORT") or DEFAULT_PORT),
        help=f"port to listen on ({DEFAULT_PORT}, or $PORT; 0 picks a free one)",
    )
    parser.add_argument("--quiet", action="store_true", help="do not print one line per request")


def banner(url: str, endpoint_url: str, embedded: bool) -> str:
    """What a newcomer needs to start: where the API is, its docs, and a first request."""
    aws = f"embedded moto at {endpoint_url}" if embedded else f"AWS_ENDPOINT_URL={endpoint_url}"
    return "\n".join(
        [
            f"MineDuel local stack on {url}  (AWS: {aws})",
            f"  API docs (Swagger UI): {url}/docs",
            f"  OpenAPI document:      {url}/openapi.json",
            "  Try it:",
            f"    curl -s -X POST {url}/v1/guests",
            f"    curl -s -X POST {url}/v1/games -H 'Authorization: Bearer <token>' \\",
            "         -H 'content-type: application/json' -d '{}'",
            "  Move the local clock 90 s on (deadlines fire):",
            f"    curl -s -X POST {url}/_local/clock -d '{{\"advance_s\": 90}}'",
            "  An account (Cognito on moto; the pool and client: GET /_local/config):",
            f"    .venv/bin/mineduel account sign-up --api {url} --email you@example.com",
            "  Ctrl-C stops.",
        ]
    )


def run(args: argparse.Namespace) -> int:
    """Start the stack, print the banner, wait for Ctrl-C (or SIGTERM), stop cleanly.

    The stop signals are taken over before the stack starts (a shell that starts us in the
    background would ignore SIGINT otherwise), so one sent during start-up stops the stack as
    soon as it is up; signals that come while stopping are ignored, so the exit code is 0.
    """
    from mineduel.local.stack import start_local_stack  # noqa: PLC0415  (heavy: moto, boto3)
    from mineduel.local.stop_signals import StopSignals  # noqa: PLC0415

    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    logging.getLogger("mineduel-local").setLevel(logging.WARNING if args.quiet else logging.INFO)
    embedded = not os.environ.get("AWS_ENDPOINT_URL")
    stops = StopSignals().install()
    try:
        try:
            stack = start_local_stack(args.host, args.port)
        except OSError as exc:
            where = f"{args.host}:{args.port}"
            print(f"mineduel serve: cannot listen on {where}: {exc}", file=sys.stderr)
            return 1
        print(banner(stack.url, stack.endpoint_url, embedded), flush=True)
        try:
            stops.wait()
        finally:
            print("\nStopping...", flush=True)
            stack.stop()
            # The interpreter's last collection walks every object the stack made (moto's
            # state, the environments' modules): measured at 5-7 s before exit. Nothing is left
            # to finalise once the stack has stopped, so those objects are frozen out of it.
            gc.freeze()
    finally:
        stops.close(ignore_further=True)
    return 0
