"""``mineduel serve`` as a newcomer runs it: a process that prints where it is and stops on Ctrl-C.

Here it is pointed at a moto server of the test's own through ``AWS_ENDPOINT_URL``, so the
test also sees that the stack provisions onto that endpoint instead of embedding one.
"""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import IO

import boto3
import pytest

from mineduel.local.moto_server import EmbeddedMoto
from mineduel.testing.api_client import ApiClient, http_transport

pytestmark = pytest.mark.http
BANNER = re.compile(r"MineDuel local stack on (http://127\.0\.0\.1:\d+)\s+\(AWS: (.*)\)")
STARTUP_S = 90


@pytest.fixture
def outside_moto() -> Iterator[EmbeddedMoto]:
    server = EmbeddedMoto().start()
    yield server
    server.stop()


def _lines(stream: IO[str]) -> queue.Queue[str]:
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        for line in stream:
            lines.put(line)

    threading.Thread(target=pump, daemon=True).start()
    return lines


def test_serve_runs_on_the_given_endpoint_and_stops_cleanly_on_ctrl_c(
    outside_moto: EmbeddedMoto,
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update(
        PORT="0",
        AWS_ENDPOINT_URL=outside_moto.endpoint_url,
        AWS_ACCESS_KEY_ID="local",
        AWS_SECRET_ACCESS_KEY="local",
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "mineduel.cli", "serve", "--quiet"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert process.stdout is not None
        lines = _lines(process.stdout)
        seen: list[str] = []
        while True:
            line = lines.get(timeout=STARTUP_S)
            seen.append(line)
            found = BANNER.search(line)
            if found:
                break
        url, aws = found.groups()
        assert aws == f"AWS_ENDPOINT_URL={outside_moto.endpoint_url}"
        banner = "".join(seen) + "".join(lines.get(timeout=5) for _ in range(4))
        assert f"{url}/docs" in banner

        client = ApiClient(http_transport(url))
        client.become_guest()
        game = client.create_game()
        assert game["status"] == "active"

        tables = boto3.client(
            "dynamodb",
            endpoint_url=outside_moto.endpoint_url,
            region_name="us-east-1",
            aws_access_key_id="local",
            aws_secret_access_key="local",
        ).list_tables()["TableNames"]
        assert len(tables) == 1

        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
