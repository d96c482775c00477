"""``make bench`` (cost): AWS calls, DynamoDB units and time per request; $ per 1,000 games.

Runs the local stack (the real handlers on moto, provisioned from template.yaml), plays whole
guest-vs-bot games through :meth:`LocalApi.handle` in this thread, and charges every AWS call
each request makes to that request (botocore hooks, see ``metering``), and the table's
secondary indexes' writes to the write that caused them (``indexes``). After each request the
live fan-out is fed the table stream's records that request produced and metered the same way
(``fanout``). It prints, per request type: the calls by service and operation, DynamoDB read,
write and index write units, the handler's wall time; then each function's cold import time (a
fresh interpreter per function), the DynamoDB units per move, the budget check, and the cost of
1,000 games at the prices in ``prices``, the fan-out's lines included.
Times are local (moto over loopback, this machine), so read them as relative, not as AWS's.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import re
import statistics
import tempfile
import warnings
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import boto3
from mineduel_service.games import store
from mineduel_service.platform import clock
from mineduel_service.play import results

from mineduel.local.http_events import HttpRequest, HttpResponse
from mineduel.local.scheduler import SchedulerLoop
from mineduel.local.stack import RunningStack, schedule_groups_of, start_local_stack
from mineduel.template import load_template
from mineduel.testing.accounts import sign_in
from mineduel.testing.api_client import ApiClient, Reply
from mineduel.testing.players import next_tap

from .capacity import item_size
from .fanout import FUNCTION as FANOUT_FUNCTION
from .fanout import MeteredFanout, billed_bus_events
from .imports import cold_import_ms, first_use_ms, import_breakdown, lambda_like, libraries_ms
from .indexes import physical_tables
from .metering import Meter, Sample, median_ms
from .prices import PRICES, REGION, FanoutUsage, GameUsage, cost_lines, fanout_cost_lines

GAMES = 12
THINK_S = 5
"""Assumed: a person takes about five seconds over a tap. The service's clock moves on by that
much before each of the players' commits, so the game's times (its turn's deadline, and with it
its key in the ``deadlines`` index) move as they would in a played game; at the benchmark's own
pace (commits a fraction of a second apart, times in whole seconds) about half the commits
would find the deadline unchanged and write no index entry."""
AWS_LATENCY_MS = {
    "DynamoDB": {"TransactWriteItems": 15.0, "default": 6.0},
    "KMS": {"default": 8.0},
    "Scheduler": {"default": 20.0},
    "Lambda": {"default": 30.0},
    "S3": {"default": 20.0},
    "EventBridge": {"default": 15.0},
}
"""Assumed in-region latency of each AWS call on Lambda (typical medians), billed as the
function's duration instead of moto's time over loopback on this machine, which is not AWS's."""
CLIENT_RETRIES = 3
"""A refused write the API says to retry (409 ``*-conflict``) is retried, as a client would."""
SQS_REQUEST = 0.40 / 1e6  # standard queue, per request
TARGET_USD = 0.35  # per 1,000 games against the bot, everything they cause included
COLD_START_SHARE = 0.05  # assumed share of requests that land on a new execution environment
LAMBDA_PLATFORM_LOG_BYTES = 350  # assumed: Lambda's own START, END and REPORT lines (INFO)
COMMIT_FUNCTION = "CommitMoveFunction"  # most of a game's requests: its logs, traces for all
LABEL_FUNCTIONS = {
    "guests": "GuestsFunction",
    "create": "CreateGameFunction",
    "commit": "CommitMoveFunction",
    "get": "GetGameFunction",
    "verify": "VerifyFunction",
}
"""The template function that serves each request type of a typical game."""
BUDGETS: dict[str, dict[str, int]] = {
    "commit": {"DynamoDB reads": 1, "DynamoDB writes": 1, "KMS": 1, "Scheduler": 1},
    "commit+key": {"DynamoDB reads": 1, "DynamoDB writes": 1, "KMS": 1, "Scheduler": 1},
    "get": {"DynamoDB reads": 1, "DynamoDB writes": 0, "KMS": 0},
}
"""Per label, the most a request may ask of AWS; a commit's is that of every commit but the one
that ends its game (``ENDING_BUDGET``)."""
ENDING_BUDGET = {"DynamoDB reads": 2, "DynamoDB writes": 2, "KMS": 1, "Scheduler": 1}
"""The commit that ends a game (either label) also applies the game's result, as designed
(docs/ratings.md): a ``BatchGetItem`` of the players' items and a second transaction, after
the game's own. Applying it later instead (the sweeper) would leave every finished game's
statistics stale for a minute, for no call saved."""


@dataclass
class Run:
    """What the scenario measured."""

    meter: Meter
    game_bytes: list[int]
    game_item_bytes: list[int]
    cold_import_ms: dict[str, float]
    import_breakdown: dict[str, float]
    libraries_ms: float
    first_use_ms: dict[str, float]
    imported_by: str
    """How the imports were measured (the interpreter, and why not Lambda-like if not)."""
    without_bytecode_ms: float | None
    """CommitMoveFunction's import with no compiled bytecode (layers as SAM's python builder
    ships them); None when measured in the development environment."""
    log_bytes_per_request: float
    skipped: list[str]
    fanout: dict[str, list[Sample]]
    """The live fan-out's invocations, by the label of the request whose writes caused them."""
    fanout_trigger: str
    """The batching assumed for the fan-out's invocations, from the template."""
    fanout_log_bytes: float
    """What the fan-out printed per invocation, plus Lambda's own lines."""


