"""Settings for every suite, and the IAM audit that runs across all of them.

Hypothesis: on a shared 2-core CI machine, generating a whole random game can be slow for
reasons unrelated to the code under test, so the "too slow" health check and per-example
deadlines are off everywhere (speed is measured by the benchmarks, never by tests). Each test
still sets its own ``max_examples``.

IAM: every AWS call a function makes, in any test, is held against that function's policy in
template.yaml (``mineduel.local.iam``). A call the policy does not allow fails the test that
made it. Whether every grant is used can only be judged once every test ran, so
``tests/test_iam_policies.py`` runs last and judges that only when the run was complete: every
test file collected and nothing deselected (``make test``); a partial run
(``pytest tests/engine``, ``-k ...``) checks the calls it made and nothing more.

moto: the local stack's patch (``mineduel.local.moto_patch``) is installed for every test.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from mineduel.local import iam, moto_patch

# Every test's moto is the local stack's: transactions that cost what they touch, and leave
# the table and its stream alone when cancelled (docs/local.md, "The moto patch").
moto_patch.install()
settings.register_profile("mineduel", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("mineduel")

TESTS = Path(__file__).resolve().parent
AUDIT = iam.Audit()
iam.install(AUDIT)
_COMPLETE = pytest.StashKey[bool]()
_deselected: list[int] = []


@dataclass(frozen=True)
class IamRun:
    """The suite's IAM audit, and whether this run can judge unused grants."""

    audit: iam.Audit
    complete: bool
    other_failures: int


def pytest_deselected(items: list[pytest.Item]) -> None:
    """Some tests were left out (``-k``, ``-m``, ``--lf``): the run is not complete."""
    _deselected.append(len(items))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``after_all`` run after every other test."""
    last = [item for item in items if item.get_closest_marker("after_all")]
    items[:] = [item for item in items if not item.get_closest_marker("after_all")] + last


def pytest_collection_finish(session: pytest.Session) -> None:
    """Decide whether this run is the whole suite: every test file collected, none left out."""
    on_disk = {path.resolve() for path in TESTS.rglob("test_*.py")}
    collected = {Path(item.path).resolve() for item in session.items}
    session.config.stash[_COMPLETE] = not _deselected and on_disk <= collected


@pytest.fixture
def iam_run(request: pytest.FixtureRequest) -> IamRun:
    """The IAM audit of this run (for the test that judges it at the end)."""
    return IamRun(
        audit=AUDIT,
        complete=request.config.stash.get(_COMPLETE, False),
        other_failures=request.session.testsfailed,
    )


@pytest.fixture(autouse=True)
def _aws_calls_within_policy() -> Iterator[None]:
    """Fail the test whose functions made a call their policy in template.yaml does not allow."""
    denials, problems = len(AUDIT.denials), len(AUDIT.problems)
    yield
    new = [d.describe() for d in AUDIT.denials[denials:]] + AUDIT.problems[problems:]
    if new:
        pytest.fail(
            "a function made AWS calls its policy in template.yaml does not allow:\n  "
            + "\n  ".join(dict.fromkeys(new)),
            pytrace=False,
        )
