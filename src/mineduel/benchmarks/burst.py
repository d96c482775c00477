"""The token burst: do concurrent requests on the local stack ever run with each other's event?

Player A plays the bot in game G. At the same instant, 15 ``POST /v1/games/G/timeout`` with A's
token and 15 ``POST /v1/games/G/resign`` with guest B's token. Each request must be answered as
its own caller: A's timeouts ``409 deadline-not-passed`` (A's seat has time), B's resignations
``403 not-your-seat`` (B has no seat in G), and G stays active. A request that ran with the other
token's event shows as a resignation answered 200 (and G ended), a timeout answered
``not-your-seat``, or a 401. On Lambda one execution environment serves one request at a time,
so AWS is never affected; the local stack must hold the same. ``tests/http`` runs a few dozen
rounds; ``make bench`` (the soak) runs ``BURST_ROUNDS`` (100).
"""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, field

from mineduel.local.client import ApiClient, Reply, http_transport

PER_SIDE = 15
EXPECTED = {"timeout": (409, "deadline-not-passed"), "resign": (403, "not-your-seat")}


@dataclass
class BurstResult:
    """What the rounds answered."""

    rounds: int = 0
    crossed: int = 0
    """Answers that were not their own caller's (and games ended by someone without a seat)."""
    statuses: dict[str, int] = field(default_factory=dict)
    """``"timeout 409 deadline-not-passed": 1500``: every answer, by request and problem."""
    examples: list[str] = field(default_factory=list)


def _code(reply: Reply) -> str:
    try:
        return str(reply.json().get("code", ""))
    except ValueError:
        return ""


def _guest(url: str) -> ApiClient:
    client = ApiClient(http_transport(url))
    client.become_guest()
    return client


def _one_burst(a: ApiClient, b: ApiClient, game_id: str) -> list[tuple[str, Reply]]:
    """15 timeouts as A and 15 resignations as B on ``game_id``, released at one instant."""
    replies: list[tuple[str, Reply]] = []
    lock = threading.Lock()
    barrier = threading.Barrier(2 * PER_SIDE)

    def send(kind: str, client: ApiClient) -> None:
        barrier.wait()
        reply = client.call("POST", f"/v1/games/{game_id}/{kind}")
        with lock:
            replies.append((kind, reply))

    threads = [
        threading.Thread(target=send, args=(kind, client))
        for kind, client in [("timeout", a), ("resign", b)] * PER_SIDE
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return replies


def token_burst(url: str, rounds: int) -> BurstResult:
    """Run ``rounds`` bursts against the stack at ``url``; a new game whenever one ended."""
    result = BurstResult()
    a, b = _guest(url), _guest(url)
    counts: Counter[str] = Counter()
    game_id = ""
    for _ in range(rounds):
        if not game_id:
            game_id = a.create_game(bots=1, bot_level="easy")["game_id"]
        replies = _one_burst(a, b, game_id)
        result.rounds += 1
        for kind, reply in replies:
            code = _code(reply)
            counts[f"{kind} {reply.status} {code}".strip()] += 1
            if (reply.status, code) != EXPECTED[kind]:
                result.crossed += 1
                if len(result.examples) < 5:
                    result.examples.append(f"{kind}: {reply.status} {reply.body[:200]!r}")
        game = a.call("GET", f"/v1/games/{game_id}").json()
        if game["status"] != "active":
            result.crossed += 1
            result.examples.append(f"game {game_id} ended: {game.get('result')}")
            game_id = ""
    result.statuses = dict(counts)
    return result
