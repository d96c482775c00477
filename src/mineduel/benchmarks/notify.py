"""What a notification costs and how soon it arrives, on the local stack (``make bench``).

Two accounts play a game with no socket open, each with a browser subscribed to Web Push (the
``push_receiver``, which checks and decrypts every push as a push service and a browser
would). Part one drives the table's stream and the notification queue in this thread, so each
AWS call of the fan-out, of the queue's event source (``ReceiveMessage``,
``DeleteMessageBatch``: billed as SQS requests on AWS) and of the delivery function is charged
to it (``metering``): calls, units and time per notification. Part two runs the stack's own
pollers, as ``make run`` does, and times each move from the commit's answer to the push at the
receiver. The figures go to docs/cost.md ("Notifications").
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from typing import Any

from mineduel.local.stack import RunningStack, start_local_stack
from mineduel.testing.accounts import signed_in
from mineduel.testing.api_client import ApiClient, http_transport
from mineduel.testing.players import next_tap
from mineduel.testing.push_receiver import Browser, PushReceiver

from .indexes import physical_tables
from .metering import Meter
from .prices import PRICES

TURNS = 20
LATENCY_SAMPLES = 20
SQS_REQUEST = 0.40 / 1e6  # standard queue, per request (64 KB chunks)
DELIVERY_MEMORY_GB = 0.25  # template.yaml: NotifyDeliverFunction MemorySize 256
SNS_MOBILE_PUSH = 0.50 / 1e6  # per mobile push notification published


def _players(stack: RunningStack, receiver: PushReceiver, tag: str) -> list[tuple[Any, Browser]]:
    found = []
    for name in (f"ann{tag}", f"bob{tag}"):
        client = signed_in(stack, name)
        browser = receiver.subscribe()
        reply = client.call(
            "POST", "/v1/me/push-subscriptions", {"kind": "web", **browser.to_json()}
        )
        if reply.status != 201:
            raise RuntimeError(f"subscribing answered {reply.status}: {reply.body[:200]!r}")
        found.append((client, browser))
    return found


def _game(players: list[tuple[Any, Browser]], tag: str) -> dict[str, Any]:
    (ann, _), (bob, _) = players
    body = {"bots": 0, "invite": [f"bob{tag}"], "move_deadline_s": 86400}
    game = ann.call("POST", "/v1/games", body).json()
    return dict(bob.call("POST", f"/v1/games/{game['game_id']}/join", {}).json())


def measure_cost(stack: RunningStack, meter: Meter) -> dict[str, Any]:
    """A game of ``TURNS`` passed turns, the stream and the queue driven here, metered."""
    for poller in stack.streams:
        poller.stop()
    for waiting in stack.queues:
        waiting.stop()
    (stream,) = stack.streams
    (queue,) = stack.queues
    key = ApiClient(http_transport(stack.url)).call("GET", "/v1/push/vapid-key").json()
    with PushReceiver(key["public_key"]) as receiver:
        players = _players(stack, receiver, "bench")
        game = _game(players, "bench")
        stream.run_now()
        queue.run_now()  # the invitation and the first turn, and the first use of the key
        before = len(receiver.received)
        turns = 0
        while turns < TURNS and game["status"] == "active":
            seat = game["turn"]["seat"]
            row, col = next_tap(game)
            game = players[seat][0].commit(game, row, col).json()["game"]
            with meter.measure("fan-out"):
                stream.run_now()
            with meter.measure("delivery"):
                queue.run_now()
            if game["turn"]["seat"] != seat:
                turns += 1
        told = len(receiver.received) - before
        pushed_bytes = sum(p.size for p in receiver.received[before:])
    samples = meter.by_label()
    calls: dict[str, Counter[str]] = {}
    for label in ("fan-out", "delivery"):
        calls[label] = Counter()
        for sample in samples[label]:
            calls[label].update(sample.operations())
        calls[label].pop("DynamoDB Streams:GetRecords", None)  # the stream trigger's: free
    delivering = [s for s in samples["delivery"] if s.count("SQS", {"DeleteMessageBatch"})]
    return {
        "turns": turns,
        "told": told,
        "calls": calls,
        "delivery_rru": sum(s.read_units for s in samples["delivery"]),
        "delivery_wru": sum(s.all_write_units for s in samples["delivery"]),
        "delivery_ms": statistics.median(s.seconds * 1000 for s in delivering),
        "push_bytes": pushed_bytes / max(told, 1),
        "empty_polls": sum(
            1 for s in samples["delivery"] if not s.count("SQS", {"DeleteMessageBatch"})
        ),
    }


def measure_latency(stack: RunningStack) -> list[float]:
    """Milliseconds from a commit's answer to the other player's push, pollers running."""
    key = ApiClient(http_transport(stack.url)).call("GET", "/v1/push/vapid-key").json()
    seen: list[float] = []
    with PushReceiver(key["public_key"]) as receiver:
        players = _players(stack, receiver, "late")
        game = _game(players, "late")
        receiver.wait_for(players[0][1], 1)  # the first turn's push
        while len(seen) < LATENCY_SAMPLES and game["status"] == "active":
            seat = game["turn"]["seat"]
            row, col = next_tap(game)
            game = players[seat][0].commit(game, row, col).json()["game"]
            answered = time.monotonic()
            other = game["turn"]["seat"]
            if other == seat:
                continue
            browser = players[other][1]
            push = receiver.wait_for(browser, len(receiver.pushes(browser)) + 1)[-1]
            seen.append((push.at - answered) * 1000)
    return seen


def main() -> None:
    """Measure and print (``make bench``)."""
    print("\n== notifications: what one costs, and how soon it arrives (local stack) ==")
    meter = Meter()  # before the stack: every client made from now on is metered
    stack = start_local_stack(port=0, poll_schedules=False)
    try:
        meter.tables.update(physical_tables(stack.provisioned))
        latency = measure_latency(stack)
        found = measure_cost(stack, meter)
    finally:
        stack.stop()
    told = found["told"]
    fan, delivery = found["calls"]["fan-out"], found["calls"]["delivery"]
    print(f"{found['turns']} turns passed, {told} pushes received, decrypted and checked")
    print("fan-out calls added, per notification:")
    print(f"  SQS SendMessageBatch: {fan['SQS:SendMessageBatch'] / told:.2f}")
    print("delivery calls, per notification (the event source's SQS calls included):")
    for name, n in sorted(delivery.items()):
        print(f"  {name}: {n / told:.2f}")
    batches = delivery["SQS:DeleteMessageBatch"]
    print(
        f"  of the receives, {delivery['SQS:ReceiveMessage'] - batches} found nothing: the "
        "event source's polling (on AWS five long polls of 20 s: about $0.26 a month, however "
        "many notifications)"
    )
    rru, wru = found["delivery_rru"] / told, found["delivery_wru"] / told
    print(f"DynamoDB per notification: {rru:.2f} RRU, {wru:.2f} WRU")
    print(f"delivery invocation, median wall time here: {found['delivery_ms']:.0f} ms")
    print(f"a push's body: {found['push_bytes']:.0f} bytes")
    # One receive that found the batch and one delete per batch: the rest is polling.
    sqs = (fan["SQS:SendMessageBatch"] + 2 * batches) / told
    lam = PRICES.lambda_request + PRICES.lambda_gb_second_arm64 * DELIVERY_MEMORY_GB * (
        found["delivery_ms"] / 1000
    )
    dynamo = rru * PRICES.dynamodb_read_unit + wru * PRICES.dynamodb_write_unit
    web = sqs * SQS_REQUEST + lam + dynamo
    print(
        f"cost of a Web Push notification: ${web * 1e6:.2f} per million "
        f"(SQS {sqs:.2f} requests ${sqs * SQS_REQUEST * 1e6:.2f}, Lambda ${lam * 1e6:.2f}, "
        f"DynamoDB ${dynamo * 1e6:.2f}); a mobile one adds SNS's ${SNS_MOBILE_PUSH * 1e6:.2f}"
    )
    ordered = sorted(latency)
    print(
        f"latency, commit answered -> push received ({len(ordered)} turns): median "
        f"{statistics.median(ordered):.0f} ms, p90 {ordered[int(len(ordered) * 0.9) - 1]:.0f} ms, "
        f"max {ordered[-1]:.0f} ms"
    )


if __name__ == "__main__":
    main()
