"""What live push costs and how fast it is, on the local stack (``make bench``).

Two parts, both with real WebSocket clients on the local stack's WebSocket server:

- cost: a guest plays the bot with its own socket and one spectator subscribed; the fan-out
  function is driven from the table's stream in this thread, so each of its AWS calls is
  charged to it (``metering``): calls, read units and messages per write and per move. (The
  stream reads themselves, ``GetRecords``, are Lambda's trigger's on AWS and free: left out.
  A commit's own calls are unchanged: ``tests/service/test_cost_budget.py`` holds them.)
- latency: with the stack's own stream poller running (as ``make run`` does), the time from a
  commit's answer to the message on the other player's socket.

The printed figures go to docs/cost.md ("Live push").
"""

from __future__ import annotations

import json
import statistics
import threading
import time
from collections import Counter
from typing import Any

from websockets.sync.client import connect

from mineduel.local.stack import RunningStack, start_local_stack
from mineduel.testing.api_client import ApiClient, http_transport
from mineduel.testing.players import next_tap

from .indexes import physical_tables
from .metering import Meter
from .prices import PRICES

COMMITS = 30
LATENCY_SAMPLES = 30
WEBSOCKET_MESSAGE = 1.00 / 1e6  # API Gateway WebSocket: per message (32 KB units), first 1 billion
FANOUT_MEMORY_GB = 0.25  # template.yaml: LiveFanoutFunction MemorySize 256


def _subscribe(url: str, token: str | None, game_id: str) -> Any:
    ws = connect(url + (f"/?token={token}" if token else "/"), open_timeout=10)
    ws.send(json.dumps({"action": "subscribe", "game_id": game_id}))
    json.loads(ws.recv(timeout=10))
    return ws


def measure_cost(stack: RunningStack, meter: Meter) -> dict[str, Any]:
    """Commits of a guest vs the bot, with a player's and a spectator's socket; the fan-out
    driven in this thread."""
    for poller in stack.streams:
        poller.stop()  # the fan-out runs here instead, under the meter
    (poller,) = stack.streams
    guest = ApiClient(http_transport(stack.url))
    guest.become_guest()
    game = guest.call("POST", "/v1/games", {"bots": 1, "bot_level": "easy"}).json()
    url = stack.live.url
    player = _subscribe(url, guest.token, game["game_id"])
    spectator = _subscribe(url, None, game["game_id"])
    poller.run_now()  # the subscriptions' own records
    moves = writes = received = 0
    for _ in range(COMMITS):
        if game["status"] != "active":
            break
        row, col = next_tap(game)
        answer = guest.commit(game, row, col).json()
        game = answer["game"]
        moves += len(answer["moves"])
        with meter.measure("fan-out") as fan:
            poller.run_now()
        writes += sum(1 for c in fan.calls if c.operation == "Query")
        for ws in (player, spectator):
            while True:
                try:
                    ws.recv(timeout=0.2)
                    received += 1
                except TimeoutError:
                    break
    player.close()
    spectator.close()
    fanouts = meter.by_label()["fan-out"]
    calls: Counter[str] = Counter()
    for sample in fanouts:
        calls.update(sample.operations())
    del calls["DynamoDB Streams:GetRecords"]  # the trigger's reads: free on AWS
    return {
        "commits": len(fanouts),
        "moves": moves,
        "writes": writes,
        "received": received,
        "fanout_calls": calls,
        "fanout_rru": sum(s.read_units for s in fanouts),
        "fanout_seconds": statistics.median(s.seconds for s in fanouts),
    }


def measure_latency(stack: RunningStack) -> list[float]:
    """Milliseconds from a commit's answer to the message on a second player's socket."""
    guest = ApiClient(http_transport(stack.url))
    guest.become_guest()
    url = stack.live.url
    seen: list[float] = []
    while len(seen) < LATENCY_SAMPLES:
        game = guest.call("POST", "/v1/games", {"bots": 1, "bot_level": "easy"}).json()
        ws = _subscribe(url, guest.token, game["game_id"])
        arrived: list[float] = []
        done = threading.Event()

        def listen(
            socket: Any = ws, stamps: list[float] = arrived, stop: threading.Event = done
        ) -> None:
            while not stop.is_set():
                try:
                    json.loads(socket.recv(timeout=0.5))
                    stamps.append(time.perf_counter())
                except TimeoutError:
                    continue
                except Exception:
                    return

        thread = threading.Thread(target=listen, daemon=True)
        thread.start()
        while game["status"] == "active" and len(seen) < LATENCY_SAMPLES:
            row, col = next_tap(game)
            before = len(arrived)
            game = guest.commit(game, row, col).json()["game"]
            answered = time.perf_counter()
            deadline = time.monotonic() + 5
            while len(arrived) == before and time.monotonic() < deadline:
                time.sleep(0.002)
            if len(arrived) > before:
                seen.append((arrived[before] - answered) * 1000)
        done.set()
        ws.close()
        thread.join()
    return seen


def main() -> None:
    """Measure and print (``make bench``)."""
    print("\n== live push: the fan-out's cost per move, and push latency (local stack) ==")
    meter = Meter()
    stack = start_local_stack(port=0, poll_schedules=False)
    try:
        meter.tables.update(physical_tables(stack.provisioned))
        latencies = measure_latency(stack)
        run = measure_cost(stack, meter)
    finally:
        stack.stop()
    per_write = {op: n / run["writes"] for op, n in sorted(run["fanout_calls"].items())}
    print(f"commits {run['commits']}, moves {run['moves']}, writes fanned out {run['writes']}")
    print(
        "the fan-out's AWS calls per write (mean): "
        + ", ".join(f"{k} {v:.2f}" for k, v in per_write.items())
    )
    rru = run["fanout_rru"] / run["writes"]
    posts = per_write.get("ApiGatewayManagementApi:PostToConnection", 0.0)
    events = run["fanout_calls"].get("EventBridge:PutEvents", 0) / run["writes"]
    moves_per_write = run["moves"] / run["writes"]
    print(f"  read units per write {rru:.2f}; messages per write {posts:.2f} (2 subscribers)")
    print(f"  messages received by the two sockets: {run['received']}")
    print(f"  fan-out handler time, median per batch: {run['fanout_seconds'] * 1000:.1f} ms")
    seconds = run["fanout_seconds"]
    usd_write = (
        PRICES.lambda_request
        + seconds * FANOUT_MEMORY_GB * PRICES.lambda_gb_second_arm64
        + rru * PRICES.dynamodb_read_unit
        + posts * WEBSOCKET_MESSAGE
        + events * PRICES.eventbridge_event
    )
    per_move = usd_write / moves_per_write
    print(f"  per write ${usd_write * 1e6:.2f} per million; per move ${per_move * 1e6:.2f}")
    print(f"  per million ({moves_per_write:.2f} moves a write)")
    ordered = sorted(latencies)
    p90 = ordered[int(len(ordered) * 0.9)]
    print(
        f"push latency, commit answered -> message on the socket ({len(ordered)} moves): "
        f"median {statistics.median(ordered):.0f} ms, p90 {p90:.0f} ms, max {ordered[-1]:.0f} ms"
    )


if __name__ == "__main__":
    main()
