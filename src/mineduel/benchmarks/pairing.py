"""Quick pairing and fair play: what each request costs in AWS calls and DynamoDB units.

Run with ``make bench-pairing`` (``python -m mineduel.benchmarks.pairing``). It starts the local
stack (the real handlers on moto, provisioned from template.yaml) and charges every AWS call of
each measured request to it, with the same meter and fan-out feed as the cost benchmark
(``metering``, ``fanout``): DynamoDB units from the items read and written, the table's
secondary indexes' writes from the items' images. Printed, never asserted: docs/cost.md
("Quick pairing and fair play") quotes the figures.

The scenario: ``POOL`` accounts wait with open rated seeks that fit nobody here (they are
rated 1500, as the measured players are, but their range takes only ratings of 2000 to 2100),
so the measured seeks meet a crowd at their own rating that they read through and skip (the
worst case: every entry read fits nobody);
a seek in an empty part of the pool; a seek that waits, one that is paired with it (and the
fan-out's announcement of both), reads, a cancel, the list; then the pair's rated game is
played out (unmeasured), screened by the scheduled screener, and a case about one of them is
decided by a moderator.
"""

from __future__ import annotations

import contextlib
import io
import os
import secrets
import warnings
from collections import Counter
from typing import Any

import boto3
from mineduel_service.fairplay import store as fair_play
from mineduel_service.fairplay.screening import Window
from mineduel_service.platform import clock, dynamo

from mineduel.local.invoke import Invoker
from mineduel.local.stack import RunningStack, start_local_stack
from mineduel.testing.api_client import ApiClient, Reply
from mineduel.testing.players import next_tap

from .cost import Bench
from .fanout import MeteredFanout
from .indexes import physical_tables
from .metering import Meter, Sample

POOL = int(os.environ.get("POOL", "100"))
DEADLINE = 3600


def _ok(reply: Reply, status: int = 200) -> dict[str, Any]:
    if reply.status != status:
        raise AssertionError(f"expected {status}, got {reply.status}: {reply.body[:300]!r}")
    found: dict[str, Any] = reply.json()
    return found


PASSWORD = f"Aa1-{secrets.token_urlsafe(16)}"  # meets the pool's password policy


def _sign_in(name: str) -> str:
    """An id token of ``<name>@example.com`` (made on first use), as its groups stand now."""
    idp = boto3.client("cognito-idp")
    pool, app_client = os.environ["USER_POOL_ID"], os.environ["USER_POOL_CLIENT_ID"]
    email = f"{name}@example.com"
    with contextlib.suppress(idp.exceptions.UsernameExistsException):
        idp.admin_create_user(UserPoolId=pool, Username=email, MessageAction="SUPPRESS")
        idp.admin_set_user_password(
            UserPoolId=pool, Username=email, Password=PASSWORD, Permanent=True
        )
    answer = idp.initiate_auth(
        ClientId=app_client,
        AuthFlow="USER_PASSWORD_AUTH",
        AuthParameters={"USERNAME": email, "PASSWORD": PASSWORD},
    )
    return str(answer["AuthenticationResult"]["IdToken"])


def _player(stack: RunningStack, name: str) -> ApiClient:
    """An account with a username, its requests unmeasured."""
    client = ApiClient(stack.api.handle, _sign_in(name))
    _ok(client.call("PUT", "/v1/me", {"username": name}))
    return client


def scenario(stack: RunningStack, bench: Bench, meter: Meter) -> None:
    """The measured requests (see the module docstring)."""
    for n in range(POOL):
        waiting = _player(stack, f"pool{n}")
        body = {"move_deadline_s": DEADLINE, "rated": True, "rating_range": [2000, 2100]}
        _ok(waiting.call("POST", "/v1/seeks", body), 201)
    ada, ben, cy = (bench.client(_player(stack, name).token) for name in ("ada", "ben", "cyd"))
    lone = bench.call(
        cy,
        "seek, waits (its part of the pool empty)",
        "POST",
        "/v1/seeks",
        body={"move_deadline_s": 7 * DEADLINE},
    )
    lone_id = _ok(lone, 201)["seek_id"]
    bench.call(cy, "read one's open seek (tried for pairing again)", "GET", f"/v1/seeks/{lone_id}")
    bench.call(cy, "cancel a seek", "DELETE", f"/v1/seeks/{lone_id}")
    body = {"move_deadline_s": DEADLINE, "rated": True}
    first = bench.call(
        ada,
        f"seek, waits ({POOL} open seeks at its rating, none fits)",
        "POST",
        "/v1/seeks",
        body=body,
    )
    seek_id = _ok(first, 201)["seek_id"]
    paired = bench.call(
        ben, f"seek, paired at once ({POOL} others waiting)", "POST", "/v1/seeks", body=body
    )
    game_id = str(_ok(paired)["game_id"])
    bench.call(ada, "read one's paired seek", "GET", f"/v1/seeks/{seek_id}")
    bench.call(ada, "list open seeks (a page of 20)", "GET", "/v1/seeks?variant=mine-duel")
    _play_out(stack, game_id, {ada.token: ada, ben.token: ben})
    clock.advance(180)
    invoker = Invoker(stack.provisioned)
    with meter.measure("screening run: one rated game (its analysis computed)"):
        invoker.invoke("FairPlayScreenFunction", {})
    with meter.measure("screening run: nothing new"):
        invoker.invoke("FairPlayScreenFunction", {})
    bench.call(ada, "a player's fair-play record", "GET", "/v1/players/ada/fair-play")
    moderator = bench.client(_moderator(stack))
    case = _case_about(ada)
    bench.call(moderator, "list open cases", "GET", "/v1/moderation/cases")
    bench.call(
        moderator,
        "a moderator restricts (case, log, record, profile, rating)",
        "POST",
        f"/v1/moderation/cases/{case}",
        body={"decision": "restrict", "note": "bench"},
    )


