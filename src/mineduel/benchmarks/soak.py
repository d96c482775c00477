"""``make bench`` (soak): does one local stack stay light over hundreds of games?

``make run`` is the product for newcomers and client developers, and a stack is left running for
days. This benchmark starts ``mineduel serve`` as its own process (exactly what ``make run``
starts), has guests play whole games against the bot over HTTP, and after the first game and
after each checkpoint (50, 100 and 200 games by default) it stops playing and reads, from
``/proc``:

- the stack's resident memory (RSS),
- its CPU while nobody plays, as a share of one core (over ``IDLE_S`` seconds, and over
  ``FINAL_IDLE_S``, more than a minute, after the last game: the sweeper's minute included),
- the client-side latency of the commits played since the last checkpoint (p50 and p95),

then prints the figures with the growth per game and the ratio of each window's commit p50 to
the first game's. A refused commit (409 ``*-conflict``, a 429 from the gateway) is retried as a
client would: read the game again, then tap again. One player plays at a time (``SOAK_CLIENTS``
to change it), so each commit's latency is the stack's alone. ``SOAK_GAMES`` changes the number
of games (the checkpoints scale with it), ``SOAK_IDLE_S`` the idle reading, and
``BURST_ROUNDS`` the rounds of the isolation burst run at the end (``burst``; the test in
``tests/http`` runs fewer).

The targets (docs/local.md): after 200 games RSS at most 600 MB, at most 1 MB more a game,
idle CPU at most 3% of a core, commit p50 within 1.5x of the first game's.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from mineduel.local.client import ApiClient, Reply, http_transport, next_tap

from .burst import BurstResult, token_burst

GAMES = int(os.environ.get("SOAK_GAMES") or 200)
CLIENTS = int(os.environ.get("SOAK_CLIENTS") or 1)
BURST_ROUNDS = int(os.environ.get("BURST_ROUNDS") or 100)
IDLE_S = float(os.environ.get("SOAK_IDLE_S") or 6)
FINAL_IDLE_S = float(os.environ.get("SOAK_FINAL_IDLE_S") or 62)
"""The last idle reading spans more than a minute: the deadline sweeper's schedule
(``rate(1 minute)``) runs in it, so its share is in the figure (the five-minute jobs may not)."""
SETTLE_S = 2.0
"""Before idle CPU is read: the last game's stream records and fan-out have run by then."""
GAMES_PER_GUEST = 10
BOT_LEVEL = "easy"
PLAYER_LEVEL = "easy"
ATTEMPTS = 8
STARTUP_TIMEOUT_S = 120.0
STOP_TIMEOUT_S = 60.0
TARGETS = {"rss_mb": 600.0, "growth_mb_per_game": 1.0, "idle_cpu": 0.03, "p50_ratio": 1.5}
_BANNER = re.compile(r"MineDuel local stack on (http://\S+)")
_TICKS = os.sysconf("SC_CLK_TCK")