class Bench:
    """The scenario: a guest's whole games, a resignation, a timeout, a join of two accounts."""

    def __init__(self, stack: RunningStack, meter: Meter, fanout: MeteredFanout) -> None:
        self.stack = stack
        self.meter = meter
        self.fanout = fanout
        self.game_bytes: list[int] = []
        self.game_item_bytes: list[int] = []
        self.skipped: list[str] = []

    @contextlib.contextmanager
    def measure(self, label: str) -> Iterator[Sample]:
        """Measure one request under ``label``, then the live fan-out of what it wrote (the
        stream's records of earlier, unmeasured writes are dropped first)."""
        self.fanout.drop_pending()
        with self.meter.measure(label) as sample:
            yield sample
        self.fanout.after(label)

    def client(self, token: str | None = None) -> ApiClient:
        """A client through the meter that retries what a client retries (409 ``*-conflict``,
        429): each attempt is measured as the request it is."""
        return ApiClient(self._send, token, retries=CLIENT_RETRIES)

    def _send(self, request: HttpRequest) -> HttpResponse:
        label = self._label
        with self.measure(label) as sample:
            response = self.stack.api.handle(request)
        if label.startswith("commit") and response.status == 200:
            answer = json.loads(response.body)
            sample.moves = len(answer["moves"])
            sample.ended = answer["game"]["status"] == "finished"
        return response

    _label = "request"

    def as_(self, label: str) -> Bench:
        self._label = label
        return self

    def call(self, client: ApiClient, label: str, method: str, path: str, **kw: Any) -> Reply:
        self.as_(label)
        return client.call(method, path, **kw)

    def play_games(self) -> None:
        player = self.client()
        self.as_("guests")
        player.become_guest()
        for index in range(GAMES):
            self.as_("create")
            game = player.create_game()
            game_id = game["game_id"]
            keyed = index % 2 == 1  # every other game sends an Idempotency-Key with each commit
            while game["status"] == "active":
                row, col = next_tap(game)
                clock.advance(THINK_S)
                key = f"{game_id}-{game['move_count']}" if keyed else None
                self.as_("commit+key" if keyed else "commit")
                reply = player.commit(game, row, col, key=key)
                _expect(reply, 200)
                if keyed and game["move_count"] == 0:
                    self.as_("retry")
                    _expect(player.commit(game, row, col, key=key), 200)
                game = reply.json()["game"]
            first = self.call(player, "get", "GET", f"/v1/games/{game_id}")
            _expect(first, 200)
            again = self.call(
                player,
                "get 304",
                "GET",
                f"/v1/games/{game_id}",
                headers={"if-none-match": first.headers["etag"]},
            )
            _expect(again, 304)
            _expect(self.call(player, "moves", "GET", f"/v1/games/{game_id}/moves?after=0"), 200)
            _expect(self.call(player, "verify", "GET", f"/v1/games/{game_id}/verify"), 200)
            sizes = self._item_sizes(game_id)
            self.game_bytes.append(sum(sizes.values()))
            self.game_item_bytes.append(sizes["GAME"])

    def resign(self) -> None:
        player = self.client()
        self.as_("guests")
        player.become_guest()
        self.as_("create")
        game = player.create_game()
        _expect(self.call(player, "resign", "POST", f"/v1/games/{game['game_id']}/resign"), 200)

    def expire(self) -> None:
        """A missed deadline fired by its schedule. Only a turn someone waits for has one (a
        game between people; against the bot the sweeper ends it), so two accounts play."""
        try:
            tokens = [_account_token(name) for name in ("rhea", "sven")]
        except Exception as exc:
            self.skipped.append(f"expiry: no account tokens from moto's Cognito ({exc})")
            return
        host, other = (self.client(token) for token in tokens)
        for client, name in ((host, "rhea"), (other, "sven")):
            _expect(
                self.call(client, "expiry setup", "PUT", "/v1/me", body={"username": name}), 200
            )
        self.as_("expiry setup")
        body = {"bots": 0, "invite": ["sven"], "move_deadline_s": 60}
        game = host.call("POST", "/v1/games", body).json()
        path = f"/v1/games/{game['game_id']}"
        _expect(self.call(other, "expiry setup", "POST", f"{path}/join", body={}), 200)
        player = host
        clock.advance(61)

        def fire(arn: str, event: dict[str, Any]) -> Any:
            with self.measure("expiry"):
                return self.stack.pool.invoke_arn(arn, event)

        loop = SchedulerLoop(
            boto3.client("scheduler"), schedule_groups_of(self.stack.provisioned), clock.now, fire
        )
        fired = loop.tick()
        after = self.call(player, "get", "GET", f"/v1/games/{game['game_id']}").json()
        if not fired or (after.get("result") or {}).get("reason") != "timeout":
            raise AssertionError(f"the deadline did not expire the game: {fired} {after}")
        # What every other turn's schedule costs when it fires: a stale delivery.
        stale = {"game_id": game["game_id"], "move_count": 0, "deadline": clock.iso(clock.now())}
        with self.measure("expiry stale"):
            self.stack.pool.invoke_arn(get_config_expiry_arn(), stale)

    def join(self) -> None:
        try:
            host, guest = (self.client(_account_token(name)) for name in ("ada", "brian"))
        except Exception as exc:  # moto's Cognito is optional for the figures that matter
            self.skipped.append(f"join: no account tokens from moto's Cognito ({exc})")
            return
        self.as_("create")
        game = host.create_game(bots=0)
        joined = self.call(guest, "join", "POST", f"/v1/games/{game['game_id']}/join", body={})
        _expect(joined, 200)

    def people_game(self) -> None:
        """Two accounts: one invites the other by username, the other joins, both play the
        whole game (their taps chosen by the engine's bot on what each is shown). Every request
        is measured under a ``people ...`` label, so the game's total is what people cost."""
        try:
            tokens = [_account_token(name) for name in ("petra", "quinn")]
        except Exception as exc:
            self.skipped.append(f"people game: no account tokens from moto's Cognito ({exc})")
            return
        host, guest = (self.client(token) for token in tokens)
        for client, name in ((host, "petra"), (guest, "quinn")):
            _expect(
                self.call(client, "people profile", "PUT", "/v1/me", body={"username": name}), 200
            )
        self.as_("people create")
        game = host.call("POST", "/v1/games", {"bots": 0, "invite": ["quinn"]}).json()
        path = f"/v1/games/{game['game_id']}"
        game = self.call(guest, "people join", "POST", f"{path}/join", body={}).json()
        players = {0: host, 1: guest}
        while game["status"] == "active":
            seat = game["turn"]["seat"]
            row, col = next_tap(game)
            clock.advance(THINK_S)
            self.as_("people commit")
            reply = players[seat].commit(game, row, col)
            _expect(reply, 200)
            game = reply.json()["game"]
        _expect(self.call(host, "people history", "GET", "/v1/me/games?status=finished"), 200)

    # ------------------------------------------------------------------ ratings
    def rate(self) -> None:
        """What rating costs: the applier of a finished game measured alone (the inline run
        held back, as a crash would leave it; then applied as the sweeper would), unrated
        against rated, two and four seats; a rated resignation with its applier inline; the
        leaderboard snapshot; leaderboard and profile reads. Four accounts, listed, play ten
        four-seat rated games first (unmeasured) so they are established."""
        try:
            names = [f"rater-{n}" for n in "abcd"]
            players = [
                ApiClient(self.stack.api.handle, _account_token(n), retries=CLIENT_RETRIES)
                for n in names
            ]
        except Exception as exc:  # moto's Cognito is optional for the figures that matter
            self.skipped.append(f"ratings: no account tokens from moto's Cognito ({exc})")
            return
        for name, player in zip(names, players, strict=True):
            body = {"username": name, "settings": {"leaderboard": True}}
            _expect(player.call("PUT", "/v1/me", body), 200)
        seats = list(zip(players, names, strict=True))
        for index in range(10):
            rotated = seats[index % 4 :] + seats[: index % 4]
            _finish(_everyone_moved(rotated, rated=True), rotated)
        for label, count, rated in RATED_SCENARIOS:
            for _ in range(RATED_GAMES_EACH):
                game_id = _everyone_moved(seats[:count], rated=rated)
                with _applier_held_back():
                    _finish(game_id, seats[:count])
                record = store.get_game(game_id)
                if record is None or not record.results_pending:
                    raise AssertionError("the game's result was applied while held back")
                with self.measure(label):
                    results.apply(record)
        for _ in range(RATED_GAMES_EACH):
            game_id = _everyone_moved(seats[:2], rated=True)
            resign = self.client(players[1].token)
            _expect(self.call(resign, "resign+rate", "POST", f"/v1/games/{game_id}/resign"), 200)
        with self.measure("snapshot"):
            done = self.stack.pool.invoke("LeaderboardSnapshotFunction", {})
        if done["variants"].get("mine-duel", {}).get("players") != len(players):
            raise AssertionError(f"the snapshot did not list the established raters: {done}")
        anonymous, signed_in = self.client(), self.client(players[0].token)
        for _ in range(RATED_GAMES_EACH):
            _expect(self.call(anonymous, "board", "GET", "/v1/leaderboards/mine-duel"), 200)
            board = self.call(signed_in, "board+me", "GET", "/v1/leaderboards/mine-duel")
            _expect(board, 200)
            if board.json()["me"] is None:
                raise AssertionError("an established, listed player has no rank")
            _expect(self.call(anonymous, "profile", "GET", f"/v1/players/{names[0]}"), 200)

    def _item_sizes(self, game_id: str) -> dict[str, int]:
        """Bytes of each of the game's items by sort key (read outside any measurement)."""
        query = boto3.client("dynamodb").get_paginator("query")
        pages = query.paginate(
            TableName=os.environ["TABLE_NAME"],
            KeyConditionExpression="pk = :pk",
            ExpressionAttributeValues={":pk": {"S": f"GAME#{game_id}"}},
        )
        return {i["sk"]["S"]: item_size(i) for page in pages for i in page["Items"]}


