"""What the end-to-end tests share: a local stack per module (a module may start its own), and
Debian's Chromium, driven by Playwright."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from mineduel.local.stack import RunningStack, start_local_stack

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


@pytest.fixture(scope="module")
def stack() -> Iterator[RunningStack]:
    """A local stack on free ports for the module's tests, stopped after them."""
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