def checkpoints(games: int) -> list[int]:
    """The first game, then a quarter, half and all of ``games`` (50, 100, 200 for 200)."""
    marks = {1, max(1, games // 4), max(1, games // 2), games}
    return sorted(marks)


class StackProcess:
    """``mineduel serve --port 0`` in a process of its own; its memory and CPU from /proc."""

    def __init__(self) -> None:
        env = {k: v for k, v in os.environ.items() if k != "AWS_ENDPOINT_URL"}
        env["PYTHONUNBUFFERED"] = "1"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "mineduel.cli", "serve", "--port", "0", "--quiet"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
        self.url = self._wait_for_banner()
        self.output: list[str] = []
        self._reader = threading.Thread(target=self._drain, name="soak-stack-output", daemon=True)
        self._reader.start()

    def _wait_for_banner(self) -> str:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        seen: list[str] = []
        stdout = self._stdout()
        while time.monotonic() < deadline:
            line = stdout.readline()
            if not line:
                break
            seen.append(line)
            found = _BANNER.search(line)
            if found:
                return found.group(1)
        self.process.kill()
        raise RuntimeError("the stack did not start:\n" + "".join(seen[-40:]))

    def _stdout(self) -> IO[str]:
        if self.process.stdout is None:
            raise RuntimeError("the stack's output is not piped")
        return self.process.stdout

    def _drain(self) -> None:
        for line in self._stdout():
            self.output.append(line)
            del self.output[:-200]

    def rss_mb(self) -> float:
        """Resident memory now, in MB (VmRSS)."""
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        kilobytes = int(re.search(r"^VmRSS:\s+(\d+)", status, re.M).group(1))  # type: ignore[union-attr]
        return kilobytes / 1024

    def cpu_s(self) -> float:
        """User + system CPU seconds used so far, every thread included."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICKS

    def threads(self) -> int:
        """How many threads the stack runs."""
        return len(os.listdir(f"/proc/{self.process.pid}/task"))

    def idle_cpu(self, seconds: float) -> float:
        """The share of one core the stack used over ``seconds`` with nobody playing."""
        before, started = self.cpu_s(), time.monotonic()
        time.sleep(seconds)
        return (self.cpu_s() - before) / (time.monotonic() - started)

    def stop(self) -> float:
        """SIGTERM, as Ctrl-C would; how long the stack took to exit (s)."""
        started = time.monotonic()
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return float("inf")
        return time.monotonic() - started


@dataclass
class Window:
    """What the games since the last checkpoint measured."""

    games: int
    commit_ms: list[float] = field(default_factory=list)
    retries: int = 0


@dataclass
class Checkpoint:
    """The figures read after ``games`` games."""

    games: int
    rss_mb: float
    idle_cpu: float
    threads: int
    p50_ms: float
    p95_ms: float
    commits: int
    retries: int


def _retryable(reply: Reply) -> bool:
    """What a client retries after reading again: ``Reply.retryable``, or a commit on a move
    count the game has left (409 ``stale-move``)."""
    if reply.retryable:
        return True
    try:
        return reply.status == 409 and reply.json().get("code") == "stale-move"
    except ValueError:
        return False


def _expect(reply: Reply, status: int, what: str) -> Any:
    if reply.status != status:
        raise AssertionError(f"{what}: expected {status}, got {reply.status}: {reply.body[:300]!r}")
    return reply.json()


def with_retries(send: Callable[[], Reply], status: int, what: str, window: Window) -> Any:
    """``send()`` until it answers ``status``, retrying what a client retries (with a short
    pause), at most ``ATTEMPTS`` times."""
    for attempt in range(ATTEMPTS):
        reply = send()
        if reply.status == status:
            return reply.json()
        if not _retryable(reply) or attempt == ATTEMPTS - 1:
            _expect(reply, status, what)
        window.retries += 1
        time.sleep(0.05 * (attempt + 1))
    raise AssertionError("unreachable")


def play_game(client: ApiClient, window: Window) -> int:
    """One whole game against the bot; how many commits it took."""
    game = with_retries(
        lambda: client.call("POST", "/v1/games", {"bots": 1, "bot_level": BOT_LEVEL}),
        201,
        "create a game",
        window,
    )
    commits = 0
    path = f"/v1/games/{game['game_id']}"
    while game["status"] == "active":
        row, col = next_tap(game, PLAYER_LEVEL)
        started = time.perf_counter()
        reply = client.commit(game, row, col)
        elapsed = (time.perf_counter() - started) * 1000
        if reply.status == 200:
            window.commit_ms.append(elapsed)
            game = reply.json()["game"]
            commits += 1
            continue
        if not _retryable(reply):
            _expect(reply, 200, "a commit")
        window.retries += 1
        game = with_retries(lambda: client.call("GET", path), 200, "read the game", window)
    return commits


class Players:
    """``CLIENTS`` guests playing at once, each a new guest every ``GAMES_PER_GUEST`` games."""

    def __init__(self, url: str) -> None:
        self._url = url
        self._lock = threading.Lock()
        self._played = 0
        self.failures: list[BaseException] = []

    def _client(self, window: Window) -> ApiClient:
        client = ApiClient(http_transport(self._url))
        guest = with_retries(lambda: client.call("POST", "/v1/guests"), 201, "a guest", window)
        client.token = guest["token"]
        return client

    def play(self, games: int, window: Window) -> None:
        """Play until ``games`` games have been played in all (this call's share and the
        others'), ``CLIENTS`` at a time."""

        def worker() -> None:
            client: ApiClient | None = None
            mine = 0
            while True:
                with self._lock:
                    if self._played >= games or self.failures:
                        return
                    self._played += 1
                try:
                    if client is None or mine % GAMES_PER_GUEST == 0:
                        client = self._client(window)
                    play_game(client, window)
                    mine += 1
                except BaseException as exc:
                    with self._lock:
                        self.failures.append(exc)
                    return

        threads = [threading.Thread(target=worker, name=f"soak-{i}") for i in range(CLIENTS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if self.failures:
            raise self.failures[0]


def _percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def soak(games: int = GAMES) -> tuple[list[Checkpoint], dict[str, float], BurstResult | None]:
    """Play ``games`` games on one stack, reading the figures at each checkpoint."""
    marks = checkpoints(games)
    results: list[Checkpoint] = []
    extra: dict[str, float] = {}
    burst: BurstResult | None = None
    started = time.monotonic()
    stack = StackProcess()
    try:
        extra["startup_rss_mb"] = stack.rss_mb()
        time.sleep(SETTLE_S)
        extra["startup_idle_cpu"] = stack.idle_cpu(IDLE_S)
        players = Players(stack.url)
        for mark in marks:
            window = Window(games=mark)
            players.play(mark, window)
            time.sleep(SETTLE_S)
            idle = stack.idle_cpu(FINAL_IDLE_S if mark == marks[-1] else IDLE_S)
            results.append(
                Checkpoint(
                    games=mark,
                    rss_mb=stack.rss_mb(),
                    idle_cpu=idle,
                    threads=stack.threads(),
                    p50_ms=_percentile(window.commit_ms, 0.5),
                    p95_ms=_percentile(window.commit_ms, 0.95),
                    commits=len(window.commit_ms),
                    retries=window.retries,
                )
            )
            print(_line(results[-1], results[0]), flush=True)
        if BURST_ROUNDS:
            burst = token_burst(stack.url, BURST_ROUNDS)
            extra["after_burst_rss_mb"] = stack.rss_mb()
        extra["play_s"] = time.monotonic() - started
    finally:
        if stack.process.poll() is None:
            extra["stop_s"] = stack.stop()
        else:
            print("the stack died:\n" + "".join(stack.output[-40:]), file=sys.stderr)
    return results, extra, burst


def _line(point: Checkpoint, first: Checkpoint) -> str:
    ratio = point.p50_ms / first.p50_ms if first.p50_ms else float("nan")
    return (
        f"| {point.games} | {point.rss_mb:.0f} | {point.idle_cpu * 100:.1f}% | {point.threads} "
        f"| {point.p50_ms:.0f} | {point.p95_ms:.0f} | {ratio:.2f} | {point.commits} "
        f"| {point.retries} |"
    )


def report(points: list[Checkpoint], extra: dict[str, float], burst: BurstResult | None) -> str:
    """The figures as markdown, and each target met or not."""
    first, last = points[0], points[-1]
    growth = (
        (last.rss_mb - points[1].rss_mb) / (last.games - points[1].games)
        if len(points) > 2 and last.games > points[1].games
        else float("nan")
    )
    ratio = last.p50_ms / first.p50_ms
    checks = {
        "rss_mb": last.rss_mb <= TARGETS["rss_mb"],
        "growth_mb_per_game": growth <= TARGETS["growth_mb_per_game"],
        "idle_cpu": last.idle_cpu <= TARGETS["idle_cpu"],
        "p50_ratio": ratio <= TARGETS["p50_ratio"],
    }
    lines = [
        f"Started: RSS {extra['startup_rss_mb']:.0f} MB, idle CPU "
        f"{extra['startup_idle_cpu'] * 100:.1f}% of a core.",
        f"RSS growth from game {points[1].games} to {last.games}: {growth:.2f} MB a game "
        f"(target <= {TARGETS['growth_mb_per_game']:.0f}: {_ok(checks['growth_mb_per_game'])}).",
        f"RSS after {last.games} games: {last.rss_mb:.0f} MB (target <= "
        f"{TARGETS['rss_mb']:.0f}: {_ok(checks['rss_mb'])}); idle CPU "
        f"{last.idle_cpu * 100:.1f}% of a core (target <= {TARGETS['idle_cpu'] * 100:.0f}%: "
        f"{_ok(checks['idle_cpu'])}).",
        f"Commit p50 of the last window / of the first game: {ratio:.2f} (target <= "
        f"{TARGETS['p50_ratio']}: {_ok(checks['p50_ratio'])}).",
    ]
    if burst is not None:
        lines.append(
            f"Token burst ({burst.rounds} rounds of 15 timeouts with A's token and 15 "
            f"resignations with B's, at once, on A's game): {burst.crossed} crossed over "
            f"(answers: {json.dumps(burst.statuses, sort_keys=True)}); RSS after it "
            f"{extra['after_burst_rss_mb']:.0f} MB."
        )
    lines.append(
        f"Played in {extra.get('play_s', float('nan')):.0f} s; the stack stopped in "
        f"{extra.get('stop_s', float('nan')):.1f} s."
    )
    return "\n".join(lines)


def _ok(met: bool) -> str:
    return "met" if met else "NOT MET"


def main() -> None:
    """Print the soak figures (``make bench``)."""
    print(
        f"\n## Soak: one local stack, {GAMES} games vs the {BOT_LEVEL} bot, "
        f"{CLIENTS} player{'s' if CLIENTS > 1 else ''} at a time\n"
    )
    print(
        "| games | RSS MB | idle CPU | threads | commit p50 ms | p95 ms | p50 / first game's "
        "| commits | retried |"
    )
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    points, extra, burst = soak()
    print()
    print(report(points, extra, burst))


if __name__ == "__main__":
    main()