RATED_GAMES_EACH = 3
RATED_SCENARIOS = (("apply 2p", 2, False), ("rate 2p", 2, True), ("rate 4p", 4, True))
"""(label, seats, rated): the applier measured alone on games of account seats."""


@contextlib.contextmanager
def _applier_held_back() -> Iterator[None]:
    """The request that ends a game leaves its result pending (as if it died right after its
    write), so the applier can be measured on its own."""
    saved = results.apply
    results.apply = lambda record: None
    try:
        yield
    finally:
        results.apply = saved


def _everyone_moved(seats: list[tuple[ApiClient, str]], *, rated: bool) -> str:
    """A game of ``seats`` (client and username; the first one hosts and invites the others)
    in which every seat has tapped once; unmeasured."""
    players = [client for client, _ in seats]
    invited = [name for _, name in seats[1:]]
    body = {"rated": rated, "bots": 0, "seats": len(players), "invite": invited}
    reply = players[0].call("POST", "/v1/games", body)
    _expect(reply, 201)
    game_id = str(reply.json()["game_id"])
    for player in players[1:]:
        _expect(player.call("POST", f"/v1/games/{game_id}/join", {}), 200)
    game = players[0].call("GET", f"/v1/games/{game_id}").json()
    moved: set[int] = set()
    while len(moved) < len(players):
        seat = game["turn"]["seat"]
        cell = "".join(game["board"]).index(".")
        reply = players[seat].commit(game, cell // game["width"], cell % game["width"])
        _expect(reply, 200)
        game = reply.json()["game"]
        moved.add(seat)
    return game_id


def _finish(game_id: str, seats: list[tuple[ApiClient, str]]) -> None:
    """Every seat but the first resigns, last seat first; unmeasured."""
    for player, _ in reversed(seats[1:]):
        _expect(player.call("POST", f"/v1/games/{game_id}/resign"), 200)


def _expect(reply: Reply, status: int) -> None:
    if reply.status != status:
        raise AssertionError(f"expected {status}, got {reply.status}: {reply.body[:300]!r}")


def _account_token(name: str) -> str:
    """An id token for a new account, ``<name>@example.com``, in the stack's user pool
    (moto's Cognito), where players sign in with their email."""
    idp = boto3.client("cognito-idp")
    return sign_in(idp, os.environ["USER_POOL_ID"], os.environ["USER_POOL_CLIENT_ID"], name)


def measure() -> Run:
    """Start the stack, play the scenario (its logs captured and counted), stop the stack."""
    meter = Meter()
    stack = start_local_stack(port=0, poll_schedules=False)
    try:
        meter.tables.update(physical_tables(stack.provisioned))
        functions = stack.provisioned.template.functions.values()
        commit = stack.provisioned.template.functions["CommitMoveFunction"].module_file
        with lambda_like() as (python, why_not), tempfile.TemporaryDirectory() as empty:
            imports = {fn.logical_id: cold_import_ms(fn.module_file, python) for fn in functions}
            breakdown = import_breakdown(commit, python)
            floor = libraries_ms(python)
            first_use = first_use_ms(commit, python)
            bare = None if why_not else cold_import_ms(commit, python.without_bytecode(Path(empty)))
            imported_by = python.description + (f"; {why_not}" if why_not else "")
        logs = io.StringIO()
        fanout = MeteredFanout(stack, meter, logs)
        bench = Bench(stack, meter, fanout)
        with contextlib.redirect_stdout(logs), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            bench.play_games()
            bench.resign()
            bench.join()
            bench.people_game()
            bench.expire()
            bench.rate()
        invocations = sum(len(s) for s in fanout.caused.values())
        requests = len(meter.samples) - invocations
        request_log = len(logs.getvalue().encode("utf-8")) - fanout.log_bytes
        return Run(
            meter=meter,
            game_bytes=bench.game_bytes,
            game_item_bytes=bench.game_item_bytes,
            cold_import_ms=imports,
            import_breakdown=breakdown,
            libraries_ms=floor,
            first_use_ms=first_use,
            imported_by=imported_by,
            without_bytecode_ms=bare,
            log_bytes_per_request=request_log / requests + platform_log_bytes(COMMIT_FUNCTION),
            skipped=bench.skipped,
            fanout=fanout.caused,
            fanout_trigger=fanout.trigger.describe(),
            fanout_log_bytes=fanout.log_bytes / max(invocations, 1)
            + platform_log_bytes(FANOUT_FUNCTION),
        )
    finally:
        stack.stop()


# ---------------------------------------------------------------------------- report
def _budget_of(samples: list[Sample]) -> dict[str, int]:
    return {
        "DynamoDB reads": max(s.dynamodb_reads() for s in samples),
        "DynamoDB writes": max(s.dynamodb_writes() for s in samples),
        "KMS": max(s.count("KMS") for s in samples),
        "Scheduler": max(s.count("Scheduler") for s in samples),
    }


def _calls_text(samples: list[Sample]) -> str:
    total: Counter[str] = Counter()
    for sample in samples:
        total.update(sample.operations())
    n = len(samples)
    return ", ".join(f"{op} {count / n:.2g}" for op, count in sorted(total.items())) or "none"


def report_requests(run: Run) -> list[str]:
    """The per-request table (WRU: the table's items; GSI: its secondary indexes' writes;
    ``fan-out``: the stream function's invocations), the index writes by index, and the budget
    check."""
    header = (
        f"{'request':<10} {'n':>3} {'RRU':>5} {'WRU':>5} {'GSI':>5} {'ms med':>7} {'ms max':>7}"
    )
    lines = [f"{header}  AWS calls per request (mean)"]
    indexed: list[str] = []
    for label, samples in run.meter.by_label().items():
        n = len(samples)
        lines.append(
            f"{label:<10} {n:>3} "
            f"{sum(s.read_units for s in samples) / n:>5.1f} "
            f"{sum(s.write_units for s in samples) / n:>5.1f} "
            f"{sum(s.index_write_units for s in samples) / n:>5.1f} "
            f"{median_ms(samples):>7.1f} {max(s.seconds for s in samples) * 1000:>7.1f}  "
            f"{_calls_text(samples)}"
        )
        by_index = _index_units(samples)
        if by_index:
            shown = ", ".join(f"{name} {units / n:.2f}" for name, units in by_index.items())
            indexed.append(f"  {label:<12} {shown}")
    lines += ["", "secondary index WRU per request (mean), by index:", *indexed, ""]
    groups = run.meter.by_label()
    for label, budget in BUDGETS.items():
        samples = [s for s in groups.get(label, []) if not s.ended]
        name = f"{label} (not ending its game)" if label.startswith("commit") else label
        lines.append(_budget_line(name, samples, budget))
    ending = [s for s in all_commits(run) if s.ended]
    lines.append(_budget_line("commit ending its game", ending, ENDING_BUDGET))
    return lines


def _budget_line(name: str, samples: list[Sample], budget: dict[str, int]) -> str:
    if not samples:
        return f"budget {name}: NOT MEASURED"
    worst = _budget_of(samples)
    over = {k: worst[k] for k, limit in budget.items() if worst[k] > limit}
    verdict = "within budget" if not over else f"OVER BUDGET {over}"
    shown = ", ".join(f"{k} {worst[k]}/{limit}" for k, limit in budget.items())
    return f"budget {name}: worst case {shown} over {len(samples)}: {verdict}"


def _index_units(samples: list[Sample]) -> dict[str, float]:
    total: dict[str, float] = {}
    for sample in samples:
        for name, units in sample.index_units.items():
            total[name] = total.get(name, 0.0) + units
    return dict(sorted(total.items()))


def all_commits(run: Run) -> list[Sample]:
    """Every commit that played (with or without an Idempotency-Key; not the retries)."""
    groups = run.meter.by_label()
    return groups.get("commit", []) + groups.get("commit+key", [])


def game_usage(run: Run) -> tuple[GameUsage, dict[str, float]]:
    """One typical game: a guest, a create, its commits, one read, one verify."""
    groups = run.meter.by_label()
    commits = all_commits(run)
    groups["commit"] = commits
    per_game_commits = len(commits) / GAMES
    mix = {"guests": 1.0, "create": 1.0, "commit": per_game_commits, "get": 1.0, "verify": 1.0}

    def mean(label: str, attr: str) -> float:
        samples = groups[label]
        return float(sum(getattr(s, attr) for s in samples)) / len(samples)

    memory = memory_gb()

    def billed_gb_s(label: str) -> float:
        samples = groups[label]
        ms = sum(math.ceil(on_lambda_ms(s)) for s in samples) / len(samples)
        cold_ms = COLD_START_SHARE * run.cold_import_ms.get(LABEL_FUNCTIONS[label], 0.0)
        return (ms + cold_ms) / 1000 * memory[label]

    requests = sum(mix.values())
    fired = _fired_schedules(groups, mix)
    stale_gb_s = 0.0
    stale_rru = 0.0
    if groups.get("expiry stale"):
        stale = groups["expiry stale"]
        stale_ms = sum(math.ceil(on_lambda_ms(s)) for s in stale) / len(stale)
        stale_gb_s = stale_ms / 1000 * memory_of("ExpireTurnFunction")
        stale_rru = sum(s.read_units for s in stale) / len(stale)
    usage = GameUsage(
        requests=requests,
        lambda_gb_seconds=sum(k * billed_gb_s(label) for label, k in mix.items())
        + fired * stale_gb_s,
        read_units=sum(k * mean(label, "read_units") for label, k in mix.items())
        + fired * stale_rru,
        write_units=sum(k * mean(label, "write_units") for label, k in mix.items()),
        index_write_units=sum(k * mean(label, "index_write_units") for label, k in mix.items()),
        kms_calls=sum(
            k * sum(s.count("KMS") for s in groups[label]) / len(groups[label])
            for label, k in mix.items()
        ),
        scheduler_invocations=fired,
        stored_bytes=statistics.mean(run.game_bytes),
        log_bytes=requests * run.log_bytes_per_request,
        traced_share=traced_share(COMMIT_FUNCTION),
    )
    return usage, mix


def fanout_usage(run: Run, mix: dict[str, float]) -> FanoutUsage:
    """The live fan-out of one typical game: for each request type of the game, the
    invocations its writes caused (per request), billed like a request of the fan-out function
    (its own time plus assumed AWS latency, a share of cold starts, its memory)."""
    groups = run.meter.by_label()
    groups["commit"] = all_commits(run)
    caused = dict(run.fanout)
    caused["commit"] = caused.get("commit", []) + caused.get("commit+key", [])
    memory = memory_of(FANOUT_FUNCTION)
    cold_ms = COLD_START_SHARE * run.cold_import_ms.get(FANOUT_FUNCTION, 0.0)
    invocations = gb_s = rru = wru = events = 0.0
    for label, k in mix.items():
        per = k / len(groups[label])
        samples = caused.get(label, [])
        invocations += per * len(samples)
        gb_s += per * sum(math.ceil(on_lambda_ms(s)) + cold_ms for s in samples) / 1000 * memory
        rru += per * sum(s.read_units for s in samples)
        wru += per * sum(s.all_write_units for s in samples)
        events += per * sum(billed_bus_events(s) for s in samples)
    return FanoutUsage(
        invocations=invocations,
        lambda_gb_seconds=gb_s,
        read_units=rru,
        write_units=wru,
        bus_events=events,
        log_bytes=invocations * run.fanout_log_bytes,
        traced_share=traced_share(FANOUT_FUNCTION),
    )


def on_lambda_ms(sample: Sample) -> float:
    """The request's duration as Lambda would bill it: the handler's own time here plus the
    assumed AWS latency of each of its calls (``AWS_LATENCY_MS``)."""
    latency = 0.0
    for call in sample.calls:
        table = AWS_LATENCY_MS.get(call.service, {"default": 10.0})
        latency += table.get(call.operation, table["default"])
    return sample.own_seconds() * 1000 + latency


def get_config_expiry_arn() -> str:
    """The expiry function's ARN, as the functions are configured."""
    from mineduel_service.platform.config import get_config  # noqa: PLC0415

    return get_config().expiry_function_arn


def _fired_schedules(groups: dict[str, list[Sample]], mix: dict[str, float]) -> float:
    """Schedules of a game that fire: every turn's schedule is created, and each fires once
    (a stale delivery for a turn already played) unless deleted at the game's end."""
    created = deleted = 0.0
    for label, k in mix.items():
        samples = groups[label]
        calls = [c for s in samples for c in s.calls if c.service == "Scheduler"]
        created += k * sum(1 for c in calls if c.operation == "CreateSchedule") / len(samples)
        deleted += k * sum(1 for c in calls if c.operation == "DeleteSchedule") / len(samples)
    return max(created - deleted, 0.0)


def platform_log_bytes(logical_id: str) -> int:
    """Lambda's own log lines an invocation of the function sends to CloudWatch: START and
    REPORT are system logs at INFO, so a ``SystemLogLevel`` of WARN (template.yaml, Globals
    merged) sends none of them."""
    logging = load_template().functions[logical_id].properties.get("LoggingConfig", {})
    return 0 if logging.get("SystemLogLevel") == "WARN" else LAMBDA_PLATFORM_LOG_BYTES


def traced_share(logical_id: str) -> float:
    """The share of the function's invocations X-Ray records: Lambda's own sampling with
    ``Tracing: Active`` (the template's ``TracingMode`` at its default when it refers to it),
    none with ``PassThrough`` (nothing upstream of a stream or an HTTP API samples)."""
    template = load_template()
    mode = template.functions[logical_id].properties.get("Tracing", "PassThrough")
    if isinstance(mode, dict) and "Ref" in mode:
        mode = template.body.get("Parameters", {}).get(mode["Ref"], {}).get("Default")
    return PRICES.xray_sampled_share if mode == "Active" else 0.0


def memory_of(logical_id: str) -> float:
    """A function's billed memory in GB, from template.yaml (Globals merged)."""
    return float(load_template().functions[logical_id].properties["MemorySize"]) / 1024


def memory_gb() -> dict[str, float]:
    """Each request type's billed memory in GB, read from template.yaml (Globals merged)."""
    functions = load_template().functions
    return {
        label: float(functions[logical_id].properties["MemorySize"]) / 1024
        for label, logical_id in LABEL_FUNCTIONS.items()
    }


def report_cost(run: Run) -> list[str]:
    """Units per move, the typical game with its live fan-out, and its cost per 1,000 games."""
    commits = all_commits(run)
    moves = sum(s.moves for s in commits)
    usage, mix = game_usage(run)
    fan = fanout_usage(run, mix)
    lines = [
        f"DynamoDB per move: {sum(s.write_units for s in commits) / moves:.2f} WRU "
        f"(+{sum(s.index_write_units for s in commits) / moves:.2f} of secondary indexes), "
        f"{sum(s.read_units for s in commits) / moves:.2f} RRU "
        f"({moves} moves in {len(commits)} commits; {moves / len(commits):.2f} moves per commit)",
        f"stored per finished game: {statistics.mean(run.game_bytes) / 1024:.1f} KB "
        f"(the game item: {statistics.mean(run.game_item_bytes) / 1024:.1f} KB; "
        f"logs: {run.log_bytes_per_request:.0f} bytes per request)",
        "typical game: " + ", ".join(f"{label} x{k:.1f}" for label, k in mix.items()),
        f"  secondary index WRU: {usage.index_write_units:.1f} per game",
        f"  live fan-out, nobody subscribed: {fan.invocations:.1f} invocations, "
        f"{fan.read_units:.1f} RRU, {fan.write_units:.1f} WRU, {fan.bus_events:.1f} bus events "
        f"per game; logs {run.fanout_log_bytes:.0f} bytes per invocation",
        f"    (the trigger's {run.fanout_trigger})",
        f"cost of 1,000 games ({REGION} on-demand list prices, no free tier):",
    ]
    total = fanout_total = 0.0
    for item, usd in cost_lines(usage, 1000, PRICES):
        total += usd
        lines.append(f"  {item:<44} ${usd:8.4f}")
    for item, usd in fanout_cost_lines(fan, 1000, PRICES):
        fanout_total += usd
        lines.append(f"  {item:<44} ${usd:8.4f}")
    verdict = "meets" if total + fanout_total <= TARGET_USD else "MISSES"
    lines.append(f"  {'total':<44} ${total + fanout_total:8.4f}")
    lines.append(f"  {'(of which the live fan-out)':<44} ${fanout_total:8.4f}")
    lines.append(
        f"  target: at most ${TARGET_USD:.2f} per 1,000 games, the fan-out included: {verdict}"
    )
    return lines


README = Path(__file__).resolve().parents[3] / "README.md"
README_FIGURES = {
    name: re.compile(pattern.replace(" ", r"\s+"))  # (a line may break between any two words)
    for name, pattern in (
        ("write units a move", r"A move costs about ([\d.]+) DynamoDB write units"),
        ("write units a commit", r"\(a commit, with the bot's replies, ([\d.]+)\)"),
        ("read units a move", r"and ([\d.]+) read units"),
        ("$ per 1,000 games", r"1,000 games vs the bot about \$([\d.]+)"),
    )
}
"""The figures README.md's "What it costs" states, each checked against this run."""


def headline(run: Run) -> dict[str, float]:
    """The figures README.md states, as this run measured them."""
    commits = all_commits(run)
    moves = sum(s.moves for s in commits)
    usage, mix = game_usage(run)
    fan = fanout_usage(run, mix)
    total = sum(usd for _, usd in cost_lines(usage, 1000, PRICES))
    total += sum(usd for _, usd in fanout_cost_lines(fan, 1000, PRICES))
    plain = run.meter.by_label()["commit"]
    return {
        "write units a move": sum(s.write_units for s in commits) / moves,
        "write units a commit": statistics.mean(s.write_units for s in plain),
        "read units a move": sum(s.read_units for s in commits) / moves,
        "$ per 1,000 games": total,
    }


def report_readme(run: Run, readme: Path = README) -> list[str]:
    """Each of README.md's cost figures beside this run's (README says what ``make bench``
    prints: a figure off by more than its last digit is reported as stale)."""
    text = readme.read_text(encoding="utf-8")
    lines = ["README.md's figures against this run:"]
    for name, measured in headline(run).items():
        found = README_FIGURES[name].search(text)
        if found is None:
            lines.append(f"  {name}: measured {measured:.2f}; README states none (STALE)")
            continue
        stated = found.group(1)
        digits = len(stated.partition(".")[2])
        agrees = abs(float(stated) - measured) <= 10**-digits
        verdict = "agrees" if agrees else "STALE: update README.md"
        lines.append(f"  {name}: README {stated}, measured {measured:.{digits + 1}f} ({verdict})")
    return lines


def report_people(run: Run) -> list[str]:
    """What a game between two accounts costs, in all: the profiles, the invitation, the join,
    every commit, the end with its index items and statistics, a history read."""
    groups = {k: v for k, v in run.meter.by_label().items() if k.startswith("people ")}
    if not groups:
        return ["people game: NOT MEASURED"]
    calls: Counter[str] = Counter()
    rru = wru = 0.0
    for samples in groups.values():
        for sample in samples:
            calls.update(sample.operations())
            rru += sample.read_units
            wru += sample.write_units
    commits = groups.get("people commit", [])
    gsi = sum(s.index_write_units for samples in groups.values() for s in samples)
    lines = [
        f"people game (two accounts, invitation to the end): {len(commits)} commits, "
        f"{rru:.1f} RRU, {wru:.1f} WRU (+{gsi:.1f} WRU of secondary indexes)",
        "  calls: " + ", ".join(f"{op} {n}" for op, n in sorted(calls.items())),
    ]
    for label in ("people create", "people join", "people history"):
        for sample in groups.get(label, []):
            lines.append(
                f"  {label[7:]}: {dict(sample.operations())}, "
                f"{sample.read_units:.1f} RRU, {sample.write_units:.1f} WRU "
                f"(+{sample.index_write_units:.1f} GSI)"
            )
    ending = max(commits, key=lambda s: s.write_units, default=None)
    if ending is not None:
        lines.append(
            f"  the commit that ended it: {dict(ending.operations())}, "
            f"{ending.read_units:.1f} RRU, {ending.write_units:.1f} WRU "
            f"(+{ending.index_write_units:.1f} GSI)"
        )
    return lines


PEOPLE_FUNCTIONS = {
    "people profile": "ProfileFunction",
    "people create": "CreateGameFunction",
    "people join": "JoinGameFunction",
    "people commit": COMMIT_FUNCTION,
    "people history": "MyGamesFunction",
}
"""The template function that serves each request of the game between two accounts."""
NOTICE_USD = 2.53 / 1e6
"""Delivering one Web Push notice behind the queue (SQS requests, the delivery's invocation
share, its Query and its once-only PutItem): ``notify.py`` meters it, docs/cost.md
("Notifications") has the figure."""


def correspondence_cost(run: Run) -> list[tuple[str, float]] | None:
    """(item, USD) of 1,000 correspondence games between two accounts (the bench's people
    game: profiles, invitation, join, every commit, a history read), everything they cause:
    each turn's schedule and its stale firing, the fan-out of every write, the notices it
    queued and their delivery. None when the people game was not measured."""
    groups = run.meter.by_label()
    labels = [label for label in PEOPLE_FUNCTIONS if groups.get(label)]
    if "people commit" not in labels:
        return None
    samples = [s for label in labels for s in groups[label]]
    memory = {label: memory_of(PEOPLE_FUNCTIONS[label]) for label in labels}
    gb_s = sum(
        (
            math.ceil(on_lambda_ms(s))
            + COLD_START_SHARE * run.cold_import_ms.get(PEOPLE_FUNCTIONS[label], 0.0)
        )
        / 1000
        * memory[label]
        for label in labels
        for s in groups[label]
    )
    fired = _fired_schedules(
        {k: groups[k] for k in labels}, {k: float(len(groups[k])) for k in labels}
    )
    stale = groups.get("expiry stale", [])
    stale_gb_s = (
        sum(math.ceil(on_lambda_ms(s)) for s in stale)
        / len(stale)
        / 1000
        * memory_of("ExpireTurnFunction")
        if stale
        else 0.0
    )
    stale_rru = sum(s.read_units for s in stale) / len(stale) if stale else 0.0
    usage = GameUsage(
        requests=len(samples),
        lambda_gb_seconds=gb_s + fired * stale_gb_s,
        read_units=sum(s.read_units for s in samples) + fired * stale_rru,
        write_units=sum(s.write_units for s in samples),
        index_write_units=sum(s.index_write_units for s in samples),
        kms_calls=sum(s.count("KMS") for s in samples),
        scheduler_invocations=fired,
        stored_bytes=statistics.mean(run.game_bytes),
        log_bytes=len(samples) * run.log_bytes_per_request,
        traced_share=traced_share(COMMIT_FUNCTION),
    )
    caused = [f for label in labels for f in run.fanout.get(label, [])]
    fan = FanoutUsage(
        invocations=len(caused),
        lambda_gb_seconds=sum(
            math.ceil(on_lambda_ms(f)) / 1000 * memory_of(FANOUT_FUNCTION) for f in caused
        ),
        read_units=sum(f.read_units for f in caused),
        write_units=sum(f.all_write_units for f in caused),
        bus_events=sum(billed_bus_events(f) for f in caused),
        log_bytes=len(caused) * run.fanout_log_bytes,
        traced_share=traced_share(FANOUT_FUNCTION),
    )
    notices = sum(queued_notices(f) for f in caused)
    lines = cost_lines(usage, 1000, PRICES) + fanout_cost_lines(fan, 1000, PRICES)
    lines.append(
        (
            "notices: SQS SendMessageBatch (fan-out)",
            1000 * sum(f.count("SQS") for f in caused) * SQS_REQUEST,
        )
    )
    lines.append((f"notices: delivery, {notices} a game (Web Push)", 1000 * notices * NOTICE_USD))
    return lines


def queued_notices(sample: Sample) -> int:
    """The notices an invocation of the fan-out queued (the entries of its SendMessageBatch)."""
    return sum(
        len(call.params.get("Entries", []))
        for call in sample.calls
        if call.service == "SQS" and call.operation == "SendMessageBatch"
    )


def report_correspondence(run: Run) -> list[str]:
    """The correspondence game's price beside the bot games'."""
    lines = correspondence_cost(run)
    if lines is None:
        return ["correspondence game: NOT MEASURED"]
    commits = len(run.meter.by_label()["people commit"])
    found = [
        f"cost of 1,000 correspondence games between two accounts ({commits} commits each, "
        "a schedule a turn, Web Push notices; no turn warned):"
    ]
    found += [f"  {item:<44} ${usd:8.4f}" for item, usd in lines]
    found.append(f"  {'total':<44} ${sum(usd for _, usd in lines):8.4f}")
    return found


def report_ratings(run: Run) -> list[str]:
    """What rating adds to applying a finished game's result, and what a leaderboard costs
    (write units of the table, then of its secondary indexes: the ``leaderboard`` index
    re-keys a listed player's entry when the rating changes)."""
    groups = run.meter.by_label()
    if "apply 2p" not in groups:
        return ["ratings: NOT MEASURED"]

    def mean(label: str) -> tuple[float, float, float, float]:
        samples = groups[label]
        n = len(samples)
        return (
            sum(len(s.calls) for s in samples) / n,
            sum(s.read_units for s in samples) / n,
            sum(s.write_units for s in samples) / n,
            sum(s.index_write_units for s in samples) / n,
        )

    calls, rru, wru, gsi = mean("apply 2p")
    lines = [
        f"applying an unrated 2-seat result: {calls:.0f} calls, {rru:.1f} RRU, {wru:.1f} WRU "
        f"(+{gsi:.1f} GSI)"
    ]
    for label in ("rate 2p", "rate 4p"):
        c, r, w, g = mean(label)
        lines.append(
            f"applying a rated {label[-2]}-seat result: {c:.0f} calls, {r:.1f} RRU, {w:.1f} WRU "
            f"(+{g:.1f} GSI)"
        )
    c, r, w, g = mean("rate 2p")
    lines.append(
        f"rating a 2-seat game adds {c - calls:+.0f} calls, {r - rru:+.1f} RRU, {w - wru:+.1f} WRU "
        f"and {g - gsi:+.1f} GSI WRU"
    )
    for label in ("board", "board+me", "snapshot"):
        if label in groups:
            c, r, w, g = mean(label)
            lines.append(
                f"{label}: {c:.0f} DynamoDB calls, {r:.1f} RRU, {w:.1f} WRU (+{g:.1f} GSI)"
            )
    return lines


def main() -> None:
    """Measure and print everything (``make bench``)."""
    print("== cost: AWS calls, DynamoDB units and handler time per request (local stack) ==")
    run = measure()
    for line in report_requests(run):
        print(line)
    print(f"\ncold import of each function (fresh interpreter, median of 3; {run.imported_by}):")
    for name, ms in sorted(run.cold_import_ms.items()):
        print(f"  {name:<22} {ms:7.1f} ms")
    top = ", ".join(f"{pkg} {ms:.0f} ms" for pkg, ms in list(run.import_breakdown.items())[:6])
    print(f"  where CommitMoveFunction's import time goes: {top}")
    print(
        f"  pydantic and Powertools' event handler alone (every HTTP function's floor): "
        f"{run.libraries_ms:.1f} ms"
    )
    if run.without_bytecode_ms is not None:
        print(
            f"  CommitMoveFunction with no compiled bytecode in the layers (SAM's python3.12 "
            f"builder ships none, and /opt is read-only): {run.without_bytecode_ms:.1f} ms"
        )
    print("  loaded on first use, not in the import (after CommitMoveFunction's import):")
    for part, ms in run.first_use_ms.items():
        print(f"    {part:<48} {ms:7.1f} ms")
    print("\nratings:")
    for line in report_ratings(run):
        print(f"  {line}")
    print()
    for line in report_people(run):
        print(line)
    print()
    for line in report_correspondence(run):
        print(line)
    print()
    for line in report_cost(run):
        print(line)
    for line in report_readme(run):
        print(line)
    for note in run.skipped:
        print(f"note: {note}")


if __name__ == "__main__":
    main()
