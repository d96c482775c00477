"""Requests on the local stack are isolated as on Lambda: one at a time per execution environment,
and nothing shared between environments that Lambda would not share.

The burst of the issue, over real HTTP: 15 timeouts with player A's token and 15 resignations
with guest B's token, released at one instant against A's game, round after round. Each answer
must be its own caller's. The interpreter switches threads far more often than by default while
it runs (``sys.setswitchinterval``), so an interleaving that lets one request read another's
event shows within a few rounds when the environments share Powertools' resolver state.
``BURST_ROUNDS=100`` runs the done-when's hundred (``make bench``'s soak runs them too).
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator

import pytest
from aws_lambda_powertools.event_handler.api_gateway import BaseRouter
from mineduel_service.notify import vapid
from mineduel_service.platform import crypto
from mineduel_service.platform.observability import count, logger, metrics

from mineduel.benchmarks.burst import token_burst
from mineduel.local import isolation
from mineduel.local.stack import RunningStack

ROUNDS = int(os.environ.get("BURST_ROUNDS") or 25)
SWITCH_INTERVAL_S = 1e-5


@pytest.fixture
def frequent_switches() -> Iterator[None]:
    saved = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    try:
        yield
    finally:
        sys.setswitchinterval(saved)


def test_the_token_burst_never_crosses_over(stack: RunningStack, frequent_switches: None) -> None:
    result = token_burst(stack.url, ROUNDS)
    assert result.rounds == ROUNDS
    assert result.crossed == 0, result.examples
    assert result.statuses == {
        "timeout 409 deadline-not-passed": 15 * ROUNDS,
        "resign 403 not-your-seat": 15 * ROUNDS,
    }
    assert stack.pool.environments("ResignFunction") > 1  # they did run concurrently


def _in_two_environments(step: list[object]) -> list[object]:
    """Run ``work`` in two environments at once, interleaved by a barrier; what each saw."""
    first, second = isolation.Environment("one"), isolation.Environment("two")
    barrier = threading.Barrier(2)
    seen: list[object] = [None, None]

    def work(index: int, environment: isolation.Environment) -> None:
        with isolation.running_in(environment):
            BaseRouter.current_event = step[index]  # type: ignore[assignment]
            logger.append_keys(request=step[index])
            metrics.add_metric(name=f"m{index}", unit="Count", value=1)
            barrier.wait()  # both have written before either reads
            seen[index] = (
                BaseRouter.current_event,
                logger.get_current_keys().get("request"),
                sorted(metrics.metric_set),
            )

    threads = [threading.Thread(target=work, args=(i, e)) for i, e in enumerate([first, second])]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return seen


def test_each_environment_keeps_its_own_event_log_keys_and_metrics() -> None:
    isolation.install()
    # A new environment starts from the process's own state; whatever an earlier test of this
    # process recorded outside any environment (a use case called directly) is not this test's.
    metrics.clear_metrics()
    seen = _in_two_environments(["event-one", "event-two"])
    assert seen == [
        ("event-one", "event-one", ["m0"]),
        ("event-two", "event-two", ["m1"]),
    ]
    assert "request" not in logger.get_current_keys()  # the process's own: untouched
    assert not metrics.metric_set


def test_an_environment_keeps_its_state_between_invocations_and_its_own_seed_cache() -> None:
    isolation.install()
    environment, other = isolation.Environment("kept"), isolation.Environment("other")
    with isolation.running_in(environment):
        BaseRouter.current_event = "last"  # type: ignore[assignment]
        crypto._cache.put(b"ciphertext", "game", b"s" * 32)
    with isolation.running_in(environment):
        assert BaseRouter.current_event == "last"
        assert crypto._cache.get(b"ciphertext", "game") == b"s" * 32
    with isolation.running_in(other):
        assert crypto._cache.get(b"ciphertext", "game") is None  # decrypted by another
        with pytest.raises(AttributeError):  # a fresh environment has no event yet
            _ = BaseRouter.current_event
    crypto.clear_cache()  # outside any environment: every environment's cache
    with isolation.running_in(environment):
        assert crypto._cache.get(b"ciphertext", "game") is None


def test_a_new_environment_records_from_nothing_and_reads_its_own_push_key() -> None:
    """What the process recorded outside any environment is not a new environment's (once,
    every later flush carried a service test's counts), and a VAPID key an earlier stack's
    environment read is not a later one's (it handed browsers a key it could not sign with)."""
    isolation.install()
    metrics.clear_metrics()
    count("RecordedOutside")  # a use case called directly, outside any environment
    vapid._cache.put("public", "an earlier stack's key")
    try:
        with isolation.running_in(isolation.Environment("fresh")):
            assert not metrics.metric_set
            assert vapid._cache.get("public") is None
            count("RecordedInside")
            vapid._cache.put("public", "this environment's key")
            assert list(metrics.metric_set) == ["RecordedInside"]
        assert list(metrics.metric_set) == ["RecordedOutside"]  # the process's own: untouched
        assert vapid._cache.get("public") == "an earlier stack's key"
        vapid.forget()  # outside any environment: every environment's cache
        assert vapid._cache.get("public") is None
    finally:
        metrics.clear_metrics()
        vapid.forget()