def _play_out(stack: RunningStack, game_id: str, players: dict[str | None, ApiClient]) -> None:
    """Play the paired game to its end (unmeasured), each seat by the easy bot."""
    seats = {}
    game = _ok(ApiClient(stack.api.handle).call("GET", f"/v1/games/{game_id}"))
    for client in players.values():
        mine = _ok(ApiClient(stack.api.handle, client.token).call("GET", "/v1/me"))
        seat = next(s["seat"] for s in game["seats"] if s["player_id"] == mine["player_id"])
        seats[seat] = ApiClient(stack.api.handle, client.token)
    while game["status"] == "active":
        seat = game["turn"]["seat"]
        row, col = next_tap(game, "easy")
        game = _ok(seats[seat].commit(game, row, col))["game"]


def _moderator(stack: RunningStack) -> str:
    """A token of a new account in the ``moderators`` group."""
    _player(stack, "mod")
    boto3.client("cognito-idp").admin_add_user_to_group(
        UserPoolId=os.environ["USER_POOL_ID"], Username="mod@example.com", GroupName="moderators"
    )
    return _sign_in("mod")  # a token issued after joining carries the group


def _case_about(client: ApiClient) -> str:
    """A case opened about the client's player, as the screener opens one (unmeasured)."""
    me = _ok(client.call("GET", "/v1/me"))
    window = Window(
        games_screened=10,
        accuracy=1.0,
        mean_loss=0.0,
        engine_match=1.0,
        hard_taps=80,
        hard_match=1.0,
        clear_taps=100,
        clear_match=1.0,
        expected=0.82,
        z=4.1,
    )
    case = fair_play.open_case(str(me["player_id"]), "ada", window, ("g",), clock.now())
    dynamo.transact([fair_play.case_put(case, None)])
    return case.case_id


def report(meter: Meter, fanout: MeteredFanout) -> None:
    """One line per measured request (and the fan-out it caused)."""
    print("quick pairing and fair play: AWS calls, DynamoDB units per request")
    print("  request: calls | RRU | WRU | GSI WRU")
    for label, samples in meter.by_label().items():
        if label.startswith("fan-out"):
            continue
        _line(label, samples)
        caused = fanout.caused.get(label, [])
        if caused:
            _line(f"    its fan-out ({len(caused)} invocations)", caused)


def _line(label: str, samples: list[Sample]) -> None:
    calls: Counter[str] = Counter()
    for sample in samples:
        calls.update(sample.operations())
    count = len(samples)
    text = ", ".join(f"{op.split(':')[1]} {n / count:g}" for op, n in sorted(calls.items()))
    reads = sum(s.read_units for s in samples) / count
    writes = sum(s.write_units for s in samples) / count
    index = sum(s.index_write_units for s in samples) / count
    print(f"  {label}: {text} | {reads:.1f} | {writes:.1f} | {index:.1f}")


def main() -> None:
    """Start the stack, run the scenario, print the figures, stop the stack."""
    meter = Meter()
    stack = start_local_stack(port=0, poll_schedules=False)
    try:
        meter.tables.update(physical_tables(stack.provisioned))
        logs = io.StringIO()
        fanout = MeteredFanout(stack, meter, logs)
        bench = Bench(stack, meter, fanout)
        with contextlib.redirect_stdout(logs), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            scenario(stack, bench, meter)
        report(meter, fanout)
    finally:
        stack.stop()


if __name__ == "__main__":
    main()
