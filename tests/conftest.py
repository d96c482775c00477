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

On several workers (pytest-xdist, ``make test``'s ``-n``), each worker sees only the calls of
the tests it ran: a worker's test judges its own calls, and each worker hands the grants its
calls used to the controller, which judges unused grants on their union once every worker is
done (and fails the run, with the same report, when one is unused).

moto: the local stack's patch (``mineduel.local.moto_patch``) is installed for every test.

Stacks: ``stack`` here is the local stack over real HTTP (``mineduel serve``'s, on free ports),
one per test module, for every suite that talks to the API as a client does (tests/http,
tests/local, tests/openapi, tests/cli, tests/benchmarks); tests/service/conftest.py has the
handler-level stacks (in-process moto, and a moto server) under its own names. ``browser`` is
Debian's Chromium, driven by Playwright, for the web client's tests.
"""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext

from mineduel.local import iam, moto_patch
from mineduel.local.iam.policy import Grant
from mineduel.local.stack import RunningStack, start_local_stack
from mineduel.template import load_template

# Every test's moto is the local stack's: transactions that cost what they touch, and leave
# the table and its stream alone when cancelled (docs/local.md, "The moto patch").
moto_patch.install()
settings.register_profile("mineduel", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("mineduel")

TESTS = Path(__file__).resolve().parent
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-dev-shm-usage",
    "--disable-extensions",
    "--no-first-run",
]
AUDIT = iam.Audit()
iam.install(AUDIT)
_COMPLETE = pytest.StashKey[bool]()
_UNUSED_REPORT = pytest.StashKey[str]()
_deselected: list[int] = []
_worker_outputs: list[dict[str, object]] = []


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


RUN_APART = frozenset({(TESTS / "openapi" / "test_schema_fuzz.py").resolve()})
"""Files ``make pytest`` runs in a process of their own, before the workers: schemathesis gives
every operation's test one node id, which pytest-xdist cannot schedule (measured: 1 of its 44
tests ran on workers, and reported as passed). A run without them is still complete."""


def pytest_collection_finish(session: pytest.Session) -> None:
    """Decide whether this run is the whole suite: every test file collected, none left out."""
    on_disk = {path.resolve() for path in TESTS.rglob("test_*.py")} - RUN_APART
    collected = {Path(item.path).resolve() for item in session.items}
    session.config.stash[_COMPLETE] = not _deselected and on_disk <= collected


def _is_worker(config: pytest.Config) -> bool:
    """True in a pytest-xdist worker (which runs a share of the tests, never all of them)."""
    return hasattr(config, "workerinput")


@pytest.fixture
def iam_run(request: pytest.FixtureRequest) -> IamRun:
    """The IAM audit of this run (for the test that judges it at the end). A worker's run is
    never complete: the controller judges unused grants across all the workers."""
    return IamRun(
        audit=AUDIT,
        complete=request.config.stash.get(_COMPLETE, False) and not _is_worker(request.config),
        other_failures=request.session.testsfailed,
    )


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: object, error: object) -> None:
    """The controller keeps what each worker reported of its run (xdist's ``workeroutput``)."""
    _worker_outputs.append(dict(getattr(node, "workeroutput", {})))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """A worker hands its used grants to the controller; the controller, once every worker is
    done with a complete, green run, judges unused grants on their union."""
    config = session.config
    if _is_worker(config):
        workeroutput: dict[str, object] = config.workeroutput  # type: ignore[attr-defined]
        workeroutput["iam_used"] = [dataclasses.astuple(grant) for grant in AUDIT.used]
        workeroutput["iam_complete"] = config.stash.get(_COMPLETE, False)
        return
    if not _worker_outputs or session.testsfailed or exitstatus != 0:
        return
    if not all(output.get("iam_complete") for output in _worker_outputs):
        return
    union = AUDIT
    for output in _worker_outputs:
        used = output.get("iam_used", [])
        assert isinstance(used, list)
        union.used.update(Grant(*fields) for fields in used)
    report = union.report(load_template(), judge_unused=True)
    config.stash[_UNUSED_REPORT] = report or (
        f"IAM: every grant of template.yaml was used by the calls of {len(_worker_outputs)} "
        f"workers ({len(union.used)} grants)"
    )
    if report:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The controller's verdict on unused grants, when it judged them."""
    verdict = terminalreporter.config.stash.get(_UNUSED_REPORT, "")
    if verdict:
        terminalreporter.write_line(verdict, red=verdict.startswith("template.yaml"))


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


@pytest.fixture(scope="module")
def stack() -> Iterator[RunningStack]:
    """A local stack on free ports for the module's tests, stopped after them.

    One per module, not per session: several suites count from an empty stack (the lobby list,
    the leaderboard, the guests an address made this minute, the route throttles), and a
    module's stack costs about 4 s of CPU to start.
    """
    running = start_local_stack(port=0)
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless. Playwright's own browser download cannot reach the
    internet here, so it is never used: a missing browser fails the test, with what to do
    (never a skip)."""
    from playwright.sync_api import sync_playwright  # noqa: PLC0415  (only browser tests)

    found = CHROMIUM if CHROMIUM.exists() else None
    if found is None:
        which = shutil.which("chromium")
        found = Path(which) if which else None
    if found is None:
        pytest.fail(
            "Debian's chromium is not installed, and the share page and the web client are "
            "checked in it: run `apt-get install -y chromium` (as root; .ci/run does this when "
            "it is missing)."
        )
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(found), args=CHROMIUM_FLAGS)
        yield launched
        launched.close()


@pytest.fixture
def chromium_profile(browser: Browser, tmp_path: Path) -> Iterator[BrowserContext]:
    """The same Chromium with a profile of its own on disk: Playwright's contexts are incognito
    windows, where Chromium installs no web app (what the installability check needs)."""
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=str(CHROMIUM if CHROMIUM.exists() else shutil.which("chromium")),
        args=CHROMIUM_FLAGS,
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
    )
    try:
        yield context
    finally:
        context.close()
