"""The web client (web/) in a real browser: Debian's Chromium, headless, driven by Playwright,
on the local stack. A guest plays a whole game against the bot through the page (mouse and
keyboard); two people sign up, find each other in the lobby and play, each seeing the other's
move arrive without reloading (touch on a phone-sized screen for one of them). Every screen is
captured as it goes; with ``MINEDUEL_SCREENSHOTS=1`` the captures replace the ones in
docs/images/ (the screenshots the docs show), otherwise they go to a temporary folder so a test
run leaves the checkout as it was."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from mineduel.local.stack import RunningStack, start_local_stack

pytestmark = pytest.mark.http
IMAGES = (
    Path(__file__).resolve().parents[2] / "docs" / "images"
    if os.environ.get("MINEDUEL_SCREENSHOTS") == "1"
    else Path(tempfile.gettempdir()) / "mineduel-screens"
)
PHONE = {"width": 390, "height": 844}
PASSWORD = "Correct-Horse-42"
WAIT_MS = 15_000


@pytest.fixture(scope="module")
def stack() -> Iterator[RunningStack]:
    running = start_local_stack(port=0)
    yield running
    running.stop()


def _shot(page: Page, name: str) -> None:
    IMAGES.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(IMAGES / f"web-{name}.png"), full_page=True)


def _move_count(page: Page) -> int:
    return int(page.get_attribute("#game-title", "data-move-count") or "0")


def _status(page: Page) -> str:
    return page.get_attribute("#game-title", "data-status") or ""


def _wait_moved(page: Page, before: int) -> None:
    page.wait_for_function(
        "n => Number(document.querySelector('#game-title').dataset.moveCount) > n",
        arg=before,
        timeout=WAIT_MS,
    )


def test_a_guest_plays_a_whole_game_against_the_bot(stack: RunningStack, browser: Browser) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(stack.url + "/")
    page.wait_for_selector("text=Play easy bot")
    _shot(page, "home")
    page.click("button[data-level=easy]")
    page.wait_for_selector("#board .cell.playable", timeout=WAIT_MS)
    assert page.inner_text("#to-move") == "Your turn"
    assert page.locator("#countdown").count() == 1
    # The first move by keyboard: arrows to row 4, column 4, then Enter.
    page.focus('[data-row="0"][data-col="0"]')
    for key in ["ArrowRight"] * 3 + ["ArrowDown"] * 3:
        page.keyboard.press(key)
    assert (
        page.evaluate(
            "document.activeElement.dataset.row + ',' + document.activeElement.dataset.col"
        )
        == "3,3"
    )
    page.keyboard.press("Enter")
    _wait_moved(page, 0)
    assert page.get_attribute('[data-row="3"][data-col="3"]', "data-ch") != "."
    _shot(page, "game")
    # Then by mouse until the game is over.
    for _ in range(300):
        if _status(page) == "finished":
            break
        before = _move_count(page)
        page.locator("#board .cell.playable").nth(0).click()
        page.wait_for_function(
            "n => Number(document.querySelector('#game-title').dataset.moveCount) > n"
            " || document.querySelector('#game-title').dataset.status === 'finished'",
            arg=before,
            timeout=WAIT_MS,
        )
    assert _status(page) == "finished"
    result = page.inner_text("#result")
    assert "won" in result or "shared" in result
    seats = page.locator(".seat").all_inner_texts()
    assert any("place 1" in s for s in seats)
    _shot(page, "finished")
    page.click("#verify-link")
    page.wait_for_selector("#verdict")
    assert page.get_attribute("#verdict", "data-ok") == "true"
    _shot(page, "verification")
    page.go_back()
    page.wait_for_selector("#share-link")
    with page.expect_navigation():
        page.click("#share-link")
    assert "/share/" in page.url
    assert page.locator("meta[property='og:title']").count() == 1
    assert errors == []
    context.close()


def _sign_up(page: Page, stack: RunningStack, name: str) -> None:
    page.goto(stack.url + "/#/account")
    page.fill("#new-email", f"{name.lower()}@example.com")
    page.fill("#new-password", PASSWORD)
    page.fill("#new-username", name)
    page.click("#sign-up button[type=submit]")
    page.wait_for_selector("#confirm-box:not([hidden])")
    page.fill("#code", "123456")  # moto's Cognito takes any code; on AWS it comes by email
    page.click("#confirm")
    page.wait_for_selector(f"text=Signed in: {name}", timeout=WAIT_MS)


def test_two_people_play_each_other_and_see_each_move_arrive(
    stack: RunningStack, browser: Browser
) -> None:
    alice_context = browser.new_context(viewport={"width": 1000, "height": 900})
    bob_context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    alice, bob = alice_context.new_page(), bob_context.new_page()
    errors: list[str] = []
    for page in (alice, bob):
        page.on("pageerror", lambda error: errors.append(str(error)))
    alice.goto(stack.url + "/#/account")
    alice.wait_for_selector("#sign-up")
    _shot(alice, "account")
    _sign_up(alice, stack, "WebAlice")
    _sign_up(bob, stack, "WebBob")
    alice.select_option("#person-deadline", "3600")
    alice.click("#create-person-game")
    alice.wait_for_selector("text=Waiting for a player to join", timeout=WAIT_MS)
    alice.evaluate("window.stillThisPage = true")  # gone if the page were reloaded
    _shot(alice, "waiting")
    game_id = alice.url.rsplit("/", 1)[1]
    bob.goto(stack.url + "/#/lobby")
    bob.wait_for_selector(f"[data-game='{game_id}'] button", timeout=WAIT_MS)
    _shot(bob, "lobby")
    bob.tap(f"[data-game='{game_id}'] button")
    bob.wait_for_selector("#board .cell", timeout=WAIT_MS)
    bob.evaluate("window.stillThisPage = true")
    # Alice's page learns of the join from the push channel: her turn, without reloading.
    alice.wait_for_selector("#to-move:text('Your turn')", timeout=WAIT_MS)
    for turn in range(6):
        mover, watcher = (
            (alice, bob) if alice.locator("#to-move:text('Your turn')").count() else (bob, alice)
        )
        before = _move_count(watcher)
        cell = mover.locator("#board .cell.playable").nth(turn * 7 % 40)
        if mover is bob:
            cell.tap()
        else:
            cell.click()
        _wait_moved(watcher, before)  # the other screen shows the move: pushed, no reload
        if _status(watcher) != "active":
            break
    assert alice.evaluate("window.stillThisPage") is True
    assert bob.evaluate("window.stillThisPage") is True
    assert _move_count(alice) == _move_count(bob)
    assert alice.locator(".seat.s0 .name").inner_text().startswith("WebAlice")
    assert bob.locator(".seat.s1 .name").inner_text().startswith("WebBob")
    _shot(alice, "duel")
    _shot(bob, "duel-phone")
    assert errors == []
    alice_context.close()
    bob_context.close()
